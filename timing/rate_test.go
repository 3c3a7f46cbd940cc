package timing

import "testing"

// TestRate: a step may start while the budget is positive and overdraw it; the
// debt is repaid cycle by cycle, so steps of n units at r per cycle start n/r
// cycles apart on average (10 units at 4 per cycle: 2 and 3 cycles apart).
func TestRate(t *testing.T) {
	r := NewRate(4)
	if r.PerCycle() != 4 || !r.OK() {
		t.Fatalf("new rate: per %d, ok %v", r.PerCycle(), r.OK())
	}
	var starts []uint64
	for cycle := uint64(1); cycle <= 12; cycle++ {
		r.Refill(cycle)
		if r.OK() {
			starts = append(starts, cycle)
			r.Take(10)
		}
	}
	want := []uint64{1, 3, 6, 8, 11}
	if len(starts) != len(want) {
		t.Fatalf("starts %v, want %v", starts, want)
	}
	for i := range want {
		if starts[i] != want[i] {
			t.Fatalf("starts %v, want %v", starts, want)
		}
	}
	// The debt of the start at 11 is repaid by cycle 13.
	if got := r.Next(12); got != 13 {
		t.Errorf("Next(12) = %d, want 13", got)
	}
	r.Refill(100) // a long gap refills to the full budget, not beyond
	r.Take(4)
	if r.OK() {
		t.Error("a full budget of 4 spent by 4 units still allows a step")
	}
	if got := r.Next(100); got != 101 {
		t.Errorf("Next(100) after spending exactly the budget = %d, want 101", got)
	}
}
