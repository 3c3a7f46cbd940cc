// Package enum is the one home of gfxsim's small named enumerations: an integer
// type whose values 0..n-1 have names, which String prints, Valid checks and
// Parse reads back from configuration and scene files, ignoring case (and,
// unless CaseOnly, '_' and '-', so "inv_src_alpha" is InvSrcAlpha), or
// exactly (Exact). Each
// enumeration declares one Names value and forwards its methods to it.
package enum

import (
	"fmt"
	"strings"
)

// Names are the names of the values of an enumeration T, and how its errors
// name it.
type Names[T ~uint8 | ~uint32 | ~int] struct {
	Type     string   // the Go type, printed for a value out of range: "Format(7)"
	What     string   // what a value is, in Parse's error: `unknown depth format "x" (want D24S8 or D32F)`
	Names    []string // the names of 0, 1, 2, ...
	OneOf    bool     // Parse's error lists "one of A, B, C" (otherwise "A, B or C")
	CaseOnly bool     // names match ignoring case only (otherwise '_' and '-' are ignored too)
	Exact    bool     // names match exactly (before CaseOnly)
}

// String returns v's name, or "Type(v)" for a value out of range.
func (n *Names[T]) String(v T) string {
	if n.Valid(v) {
		return n.Names[v]
	}
	return fmt.Sprintf("%s(%d)", n.Type, v)
}

// Valid reports whether v is a named value.
func (n *Names[T]) Valid(v T) bool { return v >= 0 && int(v) < len(n.Names) }

// Lookup returns the value named s.
func (n *Names[T]) Lookup(s string) (T, bool) {
	for i, name := range n.Names {
		if n.match(s, name) {
			return T(i), true
		}
	}
	return 0, false
}

func (n *Names[T]) match(s, name string) bool {
	switch {
	case n.Exact:
		return s == name
	case n.CaseOnly:
		return strings.EqualFold(s, name)
	}
	return Equal(s, name)
}

// Parse returns the value named s, or an error naming s and every name.
func (n *Names[T]) Parse(s string) (T, error) {
	if v, ok := n.Lookup(s); ok {
		return v, nil
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", n.What, s, n.Want())
}

// Want lists the names as Parse's error does: "one of A, B, C" with OneOf,
// otherwise "A, B or C".
func (n *Names[T]) Want() string {
	if n.OneOf {
		return "one of " + strings.Join(n.Names, ", ")
	}
	if len(n.Names) < 2 {
		return strings.Join(n.Names, "")
	}
	last := len(n.Names) - 1
	return strings.Join(n.Names[:last], ", ") + " or " + n.Names[last]
}

// Equal compares s with a canonical name, ignoring case, '_' and '-' in
// both ("rgba8srgb" is "RGBA8_SRGB").
func Equal(s, name string) bool {
	i, j := 0, 0
	for {
		i, j = skipSeparators(s, i), skipSeparators(name, j)
		if i == len(s) || j == len(name) {
			return i == len(s) && j == len(name)
		}
		if lower(s[i]) != lower(name[j]) {
			return false
		}
		i++
		j++
	}
}

func skipSeparators(s string, i int) int {
	for i < len(s) && (s[i] == '_' || s[i] == '-') {
		i++
	}
	return i
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
