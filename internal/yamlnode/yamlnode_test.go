package yamlnode

import "testing"

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"syntax", "a: [1\n", "f.yaml:1: yaml: did not find expected ',' or ']'"},
		{"tab", "a: 1\n\tb: 2\n", "f.yaml:2: yaml: found a tab character that violates indentation"},
		{"not UTF-8", "a: 1\nb: 2\nc: \xff\n", "f.yaml:3: yaml: invalid leading UTF-8 octet"},
		{"control character", "a: 1\nb: \x01x\n", "f.yaml:2: yaml: control characters are not allowed"},
		{"unknown anchor", "a: 1 # *abx\nb: *ab\n", "f.yaml:2: yaml: unknown anchor 'ab' referenced"},
		{"first line, bad token", "\tfoo: 1\n", "f.yaml:1: yaml: found character that cannot start any token"},
		{"first line, mapping in a value", "a: b: c\nd: 1\n", "f.yaml:1: yaml: mapping values are not allowed in this context"},
		{"first line, reserved indicator", "@x: 1\n", "f.yaml:1: yaml: found character that cannot start any token"},
		// Parser errors: yaml.v3 counts their lines from 0.
		{"flow list left open", "a: 1\nb: [1, 2\nc: 3\n", "f.yaml:2: yaml: did not find expected ',' or ']'"},
		{"flow mapping left open", "a: 1\nb: {x: 1\nc: 3\n", "f.yaml:2: yaml: did not find expected ',' or '}'"},
		{"key less indented", "a: 1\nb:\n  c: 1\n d: 2\n", "f.yaml:4: yaml: did not find expected key"},
		{"mapping in a list", "a: 1\nb:\n  - 1\n  x: 2\n", "f.yaml:3: yaml: did not find expected '-' indicator"},
		// Scanner errors keep their line, but for a tab: the line of the tab,
		// not of the scalar before it.
		{"tab after a nested value", "samples: 4\ncamera:\n  fov_y: 60\n\tnear: 1\n", "f.yaml:4: yaml: found a tab character that violates indentation"},
		{"mapping value in a value", "a: 1\nb: 2\nc: d: e\n", "f.yaml:3: yaml: mapping values are not allowed in this context"},
		{"second document", "a: 1\n---\nb: 2\n", "f.yaml:2: yaml: a second document (after ---) would not be read: keep one document per file"},
	}
	for _, tc := range tests {
		_, err := Parse("f.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got  %v\n want %s", tc.name, err, tc.want)
		}
	}
}

func TestParseEmptyAndRoot(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n"} {
		root, err := Parse("f.yaml", []byte(src))
		if err != nil || root != nil && root.Tag != "!!null" {
			t.Errorf("%q: root %v, err %v", src, root, err)
		}
	}
	root, err := Parse("f.yaml", []byte("x: 1\ny: 2\n"))
	if err != nil || root == nil || len(root.Content) != 4 || root.Content[2].Line != 2 {
		t.Fatalf("root %+v, err %v", root, err)
	}
}

// TestHugeNumbers: numbers too large for 64 bits, which YAML resolves as
// another type (an integer as a float, a float as a string).
func TestHugeNumbers(t *testing.T) {
	for _, tc := range []struct {
		src        string
		int, float bool // HugeInt, HugeFloat
	}{
		{"99999999999999999999", true, false},
		{"-99_999_999_999_999_999_999", true, false},
		{"+18446744073709551616", true, false},
		{"9223372036854775807", false, false}, // fits: !!int
		{"1e20", false, false},
		{"2.5", false, false},
		{".inf", false, false},
		{"\"99999999999999999999\"", false, false}, // a string
		{"1e400", false, true},
		{"-1.5e999", false, true},
		{"1e308", false, false}, // fits: !!float
		{"1e-400", false, false},
		{"abc", false, false},
		{"\"1e400\"", false, false}, // quoted strings
		{"'1e400'", false, false},
	} {
		root, err := Parse("f.yaml", []byte("a: "+tc.src+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		n := root.Content[1]
		if HugeInt(n) != tc.int || HugeFloat(n) != tc.float {
			t.Errorf("%s: HugeInt %v, HugeFloat %v; want %v, %v", tc.src, HugeInt(n), HugeFloat(n), tc.int, tc.float)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{"f", 3, "a.b", "bad"}, "f:3: a.b: bad"},
		{Error{"f", 3, "", "bad"}, "f:3: bad"},
		{Error{"f", 0, "a.b", "bad"}, "f: a.b: bad"},
		{Error{"f", 0, "", "bad"}, "f: bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
