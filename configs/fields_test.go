package configs

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestEveryFieldValueBuildsOrFailsAtItsLine sets each integer and boolean field
// alone to a few representative values: each either builds (no builder
// refuses what Validate accepted) or is refused with the file and the line of
// that value.
func TestEveryFieldValueBuildsOrFailsAtItsLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds about a thousand machines")
	}
	type field struct {
		path string
		kind reflect.Kind
	}
	var fields []field
	eachField(reflect.ValueOf(Config{}), "", func(fp string, f reflect.StructField, _ reflect.Value) error {
		if k := f.Type.Kind(); k == reflect.Int || k == reflect.Bool {
			fields = append(fields, field{fp, k})
		}
		return nil
	})
	for _, f := range fields {
		values := []string{"0", "1", "3", "16", "4096"}
		if f.kind == reflect.Bool {
			values = []string{"true", "false"}
		}
		parts := strings.Split(f.path, ".")
		for _, v := range values {
			var src strings.Builder
			line := len(parts)
			if m := parts[0]; m == "sage" || m == "sortmiddle" {
				// The section of a machine applies with that machine only.
				fmt.Fprintf(&src, "machine: %s\n", m)
				line++
			}
			for i, s := range parts[:len(parts)-1] {
				fmt.Fprintf(&src, "%s%s:\n", strings.Repeat("  ", i), s)
			}
			fmt.Fprintf(&src, "%s%s: %s\n", strings.Repeat("  ", len(parts)-1), parts[len(parts)-1], v)
			c, err := Parse("f.yaml", []byte(src.String()))
			if err != nil {
				if want := fmt.Sprintf("f.yaml:%d: ", line); !strings.HasPrefix(err.Error(), want) {
					t.Errorf("%s: %s: error without the value's line %d: %v", f.path, v, line, err)
				}
				continue
			}
			if _, err := Build(c); err != nil {
				t.Errorf("%s: %s: accepted by Parse, refused by Build: %v", f.path, v, err)
			}
		}
	}
}
