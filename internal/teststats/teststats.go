// Package teststats gives tests that check relations between a frame's
// statistics (configs' conservation laws, tracing's traces against the
// counters) the look-ups they share over the flat <component>.<counter> keys.
package teststats

import (
	"regexp"
	"sort"
	"strings"
)

// Stats is a frame's statistics, by key.
type Stats map[string]float64

// Units returns the distinct prefixes p (sorted) of the keys p+suffix.
func (s Stats) Units(suffix string) []string {
	var out []string
	for k := range s {
		if strings.HasSuffix(k, suffix) {
			out = append(out, strings.TrimSuffix(k, suffix))
		}
	}
	sort.Strings(out)
	return out
}

// Sum adds the counters whose keys match the regular expression re (the
// whole key).
func (s Stats) Sum(re string) float64 {
	r := regexp.MustCompile("^" + re + "$")
	t := 0.0
	for k, v := range s {
		if r.MatchString(k) {
			t += v
		}
	}
	return t
}
