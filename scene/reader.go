package scene

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/geom"
	"gopkg.in/yaml.v3"
)

// reader reads optional fields of one mapping with defaults, keeping the first
// error (later reads return their defaults), so that a generator's parameters
// read as a flat list.
type reader struct {
	p   *parser
	o   *object
	err error
}

func (p *parser) reader(n *yaml.Node, field string, allowed ...string) *reader {
	o, err := p.w.object(n, field, allowed...)
	return &reader{p: p, o: o, err: err}
}

// node returns the value of key, or nil when absent or after an error.
func (r *reader) node(key string) *yaml.Node {
	if r.err != nil || r.o == nil {
		return nil
	}
	return r.o.get(key)
}

// read reads key with parse (given its node and field); ok is false when
// the key is absent or parse failed (its error kept in r.err).
func read[T any](r *reader, key string, parse func(n *yaml.Node, field string) (T, error)) (v T, ok bool) {
	n := r.node(key)
	if n == nil {
		return v, false
	}
	v, err := parse(n, r.o.path(key))
	if err != nil {
		r.err = err
		return v, false
	}
	return v, true
}

func (r *reader) float(key string, def float32, lo, hi float64) float32 {
	if v, ok := read(r, key, func(n *yaml.Node, f string) (float32, error) { return r.p.w.float(n, f, lo, hi) }); ok {
		return v
	}
	return def
}

func (r *reader) int(key string, def, lo, hi int) int {
	integer := func(n *yaml.Node, f string) (int64, error) { return r.p.w.integer(n, f, int64(lo), int64(hi)) }
	if v, ok := read(r, key, integer); ok {
		return int(v)
	}
	return def
}

// ints reads an integer or a list of minLen..maxLen integers in [lo, hi].
func (r *reader) ints(key string, def []int, minLen, maxLen, lo, hi int) []int {
	rn, ok := read(r, key, r.p.w.resolve)
	if !ok {
		return def
	}
	field := r.o.path(key)
	items := []*yaml.Node{rn}
	if rn.Kind == yaml.SequenceNode {
		items = rn.Content
		if len(items) < minLen || len(items) > maxLen {
			r.err = r.p.w.errAt(rn, field, "expected an integer or a list of %s integers, got %d values", lenText(minLen, maxLen), len(items))
			return def
		}
	}
	out := make([]int, len(items))
	for i, it := range items {
		f := field
		if rn.Kind == yaml.SequenceNode {
			f = fmt.Sprintf("%s[%d]", field, i)
		}
		v, err := r.p.w.integer(it, f, int64(lo), int64(hi))
		if err != nil {
			r.err = err
			return def
		}
		out[i] = int(v)
	}
	return out
}

// int2 reads an integer (used for both) or a pair of integers.
func (r *reader) int2(key string, def [2]int, lo, hi int) [2]int {
	v := r.ints(key, def[:], 2, 2, lo, hi)
	if len(v) == 1 {
		return [2]int{v[0], v[0]}
	}
	return [2]int{v[0], v[1]}
}

// numbers reads minLen to maxLen numbers (or, when scalarOK, one number);
// ok is false when the key is absent or the value is bad (r.err).
func (r *reader) numbers(key string, minLen, maxLen int, scalarOK bool) (v []float32, ok bool) {
	return read(r, key, func(n *yaml.Node, f string) ([]float32, error) { return r.p.w.floats(n, f, minLen, maxLen, scalarOK) })
}

// vec2 reads a number (used for both) or a pair of numbers.
func (r *reader) vec2(key string, def geom.Vec2) geom.Vec2 {
	v, ok := r.numbers(key, 2, 2, true)
	if !ok {
		return def
	}
	if len(v) == 1 {
		return geom.Vec2{v[0], v[0]}
	}
	return geom.Vec2{v[0], v[1]}
}

// vec3 reads three numbers, or, when scalarOK, also one number used thrice.
func (r *reader) vec3(key string, def geom.Vec3, scalarOK bool) geom.Vec3 {
	v, ok := r.numbers(key, 3, 3, scalarOK)
	if !ok {
		return def
	}
	if len(v) == 1 {
		return geom.Vec3{v[0], v[0], v[0]}
	}
	return geom.Vec3{v[0], v[1], v[2]}
}

func (r *reader) floats(key string, def []float32, minLen, maxLen int) []float32 {
	if v, ok := r.numbers(key, minLen, maxLen, false); ok {
		return v
	}
	return def
}

// color reads an RGB or RGBA colour (alpha 1 when omitted).
func (r *reader) color(key string, def geom.Vec4) geom.Vec4 {
	v, ok := r.numbers(key, 3, 4, false)
	if !ok {
		return def
	}
	return toColor(v)
}

// colors reads a list of exactly len(def) colours.
func (r *reader) colors(key string, def ...geom.Vec4) []geom.Vec4 {
	vs := r.vecList(key, len(def), 3, 4)
	if vs == nil {
		return def
	}
	out := make([]geom.Vec4, len(vs))
	for i, v := range vs {
		out[i] = toColor(v)
	}
	return out
}

// vecList reads a list of exactly count lists of minLen..maxLen numbers; nil
// when absent or on error.
func (r *reader) vecList(key string, count, minLen, maxLen int) [][]float32 {
	items, ok := read(r, key, r.p.w.list)
	if !ok {
		return nil
	}
	n, field := r.node(key), r.o.path(key)
	if len(items) != count {
		r.err = r.p.w.errAt(n, field, "expected %d entries, got %d", count, len(items))
		return nil
	}
	out := make([][]float32, len(items))
	for i, it := range items {
		v, err := r.p.w.floats(it, fmt.Sprintf("%s[%d]", field, i), minLen, maxLen, false)
		if err != nil {
			r.err = err
			return nil
		}
		out[i] = v
	}
	return out
}

func (r *reader) enum(key string, def int, names []string) int {
	if v, ok := read(r, key, func(n *yaml.Node, f string) (int, error) { return r.p.w.enum(n, f, names) }); ok {
		return v
	}
	return def
}

// seed reads "seed" (a non-negative integer, default 1).
func (r *reader) seed() uint64 { return uint64(r.int("seed", 1, 0, 1<<62)) }

// generated ends the read of a generator's parameters: r's error, or what
// gen makes, its error placed at n.
func generated[T any](p *parser, r *reader, n *yaml.Node, field string, gen func() (T, error)) (T, error) {
	var zero T
	if r.err != nil {
		return zero, r.err
	}
	v, err := gen()
	if err != nil {
		return zero, p.w.errAt(n, field, "%v", err)
	}
	return v, nil
}
