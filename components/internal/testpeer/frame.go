package testpeer

import (
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// EncodeScene parses the scene YAML src (file name, for errors) and encodes
// it with the driver's default options; a failure fails t.
func EncodeScene(t testing.TB, name, src string) *driver.Frame {
	t.Helper()
	s, err := scene.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return EncodeBuilt(t, s)
}

// EncodeBuilt encodes scene s with the driver's default options; a failure
// fails t.
func EncodeBuilt(t testing.TB, s *scene.Scene) *driver.Frame {
	t.Helper()
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// GeoScene is a scene of w x h pixels at 4x MSAA for the geometry and
// rasterization tests: a ground plane that passes behind the camera (clipped
// at the near plane) and a closed sphere (half of it back-facing, culled).
func GeoScene(w, h int) string {
	return fmt.Sprintf(`
name: geo
resolution: [%d, %d]
samples: 4
clear: {color: [0, 0, 0, 1]}
camera: {position: [0, 0.3, 3], target: [0, 0, 0], near: 0.5, far: 100}
meshes:
  ground: {procedural: {kind: plane, size: [200, 200], segments: 4}}
  ball: {procedural: {kind: sphere, radius: 0.8, stacks: 10, slices: 16}}
materials:
  white: {shader: unlit, params: {color: [1, 1, 1, 1]}}
objects:
  - {mesh: ground, material: white, transform: {translate: [0, -1, 0]}}
  - {mesh: ball, material: white}
`, w, h)
}

// Builtin returns the built-in scene name with options opts; a failure fails
// t.
func Builtin(t testing.TB, name string, opts ...scene.Option) *scene.Scene {
	t.Helper()
	s, err := scene.Builtin(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Reference renders the encoded frame f with the reference renderer's
// default options; a failure fails t.
func Reference(t testing.TB, f *driver.Frame) *reference.Result {
	t.Helper()
	res, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, reference.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// WalkFrame decodes the command stream of f and applies each command to a
// state tracker over f's memory, in order, handing each action to visit; a
// failure fails t.
func WalkFrame(t testing.TB, f *driver.Frame, visit func(act state.Action)) {
	t.Helper()
	WalkStream(t, f.Memory, f.Stream, f.StreamBytes, visit)
}

// WalkStream is WalkFrame for the size bytes of command stream at stream in
// mem.
func WalkStream(t testing.TB, mem *command.Image, stream, size uint64, visit func(act state.Action)) {
	t.Helper()
	cmds, err := command.DecodeStream(mem, stream, size)
	if err != nil {
		t.Fatal(err)
	}
	tr := state.NewTracker(mem)
	for _, c := range cmds {
		act, err := tr.Apply(c)
		if err != nil {
			t.Fatal(err)
		}
		visit(act)
	}
}

// FrameDraw is draw d of a frame as the command processor dispatches it:
// numbered seq, rasterized in raster.DefaultTileSize tiles in row-major
// order.
func FrameDraw(seq int, d *state.Draw) *protocol.Draw {
	return &protocol.Draw{Seq: uint64(seq), State: d,
		Raster: pipeline.RasterConfig(d, pipeline.RasterOptions{TileSize: raster.DefaultTileSize})}
}

// FrameDraws returns the draws of f in API order (FrameDraw).
func FrameDraws(t testing.TB, f *driver.Frame) []*protocol.Draw {
	t.Helper()
	var draws []*protocol.Draw
	WalkFrame(t, f, func(act state.Action) {
		if act.Kind == state.ActDraw {
			draws = append(draws, FrameDraw(len(draws), act.Draw))
		}
	})
	return draws
}

// Frame is a scene encoded by the driver, with its draws (FrameDraws).
type Frame struct {
	*driver.Frame
	Draws []*protocol.Draw
}

// LoadFrame encodes the scene YAML src (EncodeScene) and lists its draws.
func LoadFrame(t testing.TB, src string) *Frame {
	t.Helper()
	return NewFrame(t, EncodeScene(t, "test.yaml", src))
}

// NewFrame lists the draws of the encoded frame f.
func NewFrame(t testing.TB, f *driver.Frame) *Frame {
	t.Helper()
	return &Frame{Frame: f, Draws: FrameDraws(t, f)}
}

// Shade cuts draw d of the frame into batches and shades them (ShadeDraw).
func (fr *Frame) Shade(t testing.TB, d *protocol.Draw) []*protocol.ShadedBatch {
	t.Helper()
	return ShadeDraw(t, fr.Memory, d)
}

// ShadeDraw cuts draw d into vertex.DefaultBatchVertices batches and shades
// them over mem, as the input assembler and the shader cores do.
func ShadeDraw(t testing.TB, mem command.Memory, d *protocol.Draw) []*protocol.ShadedBatch {
	t.Helper()
	bt, err := vertex.NewBatcher(vertex.DefaultBatchVertices)
	if err != nil {
		t.Fatal(err)
	}
	w := shader.NewWarp(shader.MaxLanes)
	var fetch vertex.Fetcher
	tex := pipeline.TextureUnits{Bindings: &d.State.VSTextures}
	var out []*protocol.ShadedBatch
	for first := 0; ; {
		b := &vertex.Batch{}
		if !bt.Next(mem, &d.State.Stream, first, b) {
			return out
		}
		attrs := make([]vertex.Attributes, len(b.Vertices))
		vout := make([]pipeline.VertexOut, len(b.Vertices))
		if _, err := pipeline.ShadeBatch(d.State, mem, b, w, &fetch, &tex, attrs, vout); err != nil {
			t.Fatal(err)
		}
		out = append(out, protocol.NewShadedBatch(d, uint64(len(out)), b, vout))
		first += len(b.Triangles)
	}
}

// Primitives runs the functional geometry stage over the batches of d in
// order, counting in st: what primitive assembly must send.
func Primitives(d *protocol.Draw, batches []*protocol.ShadedBatch, st *pipeline.GeometryStats) []pipeline.Primitive {
	g := pipeline.NewGeometry(d.State, &d.Raster)
	var prims []pipeline.Primitive
	for _, sb := range batches {
		for i, tri := range sb.Batch.Triangles {
			v := [3]*pipeline.VertexOut{&sb.Outputs[tri[0]], &sb.Outputs[tri[1]], &sb.Outputs[tri[2]]}
			prims = g.Triangle(sb.Batch.FirstTriangle+i, v, prims, st)
		}
	}
	return prims
}

// TestDraw is a w x h single-target draw seq with cull mode cull, one sample
// per pixel, pass-through shaders and 8x8 raster tiles.
func TestDraw(seq uint64, w, h int, cull geom.CullMode) *protocol.Draw {
	vp := geom.Viewport{Width: float32(w), Height: float32(h), MaxZ: 1}
	pat, err := raster.PatternFor(1)
	if err != nil {
		panic(err)
	}
	sd := &state.Draw{Viewport: vp, GuardBand: geom.NewGuardBand(vp, 0), Bounds: raster.Rect{X1: w, Y1: h},
		Cull: cull, Samples: pat, VS: &shader.Program{}, PS: &shader.Program{}}
	return &protocol.Draw{Seq: seq, State: sd, Raster: pipeline.RasterConfig(sd, pipeline.RasterOptions{TileSize: 8})}
}

// ClipPos returns the clip-space position of screen point (x, y) of draw d at
// depth z (w = 1).
func ClipPos(d *protocol.Draw, x, y, z float32) geom.Vec4 {
	vp := d.State.Viewport
	return geom.Vec4{2*x/vp.Width - 1, 1 - 2*y/vp.Height, z, 1}
}

// TickLog is an engine hook that records the cycles (at Freq) at which the
// component Comp ticked (timing.Ticked), once per cycle.
type TickLog struct {
	Comp   sim.Handler
	Cycles []uint64
}

// Func implements sim.Hook.
func (h *TickLog) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosBeforeEvent {
		return
	}
	ev, ok := ctx.Item.(sim.Event)
	if !ok {
		return
	}
	if c, ok := timing.Ticked(ev); ok && c == h.Comp {
		cy := Freq.Cycle(ev.Time())
		if n := len(h.Cycles); n == 0 || h.Cycles[n-1] != cy {
			h.Cycles = append(h.Cycles, cy)
		}
	}
}
