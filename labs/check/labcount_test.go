package main

import "testing"

// TestLabCount: the checker's last line says "1 lab ok", not "1 labs ok".
func TestLabCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, "1 lab"},
		{2, "2 labs"},
		{11, "11 labs"},
		{0, "0 labs"},
	} {
		if got := labCount(c.n); got != c.want {
			t.Errorf("labCount(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
