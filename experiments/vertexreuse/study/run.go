package study

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/tracing"
)

// Mesh is a real mesh of the shared scenes folder (../shared/scenes), framed
// by scene.FromMeshFile.
type Mesh struct {
	Name  string
	Path  string // inside the shared scenes folder
	Front scene.Front
}

// Meshes are the real meshes of the study.
var Meshes = []Mesh{
	{"bunny", "bunny/stanford-bunny.obj", scene.FrontPlusZ},
	{"teapot", "teapot/teapot.obj", scene.FrontPlusZ},
	{"suzanne", "suzanne/suzanne.obj", scene.FrontPlusZ},
	{"spot", "spot/spot_triangulated.obj", scene.FrontMinusZ},
	{"damaged_helmet", "damaged_helmet/DamagedHelmet.gltf", scene.FrontPlusZ},
	{"sibenik", "sibenik/sibenik.glb", scene.FrontPlusZ},
	{"house", "house_scene/house.glb", scene.FrontPlusZ},
}

// Timed is what a timed frame measured, summed over the units.
type Timed struct {
	Cycles         float64
	IAVertices     float64 // the input assembler's vertices: vertex shader invocations
	IABatches      float64
	VSInvocations  float64 // the shader cores' vs_invocations
	VSInstructions float64 // warp instructions of vertex warps
	PSInstructions float64
	ShaderBusy     float64 // the cores' cycles_busy
}

// VSShare is the vertex warps' share of the warp instructions the cores
// issued: the share of the SIMDs' busy time spent on vertex shading (every
// warp instruction holds the SIMD alike, special functions aside).
func (t Timed) VSShare() float64 {
	return ratio(t.VSInstructions, t.VSInstructions+t.PSInstructions)
}

// Order is one order of a scene's buffers: the reuse of its draws, its
// timed frame, and the pixels of that frame whose colour differs from the
// original order's (0: the same image).
type Order struct {
	Reuse        Reuse
	Timed        Timed
	PixelsDiffer int
}

// Result is one scene in each of OrderNames.
type Result struct {
	Scene string
	// Reordered is the triangles drawn from index buffers the driver
	// reordered (driver.Reorderable meshes); the rest keep their order.
	Reordered int
	Orders    []Order // in OrderNames' order
}

// OrderNames are the buffer orders of the study: the meshes' own; Tipsify's
// index order (driver.Options.ReorderIndices); and that order with the
// vertices renumbered in first-use order (ReorderVertices).
var OrderNames = []string{"original", "tipsify", "tipsify+fetch"}

// point is one scene to measure: a built-in, or a real mesh.
type point struct {
	name string
	file string // a mesh file, "" for a built-in
	mesh Mesh
}

// load loads the point's scene at w x h within the memory budget b.
func (p point) load(w, h int, in *expt.Inputs, b *inputs.Budget) (*scene.Scene, error) {
	if p.file == "" {
		return in.Load(p.name, w, h, 0, b)
	}
	return in.Load(p.file, w, h, 0, b, scene.WithFront(p.mesh.Front))
}

// TriangleBuiltins lists the built-in scenes the study measures: those whose
// every object draws a mesh as a triangle list. The others are left out: a
// DrawAuto draw (particles) has no index stream until its stream-out pass
// has run, and a triangle with adjacency (silhouette) sends six vertices to
// the shader, not the three that vertex reuse per triangle (ACMR) and the
// caches of the document count. A geometry shader over triangles (grass) is
// measured: its vertex stage is the vertex shader of any other draw.
func TriangleBuiltins() []string {
	var names []string
	for _, n := range scene.BuiltinNames() {
		s, err := scene.Builtin(n, scene.WithResolution(16, 16))
		if err != nil || trianglesOnly(s) {
			names = append(names, n) // a scene that fails to load says so when its point runs
		}
	}
	return names
}

// trianglesOnly reports whether every object of s draws a mesh as a triangle
// list.
func trianglesOnly(s *scene.Scene) bool {
	for _, o := range s.Objects {
		if o.DrawAuto != 0 || o.Mesh < 0 || o.Topology != scene.TopologyTriangles {
			return false
		}
	}
	return true
}

// points lists the study's scenes: the built-ins, then the real meshes
// found under dir.
func points(builtins []string, dir string, meshes []Mesh) []point {
	var ps []point
	for _, b := range builtins {
		ps = append(ps, point{name: b})
	}
	for _, m := range meshes {
		ps = append(ps, point{name: m.Name, file: filepath.Join(dir, m.Path), mesh: m})
	}
	return ps
}

// runPoint measures one scene: both orders' reuse and timed frames on cfg.
func runPoint(p point, o Options, cfg *configs.Config, sess *tracing.Session) (Result, error) {
	r := Result{Scene: p.name}
	// As render does: the machine, the scene's load and its frame in one
	// budget, so that a frame too large is refused before it is drawn (its
	// orders' frames run one after the other).
	b := o.Inputs.Budget()
	if err := cfg.ReserveMemory(b); err != nil {
		return r, err
	}
	s, err := p.load(o.Width, o.Height, o.Inputs, b)
	if err != nil {
		return r, err
	}
	if err := expt.ReserveTimedFrame(b, cfg, s); err != nil {
		return r, err
	}
	if !trianglesOnly(s) {
		return r, fmt.Errorf("%s: the study counts meshes drawn as triangle lists; this scene has a DrawAuto draw or another topology", p.name)
	}
	ok := driver.Reorderable(s)
	for _, obj := range s.Objects {
		if ok[obj.Mesh] {
			r.Reordered += s.Meshes[obj.Mesh].TriangleCount()
		}
	}
	var first []byte
	for i, name := range OrderNames {
		do := cfg.DriverOptions()
		if i > 0 {
			do.ReorderIndices, do.ReorderVertices = o.ReorderCache, i == 2
		}
		ord, img, err := runOrder(s, do, cfg, sess, expt.RunName(p.name, name))
		if err != nil {
			return r, fmt.Errorf("%s, %s order: %w", p.name, name, err)
		}
		if i == 0 {
			first = img
		}
		ord.PixelsDiffer = pixelsDiffer(first, img)
		r.Orders = append(r.Orders, ord)
	}
	return r, nil
}

// runOrder encodes s with driver options do, counts its draws' reuse and
// runs its timed frame.
func runOrder(s *scene.Scene, do driver.Options, cfg *configs.Config, sess *tracing.Session, run string) (Order, []byte, error) {
	var ord Order
	f, err := driver.Encode(s, do)
	if err != nil {
		return ord, nil, err
	}
	if ord.Reuse, err = measure(f, cfg.InputAssembler.BatchVertices); err != nil {
		return ord, nil, err
	}
	p, err := configs.Build(cfg)
	if err != nil {
		return ord, nil, err
	}
	var in *tracing.Instruments
	if sess != nil {
		if in, err = sess.Attach(p, f.Draws, run); err != nil {
			return ord, nil, err
		}
	}
	res, err := expt.RunFrame(p, f, in)
	if err != nil {
		return ord, nil, err
	}
	ord.Timed = timedOf(res.Stats)
	ord.Timed.Cycles = float64(res.Cycles)
	// The batch scheme is the IA's own rule: the counts must agree.
	if int(ord.Timed.IAVertices) != ord.Reuse.Batch || int(ord.Timed.IABatches) != ord.Reuse.Batches {
		return ord, nil, fmt.Errorf("the input assembler shaded %.0f vertices in %.0f batches, the batch scheme counts %d in %d",
			ord.Timed.IAVertices, ord.Timed.IABatches, ord.Reuse.Batch, ord.Reuse.Batches)
	}
	return ord, res.Image.Pix, nil
}

// timedOf extracts the counters of a timed frame.
func timedOf(st map[string]float64) Timed {
	return Timed{IAVertices: st["GPU.InputAssembler.vertices"], IABatches: st["GPU.InputAssembler.batches"],
		VSInvocations: sumCores(st, "vs_invocations"), VSInstructions: sumCores(st, "vs_instructions"),
		PSInstructions: sumCores(st, "ps_instructions"), ShaderBusy: sumCores(st, "cycles_busy")}
}

// sumCores sums counter over the shader cores, in a fixed order.
func sumCores(st map[string]float64, counter string) float64 {
	var keys []string
	for k := range st {
		if strings.HasPrefix(k, "GPU.ShaderCore[") && strings.HasSuffix(k, "]."+counter) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	t := 0.0
	for _, k := range keys {
		t += st[k]
	}
	return t
}

// pixelsDiffer counts the RGBA pixels that differ between a and b.
func pixelsDiffer(a, b []byte) int {
	if len(a) != len(b) {
		return max(len(a), len(b)) / 4
	}
	n := 0
	for i := 0; i+4 <= len(a); i += 4 {
		if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] || a[i+3] != b[i+3] {
			n++
		}
	}
	return n
}
