package timing

import "testing"

func TestRatio(t *testing.T) {
	if got := Ratio(3, 4); got != 0.75 {
		t.Errorf("Ratio(3, 4) = %v, want 0.75", got)
	}
	if got := Ratio(3, 0); got != 0 {
		t.Errorf("Ratio(3, 0) = %v, want 0", got)
	}
}
