package reorderbuffer_test

import (
	"bytes"
	"fmt"
	"image"
	"math/bits"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/quadpacker"
	"github.com/gfxsim/gfxsim/components/reorderbuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// This test runs the real quad packer and reorder buffer between functional fakes
// of the other units (depth units that send the early-Z survivors of each draw,
// shader cores that shade warps with out-of-order latencies, ROPs that run the
// output merger) and checks that the frame equals the reference renderer's.

// depthUnit sends a draw's TileQuads and its DrawEnd, as fast as the packer takes
// them.
type depthUnit struct {
	*sim.TickingComponent
	Out   sim.Port
	Dst   sim.Port
	queue []sim.Msg
}

func (u *depthUnit) Tick(now sim.VTimeInSec) bool {
	progress := false
	for len(u.queue) > 0 {
		m := u.queue[0]
		m.Meta().Src, m.Meta().Dst, m.Meta().SendTime = u.Out, u.Dst, now
		if u.Out.Send(m) != nil {
			return progress
		}
		u.queue = u.queue[1:]
		progress = true
	}
	return progress
}

// shaderCore shades each warp with the functional interpreter when it arrives and
// returns it after a latency that depends on the warp, so warps finish out of
// order.
type shaderCore struct {
	*sim.TickingComponent
	In, Out sim.Port
	ROB     sim.Port
	index   int
	warp    *shader.Warp
	pending testpeer.Delayed
	err     error

	helpers, invocations int
}

func (c *shaderCore) Tick(now sim.VTimeInSec) bool {
	cycle := c.Freq.Cycle(now)
	progress := c.pending.Send(now, cycle, c.Out, c.ROB)
	for msg := c.In.Peek(); msg != nil; msg = c.In.Peek() {
		c.In.Retrieve(now)
		w := msg.(*protocol.PixelWarp)
		d := w.Draw.State
		c.warp.Reset(d.PS, 4*len(w.Quads), d.PSConstants)
		for k, q := range w.Quads {
			pipeline.LoadQuad(d, &w.Draw.Raster, q.Prim, q.Quad, q.Live, c.warp, 4*k)
			c.helpers += bits.OnesCount8(q.Live.HelperPixels())
			c.invocations += 4
		}
		c.warp.Run(&pipeline.TextureUnits{Bindings: &d.PSTextures})
		if err := c.warp.Err(); err != nil && c.err == nil {
			c.err = err
		}
		out := make([]pipeline.QuadOutput, len(w.Quads))
		for k := range out {
			out[k] = pipeline.ReadQuad(d, c.warp, 4*k)
		}
		lat := 1 + (w.ID*37+uint64(c.index)*11)%29
		c.pending.Add(cycle+lat, protocol.NewShadedWarp(w, out))
		progress = true
	}
	return progress || c.pending.Len() > 0
}

// rop runs the output merger on the quads it receives, in arrival order, and
// checks that they belong to its partition.
type rop struct {
	*sim.TickingComponent
	In         sim.Port
	index, n   int
	tileSize   int
	ws         pipeline.WriteStats
	ends       []uint64
	wrongTiles int
}

func (r *rop) Tick(now sim.VTimeInSec) bool {
	progress := false
	for msg := r.In.Peek(); msg != nil; msg = r.In.Peek() {
		r.In.Retrieve(now)
		switch m := msg.(type) {
		case *protocol.ShadedQuads:
			d := m.Draw
			for i := range m.Quads {
				q := &m.Quads[i]
				if protocol.TileOwner(int(q.Quad.X)/r.tileSize, int(q.Quad.Y)/r.tileSize, 1, r.n) != r.index {
					r.wrongTiles++
				}
				pipeline.WriteQuad(d.State, &d.Raster, q.Prim, q.Quad, q.Live, &q.Out, &r.ws)
			}
		case *protocol.DrawEnd:
			r.ends = append(r.ends, m.Draw.Seq)
		}
		progress = true
	}
	return progress
}

// machine is the packer, the reorder buffer and the fakes around them.
type machine struct {
	engine sim.Engine
	halt   *timing.Halt
	packer *quadpacker.Comp
	rob    *reorderbuffer.Comp
	dus    []*depthUnit
	cores  []*shaderCore
	rops   []*rop
}

func newMachine(parallel bool, partitions, cores, entries int) *machine {
	var e sim.Engine = sim.NewSerialEngine()
	if parallel {
		e = sim.NewParallelEngine()
	}
	m := &machine{engine: e, halt: &timing.Halt{}}
	f := 1 * sim.GHz
	env := timing.Env{Engine: e, Freq: testpeer.Freq, Halt: m.halt}
	m.packer = quadpacker.MakeBuilder().WithEnv(env).Build("GPU.QuadPacker")
	cfg := reorderbuffer.DefaultConfig()
	cfg.Entries, cfg.NumPartitions = entries, partitions
	m.rob = reorderbuffer.MakeBuilder().WithEnv(env).WithConfig(cfg).Build("GPU.ReorderBuffer")
	m.packer.ReorderBufferPort = m.rob.FromQuadPacker

	toPacker := sim.NewDirectConnection("DepthUnitsToPacker", e, f)
	toROB := sim.NewDirectConnection("PackerToROB", e, f)
	toCores := sim.NewDirectConnection("ROBToCores", e, f)
	fromCores := sim.NewDirectConnection("CoresToROB", e, f)
	toROPs := sim.NewDirectConnection("ROBToROPs", e, f)
	toPacker.PlugIn(m.packer.FromDepthUnits, 1)
	toROB.PlugIn(m.packer.ToReorderBuffer, 1)
	toROB.PlugIn(m.rob.FromQuadPacker, 1)
	toCores.PlugIn(m.rob.ToShaderCores, 1)
	fromCores.PlugIn(m.rob.FromShaderCores, 1)
	toROPs.PlugIn(m.rob.ToROPs, 2)
	for p := 0; p < partitions; p++ {
		u := &depthUnit{Dst: m.packer.FromDepthUnits}
		u.TickingComponent = sim.NewTickingComponent(fmt.Sprintf("DepthUnit[%d]", p), e, f, u)
		u.Out = sim.NewLimitNumMsgPort(u, 1, u.Name()+".ToQuadPacker")
		toPacker.PlugIn(u.Out, 2)
		m.dus = append(m.dus, u)

		r := &rop{index: p, n: partitions, tileSize: raster.DefaultTileSize}
		r.TickingComponent = sim.NewTickingComponent(fmt.Sprintf("ROP[%d]", p), e, f, r)
		r.In = sim.NewLimitNumMsgPort(r, 2, r.Name()+".FromReorderBuffer")
		toROPs.PlugIn(r.In, 1)
		m.rops = append(m.rops, r)
		m.rob.ROPs = append(m.rob.ROPs, r.In)
	}
	for i := 0; i < cores; i++ {
		c := &shaderCore{index: i, ROB: m.rob.FromShaderCores, warp: shader.NewWarp(shader.MaxLanes)}
		c.TickingComponent = sim.NewTickingComponent(fmt.Sprintf("ShaderCore[%d]", i), e, f, c)
		c.In = sim.NewLimitNumMsgPort(c, 2, c.Name()+".FromDispatch")
		c.Out = sim.NewLimitNumMsgPort(c, 1, c.Name()+".ToReorderBuffer")
		toCores.PlugIn(c.In, 1)
		fromCores.PlugIn(c.Out, 2)
		m.cores = append(m.cores, c)
		m.rob.ShaderCores = append(m.rob.ShaderCores, c.In)
	}
	return m
}

// counted are the reference counters this test reproduces.
type counted struct {
	Quads, EarlyZQuadsCulled, QuadsShaded, PixelWarps int
	PSInvocations, HelperPixels                       int
	DepthTestsPassed, DepthTestsFailed                int
	SamplesKilled, SamplesWritten, SamplesBlended     int
	QuadsDiscarded, QuadsLateZCulled, QuadsWritten    int
}

func fromReference(c *reference.Counters) counted {
	return counted{c.Quads, c.EarlyZQuadsCulled, c.QuadsShaded, c.PixelWarps, c.PSInvocations, c.HelperPixels,
		c.DepthTestsPassed, c.DepthTestsFailed, c.SamplesKilled, c.SamplesWritten, c.SamplesBlended,
		c.QuadsDiscarded, c.QuadsLateZCulled, c.QuadsWritten}
}

// frontEnd produces, for one draw, the TileQuads each partition's depth unit
// sends (early Z applied in API order) and counts what the reference counts
// before shading.
type frontEnd struct {
	mem        state.Memory
	partitions int
	batcher    *vertex.Batcher
	vwarp      *shader.Warp
	fetch      vertex.Fetcher
	cnt        *counted
}

func (fe *frontEnd) draw(seq uint64, d *state.Draw) ([][]sim.Msg, *protocol.Draw, error) {
	cfg := pipeline.RasterConfig(d, pipeline.RasterOptions{TileSize: raster.DefaultTileSize})
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	pd := &protocol.Draw{Seq: seq, State: d, Raster: cfg}
	out := make([][]sim.Msg, fe.partitions)
	geo := pipeline.NewGeometry(d, &pd.Raster)
	vsTex := pipeline.TextureUnits{Bindings: &d.VSTextures}
	var batch vertex.Batch
	vout := make([]pipeline.VertexOut, fe.batcher.MaxVertices)
	attrs := make([]vertex.Attributes, fe.batcher.MaxVertices)
	var prims []pipeline.Primitive
	var tiles []raster.TilePos
	var quads []raster.Quad
	var gs pipeline.GeometryStats
	for first := 0; fe.batcher.Next(fe.mem, &d.Stream, first, &batch); first += len(batch.Triangles) {
		if _, err := pipeline.ShadeBatch(d, fe.mem, &batch, fe.vwarp, &fe.fetch, &vsTex, attrs, vout); err != nil {
			return nil, nil, err
		}
		for i, tri := range batch.Triangles {
			prims = geo.Triangle(first+i, [3]*pipeline.VertexOut{&vout[tri[0]], &vout[tri[1]], &vout[tri[2]]}, prims[:0], &gs)
			for pi := range prims {
				prim := new(pipeline.Primitive)
				*prim = prims[pi]
				tiles = prim.Triangle.Tiles(&pd.Raster, tiles[:0])
				for _, tp := range tiles {
					quads = prim.Triangle.TileQuads(&pd.Raster, tp.X, tp.Y, quads[:0])
					var live []protocol.QuadLive
					for _, q := range quads {
						fe.cnt.Quads++
						l := q.Coverage
						if d.EarlyZ {
							var ds pipeline.DepthStats
							l = pipeline.EarlyDepth(d, &pd.Raster, prim, q, &ds)
							fe.cnt.DepthTestsPassed += ds.Passed
							fe.cnt.DepthTestsFailed += ds.Failed
							if l.Empty() {
								fe.cnt.EarlyZQuadsCulled++
								continue
							}
						}
						live = append(live, protocol.QuadLive{Quad: q, Live: l})
					}
					if len(live) > 0 {
						p := protocol.TileOwner(tp.X, tp.Y, 1, fe.partitions)
						out[p] = append(out[p], protocol.NewTileQuads(pd, prim, tp.X, tp.Y, p, live))
					}
				}
			}
		}
	}
	for p := range out {
		out[p] = append(out[p], protocol.NewDrawEnd(pd, p))
	}
	return out, pd, nil
}

// render runs frame f through the machine, one draw at a time (each draw drains
// before the next starts), and returns the presented image and the counters.
func render(t *testing.T, f *driver.Frame, m *machine) (*image.RGBA, counted, map[string]float64) {
	t.Helper()
	var cnt counted
	batcher, err := vertex.NewBatcher(vertex.DefaultBatchVertices)
	if err != nil {
		t.Fatal(err)
	}
	fe := &frontEnd{mem: f.Memory, partitions: len(m.dus), batcher: batcher, vwarp: shader.NewWarp(shader.MaxLanes), cnt: &cnt}
	var img *image.RGBA
	seq := uint64(0)
	testpeer.WalkFrame(t, f, func(act state.Action) {
		switch act.Kind {
		case state.ActDraw:
			msgs, pd, err := fe.draw(seq, act.Draw)
			if err != nil {
				t.Fatal(err)
			}
			for p, u := range m.dus {
				u.queue = msgs[p]
				u.TickLater(m.engine.CurrentTime())
			}
			testpeer.Run(t, m.engine)
			if err := m.halt.Reason(); err != nil {
				t.Fatal(err)
			}
			for _, r := range m.rops {
				if len(r.ends) != int(seq)+1 || r.ends[seq] != pd.Seq {
					t.Fatalf("draw %d: ROP %d saw DrawEnds %v", seq, r.index, r.ends)
				}
			}
			seq++
		case state.ActClear:
			reference.Clear(act)
		case state.ActSync:
			if act.Sync.Addr != 0 {
				reference.WriteSyncToken(f.Memory, act.Sync)
			}
		case state.ActPresent:
			img = act.Color.Resolve()
		}
	})
	var ws pipeline.WriteStats
	for _, r := range m.rops {
		ws.Add(r.ws)
		if r.wrongTiles > 0 {
			t.Errorf("ROP %d received %d quads of other partitions", r.index, r.wrongTiles)
		}
	}
	for _, c := range m.cores {
		if c.err != nil {
			t.Fatal(c.err)
		}
		cnt.HelperPixels += c.helpers
		cnt.PSInvocations += c.invocations
	}
	st := map[string]float64{}
	m.packer.Stats(func(n string, v float64) { st[n] = v })
	m.rob.Stats(func(n string, v float64) { st[n] = v })
	cnt.QuadsShaded = int(st["GPU.ReorderBuffer.quads"])
	cnt.PixelWarps = int(st["GPU.QuadPacker.warps"])
	if st["GPU.QuadPacker.quads"] != st["GPU.ReorderBuffer.retired_quads"] || st["GPU.ReorderBuffer.warps"] != st["GPU.QuadPacker.warps"] {
		t.Errorf("quads or warps lost: %v", st)
	}
	cnt.DepthTestsPassed += ws.Passed
	cnt.DepthTestsFailed += ws.Failed
	cnt.SamplesKilled, cnt.SamplesWritten, cnt.SamplesBlended = ws.Killed, ws.Written, ws.Blended
	cnt.QuadsDiscarded, cnt.QuadsLateZCulled, cnt.QuadsWritten = ws.QuadsDiscarded, ws.QuadsLateZCulled, ws.QuadsWritten
	return img, cnt, st
}

func TestSameAsReference(t *testing.T) {
	tests := []struct {
		scene                    string
		samples                  int
		partitions, cores, slots int
	}{
		{"overdraw", 4, 1, 3, 32},
		{"overdraw", 4, 2, 3, 24},
		{"depthwrite", 1, 2, 2, 64},
		{"foliage", 4, 3, 2, 16},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s_%dx_%dp", tc.scene, tc.samples, tc.partitions)
		t.Run(name, func(t *testing.T) {
			rf := testframe.EncodeDefault(t, tc.scene, 96, 64, tc.samples)
			ref, err := reference.Render(rf.Memory, rf.Stream, rf.StreamBytes, reference.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			want := fromReference(&ref.Counters)

			var serial map[string]float64
			for _, parallel := range []bool{false, true} {
				f := testframe.EncodeDefault(t, tc.scene, 96, 64, tc.samples)
				m := newMachine(parallel, tc.partitions, tc.cores, tc.slots)
				img, got, st := render(t, f, m)
				if img == nil || !bytes.Equal(img.Pix, ref.Image.Pix) {
					t.Fatalf("parallel=%v: the image differs from the reference", parallel)
				}
				if st["GPU.ReorderBuffer.cycles_full"] == 0 || st["GPU.QuadPacker.cycles_blocked_output"] == 0 {
					t.Errorf("parallel=%v: the reorder buffer never filled up (%v full cycles)", parallel, st["GPU.ReorderBuffer.cycles_full"])
				}
				if tc.partitions > 1 {
					// Quads of several depth units share warps: the warp count differs.
					got.PixelWarps = want.PixelWarps
				}
				if got != want {
					t.Fatalf("parallel=%v: counters\n%+v\nwant\n%+v", parallel, got, want)
				}
				if serial == nil {
					serial = st
				} else if !reflect.DeepEqual(st, serial) {
					t.Fatalf("statistics differ between the serial and the parallel engine:\n%v\n%v", serial, st)
				}
			}
		})
	}
}
