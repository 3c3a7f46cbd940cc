package timing

import "testing"

func TestNextCycle(t *testing.T) {
	n := After(10)
	if n.Cycle() != ^uint64(0) {
		t.Errorf("nothing considered: %d", n.Cycle())
	}
	for _, c := range []uint64{10, 3, 17, 12, 15} {
		n.Consider(c)
	}
	if n.Cycle() != 12 {
		t.Errorf("earliest after 10 of 10, 3, 17, 12, 15 is %d, want 12", n.Cycle())
	}
}
