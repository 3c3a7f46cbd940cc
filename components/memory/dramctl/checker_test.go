package dramctl

import (
	"errors"
	"testing"
)

// TestCheckerCatchesViolations feeds the checker hand-built command sequences
// whose last command breaks exactly one rule (the ones before it are legal)
// and checks that it names that rule. The timing is GDDR6's with tRRD_L 10,
// tRC 90 and tFAW 40, so that tRRD_L, tRC and tFAW can be broken alone: CL
// 24, CWL 6, tRCD 26, tRCDWR 16, tRP 26, tRAS 53, tCCD_S 2, tCCD_L 3, tRRD_S
// 7, tWTR_S 9, tWTR_L 11, tRTP 4, tWR 26, tRFC 210, tREFI 3333, tRTW 2,
// tRTRS 1, bursts of 2 cycles; two ranks.
func TestCheckerCatchesViolations(t *testing.T) {
	p, _ := LookupPreset("GDDR6")
	tm := p.Timing
	tm.TRRDL, tm.TRC, tm.TFAW = 10, 90, 40
	g := p.Geometry
	g.Ranks = 2
	act := func(at int64, rank, bg, bank, row int) Command {
		return Command{Cycle: at, Kind: CmdACT, Rank: rank, BankGroup: bg, Bank: bank, Row: row}
	}
	rd := func(at int64, rank, bg, bank, row int) Command {
		return Command{Cycle: at, Kind: CmdRD, Rank: rank, BankGroup: bg, Bank: bank, Row: row}
	}
	wr := func(at int64, rank, bg, bank, row int) Command {
		return Command{Cycle: at, Kind: CmdWR, Rank: rank, BankGroup: bg, Bank: bank, Row: row}
	}
	pre := func(at int64, rank, bg, bank int) Command {
		return Command{Cycle: at, Kind: CmdPRE, Rank: rank, BankGroup: bg, Bank: bank}
	}
	ref := func(at int64, rank int) Command { return Command{Cycle: at, Kind: CmdREF, Rank: rank} }
	cases := []struct {
		rule string
		cmds []Command
	}{
		{"read to a closed bank", []Command{rd(10, 0, 0, 0, 1)}},
		{"write to a closed bank", []Command{wr(10, 0, 0, 0, 1)}},
		{"activate to an open bank", []Command{act(0, 0, 0, 0, 1), act(100, 0, 0, 0, 2)}},
		{"read to another row", []Command{act(0, 0, 0, 0, 1), rd(30, 0, 0, 0, 2)}},
		{"tRCD", []Command{act(0, 0, 0, 0, 1), rd(25, 0, 0, 0, 1)}},                                                                // need 26
		{"tRCDWR", []Command{act(0, 0, 0, 0, 1), wr(15, 0, 0, 0, 1)}},                                                              // need 16
		{"tRAS", []Command{act(0, 0, 0, 0, 1), pre(52, 0, 0, 0)}},                                                                  // need 53
		{"tRP", []Command{act(0, 0, 0, 0, 1), pre(66, 0, 0, 0), act(91, 0, 0, 0, 2)}},                                              // need 92; tRC 90 met
		{"tRC", []Command{act(0, 0, 0, 0, 1), pre(53, 0, 0, 0), act(80, 0, 0, 0, 2)}},                                              // tRP met (27), tRC 90 not
		{"tRRD_L", []Command{act(0, 0, 0, 0, 1), act(8, 0, 0, 1, 1)}},                                                              // need 10; tRRD_S 7 met
		{"tRRD_S", []Command{act(0, 0, 0, 0, 1), act(6, 0, 1, 0, 1)}},                                                              // need 7
		{"tFAW", []Command{act(0, 0, 0, 0, 1), act(7, 0, 1, 0, 1), act(14, 0, 2, 0, 1), act(21, 0, 3, 0, 1), act(35, 0, 0, 1, 1)}}, // 35 < 0+40
		{"tCCD_S", []Command{act(0, 0, 0, 0, 1), act(7, 0, 1, 0, 1), rd(40, 0, 0, 0, 1), rd(41, 0, 1, 0, 1)}},
		{"tCCD_L", []Command{act(0, 0, 0, 0, 1), act(10, 0, 0, 1, 1), rd(40, 0, 0, 0, 1), rd(42, 0, 0, 1, 1)}},
		// WR at 40: data ends 40+6+2 = 48; a read of another bank group needs 48+9 = 57.
		{"tWTR_S", []Command{act(0, 0, 0, 0, 1), act(7, 0, 1, 0, 1), wr(40, 0, 0, 0, 1), rd(56, 0, 1, 0, 1)}},
		// Same bank group: 48+11 = 59 (tWTR_S is met at 58).
		{"tWTR_L", []Command{act(0, 0, 0, 0, 1), act(10, 0, 0, 1, 1), wr(40, 0, 0, 0, 1), rd(58, 0, 0, 1, 1)}},
		{"tRTP", []Command{act(0, 0, 0, 0, 1), rd(60, 0, 0, 0, 1), pre(63, 0, 0, 0)}}, // need 64
		{"tWR", []Command{act(0, 0, 0, 0, 1), wr(60, 0, 0, 0, 1), pre(93, 0, 0, 0)}},  // data ends 68, need 68+26 = 94
		{"tRFC", []Command{ref(100, 0), act(309, 0, 0, 0, 1)}},                        // need 310
		{"tRFC", []Command{ref(100, 0), ref(300, 0)}},                                 // REF to REF
		{"tRP", []Command{act(0, 0, 0, 0, 1), pre(60, 0, 0, 0), ref(70, 0)}},          // REF needs every bank precharged tRP ago
		{"refresh with a bank open", []Command{act(0, 0, 0, 0, 1), ref(100, 0)}},
		{"refresh overdue", []Command{act(9*3333+1, 0, 0, 0, 1)}}, // no REF in 9 x tREFI
		// RD at 40: data [64, 66); WR at 50: data from 56.
		{"data bus overlap", []Command{act(0, 0, 0, 0, 1), rd(40, 0, 0, 0, 1), wr(50, 0, 0, 0, 1)}},
		// WR at 60: data from 66, right after the read's, with no turnaround.
		{"tRTW", []Command{act(0, 0, 0, 0, 1), rd(40, 0, 0, 0, 1), wr(60, 0, 0, 0, 1)}},
		// Rank 1's read data starts in cycle 66, when rank 0's ends: no rank switch gap.
		{"tRTRS", []Command{act(0, 0, 0, 0, 1), act(1, 1, 0, 0, 1), rd(40, 0, 0, 0, 1), rd(42, 1, 0, 0, 1)}},
		{"command bus", []Command{act(5, 0, 0, 0, 1), act(5, 0, 1, 0, 1)}},
		{"command order", []Command{act(5, 0, 0, 0, 1), act(4, 0, 1, 0, 1)}},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			c := NewChecker(g, tm, true)
			n := len(tc.cmds)
			for i, cmd := range tc.cmds[:n-1] {
				if err := c.Record(cmd); err != nil {
					t.Fatalf("legal command %d (%v) refused: %v", i, cmd, err)
				}
			}
			err := c.Record(tc.cmds[n-1])
			var v *Violation
			if !errors.As(err, &v) || v.Rule != tc.rule {
				t.Fatalf("last command %v: got %v, want a %q violation", tc.cmds[n-1], err, tc.rule)
			}
			if c.Err() != err || c.Record(act(1<<20, 1, 3, 3, 1)) != err {
				t.Errorf("the first violation is not kept")
			}
		})
	}
}

// TestCheckerAcceptsLegalSequence checks a legal sequence with every command
// at its earliest cycle: the checker must not refuse commands that meet the
// rules exactly.
func TestCheckerAcceptsLegalSequence(t *testing.T) {
	p, _ := LookupPreset("GDDR6")
	tm, g := p.Timing, p.Geometry
	cmds := []Command{
		{Cycle: 0, Kind: CmdACT, Row: 1},
		{Cycle: 7, Kind: CmdACT, BankGroup: 1, Row: 1},                    // tRRD_S
		{Cycle: 26, Kind: CmdRD, Row: 1},                                  // tRCD
		{Cycle: 33, Kind: CmdRD, BankGroup: 1, Row: 1},                    // tRCD
		{Cycle: 36, Kind: CmdRD, BankGroup: 1, Row: 1},                    // tCCD_L
		{Cycle: 53, Kind: CmdPRE},                                         // tRAS (tRTP met)
		{Cycle: 79, Kind: CmdACT, Row: 2},                                 // tRP and tRC
		{Cycle: 95, Kind: CmdWR, Row: 2},                                  // tRCDWR; data from 101, the reads' ended 62 (tRTW met)
		{Cycle: 103 + 11, Kind: CmdRD, Row: 2},                            // data ended 103; tWTR_L
		{Cycle: 132, Kind: CmdPRE},                                        // tRAS from 79; tWR 103+26 = 129; tRTP 118
		{Cycle: 133, Kind: CmdPRE, BankGroup: 1},                          // tRTP from 36
		{Cycle: 159, Kind: CmdREF},                                        // tRP after both PREs, tRC from 79 (158)
		{Cycle: 159 + int64(tm.TRFC), Kind: CmdACT, BankGroup: 2, Row: 3}, // tRFC
	}
	c := NewChecker(g, tm, true)
	for _, cmd := range cmds {
		if err := c.Record(cmd); err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
	if err := c.Finish(cmds[len(cmds)-1].Cycle); err != nil {
		t.Fatal(err)
	}
}
