package study

import (
	"testing"

	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

// TestRunCase runs ORACLE, ZMASK and FORWARD on a small occluders frame: the
// oracle culls at least what ZMASK culls, ZMASK at least what FORWARD culls
// here, every configuration tests the same 16-sample units, and the oracle
// alone moves no HiZ bytes.
func TestRunCase(t *testing.T) {
	var rs []Result
	for _, m := range []Machine{oracle, zmask, forward} {
		r, err := runCase(Case{Machine: m, Scene: "occluders", Samples: 4}, 48, 27, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	or, zm, fw := rs[0], rs[1], rs[2]
	if or.Units == 0 || or.Units != zm.Units || zm.Units != fw.Units {
		t.Errorf("units tested: %v %v %v", or.Units, zm.Units, fw.Units)
	}
	if !(or.UnitsCulled >= zm.UnitsCulled && zm.UnitsCulled >= fw.UnitsCulled && fw.UnitsCulled > 0) {
		t.Errorf("units culled: oracle %v, zmask %v, forward %v", or.UnitsCulled, zm.UnitsCulled, fw.UnitsCulled)
	}
	if or.HiZTraffic() != 0 || zm.HiZTraffic() == 0 || zm.DepthTraffic() == 0 {
		t.Errorf("traffic: oracle HiZ %v, zmask HiZ %v depth %v", or.HiZTraffic(), zm.HiZTraffic(), zm.DepthTraffic())
	}
}

func TestMachinesParse(t *testing.T) {
	p := makePlan(Options{})
	ms := append([]Machine{}, mainSet...)
	for _, d := range p.delays {
		ms = append(ms, delayMachine(d))
	}
	for _, s := range p.tiles {
		ms = append(ms, tileMachine(s))
	}
	ms = append(ms, layerMachine(3), layerMachine(4), cacheMachine(zmask, 8), cacheMachine(packed, 8))
	for _, m := range ms {
		if _, err := parse(m); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, ParseFlags) }
