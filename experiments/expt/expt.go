// Package expt holds what every experiment binary shares: its command line
// (Main runs a study; a study's Options embed Common, whose Parse registers
// -o, -quick, -workers and the StudyFlags of its parts, and refuses a flag
// that cannot apply, naming it), finding a scene by
// name or file, output folders, statistics files and printed tables, and the
// sweep harness. A study declares its points (Sweep: names in plan order, a Run for
// one point, a Merge for all); the harness lists them (-list), runs any shard
// of them (-shard K/N: every N-th point from the K-th, one JSON file per point
// under OUT/points with the study's Fingerprint), and merges the files of all
// shards into the tables and figures (-merge), refusing a missing, repeated or
// differently configured point. The tables are always built from the decoded
// files, so that one process and N merged shards write the same bytes;
// ShardsMatch checks it (every study's TestShardsMatch; sage's TestQuick). Reserve,
// ReserveFrame and ReserveTimedFrame reserve a run's memory estimate in its
// budget (-max-memory) before anything large is built.
package expt

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/gfxsim/gfxsim/scene"

	"github.com/gfxsim/gfxsim/internal/outputs"
)

// LoadScene returns the built-in scene called name, or loads name as a file: a
// YAML scene, or a bare mesh (.obj, .gltf, .glb) wrapped in a default scene.
// Width, height and samples override the scene's when non-zero; opts (a frame
// of an animated scene, a blur scale) are passed to the loader. Files the
// scene names must be in its folder tree (Inputs.Load allows more), and the
// load stays within the default memory budget.
func LoadScene(name string, width, height, samples int, opts ...scene.Option) (*scene.Scene, error) {
	return loadScene(name, width, height, samples, opts...)
}

// Stats is a flat set of named counters, "<component>.<counter>".
type Stats map[string]float64

// AddStruct adds every numeric field of the struct v (embedded structs flattened)
// as prefix.snake_case_field_name.
func (s Stats) AddStruct(prefix string, v any) {
	rv := reflect.Indirect(reflect.ValueOf(v))
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := rv.Field(i)
		if f.Anonymous && fv.Kind() == reflect.Struct {
			s.AddStruct(prefix, fv.Interface())
			continue
		}
		name := prefix + "." + SnakeCase(f.Name)
		switch fv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s[name] = float64(fv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			s[name] = float64(fv.Uint())
		case reflect.Float32, reflect.Float64:
			s[name] = fv.Float()
		case reflect.Bool:
			if fv.Bool() {
				s[name] = 1
			} else {
				s[name] = 0
			}
		}
	}
}

// SnakeCase turns "VertexCacheHits" into "vertex_cache_hits" and "PSInvocations"
// into "ps_invocations".
func SnakeCase(s string) string {
	var b strings.Builder
	r := []rune(s)
	for i, c := range r {
		if unicode.IsUpper(c) {
			if i > 0 && (unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]) && unicode.IsUpper(r[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// WriteJSON writes s to path with sorted keys, one counter per line.
func (s Stats) WriteJSON(path string) error {
	b, err := json.MarshalIndent(map[string]float64(s), "", "  ")
	if err != nil {
		return err
	}
	return outputs.WriteFile(path, append(b, '\n'))
}

// Names returns the counter names in order.
func (s Stats) Names() []string {
	n := make([]string, 0, len(s))
	for k := range s {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Table prints rows as aligned columns: the first left-aligned, the others
// right-aligned.
func Table(w io.Writer, header []string, rows [][]string) { table(w, header, rows, false) }

// TextTable is Table with a last column of text, left-aligned (a list of
// causes, a note).
func TextTable(w io.Writer, header []string, rows [][]string) { table(w, header, rows, true) }

func table(w io.Writer, header []string, rows [][]string, textLast bool) {
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(width) && len(c) > width[i] {
				width[i] = len(c)
			}
		}
	}
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				fmt.Fprint(w, "  ")
			}
			switch {
			case i == len(cells)-1 && textLast:
				fmt.Fprint(w, c) // no trailing spaces
			case i == 0:
				fmt.Fprintf(w, "%-*s", width[i], c)
			default:
				fmt.Fprintf(w, "%*s", width[i], c)
			}
		}
		fmt.Fprintln(w)
	}
	line(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

// RunName joins the parts that identify one simulation of a sweep into a name
// usable as a folder: letters, digits, '.', '_' and '-' kept, other runes
// replaced by '_', parts joined by '-' (for example "l1_size-texstudy-32KB").
func RunName(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('-')
		}
		for _, r := range strings.TrimSpace(p) {
			if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
	}
	return b.String()
}
