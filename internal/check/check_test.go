package check

import (
	"errors"
	"io"
	"math"
	"testing"
)

func TestRules(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *Rules
		want string
	}{
		{"all hold", For("rop").AtLeast("A", 1, 1).AtMost("B", 2, 2).NotNegative("C", 0).Positive("F", 0.5).
			InRange("D", 3, 3, 4).Within("W", 4, 3, 4).Index("I", 0, "N", 1).PowerOfTwo("P", 8, 2, 256), ""},
		{"at least", For("rop").AtLeast("QuadsPerCycle", 0, 1), "rop: QuadsPerCycle 0 must be at least 1"},
		{"at most", For("x").AtMost("WaitQuads", 9, 8), "x: WaitQuads 9 must be at most 8"},
		{"not negative", For("sched").NotNegative("Hysteresis", -1), "sched: Hysteresis -1 must not be negative"},
		{"positive", For("route").Positive("Freq", 0), "route: Freq 0 must be positive"},
		{"positive NaN", For("route").Positive("Freq", math.NaN()), "route: Freq NaN must be positive"},
		{"in range", For("").InRange("RefBits", 33, 1, 32), "RefBits 33 must be in [1, 32]"},
		{"within", For("").Within("TileW", -1, 0, 4096), "TileW: -1 out of range [0, 4096]"},
		{"within above", For("").Within("Width", 4097, 1, 4096), "Width: 4097 out of range [1, 4096]"},
		{"index", For("video").Index("Channel", 2, "Channels", 2), "video: Channel 2 must be in [0, Channels=2)"},
		{"index negative", For("video").Index("Channel", -1, "Channels", 2), "video: Channel -1 must be in [0, Channels=2)"},
		{"power of two", For("rop").PowerOfTwo("TileSize", 6, 2, 256), "rop: TileSize 6 must be a power of two in [2, 256]"},
		{"power of two above", For("rop").PowerOfTwo("TileSize", 512, 2, 256), "rop: TileSize 512 must be a power of two in [2, 256]"},
		{"first failure wins", For("u").AtLeast("A", 0, 1).AtLeast("B", 0, 1), "u: A 0 must be at least 1"},
		{"all at least", For("u").AllAtLeast(1, Field{"A", 1}, Field{"B", 0}, Field{"C", 0}), "u: B 0 must be at least 1"},
		{"that", For("u").That(false, "Size %dx%d is odd", 3, 5), "u: Size 3x5 is odd"},
		{"wrap", For("rop").Wrap(errors.New("Cache.Ways 0 must be at least 1")), "rop: Cache.Ways 0 must be at least 1"},
		{"wrap nil", For("rop").Wrap(nil), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if err := c.r.Err(); err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestWrapKeepsTheCause(t *testing.T) {
	if err := For("u").Wrap(io.EOF).Err(); !errors.Is(err, io.EOF) {
		t.Errorf("errors.Is(%v, io.EOF) = false", err)
	}
}
