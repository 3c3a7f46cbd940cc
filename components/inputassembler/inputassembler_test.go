package inputassembler

import (
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/timing"
)

type bench struct {
	engine sim.Engine
	ia     *InputAssembler
	memory *testpeer.Memory
	peers  *fakePeers
	conn   *gateConn
	halt   *timing.Halt
	prog   *timing.Progress
}

func newBench(t *testing.T, img command.Memory, cfg Config, cores int, memLatency uint64) *bench {
	t.Helper()
	return newBenchOn(t, sim.NewSerialEngine(), img, cfg, cores, memLatency)
}

func newBenchOn(t *testing.T, e sim.Engine, img command.Memory, cfg Config, cores int, memLatency uint64) *bench {
	t.Helper()
	bn := &bench{engine: e, halt: &timing.Halt{}, prog: &timing.Progress{}}
	env := timing.Env{Engine: e, Freq: testpeer.Freq, Halt: bn.halt, Progress: bn.prog}
	bn.ia = MakeBuilder().WithEnv(env).WithConfig(cfg).Build("GPU.InputAssembler")
	bn.memory = testpeer.NewMemory(e, img, memLatency)
	bn.memory.ReadOnly = true
	bn.peers = newFakePeers(e, cores)
	bn.peers.iaPA = bn.ia.PrimitiveAssembly
	bn.conn = &gateConn{DirectConnection: sim.NewDirectConnection("Conn", e, 1*sim.GHz), busy: map[sim.Port]bool{}}
	for _, p := range append([]sim.Port{bn.ia.FromCommandProcessor, bn.ia.ToMemory, bn.ia.ToShaderCores,
		bn.ia.PrimitiveAssembly, bn.memory.Top}, bn.peers.ports()...) {
		bn.conn.PlugIn(p, 16)
	}
	bn.ia.ShaderCores = bn.peers.Core
	bn.ia.PrimitiveAssemblyPort = bn.peers.PA
	bn.ia.Memory = &mem.SingleLowModuleFinder{LowModule: bn.memory.Top}
	bn.ia.SetMemory(img)
	return bn
}

// send schedules the draws to arrive from the command processor (sent at cycle 1).
func (bn *bench) send(draws ...*protocol.Draw) {
	for _, d := range draws {
		bn.peers.at(1, bn.peers.CP, bn.ia.FromCommandProcessor, protocol.NewDrawDispatch(d))
	}
}

func (bn *bench) run(t *testing.T) {
	t.Helper()
	bn.peers.TickLater(0)
	testpeer.RunAndFinish(t, bn.engine, bn.ia)
	if err := bn.ia.Err(); err != nil {
		t.Fatal(err)
	}
}

func floats(v ...float32) []byte {
	var b []byte
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// vertexBuffer puts n vertices of 4 floats (x = index) at a 64-byte boundary.
func vertexBuffer(img *command.Image, n int) (vertex.VertexBuffer, vertex.Layout) {
	var b []byte
	for i := 0; i < n; i++ {
		b = append(b, floats(float32(i), 0, 0, 1)...)
	}
	return vertex.VertexBuffer{Addr: img.Put(b, 64), Size: uint32(len(b))},
		vertex.Layout{Stride: 16, Attributes: []command.Attribute{{Semantic: command.SemPosition, Components: 4}}}
}

func indexBuffer16(img *command.Image, idx []uint16) vertex.IndexBuffer {
	var b []byte
	for _, v := range idx {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return vertex.IndexBuffer{Addr: img.Put(b, 64), Format: 16, Size: uint32(len(b))}
}

// grid returns the indices of a w x h grid of quads (two triangles each) over
// (w+1) x (h+1) vertices, row by row.
func grid(w, h int) []uint16 {
	var idx []uint16
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint16(y*(w+1) + x)
			b, c, d := a+1, a+uint16(w+1), a+uint16(w+2)
			idx = append(idx, a, b, c, b, d, c)
		}
	}
	return idx
}

func newDraw(seq uint64, s vertex.Stream, vb vertex.VertexBuffer, l vertex.Layout) *protocol.Draw {
	return &protocol.Draw{Seq: seq, State: &state.Draw{Index: int(seq), Stream: s, VB: vb, Layout: l}}
}

// TestTiming pins one non-indexed triangle: the draw arrives at cycle 2 and its
// three batch tag lookups take that cycle; the vertices are looked up one per
// cycle at 3, 4, 5 (the first misses: the line read reaches memory at 4, returns
// at 14 and is taken at 15; the two others hit the line in flight); the batch
// is sent at 15 (the core has it at 16) and BatchInfo at 16 (primitive assembly
// has it at 17).
func TestTiming(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 3)
	bn := newBench(t, img, DefaultConfig(), 2, 10)
	bn.send(newDraw(0, vertex.Stream{Count: 3}, vb, l))
	bn.run(t)
	bs, cores, cycles := bn.peers.batches()
	if len(bs) != 1 || cores[0] != 0 || cycles[0] != 16 {
		t.Fatalf("batches at cores %v cycles %v, want one at core 0 at cycle 16", cores, cycles)
	}
	infos := bn.peers.infos()
	if len(infos) != 1 || infos[0].Cycle != 17 || infos[0].Msg.(*protocol.BatchInfo).Batches != 1 {
		t.Fatalf("BatchInfo %+v, want 1 batch at cycle 17", infos)
	}
	if want := []testpeer.MemReq{{Cycle: 4, Addr: vb.Addr, Size: 64}}; !reflect.DeepEqual(bn.memory.Log, want) {
		t.Errorf("memory %+v, want %+v", bn.memory.Log, want)
	}
	b := bs[0]
	if b.TrafficBytes != 16+3*16+3*1 || len(b.Attrs) != 3 || b.Attrs[2][command.SemPosition] != [4]float32{2, 0, 0, 1} {
		t.Errorf("batch %d bytes, attrs %v", b.TrafficBytes, b.Attrs)
	}
	st := testpeer.StatMap(bn.ia)
	end := float64(bn.ia.Freq.Cycle(bn.engine.CurrentTime()))
	want := map[string]float64{
		"GPU.InputAssembler.draws": 1, "GPU.InputAssembler.batches": 1, "GPU.InputAssembler.vertices": 3,
		"GPU.InputAssembler.batch_tag_misses": 3, "GPU.InputAssembler.batch_tag_hits": 0,
		"GPU.InputAssembler.vertex_cache_misses": 1, "GPU.InputAssembler.vertex_cache_hits": 2,
		"GPU.InputAssembler.index_reads": 0, "GPU.InputAssembler.bytes_read": 64,
		"GPU.InputAssembler.cycles_busy": 5 + 2, "GPU.InputAssembler.cycles_wait_memory": 8,
		"GPU.InputAssembler.cycles_idle": 2 + end - 17, "GPU.InputAssembler.credits_available": 15,
	}
	for k, v := range want {
		if st[k] != v {
			t.Errorf("%s = %v, want %v", k, st[k], v)
		}
	}
	if bn.prog.Value() != 6 {
		t.Errorf("progress %d, want 6 (a cycle of index lookups, three vertices fetched, a batch and a BatchInfo)", bn.prog.Value())
	}
}

// TestBatchesMatchBatcher runs indexed and non-indexed draws of a grid mesh
// (lists and a strip) and checks every batch against vertex.Batcher and
// pipeline.FetchBatch, the batch sequence numbers, BatchInfo after each draw's
// last batch, and the tag statistics.
func TestBatchesMatchBatcher(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 200)
	idx := grid(9, 7) // 126 triangles over 80 vertices
	ib := indexBuffer16(img, idx)
	strip := indexBuffer16(img, []uint16{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15})
	draws := []*protocol.Draw{
		newDraw(0, vertex.Stream{Indexed: true, Index: ib, Count: uint32(len(idx))}, vb, l),
		newDraw(1, vertex.Stream{Count: 60, Start: 7}, vb, l),
		newDraw(2, vertex.Stream{Indexed: true, Index: ib, Start: 30, Count: 90, BaseVertex: 100}, vb, l),
		newDraw(3, vertex.Stream{Indexed: true, Index: strip, Count: 12, Topology: command.TriangleStrip}, vb, l),
		newDraw(4, vertex.Stream{Indexed: true, Index: ib, Count: 2}, vb, l), // no triangle
	}
	bn := newBench(t, img, testpeer.Edit(DefaultConfig(), func(c *Config) { c.Credits = 3; c.BatchVertices = 16 }), 3, 25)
	bn.peers.autoCredit, bn.peers.creditDelay = true, 30
	bn.send(draws...)
	bn.run(t)

	batcher, _ := vertex.NewBatcher(16)
	var f vertex.Fetcher
	got, _, cycles := bn.peers.batches()
	infos := bn.peers.infos()
	if len(infos) != len(draws) {
		t.Fatalf("%d BatchInfo, want %d", len(infos), len(draws))
	}
	k := 0
	var hits, misses int
	for di, d := range draws {
		n := 0
		var last uint64
		var b vertex.Batch
		for first := 0; batcher.Next(img, &d.State.Stream, first, &b); first += len(b.Triangles) {
			if k >= len(got) {
				t.Fatalf("draw %d: batch %d missing", di, n)
			}
			g := got[k]
			if g.Draw != d || g.Seq != uint64(n) {
				t.Errorf("batch %d: draw %d seq %d, want draw %d seq %d", k, g.Draw.Seq, g.Seq, di, n)
			}
			if g.Batch.FirstTriangle != b.FirstTriangle || !reflect.DeepEqual(g.Batch.Vertices, b.Vertices) ||
				!reflect.DeepEqual(g.Batch.Triangles, b.Triangles) || g.Batch.Hits != b.Hits || g.Batch.Misses != b.Misses {
				t.Errorf("draw %d batch %d differs from the batcher's", di, n)
			}
			attrs := make([]vertex.Attributes, len(b.Vertices))
			pipeline.FetchBatch(d.State, img, &b, &f, attrs)
			if !reflect.DeepEqual(g.Attrs, attrs) {
				t.Errorf("draw %d batch %d: attributes differ from FetchBatch's", di, n)
			}
			hits, misses = hits+b.Hits, misses+b.Misses
			last = cycles[k]
			n++
			k++
		}
		info := infos[di].Msg.(*protocol.BatchInfo)
		if info.Draw != d || info.Batches != n || infos[di].Cycle <= last {
			t.Errorf("draw %d: BatchInfo %d batches at cycle %d (last batch at %d), want %d batches after it",
				di, info.Batches, infos[di].Cycle, last, n)
		}
	}
	if k != len(got) {
		t.Errorf("%d batches sent, the batcher made %d", len(got), k)
	}
	st := testpeer.StatMap(bn.ia)
	if st["GPU.InputAssembler.batch_tag_hits"] != float64(hits) || st["GPU.InputAssembler.batch_tag_misses"] != float64(misses) ||
		st["GPU.InputAssembler.batch_tag_hit_rate"] != float64(hits)/float64(hits+misses) {
		t.Errorf("tag stats %v/%v, want %d/%d", st["GPU.InputAssembler.batch_tag_hits"], st["GPU.InputAssembler.batch_tag_misses"], hits, misses)
	}
	// Index reads: every position once (the strip's 12 positions for 10 triangles;
	// the triangle-less draw reads none).
	if want := float64(len(idx) + 90 + 12); st["GPU.InputAssembler.index_reads"] != want {
		t.Errorf("index reads %v, want %v", st["GPU.InputAssembler.index_reads"], want)
	}
	if st["GPU.InputAssembler.credits_available"] != 3 || bn.ia.CreditsAvailable() != 3 {
		t.Errorf("credits %v at the end", st["GPU.InputAssembler.credits_available"])
	}
}

// TestCreditsBlockDispatch gives the input assembler 2 credits and returns them
// only at cycles 200 and 300: the third batch reaches a core at 202, the fourth
// at 302.
func TestCreditsBlockDispatch(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 64)
	bn := newBench(t, img, testpeer.Edit(DefaultConfig(), func(c *Config) { c.Credits = 2; c.BatchVertices = 3 }), 2, 5)
	bn.send(newDraw(0, vertex.Stream{Count: 12}, vb, l)) // 4 triangles: 4 batches of 3 vertices
	bn.peers.at(200, bn.peers.PA, bn.ia.PrimitiveAssembly, protocol.NewBatchCredit(1))
	bn.peers.at(300, bn.peers.PA, bn.ia.PrimitiveAssembly, protocol.NewBatchCredit(1))
	bn.run(t)
	_, cores, cycles := bn.peers.batches()
	// Batch 0's line returns at 10 (sent at 10, at the core at 11), batch 1's
	// second line at 14 (core at 15); then the credits run out.
	if want := []uint64{11, 15, 202, 302}; !reflect.DeepEqual(cycles, want) {
		t.Fatalf("batches at cycles %v, want %v", cycles, want)
	}
	if !reflect.DeepEqual(cores, []int{0, 1, 0, 1}) {
		t.Errorf("cores %v, want round robin", cores)
	}
	infos := bn.peers.infos()
	if len(infos) != 1 || infos[0].Cycle != 303 {
		t.Errorf("BatchInfo %+v, want at 303", infos)
	}
	st := testpeer.StatMap(bn.ia)
	// The third batch's line (vertices 8-11, read at cycle 11) arrives at 18; from
	// 19 the batch waits for a credit until the one sent at 200 is taken at 201.
	// The fourth batch (same line) waits from 202 to 301: 182 + 99 cycles.
	if w := st["GPU.InputAssembler.cycles_wait_credit"]; w != 182+99 {
		t.Errorf("%v cycles waiting for credits, want 281", w)
	}
	if st["GPU.InputAssembler.credits_available"] != 0 {
		t.Errorf("credits %v", st["GPU.InputAssembler.credits_available"])
	}
}

// TestBusyCoresSkipped makes core 1 of 3 refuse every batch: batches alternate
// between cores 0 and 2.
func TestBusyCoresSkipped(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 64)
	bn := newBench(t, img, testpeer.Edit(DefaultConfig(), func(c *Config) { c.BatchVertices = 3 }), 3, 5)
	bn.conn.busy[bn.peers.Core[1]] = true
	bn.peers.autoCredit, bn.peers.creditDelay = true, 1
	bn.send(newDraw(0, vertex.Stream{Count: 15}, vb, l))
	bn.run(t)
	_, cores, _ := bn.peers.batches()
	if want := []int{0, 2, 0, 2, 0}; !reflect.DeepEqual(cores, want) {
		t.Errorf("cores %v, want %v", cores, want)
	}
}

// TestAllCoresBusy makes both cores refuse batches until cycle 100, when they
// free up (the link tells the input assembler, as a real connection does): the
// first batch reaches core 0 at 101, and the wait is counted as wait_core.
func TestAllCoresBusy(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 64)
	bn := newBench(t, img, DefaultConfig(), 2, 5)
	bn.conn.busy[bn.peers.Core[0]], bn.conn.busy[bn.peers.Core[1]] = true, true
	bn.peers.do(100, func(now sim.VTimeInSec) {
		bn.conn.busy = map[sim.Port]bool{}
		bn.ia.ToShaderCores.NotifyAvailable(now)
	})
	bn.send(newDraw(0, vertex.Stream{Count: 3}, vb, l))
	bn.run(t)
	_, cores, cycles := bn.peers.batches()
	if !reflect.DeepEqual(cores, []int{0}) || !reflect.DeepEqual(cycles, []uint64{102}) {
		t.Fatalf("batches at cores %v cycles %v, want core 0 at 102", cores, cycles)
	}
	// The batch is ready at 10 (its line arrived) and refused from 10 on; the
	// refusals at 10 count as busy (the line arrived), 11..100 as wait_core.
	if w := testpeer.StatMap(bn.ia)["GPU.InputAssembler.cycles_wait_core"]; w != 90 {
		t.Errorf("%v cycles waiting for a core, want 90", w)
	}
}

// TestIndexCache reads a 36-index (72-byte) 16-bit index buffer at a 64-byte
// boundary: the first index of each of its two lines misses, the 34 others hit.
// A second draw reads 12 positions of a 6-index buffer: 6 reads in bounds (one
// line: one miss, 5 hits) and 6 out of bounds, which read index 0 and cost no
// memory access.
func TestIndexCache(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 64)
	idx := make([]uint16, 36)
	for i := range idx {
		idx[i] = uint16(i % 20)
	}
	ib := indexBuffer16(img, idx)
	small := indexBuffer16(img, []uint16{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		name                  string
		stream                vertex.Stream
		reads, hits, misses   float64
		oob                   float64
		indexLines            []uint64
		vertexZeroIndexFetch  bool
		wantVerticesInBatches int
	}{
		{name: "in bounds", stream: vertex.Stream{Indexed: true, Index: ib, Count: 36}, reads: 36, hits: 34, misses: 2,
			indexLines: []uint64{ib.Addr, ib.Addr + 64}},
		{name: "out of bounds", stream: vertex.Stream{Indexed: true, Index: small, Count: 12}, reads: 12, hits: 5, misses: 1, oob: 6,
			indexLines: []uint64{small.Addr}},
	} {
		bn := newBench(t, img, DefaultConfig(), 2, 5)
		bn.send(newDraw(0, tc.stream, vb, l))
		bn.run(t)
		st := testpeer.StatMap(bn.ia)
		if st["GPU.InputAssembler.index_reads"] != tc.reads || st["GPU.InputAssembler.index_cache_hits"] != tc.hits ||
			st["GPU.InputAssembler.index_cache_misses"] != tc.misses || st["GPU.InputAssembler.index_out_of_bounds"] != tc.oob {
			t.Errorf("%s: reads %v hits %v misses %v oob %v, want %v %v %v %v", tc.name, st["GPU.InputAssembler.index_reads"],
				st["GPU.InputAssembler.index_cache_hits"], st["GPU.InputAssembler.index_cache_misses"],
				st["GPU.InputAssembler.index_out_of_bounds"], tc.reads, tc.hits, tc.misses, tc.oob)
		}
		var lines []uint64
		for _, q := range bn.memory.Log {
			if q.Addr < vb.Addr || q.Addr >= vb.Addr+uint64(vb.Size) {
				lines = append(lines, q.Addr)
			}
		}
		if !reflect.DeepEqual(lines, tc.indexLines) {
			t.Errorf("%s: index lines read %x, want %x", tc.name, lines, tc.indexLines)
		}
	}
}

// TestVertexCacheAndOutOfBounds fetches vertices with a 32-byte stride (two per
// 64-byte line) including some past the end of the vertex buffer.
func TestVertexCacheAndOutOfBounds(t *testing.T) {
	img := command.NewImage()
	var raw []byte
	for i := 0; i < 8; i++ {
		raw = append(raw, floats(float32(i), 1, 2, 3, 4, 5, 6, 7)...)
	}
	vb := vertex.VertexBuffer{Addr: img.Put(raw, 64), Size: uint32(len(raw))}
	l := vertex.Layout{Stride: 32, Attributes: []command.Attribute{{Semantic: command.SemPosition, Components: 4}}}
	ib := indexBuffer16(img, []uint16{0, 1, 2, 3, 6, 9, 9, 10, 7})
	bn := newBench(t, img, DefaultConfig(), 2, 5)
	bn.send(newDraw(0, vertex.Stream{Indexed: true, Index: ib, Count: 9}, vb, l))
	bn.run(t)
	st := testpeer.StatMap(bn.ia)
	// Unique vertices 0 1 2 3 6 9 10 7: lines 0 (0, 1), 1 (2, 3), 3 (6, 7); 9 and 10
	// are outside the 8-vertex buffer.
	if st["GPU.InputAssembler.vertex_cache_misses"] != 3 || st["GPU.InputAssembler.vertex_cache_hits"] != 3 ||
		st["GPU.InputAssembler.vertex_out_of_bounds"] != 2 || st["GPU.InputAssembler.bytes_read"] != 64+3*64 {
		t.Errorf("vertex cache %v/%v, out of bounds %v, bytes %v", st["GPU.InputAssembler.vertex_cache_hits"],
			st["GPU.InputAssembler.vertex_cache_misses"], st["GPU.InputAssembler.vertex_out_of_bounds"], st["GPU.InputAssembler.bytes_read"])
	}
	bs, _, _ := bn.peers.batches()
	if len(bs) != 1 || bs[0].Attrs[5] != (vertex.Attributes{}) || bs[0].Attrs[4][0] != [4]float32{6, 1, 2, 3} {
		t.Errorf("attributes %v", bs[0].Attrs)
	}
}

// TestEmptyDraw: a draw with no triangle sends only BatchInfo with 0 batches.
func TestEmptyDraw(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 4)
	bn := newBench(t, img, DefaultConfig(), 1, 5)
	bn.send(newDraw(0, vertex.Stream{Count: 2}, vb, l), newDraw(1, vertex.Stream{Count: 3}, vb, l))
	bn.run(t)
	infos := bn.peers.infos()
	bs, _, _ := bn.peers.batches()
	if len(infos) != 2 || infos[0].Msg.(*protocol.BatchInfo).Batches != 0 || infos[1].Msg.(*protocol.BatchInfo).Batches != 1 || len(bs) != 1 {
		t.Fatalf("infos %+v, %d batches", infos, len(bs))
	}
	if len(bn.memory.Log) != 1 {
		t.Errorf("memory %+v", bn.memory.Log)
	}
}

// TestProtocolErrors: a credit nobody took and a message of the wrong kind stop
// the run with an error.
func TestProtocolErrors(t *testing.T) {
	img := command.NewImage()
	bn := newBench(t, img, DefaultConfig(), 1, 5)
	bn.peers.at(3, bn.peers.PA, bn.ia.PrimitiveAssembly, protocol.NewBatchCredit(1))
	bn.peers.TickLater(0)
	testpeer.Run(t, bn.engine)
	if err := bn.ia.Err(); err == nil || !strings.Contains(err.Error(), "BatchCredit") || !bn.halt.Stopped() {
		t.Errorf("error %v, halted %v", err, bn.halt.Stopped())
	}
}

func TestConfigValidation(t *testing.T) {
	testpeer.CheckValidate(t, DefaultConfig(), []testpeer.ConfigCase[Config]{
		{Want: "", Edit: func(c *Config) {}},
		{Want: "BatchVertices", Edit: func(c *Config) { c.BatchVertices = 2 }},
		{Want: "IndicesPerCycle", Edit: func(c *Config) { c.IndicesPerCycle = 0 }},
		{Want: "VerticesPerCycle", Edit: func(c *Config) { c.VerticesPerCycle = 0 }},
		{Want: "Credits", Edit: func(c *Config) { c.Credits = 0 }},
		{Want: "MaxOutstandingMemory", Edit: func(c *Config) { c.MaxOutstandingMemory = 0 }},
		{Want: "BatchQueue", Edit: func(c *Config) { c.BatchQueue = 0 }},
		{Want: "IndexCache", Edit: func(c *Config) { c.IndexCache = CacheConfig{SizeBytes: 4096, Ways: 4, LineBytes: 48} }},
		{Want: "VertexCache", Edit: func(c *Config) { c.VertexCache = CacheConfig{SizeBytes: 3000, Ways: 4, LineBytes: 64} }},
	})
	e := sim.NewSerialEngine()
	testpeer.CheckEnv(t, true, func(env timing.Env) { MakeBuilder().WithEnv(env).Build("GPU.InputAssembler") })
	ia := MakeBuilder().WithEnv(testpeer.Env(e)).Build("GPU.InputAssembler")
	for _, bs := range ia.Buffers() {
		sim.NameMustBeValid(bs.Name)
	}
}

// TestChunks dispatches triangle ranges of a list and a strip (SAGE's
// distributor): each chunk is batched as the batcher batches the stream cut
// after the chunk's last triangle, from the chunk's first triangle (triangle
// numbers stay the draw's), and an empty chunk still sends its BatchInfo.
func TestChunks(t *testing.T) {
	img := command.NewImage()
	vb, l := vertexBuffer(img, 200)
	ib := indexBuffer16(img, grid(9, 7)) // 126 triangles
	strip := indexBuffer16(img, []uint16{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15})
	list := newDraw(0, vertex.Stream{Indexed: true, Index: ib, Count: 3 * 126}, vb, l)
	st := newDraw(1, vertex.Stream{Indexed: true, Index: strip, Count: 12, Topology: command.TriangleStrip}, vb, l)
	chunks := []struct {
		d                  *protocol.Draw
		first, end         int
		wantFirst, wantEnd int // the range covered
	}{
		{list, 0, 40, 0, 40},
		{list, 126, 126, 126, 126}, // empty
		{list, 40, 0, 40, 126},     // to the end
		{st, 3, 8, 3, 8},
		{st, 9, 10, 9, 10},
	}
	bn := newBench(t, img, testpeer.Edit(DefaultConfig(), func(c *Config) { c.Credits = 3; c.BatchVertices = 16 }), 2, 7)
	bn.peers.autoCredit, bn.peers.creditDelay = true, 5
	for _, c := range chunks {
		bn.peers.at(1, bn.peers.CP, bn.ia.FromCommandProcessor, protocol.NewDrawChunk(c.d, c.first, c.end))
	}
	bn.run(t)
	got, _, _ := bn.peers.batches()
	infos := bn.peers.infos()
	if len(infos) != len(chunks) {
		t.Fatalf("%d BatchInfo, want %d", len(infos), len(chunks))
	}
	batcher, _ := vertex.NewBatcher(16)
	k := 0
	for ci, c := range chunks {
		s := c.d.State.Stream
		if s.Topology == command.TriangleStrip {
			s.Count = uint32(c.wantEnd) + 2
		} else {
			s.Count = 3 * uint32(c.wantEnd)
		}
		n := 0
		var b vertex.Batch
		for first := c.wantFirst; batcher.Next(img, &s, first, &b); first += len(b.Triangles) {
			if k >= len(got) {
				t.Fatalf("chunk %d: batch %d missing", ci, n)
			}
			g := got[k]
			if g.Draw != c.d || g.Seq != uint64(n) || g.Batch.FirstTriangle != b.FirstTriangle ||
				!reflect.DeepEqual(g.Batch.Vertices, b.Vertices) || !reflect.DeepEqual(g.Batch.Triangles, b.Triangles) {
				t.Errorf("chunk %d batch %d: draw %d seq %d first %d, want the batcher's (first %d)", ci, n, g.Draw.Seq,
					g.Seq, g.Batch.FirstTriangle, b.FirstTriangle)
			}
			n++
			k++
		}
		if info := infos[ci].Msg.(*protocol.BatchInfo); info.Draw != c.d || info.Batches != n {
			t.Errorf("chunk %d: BatchInfo draw %d, %d batches, want %d", ci, info.Draw.Seq, info.Batches, n)
		}
	}
	if k != len(got) {
		t.Errorf("%d batches sent, want %d", len(got), k)
	}
	// Each chunk reads the positions of its triangles once, from its first
	// triangle's first: the list's 3*40 and 3*86; the strip's 3..9 for
	// triangles 3-7 (a chunk starting at an odd triangle reads its first
	// position too) and 9..11 for triangle 9.
	if st, want := testpeer.StatMap(bn.ia), float64(3*40+3*86+7+3); st["GPU.InputAssembler.index_reads"] != want {
		t.Errorf("index reads %v, want %v", st["GPU.InputAssembler.index_reads"], want)
	}
}

// TestChunkOutOfRange: a chunk outside its draw stops the run with an error
// naming the field.
func TestChunkOutOfRange(t *testing.T) {
	for _, c := range []struct {
		first, end int
		want       string
	}{{5, 3, "DrawDispatch.First"}, {-1, 2, "DrawDispatch.First"}, {0, 5, "DrawDispatch.End"}, {5, 0, "DrawDispatch.First"}} {
		img := command.NewImage()
		vb, l := vertexBuffer(img, 12)
		bn := newBench(t, img, DefaultConfig(), 1, 5)
		bn.peers.at(1, bn.peers.CP, bn.ia.FromCommandProcessor, protocol.NewDrawChunk(newDraw(0, vertex.Stream{Count: 12}, vb, l), c.first, c.end))
		bn.peers.TickLater(0)
		testpeer.Run(t, bn.engine)
		if err := bn.ia.Err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("[%d, %d): error %v, want %q", c.first, c.end, err, c.want)
		}
	}
}
