package rasterizer

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

// primitives runs the functional geometry stage over the batches of d in order.
func primitives(d *protocol.Draw, batches []*protocol.ShadedBatch) []pipeline.Primitive {
	g := pipeline.NewGeometry(d.State, &d.Raster)
	var st pipeline.GeometryStats
	var prims []pipeline.Primitive
	for _, sb := range batches {
		for i, tri := range sb.Batch.Triangles {
			v := [3]*pipeline.VertexOut{&sb.Outputs[tri[0]], &sb.Outputs[tri[1]], &sb.Outputs[tri[2]]}
			prims = g.Triangle(sb.Batch.FirstTriangle+i, v, prims, &st)
		}
	}
	return prims
}

// primOf sets up one triangle of draw d given by screen vertices (x, y, z).
func primOf(t testing.TB, d *protocol.Draw, tri [3][3]float32) *pipeline.Primitive {
	t.Helper()
	var v [3]pipeline.VertexOut
	vp := d.State.Viewport
	for k, p := range tri {
		v[k][0] = geom.Vec4{2*p[0]/vp.Width - 1, 1 - 2*p[1]/vp.Height, p[2], 1}
	}
	var st pipeline.GeometryStats
	prims := pipeline.NewGeometry(d.State, &d.Raster).Triangle(0, [3]*pipeline.VertexOut{&v[0], &v[1], &v[2]}, nil, &st)
	if len(prims) != 1 {
		t.Fatalf("triangle %v gave %d primitives (%+v)", tri, len(prims), st)
	}
	return &prims[0]
}

// rig is a rasterizer fed by a fake primitive assembly, sending to fake depth
// units, on one direct connection.
type rig struct {
	e      sim.Engine
	r      *Comp
	pa     *fake
	depths []*fake
}

func newRig(t testing.TB, e sim.Engine, b Builder, name string, partitions int) *rig {
	t.Helper()
	g := &rig{e: e}
	env, cfg := b.Env(), b.Config()
	env.Engine, env.Freq = e, testpeer.Freq
	cfg.NumPartitions = partitions
	g.r = b.WithEnv(env).WithConfig(cfg).Build(name)
	g.pa = newFake("PA", e, 4)
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(g.r.FromPrimitiveAssembly, 4)
	conn.PlugIn(g.r.ToDepthUnits, 4)
	conn.PlugIn(g.pa.Port, 4)
	for p := 0; p < partitions; p++ {
		f := newFake("Depth["+strconv.Itoa(p)+"]", e, 1024)
		conn.PlugIn(f.Port, 4)
		g.depths = append(g.depths, f)
		g.r.DepthUnits = append(g.r.DepthUnits, f.Port)
	}
	return g
}

func (g *rig) run(t testing.TB) {
	t.Helper()
	g.pa.TickNow(g.e.CurrentTime())
	if err := g.e.Run(); err != nil {
		t.Fatal(err)
	}
	g.r.Finish(g.e.CurrentTime())
	for _, b := range g.r.Buffers() {
		if b.Len != 0 {
			t.Errorf("%s holds %d entries after the run", b.Name, b.Len)
		}
	}
}
