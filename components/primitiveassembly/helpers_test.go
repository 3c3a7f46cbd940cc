package primitiveassembly

import (
	"strconv"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// fake is a scripted peer; scripted and received are its script entries and
// records.
type (
	fake     = testpeer.Peer
	scripted = testpeer.Scripted
	received = testpeer.Received
)

func newFake(name string, e sim.Engine, bufCap int) *fake { return testpeer.NewPeer(name, e, bufCap) }

// rig is primitive assembly with a fake shader core, a fake input assembler and
// fake rasterizers on direct connections.
type rig struct {
	e     *sim.SerialEngine
	pa    *Comp
	core  *fake
	ia    *fake
	rasts []*fake
}

func newRig(t *testing.T, b Builder, rasterizers int) *rig {
	t.Helper()
	e := sim.NewSerialEngine()
	r := &rig{e: e}
	env, cfg := b.Env(), b.Config()
	env.Engine, env.Freq = e, testpeer.Freq
	cfg.NumRasterizers = rasterizers
	r.pa = b.WithEnv(env).WithConfig(cfg).Build("GPU.PrimitiveAssembly")
	r.core = newFake("Core", e, 4)
	r.ia = newFake("IA", e, 64)
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(r.pa.FromShaderCores, 4)
	conn.PlugIn(r.pa.InputAssembler, 4)
	conn.PlugIn(r.pa.ToRasterizers, 4)
	conn.PlugIn(r.core.Port, 4)
	conn.PlugIn(r.ia.Port, 4)
	r.pa.InputAssemblerPort = r.ia.Port
	for i := 0; i < rasterizers; i++ {
		f := newFake("Rast["+strconv.Itoa(i)+"]", e, 1024)
		conn.PlugIn(f.Port, 4)
		r.rasts = append(r.rasts, f)
		r.pa.Rasterizers = append(r.pa.Rasterizers, f.Port)
	}
	return r
}

func (r *rig) run(t *testing.T) {
	t.Helper()
	r.core.TickNow(r.e.CurrentTime())
	r.ia.TickNow(r.e.CurrentTime())
	if err := r.e.Run(); err != nil {
		t.Fatal(err)
	}
	r.pa.Finish(r.e.CurrentTime())
}

// checkDrained fails when primitive assembly still holds work.
func (r *rig) checkDrained(t *testing.T) {
	t.Helper()
	for _, b := range r.pa.Buffers() {
		if b.Len != 0 {
			t.Errorf("buffer %s holds %d entries after the run", b.Name, b.Len)
		}
	}
	if len(r.pa.draws) != 0 {
		t.Errorf("%d draws left", len(r.pa.draws))
	}
}

// testDraw is a w x h single-target draw with no culling and a pass-through
// shader interface.
func testDraw(seq uint64, w, h int, cull geom.CullMode) *protocol.Draw {
	vp := geom.Viewport{Width: float32(w), Height: float32(h), MaxZ: 1}
	pat, err := raster.PatternFor(1)
	if err != nil {
		panic(err)
	}
	sd := &state.Draw{Viewport: vp, GuardBand: geom.NewGuardBand(vp, 0), Bounds: raster.Rect{X1: w, Y1: h},
		Cull: cull, Samples: pat, VS: &shader.Program{}, PS: &shader.Program{}}
	return &protocol.Draw{Seq: seq, State: sd, Raster: pipeline.RasterConfig(sd, pipeline.RasterOptions{TileSize: 8})}
}

// clipPos returns the clip-space position of screen point (x, y) of draw d at
// depth z (w = 1).
func clipPos(d *protocol.Draw, x, y, z float32) geom.Vec4 {
	vp := d.State.Viewport
	return geom.Vec4{2*x/vp.Width - 1, 1 - 2*y/vp.Height, z, 1}
}

// batchOf builds a shaded batch of independent triangles given by their screen
// vertices (x, y, z each), the first being API triangle first.
func batchOf(d *protocol.Draw, seq uint64, first int, tris ...[3][3]float32) *protocol.ShadedBatch {
	b := &vertex.Batch{FirstTriangle: first}
	var out []pipeline.VertexOut
	for _, tri := range tris {
		var loc [3]uint8
		for k, v := range tri {
			loc[k] = uint8(len(out))
			var o pipeline.VertexOut
			o[0] = clipPos(d, v[0], v[1], v[2])
			o[1] = geom.Vec4{v[0], v[1], v[2], 1}
			out = append(out, o)
			b.Vertices = append(b.Vertices, uint32(len(b.Vertices)))
		}
		b.Triangles = append(b.Triangles, loc)
	}
	return protocol.NewShadedBatch(d, seq, b, out)
}

// frame is a scene encoded by the driver, with its draws.
type frame struct {
	f     *driver.Frame
	draws []*protocol.Draw
}

func loadFrame(t testing.TB, yaml string) *frame {
	t.Helper()
	s, err := scene.Parse("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return framesOf(t, f)
}

// framesOf decodes the draws of an encoded frame.
func framesOf(t testing.TB, f *driver.Frame) *frame {
	t.Helper()
	buf := make([]byte, f.StreamBytes)
	f.Memory.ReadAt(buf, f.Stream)
	cmds, err := command.DecodeAll(buf, f.Stream)
	if err != nil {
		t.Fatal(err)
	}
	fr := &frame{f: f}
	tr := state.NewTracker(f.Memory)
	for _, c := range cmds {
		act, err := tr.Apply(c)
		if err != nil {
			t.Fatal(err)
		}
		if act.Kind == state.ActDraw {
			d := act.Draw
			fr.draws = append(fr.draws, &protocol.Draw{Seq: uint64(len(fr.draws)), State: d,
				Raster: pipeline.RasterConfig(d, pipeline.RasterOptions{TileSize: raster.DefaultTileSize})})
		}
	}
	return fr
}

// shade cuts draw d into 32-vertex batches and shades them (what the input
// assembler and the shader cores produce).
func (fr *frame) shade(t testing.TB, d *protocol.Draw) []*protocol.ShadedBatch {
	t.Helper()
	bt, err := vertex.NewBatcher(vertex.DefaultBatchVertices)
	if err != nil {
		t.Fatal(err)
	}
	w := shader.NewWarp(shader.MaxLanes)
	var fetch vertex.Fetcher
	tex := pipeline.TextureUnits{Bindings: &d.State.VSTextures}
	var out []*protocol.ShadedBatch
	first := 0
	for {
		b := &vertex.Batch{}
		if !bt.Next(fr.f.Memory, &d.State.Stream, first, b) {
			break
		}
		attrs := make([]vertex.Attributes, len(b.Vertices))
		vout := make([]pipeline.VertexOut, len(b.Vertices))
		if _, err := pipeline.ShadeBatch(d.State, fr.f.Memory, b, w, &fetch, &tex, attrs, vout); err != nil {
			t.Fatal(err)
		}
		out = append(out, protocol.NewShadedBatch(d, uint64(len(out)), b, vout))
		first += len(b.Triangles)
	}
	return out
}

// expected runs the functional geometry stage over the batches of d in order.
func expected(d *protocol.Draw, batches []*protocol.ShadedBatch, st *pipeline.GeometryStats) []pipeline.Primitive {
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

// tickLog records the cycles at which a component ticked.
type tickLog struct {
	comp   sim.Handler
	cycles []uint64
}

func (h *tickLog) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosBeforeEvent {
		return
	}
	if ev, ok := ctx.Item.(sim.TickEvent); ok && ev.Handler() == h.comp {
		h.cycles = append(h.cycles, (1 * sim.GHz).Cycle(ev.Time()))
	}
}
