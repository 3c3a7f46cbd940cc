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

// DidYouMean returns `; did you mean "k"?` when exactly one of known is the
// closest to given and close enough to be a slip of the keyboard: at most 2
// edits (a letter inserted, deleted, replaced, or two neighbours swapped; case
// ignored), and at most one per three letters of given ("phong" is not taken
// for "long"). Otherwise, or when given is known, it returns "". Error
// messages put it after the name they refuse.
func DidYouMean(given string, known []string) string {
	g := strings.ToLower(given)
	best, bestD, ties := "", 3, 0 // the closest so far (3: none within 2 edits)
	for _, k := range known {
		if k == given {
			return ""
		}
		d := editDistance(g, strings.ToLower(k), 3)
		switch {
		case d < bestD:
			best, bestD, ties = k, d, 1
		case d == bestD && d < 3 && k != best:
			ties++
		}
	}
	if best == "" || ties != 1 || bestD > len(g)/3 {
		return ""
	}
	return `; did you mean "` + best + `"?`
}

// editDistance returns the optimal string alignment distance of a and b
// (insertions, deletions, substitutions and swaps of neighbours, each 1), or
// limit when it is limit or more.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}
