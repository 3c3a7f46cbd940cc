package backendtest

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Unit is the back-end unit under test, as a rig runs it and reads its
// statistics.
type Unit interface {
	Name() string
	Finish(now sim.VTimeInSec)
	timing.StatsReporter
}

// Rig is what the test bench of a back-end unit shares: a serial engine at 1
// GHz, a halt, the render targets of a spec, a fixed-latency memory holding
// their image, and one direct connection for the unit's and its peers'
// ports. A bench embeds it next to its unit and peers.
type Rig struct {
	T    *testing.T
	E    sim.Engine
	F    sim.Freq
	Halt *timing.Halt
	TG   *Targets
	Mem  *Memory
	conn *sim.DirectConnection
}

// NewRig makes the targets of spec and a memory of latency memLatency
// cycles holding their image, plugged into the rig's connection.
func NewRig(t *testing.T, spec TargetSpec, memLatency int) *Rig {
	t.Helper()
	tg, err := NewTargets(spec)
	if err != nil {
		t.Fatal(err)
	}
	e := sim.NewSerialEngine()
	r := &Rig{T: t, E: e, F: 1 * sim.GHz, Halt: &timing.Halt{}, TG: tg}
	r.conn = sim.NewDirectConnection("Conn", e, r.F)
	r.Mem = NewMemory("Memory", e, r.F, memLatency)
	r.Mem.Image = tg.Image
	return r
}

// Env is the unit's environment: the rig's engine, clock and halt.
func (r *Rig) Env() timing.Env { return timing.Env{Engine: r.E, Freq: r.F, Halt: r.Halt} }

// Peer makes a scripted peer whose port holds 4 messages.
func (r *Rig) Peer(name string) *Peer { return NewPeer(name, r.E, r.F, 4) }

// Plug plugs ports into the rig's connection, each with a 4-message
// source-side buffer.
func (r *Rig) Plug(ports ...sim.Port) {
	for _, p := range ports {
		r.conn.PlugIn(p, 4)
	}
}

// Run runs the engine to the end, fails the test on an error or a halt, and
// closes u's activity accounting.
func (r *Rig) Run(u Unit) {
	r.T.Helper()
	if err := r.E.Run(); err != nil {
		r.T.Fatal(err)
	}
	if r.Halt.Stopped() {
		r.T.Fatalf("halted: %v", r.Halt.Reason())
	}
	u.Finish(r.E.CurrentTime())
}

// Stat returns u's counter by its short name ("<u's name>.<name>"), failing
// the test when u has none.
func (r *Rig) Stat(u Unit, name string) float64 {
	r.T.Helper()
	var v float64
	found := false
	u.Stats(func(n string, x float64) {
		if n == u.Name()+"."+name {
			v, found = x, true
		}
	})
	if !found {
		r.T.Fatalf("no statistic %q", name)
	}
	return v
}

// CheckIdleBuffers checks the buffers of a unit that has done nothing: each
// has a valid name, a positive capacity and nothing in it.
func (r *Rig) CheckIdleBuffers(u timing.Buffered) {
	r.T.Helper()
	for _, s := range u.Buffers() {
		sim.NameMustBeValid(s.Name)
		if s.Cap <= 0 || s.Len != 0 {
			r.T.Errorf("buffer %s: %d of %d", s.Name, s.Len, s.Cap)
		}
	}
}

// CheckStats checks u's counters against want, by short name: a missing one
// fails the test at once, a wrong value is reported.
func (r *Rig) CheckStats(u Unit, want map[string]float64) {
	r.T.Helper()
	for name, w := range want {
		if g := r.Stat(u, name); g != w {
			r.T.Errorf("%s = %v, want %v", name, g, w)
		}
	}
}
