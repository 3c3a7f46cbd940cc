package expt

import (
	"errors"
	"os"
	"os/signal"
	"sync"

	"github.com/gfxsim/gfxsim/timing"
)

// ErrInterrupted is the reason a run halted by Ctrl-C stops with.
var ErrInterrupted = errors.New("interrupted (Ctrl-C)")

// interrupts holds the runs that the first Ctrl-C halts.
var interrupts struct {
	sync.Mutex
	halts    map[*timing.Halt]bool
	signals  chan os.Signal
	received bool
}

// HaltOnInterrupt makes the first Ctrl-C (SIGINT) halt the simulation of h
// with ErrInterrupted, as an error halts it: the run ends at once, its trace
// and metrics are closed and its error names the interruption, instead of the
// process dying with a trace file half written. A second Ctrl-C kills the
// process as usual. Every simulation running at the time is halted (a
// study's workers). It returns the function that stops watching h, to call
// when its run is over.
func HaltOnInterrupt(h *timing.Halt) (done func()) {
	in := &interrupts
	in.Lock()
	defer in.Unlock()
	if in.received {
		h.Stop(ErrInterrupted)
		return func() {}
	}
	if in.halts == nil {
		in.halts = map[*timing.Halt]bool{}
		in.signals = make(chan os.Signal, 1)
		signal.Notify(in.signals, os.Interrupt)
		go func() {
			<-in.signals
			signal.Stop(in.signals) // the next Ctrl-C kills the process
			in.Lock()
			defer in.Unlock()
			in.received = true
			for h := range in.halts {
				h.Stop(ErrInterrupted)
			}
		}()
	}
	in.halts[h] = true
	return func() {
		in.Lock()
		defer in.Unlock()
		delete(in.halts, h)
	}
}
