package timing

// Ratio returns a/b, or 0 when b is 0: a rate or a mean of a unit's
// counters (hits per lookup, latency per request) before anything was
// counted.
func Ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
