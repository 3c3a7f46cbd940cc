package expt

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/timing"
)

// TestHaltOnInterrupt: the first Ctrl-C halts every watched run with
// ErrInterrupted, not one whose watch ended; a run watched afterwards is
// halted at once. (It sends this test process a SIGINT; the package's other
// tests run no simulation.)
func TestHaltOnInterrupt(t *testing.T) {
	interrupts.Lock()
	received := interrupts.received
	interrupts.Unlock()
	if received { // -count 2: a second SIGINT would kill the process
		var late timing.Halt
		HaltOnInterrupt(&late)()
		if !errors.Is(late.Reason(), ErrInterrupted) {
			t.Errorf("a run watched after the Ctrl-C: reason %v, want %v", late.Reason(), ErrInterrupted)
		}
		return
	}
	var a, b, gone timing.Halt
	doneA := HaltOnInterrupt(&a)
	defer doneA()
	doneB := HaltOnInterrupt(&b)
	defer doneB()
	HaltOnInterrupt(&gone)()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); !a.Stopped() || !b.Stopped(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the runs were not halted")
		}
	}
	for _, h := range []*timing.Halt{&a, &b} {
		if !errors.Is(h.Reason(), ErrInterrupted) {
			t.Errorf("reason %v, want %v", h.Reason(), ErrInterrupted)
		}
	}
	if gone.Stopped() {
		t.Error("a run whose watch had ended was halted")
	}
	var late timing.Halt
	HaltOnInterrupt(&late)()
	if !errors.Is(late.Reason(), ErrInterrupted) {
		t.Errorf("a run watched after the Ctrl-C: reason %v, want %v", late.Reason(), ErrInterrupted)
	}
}
