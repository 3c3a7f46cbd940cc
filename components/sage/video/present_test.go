package video

import (
	"math"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/connections"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

// TestPresentDoneAtOnce checks that the output answers a PresentCmd the
// moment it arrives, whatever its pixel clock, and that the frame still starts
// at the pixel clock's first edge at or after it plus the vertical blanking.
// The sizes are the SAGE platform's (sage.video h_blank 0.31875, v_blank
// 0.041015625 at 76 Hz): a 1x1 raster has totals 2 x 2, a 304 Hz pixel
// clock, an edge every 3,289,474 ns. The output used to take the PresentCmd
// at the next edge and send its Done at the one after, holding the command
// processor (wait_ack) up to two pixel clocks: 6.58 ms at 1x1, 0.88 ms at
// 4x4, 32 us at 32x18, 8 us at 64x36 (15 ns at 1280x1024's 136.755 MHz).
// Here the PresentCmd leaves the command processor (1 GHz) at cycle 37,437
// and arrives a cycle later; every line's span is waiting when the raster
// reaches it, so the last pixel leaves at start + (vTotal-1)*hTotal + width
// pixel clocks, start being the first edge at or after the arrival.
func TestPresentDoneAtOnce(t *testing.T) {
	for _, tc := range []struct {
		w, h, hTotal, vTotal int
		pixelClock           float64 // Hz
		done                 uint64  // the cycle (1 GHz) the Done is sent
		finish               float64 // seconds: the last pixel scanned out
	}{
		// 1x1: first edge 1 (37,438 ns x 304 Hz = 0.011), vblank 1 line
		// of 2: the pixel's slot is edge 3, out at edge 4.
		{1, 1, 2, 2, 304, 37438, 4.0 / 304},
		// 4x4: 0.085: edge 1; 1 + 4*6 + 4 = 29.
		{4, 4, 6, 5, 2280, 37438, 29.0 / 2280},
		// 32x18: 2.32: edge 3; 3 + 18*43 + 32 = 809.
		{32, 18, 43, 19, 62092, 37438, 809.0 / 62092},
		// 64x36: 9.19: edge 10; 10 + 37*85 + 64 = 3219.
		{64, 36, 85, 38, 245480, 37438, 3219.0 / 245480},
	} {
		e := sim.NewSerialEngine()
		halt := &timing.Halt{}
		cfg := DefaultConfig()
		cfg.Width, cfg.Height, cfg.HTotal, cfg.VTotal = tc.w, tc.h, tc.hTotal, tc.vTotal
		v := MakeBuilder().WithEnv(timing.Env{Engine: e, Halt: halt}).WithConfig(cfg).Build("Video")
		if got := v.PixelClock(); got != tc.pixelClock {
			t.Fatalf("%dx%d: pixel clock %v Hz, want %v", tc.w, tc.h, got, tc.pixelClock)
		}
		cp := testpeer.NewPeer("CP", e, 4)
		conv := testpeer.NewPeer("Convolve", e, 4)
		control := connections.MakeBusBuilder().WithEngine(e).WithFreq(testpeer.Freq).Build("Control")
		control.PlugIn(cp.Port, 4)
		control.PlugIn(v.Control, 4)
		spans := connections.MakeBusBuilder().WithEngine(e).WithFreq(testpeer.Freq).Build("Spans")
		spans.PlugIn(conv.Port, 4)
		spans.PlugIn(v.FromConvolve, 4)
		p := protocol.NewPresentCmd(command.Target{Width: uint32(tc.w), Height: uint32(tc.h)}, 0)
		cp.Script = []testpeer.Scripted{{At: 37437, Msg: p, Dst: v.Control}}
		for y := 0; y < tc.h; y++ {
			conv.Script = append(conv.Script, testpeer.Scripted{At: 37437,
				Msg: protocol.NewVideoSpan(y, 0, tc.w, make([]byte, 4*tc.w)), Dst: v.FromConvolve})
		}
		testpeer.RunClean(t, e, halt, cp, conv)
		if len(cp.Got) != 1 {
			t.Fatalf("%dx%d: the command processor got %d messages, want a Done", tc.w, tc.h, len(cp.Got))
		}
		if d, ok := cp.Got[0].Msg.(*protocol.Done); !ok || d.RspTo != p.ID {
			t.Fatalf("%dx%d: the command processor got %T, want the PresentCmd's Done", tc.w, tc.h, cp.Got[0].Msg)
		}
		if got := cp.Got[0].Cycle; got != tc.done {
			t.Errorf("%dx%d: Done sent at cycle %d, want %d (the PresentCmd's arrival)", tc.w, tc.h, got, tc.done)
		}
		if !v.Finished() {
			t.Fatalf("%dx%d: the frame did not finish", tc.w, tc.h)
		}
		if got := float64(v.FinishTime()); math.Abs(got-tc.finish) > 1e-12 {
			t.Errorf("%dx%d: last pixel out at %.12f s, want %.12f", tc.w, tc.h, got, tc.finish)
		}
	}
}
