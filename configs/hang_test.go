package configs

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// sink is a component whose input port is never emptied: whatever is sent to it
// stays in its buffer.
type sink struct {
	*sim.ComponentBase
	In sim.Port
}

// sinkOn plugs a sink's input into platform p's link named link and returns
// it: whatever a unit sends there is never taken.
func sinkOn(t *testing.T, p *Platform, link string) sim.Port {
	t.Helper()
	s := &sink{ComponentBase: sim.NewComponentBase("GPU.Sink")}
	s.In = sim.NewLimitNumMsgPort(s, 1, "GPU.Sink.In")
	for _, l := range p.Links {
		if n, ok := l.(interface{ Name() string }); ok && n.Name() == link {
			l.PlugIn(s.In, 1)
			return s.In
		}
	}
	t.Fatalf("no link %s", link)
	return nil
}

func (s *sink) Handle(sim.Event) error                  { return nil }
func (s *sink) NotifyRecv(sim.VTimeInSec, sim.Port)     {}
func (s *sink) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

// TestStuckPipelineIsReported replaces the input assembler's port, as the command
// processor sees it, by one that never drains: the run must end with an error that
// names the stuck buffers instead of hanging or returning silently.
func TestStuckPipelineIsReported(t *testing.T) {
	_, f := frame(t, "room", 64, 32, 1)
	msg := stuck(t, Default(), f, "pipeline", func(p *Platform) {
		p.CommandProcessor.InputAssembler = sinkOn(t, p, "GPU.CommandBus")
	}, "GPU.CommandProcessor")
	t.Log(msg)
}

// stuck builds machine cfg with a 20000-cycle watchdog, lets jam plug a sink
// into it and runs frame f: the run must end with the watchdog's error
// naming every want. It returns the error's text.
func stuck(t *testing.T, cfg *Config, f *driver.Frame, what string, jam func(*Platform), want ...string) string {
	t.Helper()
	cfg.WatchdogCycles = 20000
	p, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	jam(p)
	if _, err = p.Run(f); err == nil {
		t.Fatalf("a stuck %s finished without an error", what)
	}
	msg := err.Error()
	for _, w := range append([]string{"watchdog: no progress for"}, want...) {
		if !strings.Contains(msg, w) {
			t.Errorf("the error does not name %q:\n%s", w, msg)
		}
	}
	return msg
}

// TestBufferReport: a stuck machine lists its buffers holding work, fullest
// first, and an unbounded buffer (capacity 0) is named as such, not "1 of 0".
func TestBufferReport(t *testing.T) {
	got := bufferReport([]timing.BufferState{{Name: "GPU.A.Queue", Len: 1, Cap: 4}, {Name: "GPU.B.Out", Len: 3, Cap: 0},
		{Name: "GPU.C.In", Len: 2, Cap: 2}})
	want := "buffers holding work (fullest first):\n  GPU.B.Out: 3 (unbounded)\n  GPU.C.In: 2 of 2\n  GPU.A.Queue: 1 of 4\n"
	if got != want {
		t.Errorf("report\n%s\nwant\n%s", got, want)
	}
	if got := bufferReport(nil); !strings.Contains(got, "every buffer is empty") {
		t.Errorf("empty report %q", got)
	}
}

// TestSageStuckInterleaveIsReported: on the SAGE machine, an interleave whose
// input never drains (sched 0 sends its samples to a sink) ends the run with
// an error naming the sched's full buffers, not a hang.
func TestSageStuckInterleaveIsReported(t *testing.T) {
	cfg := SageMachine()
	stuck(t, cfg, sageFrame(t, cfg, "room", 64, 32, 4), "interleave", func(p *Platform) {
		p.Sage.Scheds[0].Interleaves[1] = sinkOn(t, p, "GPU.WriteXbar[0]")
	}, "GPU.Sched[0]", "GPU.WriteXbar[0].ToSink")
}
