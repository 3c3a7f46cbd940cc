package shadercore_test

import (
	"math"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// rig is a core wired to a scripted dispatcher, sinks for primitive assembly
// and the reorder buffer, and a fake sampler, over one direct connection.
type rig struct {
	engine  sim.Engine
	core    *shadercore.Comp
	disp    *dispatcher
	pa, rob *sink
	sampler *fakeSampler
	halt    *timing.Halt
	conn    *sim.DirectConnection
}

func newRig(t *testing.T, engine sim.Engine, cfg shadercore.Config, samplerLatency uint64, robCap int) *rig {
	t.Helper()
	r := &rig{engine: engine, halt: &timing.Halt{}}
	r.core = shadercore.MakeBuilder().WithEnv(timing.Env{Engine: engine, Freq: freq, Halt: r.halt}).WithConfig(cfg).
		Build("GPU.ShaderCore[0]")
	r.disp = newDispatcher(engine, "Dispatch")
	r.pa = newSink(engine, "PrimitiveAssembly", 4)
	r.rob = newSink(engine, "ReorderBuffer", robCap)
	r.sampler = newFakeSampler(engine, "Sampler", samplerLatency)
	conn := sim.NewDirectConnection("Conn", engine, freq)
	r.conn = conn
	for _, p := range []sim.Port{r.disp.Out, r.core.FromDispatch, r.core.ToPrimitiveAssembly, r.core.ToReorderBuffer,
		r.core.Sampler, r.pa.In, r.rob.In, r.sampler.Port} {
		conn.PlugIn(p, 1)
	}
	r.disp.Dst = r.core.FromDispatch
	r.core.PrimitiveAssemblyPort = r.pa.In
	r.core.ReorderBufferPort = r.rob.In
	r.core.SamplerPort = r.sampler.Port
	return r
}

// send sends msgs (one per cycle from cycle 0) and runs the simulation to the
// end, which must come without a halt.
func (r *rig) send(t *testing.T, msgs ...sim.Msg) {
	t.Helper()
	for _, m := range msgs {
		r.disp.Script = append(r.disp.Script, testpeer.Scripted{Msg: m})
	}
	testpeer.Run(t, r.engine, r.disp)
	if err := r.halt.Reason(); err != nil {
		t.Fatalf("halted: %v", err)
	}
}

// run sends msgs and checks that each gave one output, to primitive assembly
// or the reorder buffer.
func (r *rig) run(t *testing.T, msgs ...sim.Msg) {
	t.Helper()
	r.send(t, msgs...)
	if got, want := len(r.pa.got)+len(r.rob.got), len(msgs); got != want {
		t.Fatalf("%d outputs for %d inputs", got, want)
	}
}

func sameFloat(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }

func sameVec(a, b geom.Vec4) bool {
	for i := range a {
		if !sameFloat(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sameQuad(a, b *pipeline.QuadOutput) bool {
	for p := 0; p < 4; p++ {
		if !sameVec(a.Color[p], b.Color[p]) || !sameFloat(a.Depth[p], b.Depth[p]) {
			return false
		}
	}
	return a.Store == b.Store
}

func sameVertex(a, b *pipeline.VertexOut) bool {
	for i := range a {
		if !sameVec(a[i], b[i]) {
			return false
		}
	}
	return true
}

// checkOutputs matches every output the sinks received with its job and
// compares it, bit for bit, with the recorded functional output.
func checkOutputs(t *testing.T, r *rig, jobs []sim.Msg, want []any) {
	t.Helper()
	index := map[any]int{}
	for i, j := range jobs {
		switch m := j.(type) {
		case *protocol.PixelWarp:
			index[m] = i
		case *protocol.VertexBatch:
			index[&m.Batch] = i
		}
	}
	seen := make([]bool, len(jobs))
	for _, m := range append(append([]sim.Msg{}, r.pa.got...), r.rob.got...) {
		switch o := m.(type) {
		case *protocol.ShadedWarp:
			i, ok := index[o.Warp]
			if !ok || seen[i] {
				t.Fatalf("unexpected or repeated ShadedWarp %d", o.Warp.ID)
			}
			seen[i] = true
			w := want[i].([]pipeline.QuadOutput)
			if len(o.Outputs) != len(w) {
				t.Fatalf("job %d: %d quad outputs, want %d", i, len(o.Outputs), len(w))
			}
			for q := range w {
				if !sameQuad(&o.Outputs[q], &w[q]) {
					t.Fatalf("job %d quad %d: %+v, want %+v", i, q, o.Outputs[q], w[q])
				}
			}
		case *protocol.ShadedBatch:
			i, ok := index[o.Batch]
			if !ok || seen[i] {
				t.Fatalf("unexpected or repeated ShadedBatch %d", o.Seq)
			}
			seen[i] = true
			w := want[i].([]pipeline.VertexOut)
			if len(o.Outputs) != len(w) {
				t.Fatalf("job %d: %d vertex outputs, want %d", i, len(o.Outputs), len(w))
			}
			for v := range w {
				if !sameVertex(&o.Outputs[v], &w[v]) {
					t.Fatalf("job %d vertex %d: %v, want %v", i, v, o.Outputs[v], w[v])
				}
			}
		default:
			t.Fatalf("unexpected output %T", m)
		}
	}
}

func TestFrameMatchesFunctionalPipeline(t *testing.T) {
	rec := record(t, wallScene)
	// The recording is faithful to the reference renderer.
	ref := testpeer.Reference(t, testpeer.EncodeScene(t, "wall.yaml", wallScene))
	if rec.image == nil || ref.Image == nil || string(rec.image.Pix) != string(ref.Image.Pix) {
		t.Fatal("the recording's image differs from the reference renderer's")
	}
	c := ref.Counters
	if rec.vsInv != c.VSInvocations || rec.psInv != c.PSInvocations || rec.psInstr != c.PSInstructions ||
		rec.vsInstr != c.VSInstructions || rec.texReq != c.TexRequests || rec.helpers != c.HelperPixels ||
		rec.warps != c.PixelWarps || rec.batches != c.VertexBatches {
		t.Fatalf("recording counters differ from the reference: %+v", c)
	}
	if c.TexRequests == 0 || c.PixelWarps < 10 || c.VertexBatches < 3 {
		t.Fatalf("the test frame is too small: %+v", c)
	}

	for _, engine := range []struct {
		name string
		e    sim.Engine
	}{{"serial", sim.NewSerialEngine()}, {"parallel", sim.NewParallelEngine()}} {
		t.Run(engine.name, func(t *testing.T) {
			r := newRig(t, engine.e, shadercore.DefaultConfig(), 40, 4)
			r.run(t, rec.jobs...)
			checkOutputs(t, r, rec.jobs, rec.want)
			r.core.Finish(r.engine.CurrentTime())
			testpeer.CheckStats(t, testpeer.StatMap(r.core), "GPU.ShaderCore[0]", map[string]float64{
				"vertex_warps":          float64(c.VertexBatches),
				"pixel_warps":           float64(c.PixelWarps),
				"vs_invocations":        float64(c.VSInvocations),
				"ps_invocations":        float64(c.PSInvocations),
				"helper_pixels":         float64(c.HelperPixels),
				"vs_instructions":       float64(c.VSInstructions),
				"ps_instructions":       float64(c.PSInstructions),
				"vs_lane_instructions":  float64(c.VSLaneInstructions),
				"ps_lane_instructions":  float64(c.PSLaneInstructions),
				"texture_lane_requests": float64(c.TexRequests),
			})
		})
	}
}

func TestDeterministicStatistics(t *testing.T) {
	rec := record(t, wallScene)
	var first map[string]float64
	for i := 0; i < 2; i++ {
		r := newRig(t, sim.NewSerialEngine(), shadercore.DefaultConfig(), 40, 4)
		r.run(t, rec.jobs...)
		r.core.Finish(r.engine.CurrentTime())
		st := testpeer.StatMap(r.core)
		if first == nil {
			first = st
			continue
		}
		for k, v := range first {
			if st[k] != v {
				t.Errorf("%s: %v then %v", k, v, st[k])
			}
		}
	}
}

// customDraw returns a copy of d whose pixel shader is the program src.
func customDraw(t *testing.T, d *protocol.Draw, src string) *protocol.Draw {
	t.Helper()
	ps, err := shader.Assemble("test.ps.gsa", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := *d.State
	st.PS, st.PSResources, st.PSConstants = ps, ps.Resources(), ps.InitConstants(nil)
	if st.Link, err = shader.Link(st.VS, ps); err != nil {
		t.Fatal(err)
	}
	return &protocol.Draw{Seq: d.Seq, State: &st, Raster: d.Raster}
}

// fullWarps returns n pixel warps of d made of the quads of the first full
// warps of the recording's first draw.
func fullWarps(t *testing.T, rec *recording, d *protocol.Draw, n int) []*protocol.PixelWarp {
	t.Helper()
	var out []*protocol.PixelWarp
	for _, j := range rec.jobs {
		if pw, ok := j.(*protocol.PixelWarp); ok && pw.Draw.Seq == 0 && len(pw.Quads) == 8 && len(out) < n {
			out = append(out, protocol.NewPixelWarp(d, uint64(len(out)), pw.Quads))
		}
	}
	if len(out) < n {
		t.Fatalf("%d full warps, want %d", len(out), n)
	}
	return out
}

// functionalOutputs shades pw directly with the pipeline functions.
func functionalOutputs(pw *protocol.PixelWarp) []pipeline.QuadOutput {
	d := pw.Draw.State
	w := shader.NewWarp(shader.MaxLanes)
	w.Reset(d.PS, 4*len(pw.Quads), d.PSConstants)
	for i, q := range pw.Quads {
		pipeline.LoadQuad(d, &pw.Draw.Raster, q.Prim, q.Quad, q.Live, w, 4*i)
	}
	w.Run(&pipeline.TextureUnits{Bindings: &d.PSTextures})
	out := make([]pipeline.QuadOutput, len(pw.Quads))
	for i := range out {
		out[i] = pipeline.ReadQuad(d, w, 4*i)
	}
	return out
}

func warpJobs(warps []*protocol.PixelWarp) ([]sim.Msg, []any) {
	var jobs []sim.Msg
	var want []any
	for _, w := range warps {
		jobs = append(jobs, w)
		want = append(want, functionalOutputs(w))
	}
	return jobs, want
}

const texProgram = `.ps
.input v0 texcoord perspective
.output o0 color
.sampler s0 albedo
mov r0, v0
tex r1, r0, s0
add o0, r1, r0
`

// TestTextureSwitchTiming pins the schedule of two warps that each issue a
// texture fetch: while warp A waits for its texture, warp B runs.
//
// Both warps have 8 quads and one interpolant (load: ceil(8*1/4) = 2 cycles);
// an instruction occupies 32/16 = 2 issue cycles; ALU latency 4, texture
// issue 1; the fake sampler answers 10 cycles after it takes a request.
//
//	cycle  0: A sent          1: A admitted, loads 1-3   2: B admitted, loads 3-5
//	cycle  3: A mov (SIMD 3-5, A ready 7)                5: B mov (B ready 9)
//	cycle  7: A tex, request leaves 8, sampler takes it 9, answers 19, core 20
//	cycle  9: B tex, request leaves 10, sampler takes it 11, answers 21, core 22
//	cycle 11-20: both warps wait for textures (stall_texture)
//	cycle 21: A add, done 25: sent, taken by the reorder buffer at 26
//	cycle 23: B add, done 27: sent, taken at 28
func TestTextureSwitchTiming(t *testing.T) {
	rec := record(t, wallScene)
	d := customDraw(t, rec.draws[0], texProgram)
	jobs, want := warpJobs(fullWarps(t, rec, d, 2))
	r := newRig(t, sim.NewSerialEngine(), shadercore.DefaultConfig(), 10, 4)
	r.run(t, jobs...)
	checkOutputs(t, r, jobs, want)
	if got := r.sampler.received; len(got) != 2 || got[0] != 9 || got[1] != 11 {
		t.Errorf("sampler took requests at cycles %v, want [9 11]", got)
	}
	if got := r.sampler.warps; len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("requests from warp slots %v, want [0 1]", got)
	}
	if got := r.rob.at; len(got) != 2 || got[0] != 26 || got[1] != 28 {
		t.Errorf("outputs taken at cycles %v, want [26 28]", got)
	}
	if r.rob.got[0].(*protocol.ShadedWarp).Warp != jobs[0] {
		t.Error("warp A did not finish first")
	}
	r.core.Finish(cycleTime(30))
	testpeer.CheckStats(t, testpeer.StatMap(r.core), "GPU.ShaderCore[0]", map[string]float64{
		"pixel_warps":              2,
		"instructions":             6,
		"instructions_alu":         4,
		"instructions_texture":     2,
		"texture_requests":         2,
		"texture_lane_requests":    64,
		"texture_wait_warp_cycles": 26, // 20-7 + 22-9
		"cycles_idle":              1,  // cycle 0
		"cycles_stall_latency":     5,  // 1-3 loading, 20 (A's result written), 25-26 (B's add)
		"cycles_busy":              12, // 6 instructions x 2 cycles
		"cycles_stall_texture":     9,  // 11-19
		"cycles_blocked_output":    0,
		"cycles_starved":           3, // 27-29
		"avg_resident_warps":       49.0 / 30,
		"max_resident_warps":       2,
		"utilization":              0.4,
	})
}

// TestLatencyPerClass runs one warp whose first instruction is of a given
// class, followed by "mov o0, ...". The warp is admitted at cycle 1, ready at
// 3; its first instruction issues at 3, the second at max(3+latency, 5) (the
// SIMD is busy for 2 cycles); the output leaves 4 (ALU) cycles later and is
// taken one cycle after that.
func TestLatencyPerClass(t *testing.T) {
	rec := record(t, wallScene)
	lat := shadercore.Latencies{ALU: 4, SFU: 16, Derivative: 6, Texture: 1, Kill: 1}
	tests := []struct {
		name  string
		code  string
		taken uint64
	}{
		{"alu", "mov r0, v0\nmov o0, r0\n", 3 + 4 + 4 + 1},
		{"sfu", "rcp r0, v0.x\nmov o0, r0\n", 3 + 16 + 4 + 1},
		{"derivative", "ddx r0, v0\nmov o0, r0\n", 3 + 6 + 4 + 1},
		{"kill bounded by the issue cycles", "kil v0\nmov o0, v0\n", 5 + 4 + 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := customDraw(t, rec.draws[0], ".ps\n.input v0 texcoord perspective\n.output o0 color\n"+tc.code)
			jobs, want := warpJobs(fullWarps(t, rec, d, 1))
			r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.Latencies = lat }), 10, 4)
			r.run(t, jobs...)
			checkOutputs(t, r, jobs, want)
			if r.rob.at[0] != tc.taken {
				t.Errorf("output taken at cycle %d, want %d", r.rob.at[0], tc.taken)
			}
		})
	}
}

// TestRegisterLimitedOccupancy dispatches six one-instruction-pair warps and
// checks how many are resident at most.
func TestRegisterLimitedOccupancy(t *testing.T) {
	rec := record(t, wallScene)
	const many = "mov r31, v0\nmov o0, r31\n" // 32 temporaries: 32*32 = 1024 registers per warp
	const few = "mov r0, v0\nmov o0, r0\n"    // 1 temporary: 32 registers per warp
	tests := []struct {
		name               string
		code               string
		registers, slots   int
		maxResident        float64
		blockedByRegisters bool
		blockedBySlots     bool
	}{
		{"many temps, 2048 registers", many, 2048, 16, 2, true, false},
		{"many temps, 16384 registers", many, 16384, 16, 6, false, false},
		{"few temps, 4 slots", few, 2048, 4, 4, false, true},
		{"few temps, 2048 registers", few, 2048, 16, 6, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := customDraw(t, rec.draws[0], ".ps\n.input v0 texcoord perspective\n.output o0 color\n"+tc.code)
			jobs, want := warpJobs(fullWarps(t, rec, d, 6))
			cfg := testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.Registers = tc.registers; c.WarpSlots = tc.slots })
			r := newRig(t, sim.NewSerialEngine(), cfg, 10, 8)
			r.run(t, jobs...)
			checkOutputs(t, r, jobs, want)
			r.core.Finish(r.engine.CurrentTime())
			st := testpeer.StatMap(r.core)
			if got := st["GPU.ShaderCore[0].max_resident_warps"]; got != tc.maxResident {
				t.Errorf("max resident warps %v, want %v", got, tc.maxResident)
			}
			if got := st["GPU.ShaderCore[0].admit_blocked_registers_cycles"] > 0; got != tc.blockedByRegisters {
				t.Errorf("admission blocked by registers: %v, want %v", got, tc.blockedByRegisters)
			}
			if got := st["GPU.ShaderCore[0].admit_blocked_slots_cycles"] > 0; got != tc.blockedBySlots {
				t.Errorf("admission blocked by slots: %v, want %v", got, tc.blockedBySlots)
			}
		})
	}
}

// TestBlockedOutputKeepsSlot: with one warp slot and a reorder buffer that
// takes nothing before cycle 100, the finished warp keeps its slot and the
// second warp is admitted only after the first one's output left.
func TestBlockedOutputKeepsSlot(t *testing.T) {
	rec := record(t, wallScene)
	d := customDraw(t, rec.draws[0], ".ps\n.input v0 texcoord perspective\n.output o0 color\nmov r0, v0\nmov o0, r0\n")
	jobs, want := warpJobs(fullWarps(t, rec, d, 3))
	r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.WarpSlots = 1 }), 10, 1)
	r.rob.openAt = 100
	r.run(t, jobs...)
	checkOutputs(t, r, jobs, want)
	// Warp 0: admitted 1, done 11, sent 11 into the reorder buffer's port.
	// Warp 1: admitted 11 (load 11-13), issues 13 and 17, done 21: its output
	// waits in the connection (the port is full). Warp 2 is admitted at 21, done
	// 31, and its send is refused: it keeps the only slot until the reorder
	// buffer takes warp 0 at 100 and the connection moves warp 1 into the port,
	// which frees the connection at 100; the core retries at 101 (blocked
	// cycles 31-100). The reorder buffer takes one message per cycle.
	if got := r.rob.at; len(got) != 3 || got[0] != 100 || got[1] != 101 || got[2] != 102 {
		t.Errorf("outputs taken at %v, want [100 101 102]", got)
	}
	r.core.Finish(cycleTime(103))
	testpeer.CheckStats(t, testpeer.StatMap(r.core), "GPU.ShaderCore[0]", map[string]float64{
		"cycles_blocked_output": 101 - 31,
		"max_resident_warps":    1,
	})
}

func TestBadInputHalts(t *testing.T) {
	rec := record(t, wallScene)
	tests := []struct {
		name string
		msg  func() sim.Msg
		cfg  shadercore.Config
		want string
	}{
		{"unexpected message", func() sim.Msg { return protocol.NewBatchCredit(1) }, shadercore.DefaultConfig(),
			"unexpected message *protocol.BatchCredit"},
		{"program larger than the register file", func() sim.Msg {
			d := customDraw(t, rec.draws[0], ".ps\n.input v0 texcoord perspective\n.output o0 color\nmov r31, v0\nmov o0, r31\n")
			return fullWarps(t, rec, d, 1)[0]
		}, testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.Registers = 512 }), "needs 1024 registers per warp, the core has 512"},
		{"too many lanes", func() sim.Msg {
			pw := fullWarps(t, rec, rec.draws[0], 3)
			quads := append(append(append([]protocol.WarpQuad{}, pw[0].Quads...), pw[1].Quads...), pw[2].Quads...)
			return protocol.NewPixelWarp(rec.draws[0], 9, quads)
		}, shadercore.DefaultConfig(), "a warp of 96 lanes exceeds 64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, sim.NewSerialEngine(), tc.cfg, 10, 4)
			r.disp.Script = []testpeer.Scripted{{Msg: tc.msg()}}
			testpeer.Run(t, r.engine, r.disp)
			testpeer.CheckHalted(t, r.halt.Reason(), "GPU.ShaderCore[0]", tc.want)
		})
	}
}

func TestConfigValidate(t *testing.T) {
	testpeer.CheckValidate(t, shadercore.DefaultConfig(), []testpeer.ConfigCase[shadercore.Config]{
		{Want: "", Edit: func(c *shadercore.Config) {}},
		{Want: "WarpSize", Edit: func(c *shadercore.Config) { c.WarpSize = 65 }},
		{Want: "SIMDWidth", Edit: func(c *shadercore.Config) { c.SIMDWidth = 33 }},
		{Want: "WarpSlots", Edit: func(c *shadercore.Config) { c.WarpSlots = 0 }},
		{Want: "Registers", Edit: func(c *shadercore.Config) { c.Registers = 31 }},
		{Want: "InputQueue", Edit: func(c *shadercore.Config) { c.InputQueue = 0 }},
		{Want: "InterpolationCycles", Edit: func(c *shadercore.Config) { c.InterpolationCycles = math.NaN() }},
		{Want: "Latencies.SFU", Edit: func(c *shadercore.Config) {
			c.Latencies = shadercore.Latencies{ALU: 4, SFU: 0, Derivative: 4, Texture: 1, Kill: 1}
		}},
		{Want: "SFURate", Edit: func(c *shadercore.Config) { c.SFURate = -1 }},
		{Want: "SFURate", Edit: func(c *shadercore.Config) { c.SFURate = 33 }},
		{Want: "", Edit: func(c *shadercore.Config) { c.SFURate = 0 }},
		{Want: "", Edit: func(c *shadercore.Config) { c.SFURate = 1 }},
		{Want: "", Edit: func(c *shadercore.Config) { c.SFURate = 32 }},
	})
	testpeer.CheckEnv(t, true, func(env timing.Env) { shadercore.MakeBuilder().WithEnv(env).Build("GPU.ShaderCore[0]") })
}

func TestBuffersAndIssueCycles(t *testing.T) {
	c := shadercore.MakeBuilder().WithEnv(testpeer.Env(sim.NewSerialEngine())).WithConfig(testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.WarpSize = 32; c.SIMDWidth = 12 })).Build("GPU.ShaderCore[3]")
	if c.IssueCycles() != 3 {
		t.Errorf("issue cycles %d, want ceil(32/12) = 3", c.IssueCycles())
	}
	testpeer.CheckBufferNames(t, c, "GPU.ShaderCore[3].InputQueue GPU.ShaderCore[3].GSInputQueue GPU.ShaderCore[3].GSOutputBuffer "+
		"GPU.ShaderCore[3].WarpSlots GPU.ShaderCore[3].Registers "+
		"GPU.ShaderCore[3].TexRequestQueue GPU.ShaderCore[3].TexResponses")
}

// TestVertexTexture: a vertex shader's texture fetch uses the draw's vertex
// texture bindings and the results reach the shaded batch.
func TestVertexTexture(t *testing.T) {
	rec := record(t, wallScene)
	vs, err := shader.Assemble("test.vs.gsa", []byte(`.vs
.input v0 position
.input v1 normal
.input v2 texcoord
.input v3 tangent
.output o0 position
.output o1 texcoord
.sampler s0 albedo
tex r0, v2, s0
mov o0, v0
add o1, r0, v2
`))
	if err != nil {
		t.Fatal(err)
	}
	st := *rec.draws[0].State
	st.VS, st.VSConstants = vs, vs.InitConstants(nil)
	st.VSTextures[0] = st.PSTextures[0]
	st.PSTextures[0].Texture = nil // a pixel binding would give other values
	d := &protocol.Draw{Seq: 0, State: &st, Raster: rec.draws[0].Raster}
	var jobs []sim.Msg
	var want []any
	w := shader.NewWarp(shader.MaxLanes)
	for _, j := range rec.jobs {
		vb, ok := j.(*protocol.VertexBatch)
		if !ok || vb.Draw.Seq != 0 {
			continue
		}
		n := len(vb.Batch.Vertices)
		pipeline.LoadVertices(&st, vb.Attrs, n, w)
		w.Run(&pipeline.TextureUnits{Bindings: &st.VSTextures})
		out := make([]pipeline.VertexOut, n)
		pipeline.StoreVertices(w, n, out)
		jobs = append(jobs, protocol.NewVertexBatch(d, vb.Seq, vb.Batch, vb.Attrs))
		want = append(want, out)
	}
	r := newRig(t, sim.NewSerialEngine(), shadercore.DefaultConfig(), 10, 4)
	r.run(t, jobs...)
	checkOutputs(t, r, jobs, want)
	if len(r.sampler.received) != len(jobs) {
		t.Errorf("%d texture requests for %d vertex batches", len(r.sampler.received), len(jobs))
	}
	if len(r.sampler.bindings) == 0 || r.sampler.bindings[0] != &st.VSTextures[0] || !r.sampler.vertex[0] {
		t.Error("the request does not use the vertex texture binding")
	}
}
