package multipass

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// The execution harness runs a program on one warp of 16 lanes covering a
// 4x4-pixel screen (quad q at pixels (2*(q%2), 2*(q/2))), with smooth
// per-pixel inputs, seeded constants and a fake texture sampler, and runs a
// partition's passes the same way: each pass's output is stored per pixel
// into its intermediate texture, and a restore reads the texel under the
// pixel's screen position.
const (
	screenW, screenH = 4, 4
	lanes            = 16
)

func laneXY(l int) (x, y int) {
	q, i := l/4, l%4
	return 2*(q%2) + i%2, 2*(q/2) + i/2
}

type harness struct {
	seed   int64
	inputs map[string][3]geom.Vec4 // semantic -> base, d/dx, d/dy
	blocks map[string][]geom.Vec4  // constant block or parameter name -> values
	helper uint64                  // helper lanes: their intermediates are not stored
}

func newHarness(seed int64) *harness {
	return &harness{seed: seed, inputs: map[string][3]geom.Vec4{}, blocks: map[string][]geom.Vec4{}}
}

func (h *harness) rng(key string) *rand.Rand {
	f := fnv.New64a()
	fmt.Fprintf(f, "%d/%s", h.seed, key)
	return rand.New(rand.NewSource(int64(f.Sum64())))
}

func randVec(r *rand.Rand, scale float32) geom.Vec4 {
	var v geom.Vec4
	for i := range v {
		v[i] = (r.Float32()*2 - 1) * scale
	}
	return v
}

func (h *harness) input(sem string) [3]geom.Vec4 {
	if v, ok := h.inputs[sem]; ok {
		return v
	}
	r := h.rng("in/" + sem)
	v := [3]geom.Vec4{randVec(r, 2), randVec(r, 0.25), randVec(r, 0.25)}
	h.inputs[sem] = v
	return v
}

func (h *harness) block(name string, n int) []geom.Vec4 {
	if v, ok := h.blocks[name]; ok && len(v) >= n {
		return v
	}
	r := h.rng("c/" + name)
	v := make([]geom.Vec4, n)
	for i := range v {
		v[i] = randVec(r, 1)
	}
	h.blocks[name] = v
	return v
}

// constants fills p's constant buffer: .def values, every named block and
// parameter from the seed (by name, so the passes see the same values), and
// inv_target_size.
func (h *harness) constants(p *shader.Program) []geom.Vec4 {
	c := p.InitConstants(nil)
	for _, b := range p.Consts {
		if b.Name == InvTargetSizeName {
			c[b.Reg] = geom.Vec4{1.0 / screenW, 1.0 / screenH, 0, 0}
			continue
		}
		copy(c[b.Reg:b.Reg+b.Count], h.block(b.Name, b.Count))
	}
	for _, pr := range p.Params {
		c[pr.Reg] = h.block("param/"+pr.Name, 1)[0]
	}
	return c
}

// sampler is the fake texture unit: intermediates by texel, any other
// sampler a hash of its name, coordinate, derivatives and LOD (so a changed
// derivative changes the result).
type sampler struct {
	names []string
	inter map[int]*[lanes]geom.Vec4
}

func (s *sampler) SampleTexture(r *shader.TexRequest) geom.Vec4 {
	name := s.names[r.Unit]
	if k, ok := strings.CutPrefix(name, IntermediatePrefix); ok {
		n, _ := strconv.Atoi(k)
		x := int(math.Floor(float64(r.Coord[0] * screenW)))
		y := int(math.Floor(float64(r.Coord[1] * screenH)))
		x, y = min(max(x, 0), screenW-1), min(max(y, 0), screenH-1)
		t := s.inter[n]
		if t == nil {
			return geom.Vec4{}
		}
		for l := 0; l < lanes; l++ {
			if lx, ly := laneXY(l); lx == x && ly == y {
				return t[l]
			}
		}
	}
	f := fnv.New64a()
	fmt.Fprintf(f, "%s/%d/%x/%x/%x/%x/%x/%x/%x", name, r.Mode, math.Float32bits(r.Coord[0]), math.Float32bits(r.Coord[1]),
		math.Float32bits(r.DDX[0]), math.Float32bits(r.DDX[1]), math.Float32bits(r.DDY[0]), math.Float32bits(r.DDY[1]),
		math.Float32bits(r.LODOrBias))
	v := f.Sum64()
	var out geom.Vec4
	for i := range out {
		out[i] = float32(v>>(16*i)&0xffff) / 65536
	}
	return out
}

// run executes p on the warp and returns o0 of every lane.
func (h *harness) run(t testing.TB, p *shader.Program, inter map[int]*[lanes]geom.Vec4) [lanes]geom.Vec4 {
	t.Helper()
	w := shader.NewWarp(lanes)
	w.Reset(p, lanes, h.constants(p))
	if err := w.Err(); err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	w.Helper = h.helper
	for _, d := range p.Inputs {
		for l := 0; l < lanes; l++ {
			x, y := laneXY(l)
			var v geom.Vec4
			switch d.Semantic {
			case shader.SemanticPosition:
				v = geom.Vec4{float32(x) + 0.5, float32(y) + 0.5, 0.5, 1}
			case shader.SemanticFrontFace:
				v = geom.Vec4{1, 1, 1, 1}
			default:
				in := h.input(d.Semantic)
				for c := range v {
					v[c] = in[0][c] + in[1][c]*float32(x) + in[2][c]*float32(y)
				}
			}
			w.SetInput(l, d.Reg, v)
		}
	}
	s := &sampler{inter: inter, names: make([]string, shader.MaxSamplers)}
	for _, d := range p.Samplers {
		s.names[d.Unit] = d.Name
	}
	w.Run(s)
	if err := w.Err(); err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	var out [lanes]geom.Vec4
	for l := range out {
		out[l] = w.Output(l, 0)
	}
	return out
}

// runPasses executes the partition's passes in order and returns the last
// pass's output. Helper lanes' intermediates are stored as (7, -7, 7, -7):
// what a neighbouring triangle may have left there.
func (h *harness) runPasses(t testing.TB, progs []*shader.Program, part *Partition) [lanes]geom.Vec4 {
	t.Helper()
	inter := map[int]*[lanes]geom.Vec4{}
	var out [lanes]geom.Vec4
	for k, p := range progs {
		out = h.run(t, p, inter)
		if o := part.Passes[k].Output; o >= 0 {
			v := out
			for l := 0; l < lanes; l++ {
				if h.helper&(1<<l) != 0 {
					v[l] = geom.Vec4{7, -7, 7, -7}
				}
			}
			inter[o] = &v
		}
	}
	return out
}

func sameBits(a, b geom.Vec4) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// checkPartition verifies a partition: every pass fits, the pass programs
// validate and use what VALID counted, and together they compute the single
// pass's output bit for bit in every stored lane.
func checkPartition(t *testing.T, name string, sh *Shader, part *Partition, lim Limits, h *harness) {
	t.Helper()
	progs, err := sh.Programs(part)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for k, p := range progs {
		ps := &part.Passes[k]
		if why := lim.Exceeds(ps.Usage); why != "" {
			t.Errorf("%s: pass %d exceeds the limits: %s", name, k+1, why)
		}
		r := p.Resources()
		u := ps.Usage
		if r.Instructions != u.Ops || r.TexFetches != u.TexFetches || r.Samplers != u.TexUnits ||
			r.Temps != u.Registers || r.Inputs != u.Inputs || r.TexDependencyDepth != u.TexDepth {
			t.Errorf("%s: pass %d: program resources %+v differ from VALID's %+v", name, k+1, r, u)
		}
	}
	want := h.run(t, sh.Source, nil)
	got := h.runPasses(t, progs, part)
	for l := 0; l < lanes; l++ {
		if h.helper&(1<<l) != 0 {
			continue
		}
		if !sameBits(got[l], want[l]) {
			t.Errorf("%s: lane %d: multipass %v, single pass %v", name, l, got[l], want[l])
			return
		}
	}
}
