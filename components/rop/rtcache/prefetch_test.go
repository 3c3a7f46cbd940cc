package rtcache_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
)

// TestPrefetchOutcomes: a prefetch reads an absent line only (not a present,
// in-flight or fast-cleared one) and only while more than the reserved
// memory-request slots stay free; a prefetched line hit later is useful, one
// a demand access joins in flight is late (the access waits as a merged
// miss), and one evicted or flushed unused is useless.
func TestPrefetchOutcomes(t *testing.T) {
	// 2 sets x 2 ways of 64-byte lines: base, base+128, base+256 share set 0.
	o, m := setup(t, rtcache.Config{Size: 256, Ways: 2, LineSize: 64, MaxOutstanding: 4, WriteQueue: 4}, 10)
	var pf []rtcache.PrefetchResult
	var acc []rtcache.Result
	pre := func(now sim.VTimeInSec, addr uint64) { pf = append(pf, o.cache.Prefetch(now, addr, 1)) }
	o.at(1, func(now sim.VTimeInSec) {
		pre(now, base)                                      // issued (1 in flight)
		pre(now, base+8)                                    // same line, in flight: not needed
		pre(now, base+64)                                   // issued (2)
		pre(now, base+128)                                  // issued (3)
		pre(now, base+192)                                  // would leave only the reserved slot: blocked
		acc = append(acc, o.cache.Access(now, base+192, 1)) // a demand miss takes the last slot
	})
	o.at(5, func(now sim.VTimeInSec) {
		acc = append(acc, o.cache.Access(now, base+64, 2)) // joins the prefetch in flight: late
	})
	o.at(30, func(now sim.VTimeInSec) {
		acc = append(acc, o.cache.Access(now, base, 3)) // prefetched, cached: useful
		acc = append(acc, o.cache.Access(now, base, 4)) // a second hit counts nothing more
		pre(now, base)                                  // present: not needed
		// base+256 evicts the LRU line of set 0, base+128 (prefetched, unused).
		acc = append(acc, o.cache.Access(now, base+256, 5))
	})
	o.at(60, func(now sim.VTimeInSec) {
		o.cache.Flush() // base+192 came from a demand read: nothing to count
	})
	o.run(t)
	wantPf := []rtcache.PrefetchResult{rtcache.PrefetchIssued, rtcache.PrefetchNotNeeded, rtcache.PrefetchIssued,
		rtcache.PrefetchIssued, rtcache.PrefetchBlocked, rtcache.PrefetchNotNeeded}
	if !reflect.DeepEqual(pf, wantPf) {
		t.Errorf("prefetch results %v, want %v", pf, wantPf)
	}
	wantAcc := []rtcache.Result{rtcache.Miss, rtcache.MergedMiss, rtcache.Hit, rtcache.Hit, rtcache.Miss}
	if !reflect.DeepEqual(acc, wantAcc) {
		t.Errorf("access results %v, want %v", acc, wantAcc)
	}
	if r := m.Reads(); !reflect.DeepEqual(r, []uint64{base, base + 64, base + 128, base + 192, base + 256}) {
		t.Errorf("reads %x", r)
	}
	if got, want := o.cache.PrefetchCounters(), (rtcache.PrefetchCounters{Issued: 3, Useful: 1, Late: 1, Useless: 1}); got != want {
		t.Errorf("prefetch counters %+v, want %+v", got, want)
	}
	c := o.cache.Counters()
	if c.Hits != 2 || c.Misses != 3 || c.MergedMisses != 1 || c.LineReads != 5 || c.BytesRead != 5*64 {
		t.Errorf("counters %+v", c)
	}
}

// TestPrefetchUselessOnFlushAndClear: prefetched lines still unused when the
// cache is flushed, or dropped by a fast clear, are useless; a cleared line
// needs no prefetch.
func TestPrefetchUselessOnFlushAndClear(t *testing.T) {
	o, _ := setup(t, rtcache.Config{Size: 1024, Ways: 4, LineSize: 64, MaxOutstanding: 8, WriteQueue: 4}, 10)
	var pf []rtcache.PrefetchResult
	o.at(1, func(now sim.VTimeInSec) {
		for _, a := range []uint64{base, base + 64, base + 512} {
			pf = append(pf, o.cache.Prefetch(now, a, 1))
		}
	})
	o.at(30, func(now sim.VTimeInSec) {
		o.cache.Clear(base+512, base+1024) // drops base+512 unused
		pf = append(pf, o.cache.Prefetch(now, base+576, 1))
		o.cache.Write(base + 64) // the first use of base+64
		o.cache.Flush()          // base is still unused
	})
	o.run(t)
	wantPf := []rtcache.PrefetchResult{rtcache.PrefetchIssued, rtcache.PrefetchIssued, rtcache.PrefetchIssued,
		rtcache.PrefetchNotNeeded}
	if !reflect.DeepEqual(pf, wantPf) {
		t.Errorf("prefetch results %v, want %v", pf, wantPf)
	}
	if got, want := o.cache.PrefetchCounters(), (rtcache.PrefetchCounters{Issued: 3, Useful: 1, Useless: 2}); got != want {
		t.Errorf("prefetch counters %+v, want %+v", got, want)
	}
}
