package scene

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/names"
	"github.com/gfxsim/gfxsim/internal/yamlnode"
	"gopkg.in/yaml.v3"
)

// Error is a scene file error: the file, the line of the offending YAML node,
// the dotted path of the field ("objects[3].material") and the message. It is
// the error of every YAML loader (internal/yamlnode).
type Error = yamlnode.Error

// maxNodeVisits bounds the work of walking a document whose aliases expand
// to very many nodes.
const maxNodeVisits = 1 << 20

// walker reads yaml.Nodes and reports errors with file, line and field path.
type walker struct {
	file   string
	visits int
	frame  int // the frame keyframed values are evaluated at
}

func (w *walker) errAt(n *yaml.Node, field, format string, a ...any) *Error {
	return yamlnode.At(w.file, n, field, format, a...)
}

// parseYAML parses data into a document node (internal/yamlnode: syntax
// errors with their line).
func (w *walker) parseYAML(data []byte) (*yaml.Node, error) {
	root, err := yamlnode.Parse(w.file, data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, &Error{File: w.file, Msg: "empty scene file"}
	}
	return root, nil
}

// resolve follows aliases and counts the visit.
func (w *walker) resolve(n *yaml.Node, field string) (*yaml.Node, error) {
	for depth := 0; n != nil && n.Kind == yaml.AliasNode; depth++ {
		if depth > 100 || n.Alias == nil {
			return nil, w.errAt(n, field, "bad alias")
		}
		n = n.Alias
	}
	w.visits++
	if w.visits > maxNodeVisits {
		return nil, w.errAt(n, field, "document too large (aliases expand to more than %d nodes)", maxNodeVisits)
	}
	return n, nil
}

// entry is one key/value pair of a mapping.
type entry struct {
	key   string
	kn, v *yaml.Node
}

// entries returns the pairs of mapping n in document order, with merge keys
// ("<<") expanded (explicit keys win over merged ones) and duplicate keys
// reported.
func (w *walker) entries(n *yaml.Node, field string) ([]entry, error) {
	n, err := w.resolve(n, field)
	if err != nil {
		return nil, err
	}
	if isNull(n) && field != "" {
		return nil, nil // "section:" alone: an empty section
	}
	if n.Kind != yaml.MappingNode {
		if field == "" {
			// The whole file: it may be any file at all, quote none of it.
			return nil, w.errAt(n, field, "not a YAML mapping of keys (a scene file starts with keys such as resolution:, camera:, meshes:)")
		}
		return nil, w.errAt(n, field, "expected a mapping, got %s", describe(n))
	}
	var out, merged []entry
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, v := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.ShortTag() == "!!merge" {
			src, err := w.resolve(v, field)
			if err != nil {
				return nil, err
			}
			list := []*yaml.Node{src}
			if src.Kind == yaml.SequenceNode {
				list = src.Content
			}
			for _, m := range list {
				es, err := w.entries(m, field)
				if err != nil {
					return nil, err
				}
				merged = append(merged, es...)
			}
			continue
		}
		kr, err := w.resolve(kn, field)
		if err != nil {
			return nil, err
		}
		if kr.Kind != yaml.ScalarNode {
			return nil, w.errAt(kn, field, "mapping keys must be scalars, got %s", describe(kr))
		}
		if line, dup := seen[kr.Value]; dup {
			return nil, w.errAt(kn, join(field, kr.Value), "duplicate key (first on line %d)", line)
		}
		seen[kr.Value] = kn.Line
		out = append(out, entry{kr.Value, kn, v})
	}
	for _, e := range merged {
		if _, ok := seen[e.key]; !ok {
			seen[e.key] = e.kn.Line
			out = append(out, e)
		}
	}
	return out, nil
}

// object is a mapping whose keys are checked against a fixed list.
type object struct {
	field string
	node  *yaml.Node
	vals  map[string]*yaml.Node
	order []entry
}

// object reads mapping n, allowing only the given keys (an unknown key is an
// error at its line that lists the allowed ones). A key with a null value
// ("key:" alone, or ~) is an empty section or list (its defaults), and an
// error where a value is read: "fov_y:" alone is a slip, not a request for
// the default.
func (w *walker) object(n *yaml.Node, field string, allowed ...string) (*object, error) {
	es, err := w.entries(n, field)
	if err != nil {
		return nil, err
	}
	o := &object{field: field, node: n, vals: map[string]*yaml.Node{}, order: es}
	for i, e := range es {
		if !slices.Contains(allowed, e.key) && field == "" && i == 0 && !inputs.KeyLike(e.key) {
			// Nothing of the file was a scene yet: quote none of it.
			return nil, w.errAt(e.kn, "", "not a scene file: its first key is not a scene key (want one of %s)", strings.Join(allowed, ", "))
		}
		if !slices.Contains(allowed, e.key) {
			return nil, w.errAt(e.kn, join(field, e.key), "unknown field%s (want one of %s)", names.DidYouMean(e.key, allowed), strings.Join(allowed, ", "))
		}
		o.vals[e.key] = e.v // a null value: an empty section or list, or a scalar's error (isNull)
	}
	return o, nil
}

// get returns the value of key, or nil when absent.
func (o *object) get(key string) *yaml.Node { return o.vals[key] }

// path returns the field path of key.
func (o *object) path(key string) string { return join(o.field, key) }

func join(field, key string) string {
	if len(key) > inputs.MaxExcerpt || strings.ContainsAny(key, "\x00\n\r\t\"\\") {
		key = inputs.Quote(key)
	}
	return yamlnode.Join(field, key)
}

// describe names the kind of a node for error messages.
func describe(n *yaml.Node) string {
	if k := yamlnode.Collection(n); k != "" {
		return k
	}
	if n.Kind != yaml.ScalarNode {
		return "an unexpected node"
	}
	switch n.ShortTag() {
	case "!!null":
		return "null"
	case "!!str":
		return "string " + inputs.Quote(n.Value)
	case "!!bool":
		return "boolean " + n.Value
	}
	return plain(n.Value)
}

// plain returns a scalar as written when it is short plain text (a number),
// else a bounded quoted excerpt.
func plain(v string) string {
	if len(v) > inputs.MaxExcerpt || v == "" {
		return inputs.Quote(v)
	}
	for _, c := range v {
		if c <= ' ' || c > '~' || c == '"' || c == '\\' {
			return inputs.Quote(v)
		}
	}
	return v
}

func (w *walker) scalar(n *yaml.Node, field string) (*yaml.Node, error) {
	n, err := w.resolve(n, field)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.ScalarNode {
		return nil, w.errAt(n, field, "expected a scalar, got %s", describe(n))
	}
	if isNull(n) {
		return nil, w.errAt(n, field, "no value: give one, or remove the line to keep the default")
	}
	return n, nil
}

// str reads a non-empty string (any non-null scalar is taken as text).
func (w *walker) str(n *yaml.Node, field string) (string, error) {
	s, err := w.scalar(n, field)
	if err != nil {
		return "", err
	}
	if s.ShortTag() == "!!null" || s.Value == "" {
		return "", w.errAt(s, field, "expected a non-empty string")
	}
	return s.Value, nil
}

// number reads a finite number (int or float), or a keyframed number
// evaluated at the walker's frame.
func (w *walker) number(n *yaml.Node, field string) (float64, error) {
	if r, err := w.resolve(n, field); err == nil && r.Kind == yaml.MappingNode {
		k, err := w.keyframes(r, field, 0, 0)
		if err != nil {
			return 0, err
		}
		return k.at(w.frame)[0], nil
	}
	s, err := w.scalar(n, field)
	if err != nil {
		return 0, err
	}
	switch s.ShortTag() {
	case "!!int", "!!float":
	default:
		if yamlnode.HugeFloat(s) {
			return 0, w.errAt(s, field, "number %s is beyond the 32-bit float range (±3.4e38)", plain(s.Value))
		}
		return 0, w.errAt(s, field, "expected a number, got %s", describe(s))
	}
	if s.ShortTag() == "!!int" && yamlnode.LeadingZero(s) {
		return 0, w.errAt(s, field, "%s has a leading zero, which YAML reads as an octal number: write it without the zero", s.Value)
	}
	var f float64
	if err := s.Decode(&f); err != nil {
		return 0, w.errAt(s, field, "bad number %s", inputs.Quote(s.Value))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, w.errAt(s, field, "number %s is not finite", plain(s.Value))
	}
	if math.Abs(f) > math.MaxFloat32 {
		return 0, w.errAt(s, field, "number %s is beyond the 32-bit float range (±3.4e38)", plain(s.Value))
	}
	return f, nil
}

// float reads a finite float32 within [lo, hi] (every key of a keyframed
// value must be in range).
func (w *walker) float(n *yaml.Node, field string, lo, hi float64) (float32, error) {
	if r, err := w.resolve(n, field); err == nil && r.Kind == yaml.MappingNode {
		k, err := w.keyframes(r, field, 0, 0)
		if err != nil {
			return 0, err
		}
		for i, v := range k.values {
			if v[0] < lo || v[0] > hi {
				return 0, w.errAt(k.nodes[i], fmt.Sprintf("%s.values[%d]", field, i), "%v out of range [%v, %v]", v[0], lo, hi)
			}
		}
		return float32(k.at(w.frame)[0]), nil
	}
	f, err := w.number(n, field)
	if err != nil {
		return 0, err
	}
	if f < lo || f > hi {
		return 0, w.errAt(n, field, "%v out of range [%v, %v]", f, lo, hi)
	}
	return float32(f), nil
}

// integer reads an integer within [lo, hi].
func (w *walker) integer(n *yaml.Node, field string, lo, hi int64) (int64, error) {
	s, err := w.scalar(n, field)
	if err != nil {
		return 0, err
	}
	if s.ShortTag() != "!!int" {
		if yamlnode.HugeInt(s) {
			return 0, w.errAt(s, field, "%s out of range [%d, %d]", plain(s.Value), lo, hi)
		}
		return 0, w.errAt(s, field, "expected an integer, got %s", describe(s))
	}
	if yamlnode.LeadingZero(s) {
		return 0, w.errAt(s, field, "%s has a leading zero, which YAML reads as an octal number: write it without the zero", s.Value)
	}
	var v int64
	if err := s.Decode(&v); err != nil {
		return 0, w.errAt(s, field, "bad integer %s", inputs.Quote(s.Value))
	}
	if v < lo || v > hi {
		return 0, w.errAt(s, field, "%d out of range [%d, %d]", v, lo, hi)
	}
	return v, nil
}

func (w *walker) boolean(n *yaml.Node, field string) (bool, error) {
	s, err := w.scalar(n, field)
	if err != nil {
		return false, err
	}
	if s.ShortTag() != "!!bool" {
		return false, w.errAt(s, field, "expected true or false, got %s", describe(s))
	}
	var b bool
	if err := s.Decode(&b); err != nil {
		return false, w.errAt(s, field, "bad boolean %s", inputs.Quote(s.Value))
	}
	return b, nil
}

// list reads a sequence.
func (w *walker) list(n *yaml.Node, field string) ([]*yaml.Node, error) {
	n, err := w.resolve(n, field)
	if err != nil {
		return nil, err
	}
	if isNull(n) {
		return nil, nil // "list:" alone: an empty list
	}
	if n.Kind != yaml.SequenceNode {
		return nil, w.errAt(n, field, "expected a list, got %s", describe(n))
	}
	return n.Content, nil
}

// isNull reports whether n is a null scalar ("key:" with no value, or ~).
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// floats reads a list of minLen..maxLen finite numbers; when scalarOK, a
// single number is also accepted and returned as a one-element list.
func (w *walker) floats(n *yaml.Node, field string, minLen, maxLen int, scalarOK bool) ([]float32, error) {
	r, err := w.resolve(n, field)
	if err != nil {
		return nil, err
	}
	if r.Kind == yaml.MappingNode {
		k, err := w.keyframes(r, field, minLen, maxLen)
		if err != nil {
			return nil, err
		}
		v := k.at(w.frame)
		if len(v) == 1 && !scalarOK {
			return nil, w.errAt(r, field+".values", "expected lists of %s numbers", lenText(minLen, maxLen))
		}
		out := make([]float32, len(v))
		for i := range v {
			out[i] = float32(v[i])
		}
		return out, nil
	}
	if r.Kind == yaml.ScalarNode && scalarOK {
		f, err := w.number(r, field)
		if err != nil {
			return nil, err
		}
		return []float32{float32(f)}, nil
	}
	if r.Kind != yaml.SequenceNode {
		what := "a list"
		if scalarOK {
			what = "a number or a list"
		}
		return nil, w.errAt(r, field, "expected %s of %s numbers, got %s", what, lenText(minLen, maxLen), describe(r))
	}
	if len(r.Content) < minLen || len(r.Content) > maxLen {
		return nil, w.errAt(r, field, "expected %s numbers, got %d", lenText(minLen, maxLen), len(r.Content))
	}
	out := make([]float32, len(r.Content))
	for i, c := range r.Content {
		f, err := w.number(c, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out[i] = float32(f)
	}
	return out, nil
}

func lenText(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// enum reads one of names and returns its index.
func (w *walker) enum(n *yaml.Node, field string, known []string) (int, error) {
	s, err := w.str(n, field)
	if err != nil {
		return 0, err
	}
	if i := slices.Index(known, s); i >= 0 {
		return i, nil
	}
	return 0, w.errAt(n, field, "unknown value %s%s (want one of %s)", inputs.Quote(s), names.DidYouMean(s, known), strings.Join(known, ", "))
}

// enumField reads the optional field key of o, one of names, into *dst.
func enumField[T ~uint8](w *walker, o *object, key string, names []string, dst *T) error {
	n := o.get(key)
	if n == nil {
		return nil
	}
	v, err := w.enum(n, o.path(key), names)
	if err != nil {
		return err
	}
	*dst = T(v)
	return nil
}

// maxKeyframes bounds the keys of one keyframed value.
const maxKeyframes = 10000

// keyframes is a keyframed value, {frames: [f0, f1, ...], values: [v0, v1,
// ...]}: strictly increasing non-negative integer frames and as many values,
// each a number or a list of numbers, all of one length.
type keyframes struct {
	frames []int64
	values [][]float64
	nodes  []*yaml.Node
}

// keyframes reads a keyframed value from mapping n: numbers when maxLen is 0,
// else numbers or lists of minLen..maxLen numbers.
func (w *walker) keyframes(n *yaml.Node, field string, minLen, maxLen int) (*keyframes, error) {
	o, err := w.object(n, field, "frames", "values")
	if err != nil {
		return nil, err
	}
	fn, vn := o.get("frames"), o.get("values")
	if fn == nil || vn == nil {
		return nil, w.errAt(n, field, "a keyframed value needs frames and values ({frames: [0, 49], values: [a, b]})")
	}
	fs, err := w.list(fn, o.path("frames"))
	if err != nil {
		return nil, err
	}
	vs, err := w.list(vn, o.path("values"))
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 || len(fs) > maxKeyframes || len(vs) != len(fs) {
		return nil, w.errAt(vn, o.path("values"), "%d values for %d frames: want as many values as frames, 1 to %d", len(vs), len(fs), maxKeyframes)
	}
	k := &keyframes{}
	for i, f := range fs {
		at := fmt.Sprintf("%s[%d]", o.path("frames"), i)
		v, err := w.integer(f, at, 0, maxFrames-1)
		if err != nil {
			return nil, err
		}
		if i > 0 && v <= k.frames[i-1] {
			return nil, w.errAt(f, at, "frame %d after frame %d: keyframes' frames must increase", v, k.frames[i-1])
		}
		k.frames = append(k.frames, v)
	}
	for i, v := range vs {
		f := fmt.Sprintf("%s[%d]", o.path("values"), i)
		r, err := w.resolve(v, f)
		if err != nil {
			return nil, err
		}
		var vals []float64
		if r.Kind == yaml.SequenceNode && maxLen > 0 {
			if len(r.Content) < minLen || len(r.Content) > maxLen {
				return nil, w.errAt(r, f, "expected %s numbers, got %d", lenText(minLen, maxLen), len(r.Content))
			}
			for j, c := range r.Content {
				x, err := w.number(c, fmt.Sprintf("%s[%d]", f, j))
				if err != nil {
					return nil, err
				}
				vals = append(vals, x)
			}
		} else {
			if r.Kind != yaml.ScalarNode {
				return nil, w.errAt(r, f, "expected a number, got %s", describe(r))
			}
			x, err := w.number(r, f)
			if err != nil {
				return nil, err
			}
			vals = []float64{x}
		}
		if i > 0 && len(vals) != len(k.values[0]) {
			return nil, w.errAt(r, f, "%d numbers, values[0] has %d", len(vals), len(k.values[0]))
		}
		k.values = append(k.values, vals)
		k.nodes = append(k.nodes, r)
	}
	return k, nil
}

// at returns the value at frame f: the first key's before it, the last key's
// after it, linear between keys (exact at the keys).
func (k *keyframes) at(f int) []float64 {
	fr := int64(f)
	if fr <= k.frames[0] {
		return k.values[0]
	}
	for i := 1; i < len(k.frames); i++ {
		if fr > k.frames[i] {
			continue
		}
		if fr == k.frames[i] {
			return k.values[i]
		}
		a, b := k.values[i-1], k.values[i]
		u := float64(fr-k.frames[i-1]) / float64(k.frames[i]-k.frames[i-1])
		out := make([]float64, len(a))
		for j := range a {
			out[j] = a[j] + u*(b[j]-a[j])
		}
		return out
	}
	return k.values[len(k.values)-1]
}
