package memory_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/memory"
)

const agentFreq = 1 * sim.GHz

// op is one request of an agent's script, issued at cycle at or later.
type op struct {
	at    uint64
	write bool
	addr  uint64
	size  uint64
	data  []byte
	tag   uint64
}

// done is a completion and the agent cycle it was received in.
type done struct {
	memclient.Completion
	cycle uint64
}

// agent is a test component that issues a script of requests through a
// memclient and records the completions.
type agent struct {
	*sim.TickingComponent
	port   sim.Port
	client *memclient.Client
	script []op
	next   int
	issued []uint64 // cycle each op was accepted
	done   []done
}

func newAgent(t testing.TB, engine sim.Engine, name string, finder mem.LowModuleFinder,
	cfg memclient.Config, script []op) *agent {
	t.Helper()
	a := &agent{script: script}
	a.TickingComponent = sim.NewTickingComponent(name, engine, agentFreq, a)
	a.port = sim.NewLimitNumMsgPort(a, 1024, name+".Mem")
	a.AddPort("Mem", a.port)
	c, err := memclient.New(a.port, finder, agentFreq, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.client = c
	return a
}

func (a *agent) Tick(now sim.VTimeInSec) bool {
	progress := false
	cy := agentFreq.Cycle(now)
	for {
		c, ok := a.client.Receive(now)
		if !ok {
			break
		}
		a.done = append(a.done, done{c, cy})
		progress = true
	}
	for a.next < len(a.script) {
		o := a.script[a.next]
		if o.at > cy {
			return true // wait for the op's cycle
		}
		var ok bool
		if o.write {
			ok = a.client.Write(now, o.addr, o.data, o.tag)
		} else {
			ok = a.client.Read(now, o.addr, o.size, o.tag)
		}
		if !ok {
			break
		}
		a.issued = append(a.issued, cy)
		a.next++
		progress = true
	}
	return progress
}

// rig is a memory (and optional L2) with one agent, all on one direct
// connection, on a serial engine.
type rig struct {
	engine sim.Engine
	mem    *memory.Memory
	l2     *memory.L2
	agent  *agent
}

func newRig(t testing.TB, cfg memory.Config, l2 *memory.L2Config, ccfg memclient.Config, script []op) *rig {
	t.Helper()
	return newRigOn(t, sim.NewSerialEngine(), cfg, l2, ccfg, script)
}

func newRigOn(t testing.TB, engine sim.Engine, cfg memory.Config, l2 *memory.L2Config,
	ccfg memclient.Config, script []op) *rig {
	t.Helper()
	r := &rig{engine: engine}
	m, err := memory.Build(cfg, r.engine, "GPU.Memory")
	if err != nil {
		t.Fatal(err)
	}
	r.mem = m
	conn := sim.NewDirectConnection("GPU.Conn", r.engine, agentFreq)
	for _, p := range m.Tops {
		conn.PlugIn(p, 64)
	}
	finder := m.Finder
	if l2 != nil {
		l, err := memory.BuildL2(*l2, m, r.engine, "GPU.L2")
		if err != nil {
			t.Fatal(err)
		}
		r.l2 = l
		for i := range l.Banks {
			conn.PlugIn(l.Tops[i], 64)
			conn.PlugIn(l.Bottoms[i], 64)
		}
		finder = l.Finder
	}
	r.agent = newAgent(t, r.engine, "GPU.Agent", finder, ccfg, script)
	conn.PlugIn(r.agent.port, 1024)
	return r
}

// run starts the agent at cycle 0 and runs until the engine is empty; it fails
// the test unless every op completed.
func (r *rig) run(t testing.TB) {
	t.Helper()
	testpeer.Run(t, r.engine, r.agent)
	if r.agent.next != len(r.agent.script) || len(r.agent.done) != len(r.agent.script) {
		t.Fatalf("issued %d, completed %d of %d ops", r.agent.next, len(r.agent.done), len(r.agent.script))
	}
}

// stats collects Stats output in a map for lookups.
func stats(f func(add func(string, float64))) map[string]float64 {
	m := map[string]float64{}
	f(func(n string, v float64) { m[n] = v })
	return m
}
