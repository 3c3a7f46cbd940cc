package commandprocessor

import (
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

const vsSource = `.vs
.input v0 position
.output o0 position
mov o0, v0
`

const psSource = `.ps
.output o0 color
.const c0 tint 1
mov o0, c0
`

// resources is a small memory image with everything a draw needs.
type resources struct {
	img          *command.Image
	color, depth command.Target
	vs, ps       uint64
	vsSize       uint32
	psSize       uint32
	red, green   uint64 // one constant register each
	vb           uint64
}

func program(t testing.TB, name, src string) []byte {
	t.Helper()
	p, err := shader.Assemble(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p.Encode()
}

func vec4(v ...float32) []byte {
	var b []byte
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

func newResources(t testing.TB) *resources {
	t.Helper()
	r := &resources{img: command.NewImage()}
	r.color = command.Target{Addr: r.img.Alloc(16*16*4, 256), Width: 16, Height: 16, Samples: 1,
		Format: uint32(framebuffer.RGBA8), Layout: uint32(framebuffer.Linear), TileW: 4, TileH: 4}
	r.depth = command.Target{Addr: r.img.Alloc(16*16*4, 256), Width: 16, Height: 16, Samples: 1,
		Format: uint32(depth.D24S8), Layout: uint32(framebuffer.Linear), TileW: 4, TileH: 4}
	vs, ps := program(t, "t.vs", vsSource), program(t, "t.ps", psSource)
	r.vs, r.vsSize = r.img.Put(vs, 64), uint32(len(vs))
	r.ps, r.psSize = r.img.Put(ps, 64), uint32(len(ps))
	r.red = r.img.Put(vec4(1, 0, 0, 1), 16)
	r.green = r.img.Put(vec4(0, 1, 0, 1), 16)
	// One triangle covering the left half of the target (clip space, clockwise on screen).
	r.vb = r.img.Put(vec4(-1, 1, 0.5, 1, 0, 1, 0.5, 1, -1, -1, 0.5, 1), 64)
	return r
}

// setup returns the commands that make a draw possible.
func (r *resources) setup() []command.Command {
	return []command.Command{
		command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 16, MaxZ: 1}},
		command.SetColorTarget{Target: r.color},
		command.SetDepthTarget{Target: r.depth},
		command.SetRaster{CullMode: uint32(geom.CullNone)},
		command.BindShader{Stage: command.VertexStage, Addr: r.vs, Size: r.vsSize},
		command.BindShader{Stage: command.PixelStage, Addr: r.ps, Size: r.psSize},
		command.SetInputLayout{Stride: 16, Attributes: []command.Attribute{{Semantic: command.SemPosition, Components: 4}}},
		command.BindVertexBuffer{Addr: r.vb, Size: 48},
	}
}

// put encodes cmds at a page in r's image and returns the stream's address and
// size, and the address of every command.
func (r *resources) put(cmds []command.Command) (uint64, uint64, []uint64) {
	var e command.Encoder
	var offs []uint64
	for _, c := range cmds {
		offs = append(offs, uint64(e.Len()))
		e.Append(c)
	}
	base := r.img.Put(e.Bytes(), 4096)
	for i := range offs {
		offs[i] += base
	}
	return base, uint64(e.Len()), offs
}

// bench is a command processor wired to a fake memory and a fake pipeline.
type bench struct {
	engine sim.Engine
	cp     *CommandProcessor
	memory *testpeer.Memory
	pipe   *fakePipe
	halt   *timing.Halt
	prog   *timing.Progress
}

type benchConfig struct {
	cp          Config // zero: DefaultConfig
	partitions  int
	memLatency  uint64
	drawLatency uint64
	ackLatency  uint64
	// samplers texture samplers' and l2Banks L2 banks' control ports, which
	// answer after cacheAckLatency cycles (the CP's Samplers, L2Controls).
	samplers, l2Banks int
	cacheAckLatency   uint64
}

func newBench(t *testing.T, img command.Memory, cfg benchConfig) *bench {
	t.Helper()
	return newBenchOn(t, sim.NewSerialEngine(), img, cfg)
}

func newBenchOn(t *testing.T, e sim.Engine, img command.Memory, cfg benchConfig) *bench {
	t.Helper()
	b := &bench{engine: e, halt: &timing.Halt{}, prog: &timing.Progress{}}
	if cfg.partitions == 0 {
		cfg.partitions = 1
	}
	cp := cfg.cp
	if cp.DMAChunkBytes == 0 {
		cp = DefaultConfig()
	}
	cp.Partitions = cfg.partitions
	env := timing.Env{Engine: e, Freq: testpeer.Freq, Halt: b.halt, Progress: b.prog}
	b.cp = MakeBuilder().WithEnv(env).WithConfig(cp).Build("GPU.CommandProcessor")
	b.memory = testpeer.NewMemory(e, img, cfg.memLatency)
	b.pipe = newFakePipe(e, cfg.partitions, cfg.drawLatency, cfg.ackLatency)
	b.pipe.addCaches(cfg.samplers, cfg.l2Banks, cfg.cacheAckLatency)
	b.pipe.backEnd = b.cp.ToBackEnd
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	for _, p := range []sim.Port{b.cp.ToMemory, b.cp.ToLocalMemory, b.cp.ToInputAssembler, b.cp.ToBackEnd, b.memory.Top} {
		conn.PlugIn(p, 16)
	}
	for _, p := range b.pipe.ports() {
		conn.PlugIn(p, 16)
	}
	b.cp.InputAssembler = b.pipe.IA
	b.cp.Memory = &mem.SingleLowModuleFinder{LowModule: b.memory.Top}
	b.cp.LocalMemory = b.cp.Memory
	b.cp.ROPs, b.cp.DepthUnits = b.pipe.ROP, b.pipe.DU
	b.cp.Samplers, b.cp.L2Controls = b.pipe.Sampler, b.pipe.L2
	return b
}

func (b *bench) run(t *testing.T, m state.Memory, stream, size uint64) {
	t.Helper()
	if err := b.cp.Start(m, stream, size, 0); err != nil {
		t.Fatal(err)
	}
	testpeer.RunAndFinish(t, b.engine, b.cp)
}

func dispatches(p *fakePipe) []*protocol.DrawDispatch {
	var out []*protocol.DrawDispatch
	for _, r := range p.byPort("Pipe.IA") {
		out = append(out, r.Msg.(*protocol.DrawDispatch))
	}
	return out
}

// TestStreamTiming pins the cycle of every step of a small stream: a 168-byte
// stream in one DMA chunk, two shader binds that each wait for a DMA read, one
// draw, and End waiting for the draw's DrawDone (see the comments for the
// arithmetic).
func TestStreamTiming(t *testing.T) {
	r := newResources(t)
	cmds := []command.Command{
		command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 16, MaxZ: 1}},
		command.SetColorTarget{Target: r.color},
		command.BindShader{Stage: command.VertexStage, Addr: r.vs, Size: r.vsSize},
		command.BindShader{Stage: command.PixelStage, Addr: r.ps, Size: r.psSize},
		command.SetInputLayout{Stride: 16, Attributes: []command.Attribute{{Semantic: command.SemPosition, Components: 4}}},
		command.BindVertexBuffer{Addr: r.vb, Size: 48},
		command.Draw{VertexCount: 3},
		command.End{},
	}
	stream, size, addrs := r.put(cmds)
	if size != 168 {
		t.Fatalf("stream of %d bytes, the arithmetic below assumes 168", size)
	}
	b := newBench(t, r.img, benchConfig{memLatency: 10, drawLatency: 5, ackLatency: 3})
	b.run(t, r.img, stream, size)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	// Cycle 1: the chunk read is sent; the memory takes it at 2 and answers at 12;
	// the CP decodes SetViewport at 13 and carries it out at 14, one command per
	// cycle: SetColorTarget at 15, BindShader(VS) at 16 sends its read (memory at
	// 17, answer at 27, applied at 28), BindShader(PS) decoded at 28, read sent at
	// 29 (memory 30, answer 40, applied 41), SetInputLayout 42, BindVertexBuffer
	// 43, Draw 44 (sent; the IA takes it at 45), End at 45 waits for DrawDone
	// (sent at 45+5 = 50, taken at 51): finished at 51.
	wantMem := []testpeer.MemReq{
		{Cycle: 2, Addr: stream, Size: 168},
		{Cycle: 17, Addr: r.vs, Size: uint64(r.vsSize)},
		{Cycle: 30, Addr: r.ps, Size: uint64(r.psSize)},
	}
	if r.vsSize > 256 || r.psSize > 256 || r.vs%256+uint64(r.vsSize) > 256 || r.ps%256+uint64(r.psSize) > 256 {
		t.Fatalf("programs cross a 256-byte chunk: vs %d bytes at 0x%x, ps %d at 0x%x", r.vsSize, r.vs, r.psSize, r.ps)
	}
	if !reflect.DeepEqual(b.memory.Log, wantMem) {
		t.Errorf("memory requests %+v, want %+v", b.memory.Log, wantMem)
	}
	ds := b.pipe.byPort("Pipe.IA")
	if len(ds) != 1 || ds[0].Cycle != 45 {
		t.Fatalf("dispatches %+v, want one at cycle 45", ds)
	}
	d := ds[0].Msg.(*protocol.DrawDispatch).Draw
	if d.Seq != 0 || d.State.Addr != addrs[6] || d.State.Stream.Count != 3 {
		t.Errorf("draw %+v, want seq 0, command at 0x%x, 3 vertices", d, addrs[6])
	}
	if !b.cp.Finished() || b.cp.FinishTime() != 51e-9 {
		t.Errorf("finished %v at %v, want at 51 ns", b.cp.Finished(), b.cp.FinishTime())
	}
	st := testpeer.StatMap(b.cp)
	want := map[string]float64{
		"GPU.CommandProcessor.commands":                    8,
		"GPU.CommandProcessor.commands_bind_shader":        2,
		"GPU.CommandProcessor.commands_draw":               1,
		"GPU.CommandProcessor.commands_end":                1,
		"GPU.CommandProcessor.draws":                       1,
		"GPU.CommandProcessor.dma_bytes_read":              float64(168 + r.vsSize + r.psSize),
		"GPU.CommandProcessor.cycles_wait_dma":             13 + 12 + 12,
		"GPU.CommandProcessor.cycles_busy":                 3 + 1 + 4,
		"GPU.CommandProcessor.cycles_wait_drain":           6,
		"GPU.CommandProcessor.cycles_wait_state_version":   0,
		"GPU.CommandProcessor.draws_in_flight":             0,
		"GPU.CommandProcessor.dma.reads":                   3,
		"GPU.CommandProcessor.commands_set_input_layout":   1,
		"GPU.CommandProcessor.commands_bind_vertex_buffer": 1,
	}
	for k, v := range want {
		if st[k] != v {
			t.Errorf("%s = %v, want %v", k, st[k], v)
		}
	}
	if idle, end := st["GPU.CommandProcessor.cycles_idle"], b.cp.Freq.Cycle(b.engine.CurrentTime()); idle != float64(end-51) {
		t.Errorf("%v idle cycles, want %d (from 51 to the end of the run at %d)", idle, end-51, end)
	}
	if b.prog.Value() != 8+1 { // 8 commands and one draw completed
		t.Errorf("progress %d, want 9", b.prog.Value())
	}
}

// TestDispatchOrderAndContents runs a longer stream through small DMA chunks and
// checks that every draw arrives in order with the state the functional tracker
// gives (constants snapshot, stream, raster configuration).
func TestDispatchOrderAndContents(t *testing.T) {
	r := newResources(t)
	cmds := r.setup()
	var want []int // command index of each draw
	for i := 0; i < 5; i++ {
		c := r.red
		if i%2 == 1 {
			c = r.green
		}
		cmds = append(cmds, command.SetConstants{Stage: command.PixelStage, Count: 1, Addr: c})
		want = append(want, len(cmds))
		if i == 3 {
			cmds = append(cmds, command.SetTopology{Topology: command.TriangleStrip}, command.DrawIndexed{IndexCount: 3, StartIndex: 1, BaseVertex: 2})
			want[len(want)-1]++
		} else {
			cmds = append(cmds, command.Draw{VertexCount: 3, StartVertex: uint32(i)})
		}
	}
	cmds = append(cmds, command.End{})
	stream, size, addrs := r.put(cmds)

	ro := pipeline.RasterOptions{TileSize: 16, TileOrder: raster.ZOrder}
	cp := testpeer.Edit(DefaultConfig(), func(c *Config) { c.DMAChunkBytes = 64; c.MaxOutstandingDMA = 8; c.RasterOptions = ro })
	b := newBench(t, r.img, benchConfig{cp: cp, partitions: 2, memLatency: 7, drawLatency: 20, ackLatency: 3})
	b.run(t, r.img, stream, size)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	// The same stream through the functional tracker.
	var ref []*state.Draw
	testpeer.WalkStream(t, r.img, stream, size, func(act state.Action) {
		if act.Kind == state.ActDraw {
			ref = append(ref, act.Draw)
		}
	})
	got := dispatches(b.pipe)
	if len(got) != len(want) {
		t.Fatalf("%d draws dispatched, want %d", len(got), len(want))
	}
	for i, m := range got {
		d := m.Draw
		if d.Seq != uint64(i) || d.State.Addr != addrs[want[i]] || d.State.Index != i {
			t.Errorf("draw %d: seq %d, command 0x%x, index %d; want command 0x%x", i, d.Seq, d.State.Addr, d.State.Index, addrs[want[i]])
		}
		if !reflect.DeepEqual(d.State.PSConstants, ref[i].PSConstants) || !reflect.DeepEqual(d.State.Stream, ref[i].Stream) {
			t.Errorf("draw %d: constants %v stream %+v, want %v %+v", i, d.State.PSConstants, d.State.Stream, ref[i].PSConstants, ref[i].Stream)
		}
		if wantCfg := pipeline.RasterConfig(ref[i], ro); !reflect.DeepEqual(d.Raster, wantCfg) {
			t.Errorf("draw %d: raster %+v, want %+v", i, d.Raster, wantCfg)
		}
		if m.TrafficBytes != 64 {
			t.Errorf("draw %d: %d bytes charged", i, m.TrafficBytes)
		}
	}
	// Chunks are 64-byte aligned pieces of the stream, each read once, in order.
	var next uint64 = stream
	for _, q := range b.memory.Log {
		if q.Addr < stream || q.Addr >= stream+size {
			continue
		}
		if q.Addr != next || q.Size != min(64, stream+size-next) {
			t.Fatalf("chunk read 0x%x+%d, want 0x%x", q.Addr, q.Size, next)
		}
		next += q.Size
	}
	if next != stream+size {
		t.Errorf("stream read up to 0x%x, want 0x%x", next, stream+size)
	}
	if b.cp.DrawsInFlight() != 0 || !b.cp.Finished() {
		t.Errorf("%d draws in flight, finished %v", b.cp.DrawsInFlight(), b.cp.Finished())
	}
}

// TestStateVersions checks that with one state version the second draw waits for
// the first one's DrawDone from both partitions, and with eight it does not.
func TestStateVersions(t *testing.T) {
	r := newResources(t)
	cmds := append(r.setup(), command.Draw{VertexCount: 3}, command.Draw{VertexCount: 3}, command.End{})
	stream, size, _ := r.put(cmds)
	const drawLatency = 40
	for _, tc := range []struct {
		versions int
		gap      uint64 // cycles between the two dispatch arrivals
		waitVer  float64
	}{
		// The first draw reaches the IA at cycle a; DrawDone leaves the ROPs at
		// a+40 and the CP takes it at a+41, carries out the waiting draw in the same
		// tick, and the IA takes it at a+42. The draw waited from a (the cycle
		// after its dispatch, when the second draw came out of the decoder) to a+41.
		{versions: 1, gap: drawLatency + 2, waitVer: drawLatency + 1},
		{versions: 8, gap: 1, waitVer: 0},
	} {
		b := newBench(t, r.img, benchConfig{cp: testpeer.Edit(DefaultConfig(), func(c *Config) { c.StateVersions = tc.versions }), partitions: 2,
			memLatency: 5, drawLatency: drawLatency, ackLatency: 3})
		b.run(t, r.img, stream, size)
		if err := b.cp.Err(); err != nil {
			t.Fatal(err)
		}
		ds := b.pipe.byPort("Pipe.IA")
		if len(ds) != 2 {
			t.Fatalf("versions %d: %d dispatches", tc.versions, len(ds))
		}
		if gap := ds[1].Cycle - ds[0].Cycle; gap != tc.gap {
			t.Errorf("versions %d: second draw %d cycles after the first, want %d", tc.versions, gap, tc.gap)
		}
		if w := testpeer.StatMap(b.cp)["GPU.CommandProcessor.cycles_wait_state_version"]; w != tc.waitVer {
			t.Errorf("versions %d: %v cycles waiting for a state version, want %v", tc.versions, w, tc.waitVer)
		}
	}
}

// TestClearDrainsAndWaitsForAcks checks that a Clear after a draw waits for the
// draw's DrawDone from every partition, then sends a ClearCmd to every ROP
// (colour) and depth unit (depth and stencil) with the target and its size, and
// that the next draw waits for every Done.
func TestClearDrainsAndWaitsForAcks(t *testing.T) {
	r := newResources(t)
	clr := command.Clear{Flags: command.ClearColor | command.ClearDepth | command.ClearStencil,
		Color: geom.Vec4{0, 0, 1, 1}, Depth: 0.25, Stencil: 7}
	cmds := append(r.setup(), command.Draw{VertexCount: 3}, clr, command.Draw{VertexCount: 3}, command.End{})
	stream, size, _ := r.put(cmds)
	const drawLatency, ackLatency = 30, 9
	b := newBench(t, r.img, benchConfig{partitions: 2, memLatency: 5, drawLatency: drawLatency, ackLatency: ackLatency})
	var colorAtDraw []byte
	b.pipe.render = func(d *protocol.Draw) {
		if d.Seq == 1 {
			colorAtDraw = append([]byte(nil), d.State.Color.Bytes()[:4]...)
		}
	}
	b.run(t, r.img, stream, size)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	ia := b.pipe.byPort("Pipe.IA")
	if len(ia) != 2 {
		t.Fatalf("%d dispatches", len(ia))
	}
	a := ia[0].Cycle
	// DrawDone leaves at a+30, the CP takes it at a+31 and sends the ClearCmds in
	// the same tick; the units take them at a+32 and answer at a+41; the CP takes
	// the Done at a+42, completing the Clear, and decodes the next draw, which it
	// carries out at a+43 (the IA takes it at a+44).
	clearAt := a + drawLatency + 2
	colorSize, depthSize := uint64(16*16*4), uint64(16*16*4)
	type cmdAt struct {
		port  string
		cycle uint64
		flags uint32
		addr  uint64
		size  uint64
	}
	var got []cmdAt
	for _, rec := range b.pipe.got {
		if c, ok := rec.Msg.(*protocol.ClearCmd); ok {
			got = append(got, cmdAt{rec.Port, rec.Cycle, c.Flags, c.Target.Addr, c.Size})
		}
	}
	want := []cmdAt{
		{"Pipe.ROP[0]", clearAt, command.ClearColor, r.color.Addr, colorSize},
		{"Pipe.ROP[1]", clearAt, command.ClearColor, r.color.Addr, colorSize},
		{"Pipe.DepthUnit[0]", clearAt, command.ClearDepth | command.ClearStencil, r.depth.Addr, depthSize},
		{"Pipe.DepthUnit[1]", clearAt, command.ClearDepth | command.ClearStencil, r.depth.Addr, depthSize},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("clear commands %+v, want %+v", got, want)
	}
	if ia[1].Cycle != clearAt+ackLatency+3 {
		t.Errorf("second draw at cycle %d, want %d", ia[1].Cycle, clearAt+ackLatency+3)
	}
	// The functional clear happened before the second draw.
	if !reflect.DeepEqual(colorAtDraw, []byte{0, 0, 255, 255}) {
		t.Errorf("colour at the second draw %v, want the clear colour", colorAtDraw)
	}
	st := testpeer.StatMap(b.cp)
	if st["GPU.CommandProcessor.cycles_wait_ack"] != ackLatency+2 || st["GPU.CommandProcessor.clears"] != 1 {
		t.Errorf("wait_ack %v cycles, clears %v", st["GPU.CommandProcessor.cycles_wait_ack"], st["GPU.CommandProcessor.clears"])
	}
}

// TestSyncAndPresent checks the sync token's DMA write (after the drain) and the
// Present commands to every ROP and depth unit, and the image.
func TestSyncAndPresent(t *testing.T) {
	r := newResources(t)
	sync := r.img.Alloc(4, 16)
	cmds := append(r.setup(), command.Clear{Flags: command.ClearColor, Color: geom.Vec4{1, 1, 0, 1}},
		command.SyncToken{Value: 0xabcd1234, Addr: sync}, command.Present{}, command.End{})
	stream, size, _ := r.put(cmds)
	b := newBench(t, r.img, benchConfig{partitions: 2, memLatency: 4, drawLatency: 10, ackLatency: 2})
	b.run(t, r.img, stream, size)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	var writes []testpeer.MemReq
	for _, q := range b.memory.Log {
		if q.Write {
			writes = append(writes, q)
		}
	}
	if len(writes) != 1 || writes[0].Addr != sync || writes[0].Size != 4 {
		t.Errorf("writes %+v, want 4 bytes at 0x%x", writes, sync)
	}
	if v := command.ReadU32(r.img, sync); v != 0xabcd1234 {
		t.Errorf("sync token 0x%x in memory", v)
	}
	var presents []string
	for _, rec := range b.pipe.got {
		if p, ok := rec.Msg.(*protocol.PresentCmd); ok {
			if p.Target.Addr != r.color.Addr {
				t.Errorf("present of target 0x%x", p.Target.Addr)
			}
			presents = append(presents, rec.Port)
		}
	}
	if want := []string{"Pipe.ROP[0]", "Pipe.ROP[1]", "Pipe.DepthUnit[0]", "Pipe.DepthUnit[1]"}; !reflect.DeepEqual(presents, want) {
		t.Errorf("present commands to %v, want %v", presents, want)
	}
	img := b.cp.Image()
	if img == nil || img.Rect.Dx() != 16 || !reflect.DeepEqual(img.Pix[:4], []byte{255, 255, 0, 255}) {
		t.Fatalf("image %v", img)
	}
	st := testpeer.StatMap(b.cp)
	if st["GPU.CommandProcessor.dma_bytes_written"] != 4 || st["GPU.CommandProcessor.sync_tokens"] != 1 || st["GPU.CommandProcessor.presents"] != 1 {
		t.Errorf("stats %v", st)
	}
}

// TestErrorsStopTheRun checks that a malformed or impossible command stops the
// run with an error naming its address.
func TestErrorsStopTheRun(t *testing.T) {
	r := newResources(t)
	type tc struct {
		name  string
		cmds  []command.Command
		raw   func(stream []byte) []byte // edits the encoded stream
		bad   int                        // index of the bad command (-1: the end of the stream)
		field string
	}
	cases := []tc{
		{name: "unknown opcode", cmds: append(r.setup(), command.Draw{VertexCount: 3}, command.Nop{}, command.End{}),
			raw: func(s []byte) []byte { s[len(s)-8] = 200; return s }, bad: 9, field: "opcode"},
		{name: "draw without shaders", cmds: []command.Command{command.SetViewport{Viewport: geom.Viewport{Width: 4, Height: 4, MaxZ: 1}},
			command.SetColorTarget{Target: r.color}, command.Draw{VertexCount: 3}, command.End{}}, bad: 2, field: "vertex shader"},
		{name: "no End", cmds: append(r.setup(), command.Draw{VertexCount: 3}), bad: -1, field: "without an End"},
		{name: "truncated", cmds: append(r.setup(), command.Draw{VertexCount: 3}),
			raw: func(s []byte) []byte { return s[:len(s)-4] }, bad: 8, field: "past the end"},
	}
	for _, c := range cases {
		var e command.Encoder
		var offs []int
		for _, cmd := range c.cmds {
			offs = append(offs, e.Len())
			e.Append(cmd)
		}
		raw := e.Bytes()
		if c.raw != nil {
			raw = c.raw(append([]byte(nil), raw...))
		}
		stream := r.img.Put(raw, 4096)
		b := newBench(t, r.img, benchConfig{memLatency: 3, drawLatency: 5, ackLatency: 2})
		b.run(t, r.img, stream, uint64(len(raw)))
		err := b.cp.Err()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		addr := stream + uint64(len(raw))
		if c.bad >= 0 {
			addr = stream + uint64(offs[c.bad])
		}
		if want := "@0x" + strings.TrimPrefix(hex(addr), "0x"); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: error %q, want the address %s and %q", c.name, err, want, c.field)
		}
		if !b.halt.Stopped() || b.halt.Reason() != err || b.cp.Finished() {
			t.Errorf("%s: halt %v (%v), finished %v", c.name, b.halt.Stopped(), b.halt.Reason(), b.cp.Finished())
		}
	}
}

func hex(v uint64) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}

func TestConfigValidation(t *testing.T) {
	testpeer.CheckValidate(t, DefaultConfig(), []testpeer.ConfigCase[Config]{
		{Want: "", Edit: func(c *Config) {}},
		{Want: "DMAChunkBytes", Edit: func(c *Config) { c.DMAChunkBytes = 6 }},
		{Want: "MaxOutstandingDMA", Edit: func(c *Config) { c.MaxOutstandingDMA = 0 }},
		{Want: "MaxOutstandingDMA", Edit: func(c *Config) { c.DMAChunkBytes = 64; c.MaxOutstandingDMA = 2 }},
		{Want: "DecodeCycles", Edit: func(c *Config) { c.DecodeCycles = 0 }},
		{Want: "StateVersions", Edit: func(c *Config) { c.StateVersions = 0 }},
		{Want: "Partitions", Edit: func(c *Config) { c.Partitions = 0 }},
		{Want: "TileSize", Edit: func(c *Config) { c.RasterOptions = pipeline.RasterOptions{TileSize: 12} }},
		{Want: "QuadOrder", Edit: func(c *Config) { c.RasterOptions = pipeline.RasterOptions{QuadOrder: 7} }},
	})
	e := sim.NewSerialEngine()
	testpeer.CheckEnv(t, true, func(env timing.Env) { MakeBuilder().WithEnv(env).Build("GPU.CommandProcessor") })
	testpeer.Panics(t, "StateVersions", func() {
		MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.StateVersions = -1 })).
			Build("GPU.CommandProcessor")
	})
	cp := MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Partitions = 2 })).Build("GPU.CommandProcessor")
	if err := cp.Start(command.NewImage(), 0x10000, 4, 0); err == nil || !strings.Contains(err.Error(), "Memory") {
		t.Errorf("Start without peers: %v", err)
	}
	for _, bs := range cp.Buffers() {
		sim.NameMustBeValid(bs.Name)
	}
}

// TestDecodeCycles: the chunk arrives at cycle 13 (as in TestStreamTiming); each
// command is carried out DecodeCycles after it was decoded, and the next one is
// decoded in the same cycle, so End (the fifth command) is carried out at
// 13 + 5*DecodeCycles.
func TestDecodeCycles(t *testing.T) {
	r := newResources(t)
	cmds := []command.Command{
		command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 16, MaxZ: 1}},
		command.SetScissor{Enable: true, X1: 4, Y1: 4},
		command.SetRaster{CullMode: uint32(geom.CullFront)},
		command.SetTopology{Topology: command.TriangleStrip},
		command.End{},
	}
	stream, size, _ := r.put(cmds)
	for _, n := range []int{1, 3, 7} {
		b := newBench(t, r.img, benchConfig{cp: testpeer.Edit(DefaultConfig(), func(c *Config) { c.DecodeCycles = n }), memLatency: 10})
		b.run(t, r.img, stream, size)
		if err := b.cp.Err(); err != nil {
			t.Fatal(err)
		}
		want := uint64(13 + 5*n)
		if got := b.cp.Freq.Cycle(b.cp.FinishTime()); !b.cp.Finished() || got != want {
			t.Errorf("DecodeCycles %d: finished %v at cycle %d, want %d", n, b.cp.Finished(), got, want)
		}
		if busy := testpeer.StatMap(b.cp)["GPU.CommandProcessor.cycles_busy"]; busy != float64(5*n) {
			t.Errorf("DecodeCycles %d: %v busy cycles, want %d", n, busy, 5*n)
		}
	}
}

// taskOrder is a tracer that records the tasks started and the order in
// which tasks end.
type taskOrder struct {
	started []tracing.Task
	ended   []string
}

func (o *taskOrder) StartTask(t tracing.Task) { o.started = append(o.started, t) }
func (o *taskOrder) StepTask(tracing.Task)    {}
func (o *taskOrder) EndTask(t tracing.Task)   { o.ended = append(o.ended, t.ID) }

// TestTiledDrawTasksEndWithTheirPass: on the tiled machine (Binner set) a
// draw is complete for the command processor once binned, but its draw task
// ends when the binner answers the PassEnd of its pass (its tiles are
// rendered and stored): draws 0 and 1 with the PassEnd before the Clear,
// draw 2 with the PassEnd before the End.
func TestTiledDrawTasksEndWithTheirPass(t *testing.T) {
	r := newResources(t)
	cmds := append(r.setup(), command.Draw{VertexCount: 3}, command.Draw{VertexCount: 3},
		command.Clear{Flags: command.ClearColor}, command.Draw{VertexCount: 3}, command.End{})
	stream, size, _ := r.put(cmds)
	b := newBench(t, r.img, benchConfig{partitions: 1, memLatency: 5, drawLatency: 10, ackLatency: 40})
	b.cp.Binner = b.pipe.ROP[0]
	b.cp.DepthUnits = b.cp.ROPs // the binner takes every back-end command
	var log taskOrder
	tracing.CollectTrace(b.cp, &log)
	b.run(t, r.img, stream, size)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	var passEnds []string
	for _, rec := range b.pipe.got {
		if m, ok := rec.Msg.(*protocol.PassEnd); ok {
			passEnds = append(passEnds, protocol.ReqOutTaskID(m.ID))
		}
	}
	if len(passEnds) != 2 {
		t.Fatalf("%d PassEnds, want 2", len(passEnds))
	}
	var got []string
	for _, id := range log.ended {
		switch {
		case id == passEnds[0]:
			got = append(got, "pass end 0")
		case id == passEnds[1]:
			got = append(got, "pass end 1")
		case strings.HasPrefix(id, "draw"):
			got = append(got, id)
		}
	}
	want := []string{"pass end 0", "draw0", "draw1", "pass end 1", "draw2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ends %v, want %v", got, want)
	}
	draws := 0
	for _, task := range log.started {
		if task.Kind == protocol.KindDraw {
			draws++
		}
	}
	if draws != 3 || !b.cp.Finished() {
		t.Errorf("%d draw tasks started, finished %v; want 3, true", draws, b.cp.Finished())
	}
}
