package reference_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
)

// counting is an Observer that counts what it sees.
type counting struct {
	prims, prims5D, quads2D    int
	visible, taps, texRequests int64
	depthReads, depthWrites    int
	colorReads, colorWrites    int
	badAddr                    int
	depthSpan, colorSpan       [2]uint64 // [lo, hi) of the targets
}

func (c *counting) Primitive(d *state.Draw, p *pipeline.Primitive) {
	c.prims++
	if p.Blur != nil {
		c.prims5D++
	}
	if d.DepthBuf != nil {
		c.depthSpan = [2]uint64{d.DepthDesc.Addr, d.DepthDesc.Addr + d.DepthBuf.SizeBytes()}
	}
	c.colorSpan = [2]uint64{d.ColorDesc.Addr, d.ColorDesc.Addr + d.Color.SizeBytes()}
}

func (c *counting) Quad(p *pipeline.Primitive, qx, qy int32, live raster.SampleMask) {
	c.visible += int64(live.Count())
	if p.Blur == nil {
		c.quads2D++
	}
}

func (c *counting) Tap(t *decouple.Tap, x, y int) { c.taps++ }

func (c *counting) Framebuffer(a reference.Access) {
	span := c.colorSpan
	if a.Depth {
		span = c.depthSpan
	}
	if a.Addr < span[0] || a.Addr >= span[1] {
		c.badAddr++
	}
	switch {
	case a.Depth && a.Write:
		c.depthWrites++
	case a.Depth:
		c.depthReads++
	case a.Write:
		c.colorWrites++
	default:
		c.colorReads++
	}
}

func (c *counting) Texture(b *state.TextureBinding, req *shader.TexRequest) { c.texRequests++ }

// An Observer sees every visible sample, tap, depth test, colour write and
// pixel texture request, at addresses inside the targets, and changes nothing.
func TestObserver(t *testing.T) {
	for _, tc := range []struct {
		name   string
		blur   float32
		blur5D bool // the frame has 5D primitives
	}{{"defocus", 1, true}, {"egomotion", 1, true}, {"defocus", 0, false}, {"overdraw", 1, false}} {
		t.Run(tc.name, func(t *testing.T) {
			plain := render(t, blurScaled(t, tc.name, tc.blur), reference.DefaultOptions())
			var c counting
			o := reference.DefaultOptions()
			o.Observer = &c
			seen := render(t, blurScaled(t, tc.name, tc.blur), o)
			if !sameImage(plain.Image, seen.Image) || plain.Counters != seen.Counters {
				t.Fatal("the observer changed the image or the counters")
			}
			n := &seen.Counters
			d := &n.Decoupled
			if c.prims != n.SetUp || c.taps != d.MemoHits+d.MemoMisses-int64(c.quads2DIfDecoupled(d)) {
				t.Errorf("primitives %d (set up %d), taps %d (memo look-ups %d)", c.prims, n.SetUp, c.taps, d.MemoHits+d.MemoMisses)
			}
			if d.Draws > 0 && c.visible != d.VisibleSamples {
				t.Errorf("visible samples %d, counted %d", c.visible, d.VisibleSamples)
			}
			if c.depthReads != n.DepthTestsPassed+n.DepthTestsFailed || c.colorWrites != n.SamplesWritten ||
				c.colorReads != n.SamplesBlended || c.texRequests != int64(n.TexRequests) || c.badAddr != 0 {
				t.Errorf("depth reads %d (tests %d), colour writes %d (%d), reads %d (blended %d), texture requests %d (%d), %d outside the targets",
					c.depthReads, n.DepthTestsPassed+n.DepthTestsFailed, c.colorWrites, n.SamplesWritten, c.colorReads,
					n.SamplesBlended, c.texRequests, n.TexRequests, c.badAddr)
			}
			if c.depthWrites == 0 || c.depthWrites > n.DepthTestsPassed {
				t.Errorf("depth writes %d of %d passed", c.depthWrites, n.DepthTestsPassed)
			}
			if tc.blur5D != (c.prims5D > 0) || (tc.name == "overdraw" && c.colorReads == 0) {
				t.Errorf("blur %v: %d 5D primitives, %d colour reads", tc.blur, c.prims5D, c.colorReads)
			}
		})
	}
}

// quads2DIfDecoupled is the memo misses a decoupled draw's 2D path counts
// (one per quad, with no tap).
func (c *counting) quads2DIfDecoupled(d *reference.DecoupledCounters) int {
	if d.Draws == 0 {
		return 0
	}
	return c.quads2D
}
