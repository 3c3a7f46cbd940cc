package shadercore_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/shadercore"
)

// TestSFURate runs one 32-lane warp of two special-function instructions and
// a move (SFU latency 1, ALU 4). The warp is ready at 3; an SFU instruction
// occupies ceil(32/rate) issue cycles k (rate 0: the SIMD width 16, k = 2), so
// the rcps issue at 3 and 3+k, the mov at 3+2k, its output leaves 4 cycles
// later and is taken one cycle after that. An ALU-only warp is not affected.
// Where ticks is given, the core ticks in exactly those cycles: the warp
// arrives in 1 and is loaded by 3, and after each issue the core sleeps to
// its next event (the issue unit free again, the output due), with no tick
// in the cycle after an issue.
func TestSFURate(t *testing.T) {
	rec := record(t, wallScene)
	lat := shadercore.Latencies{ALU: 4, SFU: 1, Derivative: 4, Texture: 1, Kill: 1}
	const sfu = "rcp r0, v0.x\nrsq r1, v0.y\nadd o0, r0, r1\n"
	const alu = "mov r0, v0\nmov r1, r0\nmov o0, r1\n"
	tests := []struct {
		name  string
		code  string
		rate  int
		taken uint64
		ticks []uint64 // nil: not checked
	}{
		{"default: the SIMD width", sfu, 0, 3 + 2*2 + 4 + 1, nil},
		{"SIMD width", sfu, 16, 3 + 2*2 + 4 + 1, nil},
		{"quarter rate", sfu, 4, 3 + 2*8 + 4 + 1, []uint64{1, 3, 3 + 8, 3 + 2*8, 3 + 2*8 + 4}},
		{"one lane per cycle", sfu, 1, 3 + 2*32 + 4 + 1, nil},
		{"full warp per cycle", sfu, 32, 3 + 2*1 + 4 + 1, nil},
		{"ALU only, quarter-rate SFU", alu, 4, 3 + 4 + 4 + 4 + 1, []uint64{1, 3, 3 + 4, 3 + 2*4, 3 + 3*4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := customDraw(t, rec.draws[0], ".ps\n.input v0 texcoord perspective\n.output o0 color\n"+tc.code)
			jobs, want := warpJobs(fullWarps(t, rec, d, 1))
			e := sim.NewSerialEngine()
			r := newRig(t, e, testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.Latencies = lat; c.SFURate = tc.rate }), 10, 4)
			ticks := &testpeer.TickLog{Comp: r.core.TickingComponent}
			e.AcceptHook(ticks)
			r.run(t, jobs...)
			checkOutputs(t, r, jobs, want)
			if r.rob.at[0] != tc.taken {
				t.Errorf("output taken at cycle %d, want %d", r.rob.at[0], tc.taken)
			}
			if tc.ticks != nil && !reflect.DeepEqual(ticks.Cycles, tc.ticks) {
				t.Errorf("ticked at %v, want %v", ticks.Cycles, tc.ticks)
			}
		})
	}
}
