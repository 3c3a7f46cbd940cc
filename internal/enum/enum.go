// Package enum names the values of a small enumeration (an integer type
// whose values count from 0): the one home of the table of names, the String
// method and the parser every such type repeated.
//
//	var modeNames = enum.New[Mode]("Mode", "elastic", "strict")
//
//	func (m Mode) String() string { return modeNames.Name(m) }
//
//	// ParseMode returns the mode named s.
//	func ParseMode(s string) (Mode, error) { return modeNames.Parse(s) }
package enum

import (
	"fmt"
	"strings"
)

// Integer is an integer type an enumeration is declared as.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Names are the names of T's values 0, 1, ..., len-1.
type Names[T Integer] struct {
	typ   string
	names []string
}

// New returns the names of type typ's values, in order from 0.
func New[T Integer](typ string, names ...string) Names[T] { return Names[T]{typ: typ, names: names} }

// Name returns v's name, or "<typ>(v)" when v names none.
func (n Names[T]) Name(v T) string {
	if v >= 0 && uint64(v) < uint64(len(n.names)) {
		return n.names[v]
	}
	return fmt.Sprintf("%s(%d)", n.typ, int64(v))
}

// Parse returns the value named s, or an error that lists the names:
// `Mode "lazy" is not one of elastic, strict`.
func (n Names[T]) Parse(s string) (T, error) {
	for i, name := range n.names {
		if name == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("%s %q is not one of %s", n.typ, s, strings.Join(n.names, ", "))
}

// Valid reports whether v names a value.
func (n Names[T]) Valid(v T) bool { return v >= 0 && uint64(v) < uint64(len(n.names)) }
