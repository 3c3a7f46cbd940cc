package enum

import "testing"

type color uint8

var colors = Names[color]{Type: "color", What: "colour", Names: []string{"Red", "DarkGreen", "Blue"}}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		v    color
		want string
	}{{0, "Red"}, {1, "DarkGreen"}, {2, "Blue"}, {3, "color(3)"}, {255, "color(255)"}} {
		if got := colors.String(tc.v); got != tc.want {
			t.Errorf("String(%d) = %q, want %q", tc.v, got, tc.want)
		}
		if got, want := colors.Valid(tc.v), tc.v < 3; got != want {
			t.Errorf("Valid(%d) = %v, want %v", tc.v, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	caseOnly := colors
	caseOnly.CaseOnly, caseOnly.OneOf = true, true
	exact := colors
	exact.Exact = true
	for _, tc := range []struct {
		n       *Names[color]
		s       string
		want    color
		wantErr string
	}{
		{&colors, "red", 0, ""},
		{&colors, "dark_green", 1, ""},
		{&colors, "DARK-GREEN", 1, ""},
		{&colors, "blue", 2, ""},
		{&colors, "dark", 0, `unknown colour "dark" (want Red, DarkGreen or Blue)`},
		{&colors, "", 0, `unknown colour "" (want Red, DarkGreen or Blue)`},
		{&caseOnly, "darkgreen", 1, ""},
		{&caseOnly, "dark_green", 0, `unknown colour "dark_green" (want one of Red, DarkGreen, Blue)`},
		{&exact, "DarkGreen", 1, ""},
		{&exact, "darkgreen", 0, `unknown colour "darkgreen" (want Red, DarkGreen or Blue)`},
		{&exact, "Dark_Green", 0, `unknown colour "Dark_Green" (want Red, DarkGreen or Blue)`},
	} {
		got, err := tc.n.Parse(tc.s)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.wantErr {
			t.Errorf("Parse(%q) = %d, %q; want %d, %q", tc.s, got, gotErr, tc.want, tc.wantErr)
		}
	}
}

func TestWant(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{{nil, ""}, {[]string{"A"}, "A"}, {[]string{"A", "B"}, "A or B"}, {[]string{"A", "B", "C"}, "A, B or C"}} {
		n := Names[color]{Names: tc.names}
		if got := n.Want(); got != tc.want {
			t.Errorf("Want(%v) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		s, name string
		want    bool
	}{
		{"inv_src_alpha", "InvSrcAlpha", true},
		{"z-order", "ZOrder", true},
		{"ZORDER", "ZOrder", true},
		{"zorde", "ZOrder", false},
		{"zorders", "ZOrder", false},
		{"", "", true},
		{"_", "", true},
		{"rgba8srgb", "RGBA8_SRGB", true},
		{"RGBA8-SRGB", "RGBA8_SRGB", true},
		{"rgba8", "RGBA8_SRGB", false},
	} {
		if got := Equal(tc.s, tc.name); got != tc.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tc.s, tc.name, got, tc.want)
		}
	}
}
