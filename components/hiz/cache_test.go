package hiz

import (
	"testing"

	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
)

// TestCacheCapacity pins the HiZ cache sizes of the package documentation:
// 64-byte lines for FORWARD and ZMASK (256 of them in 16 KB), and for PACKED
// ZMASK four 28-byte tiles per line, 112 bytes: 16384/112 = 146 lines, of which
// the 4-way tag store keeps 36 sets, 144 lines.
func TestCacheCapacity(t *testing.T) {
	cases := []struct {
		name      string
		hz        fhiz.Config
		lineBytes int
		lines     int
	}{
		{"forward", fhiz.Config{Mode: fhiz.Forward}, 64, 256},
		{"zmask", fhiz.Config{Mode: fhiz.ZMask}, 64, 256},
		{"packed zmask", fhiz.Config{Mode: fhiz.ZMask, Packed: true}, 112, 144},
	}
	for _, c := range cases {
		cf := DefaultConfig()
		cf.HiZ = c.hz
		lb := cf.cacheLineBytes()
		tags := newTagStore(cf.CacheSize/lb, cf.CacheWays, uint64(cf.LineBytes))
		if lb != c.lineBytes || len(tags.tags) != c.lines {
			t.Errorf("%s: %d-byte cache lines, %d lines; want %d, %d", c.name, lb, len(tags.tags), c.lineBytes, c.lines)
		}
	}
}
