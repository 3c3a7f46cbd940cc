package names

import (
	"slices"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"GPU.Memory.Channel[2]", "GPU.Memory.Channel[10]", -1},
		{"GPU.Memory.Channel[10]", "GPU.Memory.Channel[2]", 1},
		{"GPU.Memory.Channel[10]", "GPU.Memory.Channel[10]", 0},
		{"GPU.Memory.Channel[1].row_hit_rate", "GPU.Memory.Channel[1]", 1},
		{"GPU.Pipe[2].ShaderCore[10]", "GPU.Pipe[10].ShaderCore[2]", -1},
		{"GPU.L2.Bank[9].read_hit_rate", "GPU.L2.Bank[10].read_hit_rate", -1},
		{"2", "02", -1},
		{"02", "2", 1},
		{"007", "7", 1},
		{"0", "00", -1},
		{"a9", "a10", -1},
		{"a", "a0", -1},
		{"a0", "a", 1},
		{"abc", "abd", -1},
		{"x10y2", "x10y10", -1},
		{"18446744073709551616", "18446744073709551615", 1}, // beyond uint64
		{"ROP", "ROP[0]", -1},
		{"9", "a", -1}, // a digit before a letter, as bytes
	} {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestKeys(t *testing.T) {
	m := map[string]int{}
	for _, k := range []string{"C[10]", "C[2]", "C[1]", "B", "C[0]", "C[11]", "C[1].x"} {
		m[k] = 1
	}
	want := []string{"B", "C[0]", "C[1]", "C[1].x", "C[2]", "C[10]", "C[11]"}
	if got := Keys(m); !slices.Equal(got, want) {
		t.Errorf("Keys = %q, want %q", got, want)
	}
}

// FuzzCompare checks that Compare is a total order consistent with equality
// and that it agrees with strings.Compare on strings without digits.
func FuzzCompare(f *testing.F) {
	for _, s := range [][3]string{{"C[2]", "C[10]", "C[010]"}, {"a", "a0", "00"}, {"x1y", "x01y", "x1y0"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := Compare(a, b), Compare(b, a)
		if ab != -ba {
			t.Fatalf("Compare(%q, %q) = %d but Compare(%q, %q) = %d", a, b, ab, b, a, ba)
		}
		if (ab == 0) != (a == b) {
			t.Fatalf("Compare(%q, %q) = %d", a, b, ab)
		}
		if ab <= 0 && Compare(b, c) <= 0 && Compare(a, c) > 0 {
			t.Fatalf("not transitive: %q <= %q <= %q but %q > %q", a, b, c, a, c)
		}
		if !strings.ContainsAny(a+b, "0123456789") && ab != strings.Compare(a, b) {
			t.Fatalf("Compare(%q, %q) = %d, strings.Compare %d", a, b, ab, strings.Compare(a, b))
		}
	})
}

func TestDidYouMean(t *testing.T) {
	known := []string{"memory", "machine", "type", "line_bytes", "rop", "raster", "ideal_latency", "ideal_width"}
	for _, tc := range []struct{ given, want string }{
		{"memroy", `; did you mean "memory"?`},        // two neighbours swapped
		{"Memory", `; did you mean "memory"?`},        // case
		{"typ", `; did you mean "type"?`},             // a letter left out
		{"line_byte", `; did you mean "line_bytes"?`}, // one left out at the end
		{"ideal_latncy", `; did you mean "ideal_latency"?`},
		{"lines_bytez", `; did you mean "line_bytes"?`}, // two edits
		{"memory", ""}, // known
		{"ideal", ""},  // too far from both ideal_ names
		{"rap", `; did you mean "rop"?`},
		{"ra", ""},  // two edits from rop: as many as half its letters
		{"xyz", ""}, // nothing close
		{"mashine", `; did you mean "machine"?`},
		{"", ""},
	} {
		if got := DidYouMean(tc.given, known); got != tc.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tc.given, got, tc.want)
		}
	}
	// Two names equally close: no guess.
	if got := DidYouMean("cat", []string{"bat", "hat"}); got != "" {
		t.Errorf("a tie gave %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"abc", "ab", 1}, {"abc", "xbc", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3},
	} {
		if got := editDistance(tc.a, tc.b, 10); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if got := editDistance("kitten", "sitting", 2); got != 2 {
		t.Errorf("with limit 2: %d, want 2", got)
	}
}
