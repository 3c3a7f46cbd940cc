package timing

import (
	"fmt"
	"strings"

	"github.com/sarchlab/akita/v3/sim"
)

// Fault is a unit's stop on its first protocol error (a message it cannot
// take, a peer that breaks the protocol): the one home of the fail and Err
// every unit repeated. Fail records the error, prefixed with the unit's name,
// and halts the platform through the Env's Halt (without a Halt, in a test of
// a unit alone, it panics); Stopped then holds, and the unit's Tick does
// nothing more.
type Fault struct {
	unit string
	halt *Halt
	err  error
}

// Fault returns the fault of the unit named unit, reported through e's Halt.
func (e Env) Fault(unit string) Fault { return Fault{unit: unit, halt: e.Halt} }

// Fail records err as "<unit>: err" (the first error only) and halts the
// platform.
func (f *Fault) Fail(err error) {
	if f.err == nil {
		f.err = fmt.Errorf("%s: %w", f.unit, err)
	}
	f.halt.Fail(f.err)
}

// Err returns the error recorded, or nil.
func (f *Fault) Err() error { return f.err }

// Stopped reports whether the unit must do nothing: it failed or the platform
// halted.
func (f *Fault) Stopped() bool { return f.err != nil || f.halt.Stopped() }

// Unexpected fails the unit on msg, of a type port does not take:
// "<port>: unexpected message *protocol.X" (the port named without the unit).
func (f *Fault) Unexpected(port sim.Port, msg sim.Msg) {
	f.Fail(fmt.Errorf("%s: unexpected message %T", strings.TrimPrefix(port.Name(), f.unit+"."), msg))
}

// Expect returns ok, whether msg (peeked or taken from port; nil when none
// waited) is of the type the port takes; a message of another type fails the
// unit (Unexpected), which then stops at its next tick. A port that carries
// one message type is read with TakeAs or PeekAs:
//
//	m, ok := timing.PeekAs[*protocol.SampleSpan](&c.fault, c.FromRoute)
//	if !ok {
//		return progress
//	}
func (f *Fault) Expect(ok bool, port sim.Port, msg sim.Msg) bool {
	if !ok && msg != nil {
		f.Unexpected(port, msg)
	}
	return ok
}

// TakeAs retrieves port's next message as a T, for a port that carries one
// message type: ok is false when none waited, or when the message is of
// another type (f's unit then fails, Unexpected, and the message is gone).
func TakeAs[T sim.Msg](f *Fault, port sim.Port, now sim.VTimeInSec) (m T, ok bool) {
	msg := port.Retrieve(now)
	m, ok = msg.(T)
	return m, f.Expect(ok, port, msg)
}

// PeekAs is TakeAs that leaves the message in the port.
func PeekAs[T sim.Msg](f *Fault, port sim.Port) (m T, ok bool) {
	msg := port.Peek()
	m, ok = msg.(T)
	return m, f.Expect(ok, port, msg)
}
