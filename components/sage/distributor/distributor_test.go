package distributor_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/components/sage/distributor"
	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/timing"
)

const freq = 1 * sim.GHz

type bench struct {
	engine       sim.Engine
	halt         *timing.Halt
	dist         *distributor.Distributor
	cp           *backendtest.Peer
	pipes, fills []*backendtest.Peer
}

// newBench wires the distributor to scripted peers; pipe ports hold pipeCap
// messages and the distributor's ToPipes queue on the connection toPipes.
func newBench(t *testing.T, cfg distributor.Config, pipes, pipeCap, toPipes int) *bench {
	t.Helper()
	bn := &bench{engine: sim.NewSerialEngine(), halt: &timing.Halt{}}
	cfg.Pipes = pipes
	bn.dist = distributor.MakeBuilder().WithEnv(timing.Env{Engine: bn.engine, Freq: freq, Halt: bn.halt}).
		WithConfig(cfg).Build("GPU.Distributor")
	conn := sim.NewDirectConnection("Conn", bn.engine, freq)
	bn.cp = backendtest.NewPeer("CP", bn.engine, freq, 4)
	for _, p := range []sim.Port{bn.dist.FromCommandProcessor, bn.dist.ToSampleFills, bn.dist.FromSampleFills, bn.cp.Port} {
		conn.PlugIn(p, 4)
	}
	conn.PlugIn(bn.dist.ToPipes, toPipes)
	for p := 0; p < pipes; p++ {
		pp := backendtest.NewPeer(fmt.Sprintf("Pipe[%d]", p), bn.engine, freq, pipeCap)
		fp := backendtest.NewPeer(fmt.Sprintf("SampleFill[%d]", p), bn.engine, freq, 4)
		conn.PlugIn(pp.Port, 4)
		conn.PlugIn(fp.Port, 4)
		bn.pipes, bn.fills = append(bn.pipes, pp), append(bn.fills, fp)
		bn.dist.Pipes = append(bn.dist.Pipes, pp.Port)
		bn.dist.SampleFills = append(bn.dist.SampleFills, fp.Port)
	}
	return bn
}

// chunks is DefaultConfig with chunks of n triangles in mode m.
func chunks(n int, m distributor.Mode) distributor.Config {
	cfg := distributor.DefaultConfig()
	cfg.ChunkTriangles, cfg.Mode = n, m
	return cfg
}

func (bn *bench) run(t *testing.T) {
	t.Helper()
	testpeer.RunAndFinish(t, bn.engine, bn.dist)
}

func (bn *bench) stats() map[string]float64 {
	m := map[string]float64{}
	bn.dist.Stats(func(n string, v float64) { m[strings.TrimPrefix(n, "GPU.Distributor.")] = v })
	return m
}

// draws makes the scripted draws: triangles per draw, and whether it blends
// (order-dependent).
func draws(t *testing.T, spec [][2]int) []*protocol.Draw {
	tg, err := backendtest.NewTargets(backendtest.TargetSpec{Width: 8, Height: 8, Samples: 1,
		ColorFormat: framebuffer.RGBA8, DepthFormat: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	var out []*protocol.Draw
	for i, s := range spec {
		d := tg.Draw(uint64(i), false)
		d.State.Stream = vertex.Stream{Count: uint32(3 * s[0])}
		if s[1] != 0 {
			d.State.Blend.Targets[0] = blend.Alpha()
		}
		out = append(out, d)
	}
	return out
}

// The scripted sequence (3 pipes, chunks of 10): triangles and order-dependent
// (1); draws 0-2 at cycle 0, pipe 1's sample fill reports draws 0-2 done at
// cycle 50, draws 3-6 at cycle 100.
var script = [][2]int{{25, 0}, {12, 0}, {7, 1}, {4, 1}, {5, 1}, {30, 0}, {0, 0}}

func runScript(t *testing.T, mode distributor.Mode) (*bench, []*protocol.Draw) {
	bn := newBench(t, chunks(10, mode), 3, 4, 4)
	ds := draws(t, script)
	for i, d := range ds {
		at := uint64(0)
		if i >= 3 {
			at = 100
		}
		bn.cp.SendAt(at, bn.dist.FromCommandProcessor, protocol.NewDrawDispatch(d))
	}
	for _, d := range ds[:3] {
		bn.fills[1].SendAt(50, bn.dist.FromSampleFills, protocol.NewDrawEnd(d, 1))
	}
	bn.run(t)
	if err := bn.dist.Err(); err != nil {
		t.Fatal(err)
	}
	return bn, ds
}

type chunk struct{ first, end int }

type planned struct {
	barrier bool
	seq     uint64
}

// received returns per draw the chunk each pipe got and the plan each sample
// fill got (the same for every fill), checking that each peer saw the draws in
// order, one message each.
func received(t *testing.T, bn *bench, ds []*protocol.Draw) ([][]chunk, []planned) {
	t.Helper()
	chunks := make([][]chunk, len(ds))
	plans := make([]planned, len(ds))
	for p := range bn.pipes {
		if len(bn.pipes[p].Received) != len(ds) || len(bn.fills[p].Received) != len(ds) {
			t.Fatalf("pipe %d got %d chunks and %d plans, want %d", p, len(bn.pipes[p].Received), len(bn.fills[p].Received), len(ds))
		}
		for i, d := range ds {
			c := bn.pipes[p].Received[i].Msg.(*protocol.DrawDispatch)
			pl := bn.fills[p].Received[i].Msg.(*protocol.DrawPlan)
			if c.Draw != d || pl.Draw != d {
				t.Fatalf("pipe %d message %d: draws %d, %d, want %d", p, i, c.Draw.Seq, pl.Draw.Seq, d.Seq)
			}
			chunks[i] = append(chunks[i], chunk{c.First, c.End})
			if p == 0 {
				plans[i] = planned{pl.Barrier, pl.BarrierSeq}
			} else if plans[i] != (planned{pl.Barrier, pl.BarrierSeq}) {
				t.Errorf("draw %d: pipe %d's plan %+v differs from pipe 0's %+v", i, p, pl, plans[i])
			}
		}
	}
	return chunks, plans
}

// checkReceived checks the chunks and plans the pipes and sample fills took
// for the draws ds (received) against want and wantPlans.
func checkReceived(t *testing.T, bn *bench, ds []*protocol.Draw, want [][]chunk, wantPlans []planned) {
	t.Helper()
	chunks, plans := received(t, bn, ds)
	if !reflect.DeepEqual(chunks, want) {
		t.Errorf("chunks %v, want %v", chunks, want)
	}
	if !reflect.DeepEqual(plans, wantPlans) {
		t.Errorf("plans %v, want %v", plans, wantPlans)
	}
}

// TestDocumentMode: the scripted sequence gives exactly the chunks and
// barriers worked out by hand (loads in brackets, per pipe):
//
//	d0 25 tris: chunks 10, 10, 5 to p0, p1, p2                   [10 10 5]
//	d1 12 tris: 10 to p2, 2 to p0                                 [12 10 15]
//	d2 7 ordered: whole to p1, barrier 0 (class change)           [12 17 15]
//	   p1 reports d0-d2 done                                      [12 0 15]
//	d3 4 ordered: p1, the previous ordered pipe: no barrier       [12 4 15]
//	d4 5 ordered: p1, no barrier                                  [12 9 15]
//	d5 30 tris: 10 to p1, p0, p2; barrier 1 (class change)        [22 19 25]
//	d6 0 tris: every chunk empty, no barrier
func TestDocumentMode(t *testing.T) {
	bn, ds := runScript(t, distributor.Document)
	checkReceived(t, bn, ds, [][]chunk{
		{{0, 10}, {10, 20}, {20, 25}},
		{{0, 2}, {12, 12}, {2, 12}},
		{{7, 7}, {0, 7}, {7, 7}},
		{{4, 4}, {0, 4}, {4, 4}},
		{{5, 5}, {0, 5}, {5, 5}},
		{{0, 10}, {10, 20}, {20, 30}},
		{{0, 0}, {0, 0}, {0, 0}},
	}, []planned{{}, {}, {true, 0}, {}, {}, {true, 1}, {}})
	st := bn.stats()
	for k, v := range map[string]float64{"draws": 7, "ordered_draws": 3, "chunks": 11, "empty_chunks": 10,
		"barriers": 2, "returns": 3, "triangles_p0": 22, "triangles_p1": 36, "triangles_p2": 25,
		"chunks_p0": 3, "chunks_p1": 5, "chunks_p2": 3, "load_p0": 22, "load_p1": 19, "load_p2": 25} {
		if st[k] != v {
			t.Errorf("%s = %v, want %v", k, st[k], v)
		}
	}
	// Draw 0 reaches the distributor at 1, is sent at 2 (latency 1) and
	// reaches the peers at 3.
	for p := range bn.pipes {
		if c := bn.pipes[p].Received[0].Cycle; c != 3 {
			t.Errorf("pipe %d took draw 0 at cycle %d, want 3", p, c)
		}
	}
}

// TestOrderedMode: every draw whole to the least-loaded pipe, a barrier at
// every change of pipe:
//
//	d0 25 -> p0                        [25 0 0]
//	d1 12 -> p1, barrier 0             [25 12 0]
//	d2 7  -> p2, barrier 1             [25 12 7]
//	   p1 reports d0-d2                [25 0 7]
//	d3 4  -> p1, barrier 2             [25 4 7]
//	d4 5  -> p1                        [25 9 7]
//	d5 30 -> p2, barrier 3             [25 9 37]
//	d6 0  -> p1, barrier 4
func TestOrderedMode(t *testing.T) {
	bn, ds := runScript(t, distributor.Ordered)
	chunks, plans := received(t, bn, ds)
	pipes := []int{0, 1, 2, 1, 1, 2, 1}
	for i, d := range ds {
		n := d.State.Stream.NumTriangles()
		for p, c := range chunks[i] {
			want := chunk{n, n}
			if p == pipes[i] {
				want = chunk{0, n}
			}
			if c != want {
				t.Errorf("draw %d pipe %d: %v, want %v", i, p, c, want)
			}
		}
	}
	wantPlans := []planned{{}, {true, 0}, {true, 1}, {true, 2}, {}, {true, 3}, {true, 4}}
	if !reflect.DeepEqual(plans, wantPlans) {
		t.Errorf("plans %v, want %v", plans, wantPlans)
	}
	if st := bn.stats(); st["ordered_draws"] != 7 || st["barriers"] != 5 {
		t.Errorf("ordered_draws %v barriers %v, want 7, 5", st["ordered_draws"], st["barriers"])
	}
}

// TestBarrierPerDraw: the document's chunks, and a barrier before every draw.
func TestBarrierPerDraw(t *testing.T) {
	bn, ds := runScript(t, distributor.BarrierPerDraw)
	chunks, plans := received(t, bn, ds)
	docBench, docDraws := runScript(t, distributor.Document)
	docChunks, _ := received(t, docBench, docDraws)
	if !reflect.DeepEqual(chunks, docChunks) {
		t.Errorf("chunks %v, want the document mode's %v", chunks, docChunks)
	}
	for i, p := range plans {
		if p != (planned{true, uint64(i)}) {
			t.Errorf("draw %d: plan %+v, want barrier %d", i, p, i)
		}
	}
}

// TestBlockedPipe: a pipe that takes nothing until cycle 40 holds the next
// draw back from every pipe (each pipe sees the draws in order); the cycles
// are counted as blocked_pipe.
func TestBlockedPipe(t *testing.T) {
	bn := newBench(t, chunks(10, distributor.Document), 2, 1, 1)
	bn.pipes[1].Hold(40)
	ds := draws(t, [][2]int{{20, 0}, {20, 0}, {20, 0}})
	for _, d := range ds {
		bn.cp.SendAt(0, bn.dist.FromCommandProcessor, protocol.NewDrawDispatch(d))
	}
	bn.run(t)
	received(t, bn, ds)
	// Pipe 0 takes draws 0 and 1 at once; draw 2 waits behind draw 1's chunk
	// for pipe 1, which the connection holds (one message) until pipe 1 takes
	// draw 0 at 40.
	for p, want := range [][]uint64{{3, 5, 42}, {40, 41, 43}} {
		var got []uint64
		for _, r := range bn.pipes[p].Received {
			got = append(got, r.Cycle)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pipe %d took the draws at %v, want %v", p, got, want)
		}
	}
	if st := bn.stats(); st["cycles_blocked_pipe"] == 0 {
		t.Errorf("no blocked_pipe cycles: %v", st)
	}
}

// TestProtocolErrors: a chunked dispatch from the command processor, and a
// report for a draw the pipe does not have outstanding, stop the run with an
// error naming the problem.
func TestProtocolErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		script func(bn *bench, ds []*protocol.Draw)
		want   string
	}{
		{"chunk from the command processor", func(bn *bench, ds []*protocol.Draw) {
			bn.cp.SendAt(0, bn.dist.FromCommandProcessor, protocol.NewDrawChunk(ds[0], 2, 5))
		}, "DrawDispatch.First/End"},
		{"report out of order", func(bn *bench, ds []*protocol.Draw) {
			bn.cp.SendAt(0, bn.dist.FromCommandProcessor, protocol.NewDrawDispatch(ds[0]))
			bn.cp.SendAt(0, bn.dist.FromCommandProcessor, protocol.NewDrawDispatch(ds[1]))
			bn.fills[0].SendAt(30, bn.dist.FromSampleFills, protocol.NewDrawEnd(ds[1], 0))
		}, "DrawEnd from pipe 0"},
		{"wrong message", func(bn *bench, ds []*protocol.Draw) {
			bn.cp.SendAt(0, bn.dist.FromCommandProcessor, protocol.NewDrawEnd(ds[0], 0))
		}, "GPU.Distributor: FromCommandProcessor: unexpected message *protocol.DrawEnd"},
	} {
		bn := newBench(t, distributor.DefaultConfig(), 2, 4, 4)
		c.script(bn, draws(t, [][2]int{{3, 0}, {3, 0}}))
		bn.run(t)
		if err := bn.dist.Err(); err == nil || !strings.Contains(err.Error(), c.want) || !bn.halt.Stopped() {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	testpeer.CheckInvalid(t, distributor.DefaultConfig(), testpeer.Reject(func(c *distributor.Config) { c.Mode = 7 },
		"distributor: Mode Mode(7) is not one of document, ordered, barrier_per_draw"))
	testpeer.CheckAtLeast(t, distributor.DefaultConfig(), "distributor", 1,
		"Pipes", "ChunkTriangles", "DispatchLatency", "InputQueue", "ReturnQueue")
	testpeer.CheckEnv(t, true, func(e timing.Env) { distributor.MakeBuilder().WithEnv(e).Build("Distributor") })
	for _, s := range []string{"document", "ordered", "barrier_per_draw"} {
		if m, err := distributor.ParseMode(s); err != nil || m.String() != s {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := distributor.ParseMode("fast"); err == nil || err.Error() != `unknown mode "fast" (want one of document, ordered, barrier_per_draw)` {
		t.Errorf("ParseMode(fast): %v", err)
	}
}

// TestStreamingDraws: a draw that streams out goes whole to one pipe (the
// least loaded), as an order-dependent draw, and the other pipes' empty
// chunks say SkipStreamOut, also when the draw has no primitive; draws of
// any topology are cut by primitives (3 pipes, chunks of 10, loads in
// brackets):
//
//	d0 25 triangles: 10, 10, 5 to p0, p1, p2                    [10 10 5]
//	d1 12 points, stream-out: whole to p2, barrier 0            [10 10 17]
//	d2 8 points: one chunk to p0, barrier 1 (class change)      [18 10 17]
//	d3 0 points, stream-out: p1 streams out, barrier 2
func TestStreamingDraws(t *testing.T) {
	bn := newBench(t, chunks(10, distributor.Document), 3, 4, 4)
	ds := draws(t, [][2]int{{25, 0}, {0, 0}, {0, 0}, {0, 0}})
	for i, n := range map[int]uint32{1: 12, 2: 8, 3: 0} {
		ds[i].State.Stream = vertex.Stream{Topology: command.PointList, Count: n}
	}
	for _, i := range []int{1, 3} {
		ds[i].State.StreamOut = &state.StreamOut{}
	}
	for _, d := range ds {
		bn.cp.SendAt(0, bn.dist.FromCommandProcessor, protocol.NewDrawDispatch(d))
	}
	bn.run(t)
	if err := bn.dist.Err(); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, bn, ds, [][]chunk{
		{{0, 10}, {10, 20}, {20, 25}},
		{{12, 12}, {12, 12}, {0, 12}},
		{{0, 8}, {8, 8}, {8, 8}},
		{{0, 0}, {0, 0}, {0, 0}},
	}, []planned{{}, {true, 0}, {true, 1}, {true, 2}})
	skip := [][]bool{{false, false, false}, {true, true, false}, {false, false, false}, {true, false, true}}
	for i := range ds {
		for p := range bn.pipes {
			if got := bn.pipes[p].Received[i].Msg.(*protocol.DrawDispatch).SkipStreamOut; got != skip[i][p] {
				t.Errorf("draw %d pipe %d: SkipStreamOut %v, want %v", i, p, got, skip[i][p])
			}
		}
	}
	st := bn.stats()
	for k, v := range map[string]float64{"draws": 4, "ordered_draws": 2, "streaming_draws": 2, "barriers": 3,
		"triangles_p0": 18, "triangles_p1": 10, "triangles_p2": 17} {
		if st[k] != v {
			t.Errorf("%s = %v, want %v", k, st[k], v)
		}
	}
}
