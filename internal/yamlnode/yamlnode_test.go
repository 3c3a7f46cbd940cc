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
