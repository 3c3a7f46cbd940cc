package shadercore_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/mem/idealmemcontroller"
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

// TestFrameWithTextureSampler shades the whole test frame on a core with its
// real texture sampler, whose L1 misses go to an Akita ideal memory controller
// loaded with the frame's memory image: every output equals the functional
// pipeline's, and the sampler saw every texture request.
func TestFrameWithTextureSampler(t *testing.T) {
	rec := record(t, wallScene)
	e := sim.NewSerialEngine()
	halt := &timing.Halt{}
	core := shadercore.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: freq, Halt: halt}).Build("GPU.ShaderCore[0]")
	smp := texturesampler.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: freq, Halt: halt}).Build("GPU.TextureSampler[0]")
	dram := idealmemcontroller.MakeBuilder().WithEngine(e).WithFreq(freq).WithLatency(100).
		WithNewStorage(64 * mem.MB).Build("Memory")
	if err := dram.Storage.Write(command.BaseAddress, rec.frame.Memory.Bytes()); err != nil {
		t.Fatal(err)
	}
	disp := newDispatcher(e, "Dispatch")
	pa, rob := newSink(e, "PrimitiveAssembly", 4), newSink(e, "ReorderBuffer", 4)
	work := sim.NewDirectConnection("Work", e, freq)
	for _, p := range []sim.Port{disp.Out, core.FromDispatch, core.ToPrimitiveAssembly, core.ToReorderBuffer, pa.In, rob.In} {
		work.PlugIn(p, 1)
	}
	tex := sim.NewDirectConnection("Tex", e, freq)
	tex.PlugIn(core.Sampler, 1)
	tex.PlugIn(smp.Core, 1)
	memConn := sim.NewDirectConnection("Mem", e, freq)
	memConn.PlugIn(smp.ToL2, 4)
	memConn.PlugIn(dram.GetPortByName("Top"), 4)
	disp.Dst = core.FromDispatch
	core.PrimitiveAssemblyPort, core.ReorderBufferPort, core.SamplerPort = pa.In, rob.In, smp.Core
	smp.CorePort, smp.L2, smp.Image = core.Sampler, &mem.SingleLowModuleFinder{LowModule: dram.GetPortByName("Top")}, rec.frame.Memory

	r := &rig{engine: e, core: core, disp: disp, pa: pa, rob: rob, halt: halt}
	r.run(t, rec.jobs...)
	checkOutputs(t, r, rec.jobs, rec.want)
	core.Finish(e.CurrentTime())
	smp.Finish(e.CurrentTime())
	cs, ss := testpeer.StatMap(core), testpeer.StatMap(smp)
	if cs["GPU.ShaderCore[0].texture_requests"] != ss["GPU.TextureSampler[0].requests"] ||
		cs["GPU.ShaderCore[0].texture_lane_requests"] != ss["GPU.TextureSampler[0].lanes"] ||
		ss["GPU.TextureSampler[0].lanes"] != float64(rec.texReq) {
		t.Errorf("texture requests: core %v/%v lanes, sampler %v/%v lanes, reference %d lanes",
			cs["GPU.ShaderCore[0].texture_requests"], cs["GPU.ShaderCore[0].texture_lane_requests"],
			ss["GPU.TextureSampler[0].requests"], ss["GPU.TextureSampler[0].lanes"], rec.texReq)
	}
	if ss["GPU.TextureSampler[0].l2_reads"] == 0 || ss["GPU.TextureSampler[0].l1_hits"] == 0 {
		t.Errorf("no L1 hits or no L2 reads: %v", ss)
	}
	if cs["GPU.ShaderCore[0].texture_wait_warp_cycles"] == 0 {
		t.Error("no warp waited for a texture")
	}
}
