package connections

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// randomOutcome is everything observable of a random-traffic run.
type randomOutcome struct {
	got      [][]got    // per receiver
	accepted [][]uint64 // per sender
	freed    [][]uint64
	stats    []stat
}

// runRandom sends seeded random traffic from 4 sources to 3 receivers that
// retrieve in a fixed pseudo-random pattern of cycles, through a link of the
// given kind (width 16, latency 2, source queues of 3, receive buffers of 1; receivers take a message in one cycle out of 8 on average).
func runRandom(k linkKind, e sim.Engine, seed uint64, perSender int) randomOutcome {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := build(k, e, testFreq, 16, 2)
	var rs []*receiver
	for i := 0; i < 3; i++ {
		r := newReceiver(fmt.Sprintf("R[%d]", i), e, 1, 0)
		salt := uint64(i+1) * 0x9e3779b97f4a7c15
		r.allow = func(c uint64) bool { return ((c+salt)*0xbf58476d1ce4e5b9>>33)%8 == 0 }
		rs = append(rs, r)
	}
	var ss []*sender
	for i := 0; i < 4; i++ {
		var script []planned
		at := uint64(0)
		for j := 0; j < perSender; j++ {
			at += uint64(rng.IntN(4))
			id := fmt.Sprintf("S%d.%d", i, j)
			dst := rs[rng.IntN(len(rs))]
			if rng.IntN(2) == 0 {
				script = append(script, quads(id, at, dst, rng.IntN(101)))
			} else {
				script = append(script, line(id, at, dst, rng.IntN(101)))
			}
		}
		ss = append(ss, newSender(fmt.Sprintf("S[%d]", i), e, script...))
	}
	for _, s := range ss {
		c.PlugIn(s.out, 3)
	}
	for _, r := range rs {
		c.PlugIn(r.in, 3)
	}
	if err := e.Run(); err != nil {
		panic(err)
	}
	var o randomOutcome
	for _, r := range rs {
		o.got = append(o.got, r.got)
	}
	for _, s := range ss {
		o.accepted = append(o.accepted, s.accepted)
		o.freed = append(o.freed, s.freed)
	}
	o.stats = collect(c)
	return o
}

// TestSerialParallelSame: the serial and the parallel engine give the same
// delivery times, sender wake-ups and counters; every message arrives, and
// messages between the same source and destination keep their order.
func TestSerialParallelSame(t *testing.T) {
	const seed, perSender = 20261120, 150
	t.Logf("seed %d", seed)
	for _, k := range []linkKind{busLink, xbarLink} {
		t.Run(k.String(), func(t *testing.T) {
			serial := runRandom(k, sim.NewSerialEngine(), seed, perSender)
			parallel := runRandom(k, sim.NewParallelEngine(), seed, perSender)
			if !reflect.DeepEqual(serial, parallel) {
				t.Errorf("serial and parallel engines differ")
				for i := range serial.got {
					if !reflect.DeepEqual(serial.got[i], parallel.got[i]) {
						t.Errorf("receiver %d:\n serial   %v\n parallel %v", i, serial.got[i], parallel.got[i])
					}
				}
				if !reflect.DeepEqual(serial.stats, parallel.stats) {
					t.Errorf("stats:\n serial   %v\n parallel %v", serial.stats, parallel.stats)
				}
			}
			total := 0
			for ri, gs := range serial.got {
				total += len(gs)
				last := map[string]int{}
				for _, g := range gs {
					src, seq, _ := strings.Cut(g.id, ".")
					n, _ := strconv.Atoi(seq)
					if p, ok := last[src]; ok && n <= p {
						t.Errorf("receiver %d: %s.%d after %s.%d", ri, src, n, src, p)
					}
					last[src] = n
					if g.take <= g.recv {
						t.Errorf("receiver %d: %s taken at %d, delivered at %d", ri, g.id, g.take, g.recv)
					}
				}
			}
			if total != 4*perSender {
				t.Errorf("%d messages delivered, want %d", total, 4*perSender)
			}
			st := map[string]float64{}
			for _, s := range serial.stats {
				st[s.name] = s.value
			}
			if st["GPU.Link.messages"] != 4*perSender {
				t.Errorf("messages counter %v, want %d", st["GPU.Link.messages"], 4*perSender)
			}
			if st["GPU.Link.refused_cycles"] == 0 {
				t.Errorf("the pattern should make receivers refuse deliveries")
			}
		})
	}
}

// BenchmarkBus measures messages per second through a bus with 4 sources and a
// receiver that takes one message per cycle.
func BenchmarkBus(b *testing.B) {
	const perSender = 1000
	msgs := 0
	for b.Loop() {
		e := sim.NewSerialEngine()
		bus := MakeBusBuilder().WithEngine(e).WithWidth(64).WithLatency(2).Build("Bus")
		r := newReceiver("Dst", e, 4, 0)
		for i := 0; i < 4; i++ {
			script := make([]planned, perSender)
			for j := range script {
				script[j] = quads("M", uint64(j), r, 48)
			}
			s := newSender(fmt.Sprintf("S[%d]", i), e, script...)
			bus.PlugIn(s.out, 4)
		}
		bus.PlugIn(r.in, 4)
		runEngine(b, e)
		if len(r.got) != 4*perSender {
			b.Fatalf("%d messages delivered", len(r.got))
		}
		msgs += len(r.got)
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
}
