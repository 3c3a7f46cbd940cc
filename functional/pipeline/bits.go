package pipeline

import "math/bits"

func trailingZeros(m uint64) int { return bits.TrailingZeros64(m) }
func popcount(m uint64) int      { return bits.OnesCount64(m) }
