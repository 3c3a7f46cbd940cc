// Package names orders the names of simulated components and their
// statistics as a reader expects: the numbers in a name by their value, so
// that GPU.Memory.Channel[2] comes before GPU.Memory.Channel[10]. Tables and
// legends that list components by name sort with it.
package names

import (
	"slices"
	"strings"
)

// Compare compares a and b piece by piece: a run of decimal digits against a
// run of digits by its value (and, of equal values, the shorter run first:
// "2" before "02"), anything else byte by byte. It is a total order: 0 only
// when a == b.
func Compare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if !isDigit(a[i]) || !isDigit(b[j]) {
			if a[i] != b[j] {
				if a[i] < b[j] {
					return -1
				}
				return 1
			}
			i++
			j++
			continue
		}
		ei, ej := digitsEnd(a, i), digitsEnd(b, j)
		if c := compareNumbers(a[i:ei], b[j:ej]); c != 0 {
			return c
		}
		i, j = ei, ej
	}
	return compareInt(len(a)-i, len(b)-j)
}

// compareNumbers compares two runs of digits by value, then by length.
func compareNumbers(x, y string) int {
	tx, ty := strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
	if c := compareInt(len(tx), len(ty)); c != 0 {
		return c // more significant digits: the larger value
	}
	if c := strings.Compare(tx, ty); c != 0 {
		return c
	}
	return compareInt(len(x), len(y))
}

func compareInt(x, y int) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digitsEnd returns the end of the run of digits that starts at i.
func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// Sort sorts s by Compare.
func Sort(s []string) { slices.SortFunc(s, Compare) }

// Keys returns the keys of m sorted by Compare.
func Keys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	Sort(k)
	return k
}
