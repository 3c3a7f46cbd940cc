package configs

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

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
	cfg := Default()
	cfg.WatchdogCycles = 20000
	p, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p.CommandProcessor.InputAssembler = sinkOn(t, p, "GPU.CommandBus")
	_, f := frame(t, "room", 64, 32, 1)
	_, err = p.Run(f)
	if err == nil {
		t.Fatal("a stuck pipeline finished without an error")
	}
	msg := err.Error()
	for _, want := range []string{"watchdog: no progress for", "GPU.CommandProcessor"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not name %q:\n%s", want, msg)
		}
	}
	t.Log(msg)
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
	cfg.WatchdogCycles = 20000
	p, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p.Sage.Scheds[0].Interleaves[1] = sinkOn(t, p, "GPU.WriteXbar[0]")
	_, err = p.Run(sageFrame(t, cfg, "room", 64, 32, 4))
	if err == nil {
		t.Fatal("a stuck interleave finished without an error")
	}
	msg := err.Error()
	for _, want := range []string{"watchdog: no progress for", "GPU.Sched[0]", "GPU.WriteXbar[0].ToSink"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not name %q:\n%s", want, msg)
		}
	}
}
