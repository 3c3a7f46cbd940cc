package rop_test

import (
	"bytes"
	"fmt"
	"image"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

type outMsg struct {
	src, dst sim.Port
	msg      sim.Msg
}

// sendAll sends the messages of out in order until a port refuses one:
// whether it sent any, and whether one was refused (and stays first).
func sendAll(now sim.VTimeInSec, out *[]outMsg) (sent, blocked bool) {
	for len(*out) > 0 {
		o := (*out)[0]
		o.msg.Meta().Src, o.msg.Meta().Dst, o.msg.Meta().SendTime = o.src, o.dst, now
		if o.src.Send(o.msg) != nil {
			return sent, true
		}
		*out = (*out)[1:]
		sent = true
	}
	return sent, false
}

// frontEnd plays the command processor, the geometry pipeline and one
// rasterizer: it executes the frame's commands in order, rasterizes each draw
// functionally into TileQuads for the depth unit owning each tile, follows each
// draw with a DrawEnd to every depth unit, and drains the back end before
// clears, sync tokens and presents.
type frontEnd struct {
	*sim.TickingComponent
	ToDepthUnits sim.Port
	Control      sim.Port

	dus   []*depthunit.Comp
	rops  []*rop.Comp
	mem   *command.Image
	frame *driver.Frame
	disp  uint64
	cmds  []command.Located
	pc    int
	tr    *state.Tracker

	outbox   []outMsg
	draws    uint64
	done     []int // DrawDone count per draw
	acks     int
	finished bool
	err      error
	image    *image.RGBA
	stats    reference.Counters
}

func (f *frontEnd) drained() bool {
	for _, n := range f.done {
		if n < len(f.rops) {
			return false
		}
	}
	return true
}

func (f *frontEnd) Tick(now sim.VTimeInSec) bool {
	progress := false
	for {
		msg := f.Control.Retrieve(now)
		if msg == nil {
			break
		}
		progress = true
		switch m := msg.(type) {
		case *protocol.Done:
			f.acks--
		case *protocol.DrawDone:
			f.done[m.Draw.Seq]++
		}
	}
	sent, blocked := sendAll(now, &f.outbox)
	if progress = progress || sent; blocked {
		return progress
	}
	if f.finished || f.err != nil || f.acks > 0 || f.pc >= len(f.cmds) {
		return progress
	}
	c := f.cmds[f.pc]
	switch c.Command.(type) {
	case command.Clear, command.SyncToken, command.Present:
		if !f.drained() {
			return progress
		}
	}
	f.pc++
	act, err := f.tr.Apply(c)
	if err != nil {
		f.err = err
		return true
	}
	switch act.Kind {
	case state.ActDraw:
		f.draw(act.Draw)
	case state.ActClear:
		reference.Clear(act)
		for i, r := range f.rops {
			if act.Clear.Flags&command.ClearColor != 0 {
				f.outbox = append(f.outbox, outMsg{f.Control, r.Control,
					protocol.NewClearCmd(act.Clear.Flags, f.frame.Color, act.Color.SizeBytes())})
				f.acks++
			}
			if act.Clear.Flags&(command.ClearDepth|command.ClearStencil) != 0 {
				f.outbox = append(f.outbox, outMsg{f.Control, f.dus[i].Control,
					protocol.NewClearCmd(act.Clear.Flags, f.frame.Depth, act.DepthBuf.SizeBytes())})
				f.acks++
			}
		}
	case state.ActSync:
		reference.WriteSyncToken(f.mem, act.Sync)
	case state.ActPresent:
		if f.image != nil {
			f.err = fmt.Errorf("two presents")
			return true
		}
		for i, r := range f.rops {
			f.outbox = append(f.outbox, outMsg{f.Control, r.Control, protocol.NewPresentCmd(f.frame.Color, f.disp)},
				outMsg{f.Control, f.dus[i].Control, protocol.NewPresentCmd(f.frame.Color, f.disp)})
			f.acks += 2
		}
		f.image = act.Color.Resolve()
	case state.ActEnd:
		f.finished = true
	}
	return true
}

// draw rasterizes a draw as the reference renderer does and queues its tiles.
func (f *frontEnd) draw(d *state.Draw) {
	pd := &protocol.Draw{Seq: f.draws, State: d, Raster: pipeline.RasterConfig(d, reference.DefaultOptions().Raster)}
	f.draws++
	f.done = append(f.done, 0)
	cfg := &pd.Raster
	batcher, _ := vertex.NewBatcher(vertex.DefaultBatchVertices)
	w := shader.NewWarp(shader.MaxLanes)
	var fetch vertex.Fetcher
	geo := pipeline.NewGeometry(d, cfg)
	vsTex := pipeline.TextureUnits{Bindings: &d.VSTextures}
	var batch vertex.Batch
	vout := make([]pipeline.VertexOut, batcher.MaxVertices)
	attrs := make([]vertex.Attributes, batcher.MaxVertices)
	var gs pipeline.GeometryStats
	for first := 0; batcher.Next(f.mem, &d.Stream, first, &batch); first += len(batch.Triangles) {
		if _, err := pipeline.ShadeBatch(d, f.mem, &batch, w, &fetch, &vsTex, attrs, vout); err != nil {
			f.err = err
			return
		}
		for i, tri := range batch.Triangles {
			prims := geo.Triangle(first+i, [3]*pipeline.VertexOut{&vout[tri[0]], &vout[tri[1]], &vout[tri[2]]}, nil, &gs)
			for k := range prims {
				p := &prims[k]
				for _, tp := range p.Triangle.Tiles(cfg, nil) {
					qs := p.Triangle.TileQuads(cfg, tp.X, tp.Y, nil)
					if len(qs) == 0 {
						continue
					}
					ql := make([]protocol.QuadLive, len(qs))
					for j, q := range qs {
						ql[j] = protocol.QuadLive{Quad: q, Live: q.Coverage}
						f.stats.Quads++
					}
					part := protocol.TileOwner(tp.X, tp.Y, 1, len(f.dus))
					f.outbox = append(f.outbox, outMsg{f.ToDepthUnits, f.dus[part].FromRasterizers,
						protocol.NewTileQuads(pd, p, tp.X, tp.Y, part, ql)})
				}
			}
		}
	}
	for _, du := range f.dus {
		f.outbox = append(f.outbox, outMsg{f.ToDepthUnits, du.FromRasterizers, protocol.NewDrawEnd(pd, 0)})
	}
}

// shadeStage plays the quad packer, the shader cores and the reorder buffer:
// it shades every surviving quad (one quad per warp) in arrival order and sends
// the shaded quads of each tile, and the DrawEnd markers, to the partition's ROP.
type shadeStage struct {
	*sim.TickingComponent
	In, Out sim.Port
	rops    []*rop.Comp
	warp    *shader.Warp
	outbox  []outMsg
	shaded  int
}

func (s *shadeStage) Tick(now sim.VTimeInSec) bool {
	progress := false
	sent, blocked := sendAll(now, &s.outbox)
	if progress = progress || sent; blocked {
		return progress
	}
	msg := s.In.Retrieve(now)
	if msg == nil {
		return progress
	}
	switch m := msg.(type) {
	case *protocol.TileQuads:
		d := m.Draw.State
		tex := pipeline.TextureUnits{Bindings: &d.PSTextures}
		out := make([]protocol.ShadedQuad, len(m.Quads))
		for i, q := range m.Quads {
			s.warp.Reset(d.PS, 4, d.PSConstants)
			pipeline.LoadQuad(d, &m.Draw.Raster, m.Prim, q.Quad, q.Live, s.warp, 0)
			s.warp.Run(&tex)
			out[i] = protocol.ShadedQuad{Prim: m.Prim, Quad: q.Quad, Live: q.Live, Out: pipeline.ReadQuad(d, s.warp, 0)}
			s.shaded++
		}
		s.outbox = append(s.outbox, outMsg{s.Out, s.rops[m.Partition].FromReorderBuffer, protocol.NewShadedQuads(m.Draw, out)})
	case *protocol.DrawEnd:
		s.outbox = append(s.outbox, outMsg{s.Out, s.rops[m.From].FromReorderBuffer, protocol.NewDrawEnd(m.Draw, m.From)})
	}
	return true
}

// runFrame renders a built-in scene through P depth units and P ROPs and
// returns the front end, the units and the frame.
func runFrame(t *testing.T, name string, w, h, samples, parts int, engine sim.Engine) (*frontEnd, []*depthunit.Comp, []*rop.Comp, *driver.Frame) {
	t.Helper()
	return runFrameCache(t, name, w, h, samples, parts, engine, 1024, 2, 64)
}

// runFrameCache is runFrame with ROPs whose colour caches have the given size,
// ways and line size.
func runFrameCache(t *testing.T, name string, w, h, samples, parts int, engine sim.Engine, size, ways, line int) (*frontEnd, []*depthunit.Comp, []*rop.Comp, *driver.Frame) {
	t.Helper()
	fr := testframe.EncodeDefault(t, name, w, h, samples)
	disp := fr.Memory.Alloc(uint64(w*h*4), 4096)
	cmds, err := command.DecodeStream(fr.Memory, fr.Stream, fr.StreamBytes)
	if err != nil {
		t.Fatal(err)
	}
	f := 1 * sim.GHz
	halt := &timing.Halt{}
	mem := backendtest.NewMemory("Memory", engine, f, 30)
	mem.Image = fr.Memory
	conn := sim.NewDirectConnection("Conn", engine, f)
	fe := &frontEnd{mem: fr.Memory, frame: fr, disp: disp, cmds: cmds, tr: state.NewTracker(fr.Memory)}
	fe.TickingComponent = sim.NewTickingComponent("FrontEnd", engine, f, fe)
	fe.ToDepthUnits = sim.NewLimitNumMsgPort(fe, 4, "FrontEnd.ToDepthUnits")
	fe.Control = sim.NewLimitNumMsgPort(fe, 16, "FrontEnd.Control")
	ss := &shadeStage{warp: shader.NewWarp(4)}
	ss.TickingComponent = sim.NewTickingComponent("Shade", engine, f, ss)
	ss.In = sim.NewLimitNumMsgPort(ss, 4, "Shade.In")
	ss.Out = sim.NewLimitNumMsgPort(ss, 4, "Shade.Out")
	for _, p := range []sim.Port{fe.ToDepthUnits, fe.Control, ss.In, ss.Out, mem.Top} {
		conn.PlugIn(p, 4)
	}
	var dus []*depthunit.Comp
	var rops []*rop.Comp
	for p := 0; p < parts; p++ {
		env := timing.Env{Engine: engine, Freq: f, Halt: halt}
		dc := depthunit.DefaultConfig()
		dc.Index, dc.Cache.Size, dc.Cache.Ways, dc.Cache.LineSize = p, 2048, 2, 64
		du := depthunit.MakeBuilder().WithEnv(env).WithConfig(dc).Build(fmt.Sprintf("GPU.DepthUnit[%d]", p))
		r := rop.MakeBuilder().WithEnv(env).WithConfig(testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) {
			c.Index, c.TileSize, c.PartitionStride, c.NumPartitions = p, 8, 1, parts
			c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = size, ways, line
		})).Build(fmt.Sprintf("GPU.ROP[%d]", p))
		for _, port := range []sim.Port{du.FromRasterizers, du.ToQuadPacker, du.ROP, du.ToMemory, du.Control,
			r.FromReorderBuffer, r.DepthUnit, r.ToMemory, r.Control} {
			conn.PlugIn(port, 4)
		}
		du.QuadPacker, du.ROPPort, du.CommandProcessor, du.Memory, du.Image = ss.In, r.DepthUnit, fe.Control, mem, fr.Memory
		r.DepthUnitPort, r.CommandProcessor, r.Memory, r.Image = du.ROP, fe.Control, mem, fr.Memory
		dus, rops = append(dus, du), append(rops, r)
	}
	fe.dus, fe.rops, ss.rops = dus, rops, rops
	fe.TickLater(0)
	testpeer.Run(t, engine)
	if halt.Stopped() {
		t.Fatalf("halted: %v", halt.Reason())
	}
	if fe.err != nil {
		t.Fatal(fe.err)
	}
	if !fe.finished || fe.acks != 0 || len(fe.outbox) != 0 {
		t.Fatalf("the frame did not finish: command %d of %d, %d acks pending", fe.pc, len(cmds), fe.acks)
	}
	for _, u := range dus {
		u.Finish(engine.CurrentTime())
	}
	for _, u := range rops {
		u.Finish(engine.CurrentTime())
	}
	return fe, dus, rops, fr
}

type referenceFrame struct {
	mem *command.Image
	img []byte
	res *reference.Result
}

// renderReference renders a built-in scene with the reference renderer.
func renderReference(t *testing.T, name string, w, h, samples int) referenceFrame {
	t.Helper()
	rf := testframe.EncodeDefault(t, name, w, h, samples)
	ref, err := reference.Render(rf.Memory, rf.Stream, rf.StreamBytes, reference.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return referenceFrame{mem: rf.Memory, img: ref.Image.Pix, res: ref}
}

func sumStats(units []interface {
	Stats(func(string, float64))
}, counter string) float64 {
	var v float64
	for _, u := range units {
		u.Stats(func(n string, x float64) {
			if len(n) > len(counter) && n[len(n)-len(counter)-1:] == "."+counter {
				v += x
			}
		})
	}
	return v
}

// TestFrameMatchesReference renders built-in scenes through the depth units and
// ROPs (with functional fakes for the rest of the machine) and compares the
// memory image, the presented image, the display buffer and the counters with
// the reference renderer.
func TestFrameMatchesReference(t *testing.T) {
	tests := []struct {
		scene   string
		samples int
		parts   int
	}{
		{"depthwrite", 4, 2}, // late Z with shader depth, early/late switches
		{"foliage", 1, 3},    // discard (late Z)
		{"overdraw", 2, 2},   // blending
		{"triangle", 4, 1},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-%dx-%dparts", tc.scene, tc.samples, tc.parts), func(t *testing.T) {
			const w, h = 48, 32
			fe, dus, rops, fr := runFrame(t, tc.scene, w, h, tc.samples, tc.parts, sim.NewSerialEngine())

			rf := renderReference(t, tc.scene, w, h, tc.samples)
			ref := rf.res
			if n := rf.mem.Size(); !bytes.Equal(fr.Memory.Bytes()[:n], rf.mem.Bytes()) {
				t.Error("the memory image differs from the reference renderer's")
			}
			if fe.image == nil || !bytes.Equal(fe.image.Pix, ref.Image.Pix) {
				t.Error("the presented image differs")
			}
			d, ok := fr.Memory.Slice(fe.disp, uint64(w*h*4))
			if !ok || !bytes.Equal(d, ref.Image.Pix) {
				t.Error("the display buffer differs from the reference image")
			}
			var du, rp []interface{ Stats(func(string, float64)) }
			for i := range dus {
				du, rp = append(du, dus[i]), append(rp, rops[i])
			}
			c := ref.Counters
			for _, e := range []struct {
				name string
				got  float64
				want int
			}{
				{"quads", float64(fe.stats.Quads), c.Quads},
				{"depth passed", sumStats(du, "samples_passed"), c.DepthTestsPassed},
				{"depth failed", sumStats(du, "samples_failed"), c.DepthTestsFailed},
				{"early-Z culled", sumStats(du, "quads_culled_early_z"), c.EarlyZQuadsCulled},
				{"killed", sumStats(rp, "samples_killed"), c.SamplesKilled},
				{"written", sumStats(rp, "samples_written"), c.SamplesWritten},
				{"blended", sumStats(rp, "samples_blended"), c.SamplesBlended},
				{"discarded", sumStats(rp, "quads_discarded"), c.QuadsDiscarded},
				{"late-Z culled", sumStats(rp, "quads_late_z_culled"), c.QuadsLateZCulled},
				{"quads written", sumStats(rp, "quads_written"), c.QuadsWritten},
				{"draws done", sumStats(rp, "draw_dones") / float64(tc.parts), c.Draws},
			} {
				if e.got != float64(e.want) {
					t.Errorf("%s: %v, want %d", e.name, e.got, e.want)
				}
			}
			if sumStats(du, "late_z_requests") == 0 && tc.scene != "triangle" && tc.scene != "overdraw" {
				t.Error("weak test: no late-Z request")
			}
		})
	}
}

// TestFrameDeterministic renders a frame with the serial and the parallel engine
// and compares every statistic of the units and the image.
func TestFrameDeterministic(t *testing.T) {
	collect := func(e sim.Engine) (map[string]float64, []byte) {
		fe, dus, rops, _ := runFrame(t, "depthwrite", 32, 24, 4, 2, e)
		m := map[string]float64{}
		add := func(n string, v float64) { m[n] = v }
		for i := range dus {
			dus[i].Stats(add)
			rops[i].Stats(add)
		}
		return m, fe.image.Pix
	}
	s1, img1 := collect(sim.NewSerialEngine())
	s2, img2 := collect(sim.NewParallelEngine())
	if !bytes.Equal(img1, img2) {
		t.Error("the images differ")
	}
	if len(s1) != len(s2) {
		t.Fatalf("%d statistics vs %d", len(s1), len(s2))
	}
	for n, v := range s1 {
		if s2[n] != v {
			t.Errorf("%s: serial %v, parallel %v", n, v, s2[n])
		}
	}
}
