package texturesampler_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/texture"
)

// TestControlFlush sends a FlushCmd on Control at cycle 5, while three
// requests for three distinct L1 lines of the tiled texture are in flight
// (sent at cycles 0, 1, 2; L2 latency 20, as in TestMissThenHit), and
// repeats the first request at cycle 60. The sampler takes the command only
// once no request is in flight: the last response leaves at 36 (the core
// takes it at 37), and the Done, to the command's source, leaves at 37. With
// Invalidate the three lines are dropped and the repeated request misses: a
// fourth L2 read of the first line at 64, the response taken at 95 (35 cycles
// after its send, as the cold request); without it the request hits and is
// taken at 75 (15 cycles, as the warm one).
func TestControlFlush(t *testing.T) {
	cases := []struct {
		invalidate bool
		lines      float64  // l1_invalidated_lines
		responses  []uint64 // cycles the core took the responses
		readAt     []uint64 // cycles the L2 took the reads
	}{
		{invalidate: true, lines: 3, responses: []uint64{35, 36, 37, 95}, readAt: []uint64{4, 5, 6, 64}},
		{invalidate: false, lines: 0, responses: []uint64{35, 36, 37, 75}, readAt: []uint64{4, 5, 6}},
	}
	for _, tc := range cases {
		fx := newFixture(t, bilinear(), texture.Tiled)
		e := sim.NewSerialEngine()
		r := newRig(t, e, texturesampler.DefaultConfig(), fx, 20)
		cp := testpeer.NewPeer("CP", e, 1)
		conn := sim.NewDirectConnection("ControlConn", e, freq)
		conn.PlugIn(cp.Port, 1)
		conn.PlugIn(r.s.Control, 1)
		flush := protocol.NewFlushCmd(tc.invalidate)
		cp.Script = []testpeer.Scripted{{At: 5, Msg: flush, Dst: r.s.Control}}
		reqs := []scripted{
			{msg: lodRequest(fx.binding, 0, quadAt(1, 1)...)},
			{msg: lodRequest(fx.binding, 1, quadAt(20, 20)...)},
			{msg: lodRequest(fx.binding, 2, quadAt(40, 40)...)},
			{msg: lodRequest(fx.binding, 3, quadAt(1, 1)...), at: 60},
		}
		cp.TickNow(0)
		r.run(t, reqs...)
		checkResults(t, r, reqs)

		if len(cp.Got) != 1 {
			t.Fatalf("invalidate %v: CP got %d messages, want one Done", tc.invalidate, len(cp.Got))
		}
		done, ok := cp.Got[0].Msg.(*protocol.Done)
		if !ok || done.RspTo != flush.ID || done.Src != r.s.Control {
			t.Fatalf("invalidate %v: CP got %+v, want a Done from Control for %s", tc.invalidate, cp.Got[0].Msg, flush.ID)
		}
		if cp.Got[0].Cycle != 37 {
			t.Errorf("invalidate %v: Done sent at cycle %d, want 37", tc.invalidate, cp.Got[0].Cycle)
		}
		if !reflect.DeepEqual(r.core.at, tc.responses) {
			t.Errorf("invalidate %v: responses taken at %v, want %v", tc.invalidate, r.core.at, tc.responses)
		}
		if !reflect.DeepEqual(r.l2.readAt, tc.readAt) {
			t.Errorf("invalidate %v: L2 reads at %v, want %v", tc.invalidate, r.l2.readAt, tc.readAt)
		}
		// Three distinct lines, the first one at the texture's start; the
		// repeated request reads the first line again.
		if rd := r.l2.reads; len(rd) != len(tc.readAt) || rd[0] != fx.data || rd[1] == rd[0] || rd[2] == rd[0] || rd[2] == rd[1] ||
			(len(rd) == 4 && rd[3] != fx.data) {
			t.Errorf("invalidate %v: L2 reads of lines %x, want three distinct lines from 0x%x, then 0x%x again when invalidated",
				tc.invalidate, rd, fx.data, fx.data)
		}
		misses := float64(len(tc.readAt))
		testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{
			"requests":             4,
			"flushes":              1,
			"l1_invalidated_lines": tc.lines,
			"l1_misses":            misses,
			"l1_hits":              4 - misses,
			"l2_reads":             misses,
		})
	}
}
