package dramctl

import "testing"

// TestStarvationCap: a stream of row hits to one GDDR6 bank (a new 32-byte
// read of row 1 every 3 cycles, for 3000 cycles) and, at cycle 10, one read of
// row 2 of the same bank. FR-FCFS serves hits first, so without a cap the
// row-2 read waits for the stream to end; with a cap of 200 cycles it is
// served alone once it has waited 200: PRE, ACT tRP later, RD tRCD later,
// data CL+BC later, plus at most tRTP after the hit in flight:
// 200 + 4 + 26 + 26 + 24 + 2 = 282 cycles. FCFS serves it in arrival order.
// The starved read holds only its own bank: a read of an idle bank of bank
// group 1 taken at cycle 221, while the row-2 read waits for its row, is
// served at idle-bank timing, 221 + tRCD + CL + BC = 273 (serving the
// starved read alone delayed it to 319). Without a cap a row hit's RD takes
// the command bus first (274); under FCFS the backed-up stream fills the read
// queue and the read is taken later: neither case checks it.
func TestStarvationCap(t *testing.T) {
	p, _ := LookupPreset("GDDR6")
	tm := p.Timing
	otherWant := 221 + int64(tm.TRCD+tm.TCL) + int64(p.Geometry.BurstCycles())
	for _, tc := range []struct {
		name     string
		cfg      Config
		min, max int64 // latency bounds of the row-2 read (taken at cycle 11)
		other    bool  // check the bank group 1 read
	}{
		{"frfcfs cap 200", Config{Preset: "GDDR6", StarvationCap: 200}, 200, int64(200 + tm.TRTP + tm.TRP + tm.TRCD + tm.TCL + 2), true},
		{"frfcfs no cap", Config{Preset: "GDDR6", StarvationCap: 1 << 30}, 2900, 3100, false},
		{"fcfs", Config{Preset: "GDDR6", Scheduler: FCFS, StarvationCap: 1 << 30}, 0, 150, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var script []op
			other := -1
			for at := int64(0); at < 3000; at += 3 {
				script = append(script, op{at: at, addr: addrOf(t, tc.cfg, Location{Row: 1, Column: int(at/3) % 64}), size: 32})
				if at == 9 {
					script = append(script, op{at: 10, addr: addrOf(t, tc.cfg, Location{Row: 2}), size: 32})
				}
				if at == 219 {
					other = len(script)
					script = append(script, op{at: 220, addr: addrOf(t, tc.cfg, Location{BankGroup: 1, Row: 3}), size: 32})
				}
			}
			g := newRig(t, tc.cfg, script, 64)
			g.run(t)
			if got := g.leaves(other); tc.other && got != otherWant {
				t.Errorf("read of bank group 1 (taken at cycle 221) left in cycle %d, want %d", got, otherWant)
			}
			lat := g.leaves(4) - 11 // script entry 4 is the row-2 read, taken in cycle 11
			if g.req.script[4].addr != addrOf(t, tc.cfg, Location{Row: 2}) {
				t.Fatal("the row-2 read is not script entry 4")
			}
			if lat < tc.min || lat > tc.max {
				t.Errorf("row-2 read served %d cycles after it was taken, want %d to %d", lat, tc.min, tc.max)
			}
		})
	}
}

// TestPagePolicies: two reads of the same row of an idle GDDR6 bank, the
// second taken d cycles after the first. Open page keeps the row: a hit.
// Closed page closes it as soon as no queued burst hits it: a miss (the bank
// is closed). Timeout 100 keeps it 100 cycles after the last access: a hit
// at d = 80 (the first read's RD is at cycle 27), a miss at d = 400.
func TestPagePolicies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		d       int64
		hit     bool
		prechgs float64
	}{
		{"open", Config{Preset: "GDDR6"}, 400, true, 0},
		{"closed", Config{Preset: "GDDR6", PagePolicy: PageClosed}, 400, false, 2},
		{"timeout hit", Config{Preset: "GDDR6", PagePolicy: PageTimeout, PageTimeout: 100}, 80, true, 1},
		{"timeout miss", Config{Preset: "GDDR6", PagePolicy: PageTimeout, PageTimeout: 100}, 400, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := addrOf(t, tc.cfg, Location{Row: 3, Column: 1})
			b := addrOf(t, tc.cfg, Location{Row: 3, Column: 2})
			// A third, late request lets the controller close idle rows (an
			// idle channel closes them when it next wakes).
			late := addrOf(t, tc.cfg, Location{BankGroup: 1, Row: 1})
			g := newRig(t, tc.cfg, []op{{at: 0, addr: a, size: 32}, {at: tc.d, addr: b, size: 32}, {at: 2000, addr: late, size: 32}}, 4)
			g.run(t)
			st := g.stats()
			if hit := st["Channel.row_hits"] == 1; hit != tc.hit || st["Channel.precharges"] != tc.prechgs {
				t.Errorf("row hits %v, precharges %v; want hit %v, %v precharges", st["Channel.row_hits"],
					st["Channel.precharges"], tc.hit, tc.prechgs)
			}
		})
	}
}

// TestWriteDrain: with reads always queued, writes wait until WriteHigh of
// them are queued, then drain down to WriteLow. Four writes arrive at cycles
// 0, 100, 200 and 300 among a continuous read stream; WriteHigh 4: none is
// answered before the fourth arrives.
func TestWriteDrain(t *testing.T) {
	cfg := Config{Preset: "GDDR6", WriteQueue: 8, WriteHigh: 4, WriteLow: 1, StarvationCap: 1 << 30}
	var script []op
	var writes []int
	for at := int64(0); at < 1200; at += 2 {
		if at%100 == 0 && at < 400 {
			writes = append(writes, len(script))
			script = append(script, op{at: at, write: true, addr: addrOf(t, cfg, Location{BankGroup: 2, Row: 7, Column: int(at / 100)}), size: 32})
		}
		script = append(script, op{at: at, addr: addrOf(t, cfg, Location{Row: 1, Column: int(at/2) % 64}), size: 32})
	}
	g := newRig(t, cfg, script, 256)
	g.run(t)
	for _, w := range writes {
		if got := g.leaves(w); got <= 301 {
			t.Errorf("write %d answered in cycle %d, before the fourth write was taken (cycle 301)", w, got)
		}
	}
	if st := g.stats(); st["Channel.write_queue_max"] != 4 {
		t.Errorf("write queue max %v, want 4", st["Channel.write_queue_max"])
	}
}

// TestStarvedBurstsOverlapBanks: serving starved bursts must not serialize
// the channel. Eight one-burst LPDDR4 reads, one to each (closed) bank, all
// taken in cycle a = 1 with StarvationCap 1, so every one is starved from
// cycle 2 on. Each holds only its own bank: the activates go out back to
// back at tRRD (16 cycles, also tFAW/4 = 64/4) and each read's RD follows its
// ACT by tRCD, so the read of bank k leaves at a + k*tRRD + tRCD + CL + BC
// (the RDs are tRRD = 16 apart, more than tCCD = 8 and the 8-cycle burst, and
// an RD never falls on an ACT's cycle: tRCD = 29 is not a multiple of 16).
// Serving the starved bursts one at a time would put each ACT after the
// previous read's RD: a + k*(tRCD+1) + tRCD + CL + BC.
func TestStarvedBurstsOverlapBanks(t *testing.T) {
	p, _ := LookupPreset("LPDDR4")
	tm, geo := p.Timing, p.Geometry
	bc := int64(geo.BurstCycles())
	for _, sched := range []string{FRFCFS, FCFS} {
		t.Run(sched, func(t *testing.T) {
			cfg := Config{Preset: "LPDDR4", Scheduler: sched, StarvationCap: 1, Check: true}
			var script []op
			for b := 0; b < geo.Banks; b++ {
				script = append(script, op{addr: addrOf(t, cfg, Location{Bank: b, Row: 10 + b}), size: uint64(geo.BurstBytes())})
			}
			g := newRig(t, cfg, script, len(script))
			g.run(t)
			for k := range script {
				want := 1 + int64(k*tm.TRRDS+tm.TRCD+tm.TCL) + bc
				if got := g.leaves(k); got != want {
					t.Errorf("read of bank %d left in cycle %d, want %d", k, got, want)
				}
			}
		})
	}
}
