package reference_test

import (
	"bytes"
	"image"
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// render encodes s and renders it with the reference renderer.
func render(t testing.TB, s *scene.Scene, o reference.Options) *reference.Result {
	t.Helper()
	return renderWith(t, s, o, driver.DefaultOptions())
}

// renderWith encodes s with the driver options do and renders it.
func renderWith(t testing.TB, s *scene.Scene, o reference.Options, do driver.Options) *reference.Result {
	t.Helper()
	f, err := driver.Encode(s, do)
	if err != nil {
		t.Fatalf("%s: encode: %v", s.Name, err)
	}
	res, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, o)
	if err != nil {
		t.Fatalf("%s: render: %v", s.Name, err)
	}
	if res.Image == nil {
		t.Fatalf("%s: no image presented", s.Name)
	}
	return res
}

func builtin(t testing.TB, name string, w, h, samples int) *scene.Scene {
	t.Helper()
	return testframe.Scene(t, name, w, h, samples)
}

func sameImage(a, b *image.RGBA) bool {
	return a.Rect == b.Rect && bytes.Equal(a.Pix, b.Pix)
}

// checkConservation verifies that every covered sample is accounted for and every
// quad is either culled by early Z or shaded.
func checkConservation(t *testing.T, name string, c *reference.Counters) {
	t.Helper()
	if c.Quads != c.EarlyZQuadsCulled+c.QuadsShaded {
		t.Errorf("%s: %d quads != %d culled by early Z + %d shaded", name, c.Quads, c.EarlyZQuadsCulled, c.QuadsShaded)
	}
	if c.QuadsShaded != c.QuadsDiscarded+c.QuadsLateZCulled+c.QuadsWritten {
		t.Errorf("%s: %d shaded quads != %d discarded + %d culled by late Z + %d written",
			name, c.QuadsShaded, c.QuadsDiscarded, c.QuadsLateZCulled, c.QuadsWritten)
	}
	if got := c.DepthTestsFailed + c.SamplesKilled + c.SamplesWritten; got != c.CoveredSamples {
		t.Errorf("%s: %d covered samples != %d failed depth + %d killed + %d written",
			name, c.CoveredSamples, c.DepthTestsFailed, c.SamplesKilled, c.SamplesWritten)
	}
	if c.PSInvocations != 4*c.ShadingQuads {
		t.Errorf("%s: %d pixel shader invocations for %d shading quads", name, c.PSInvocations, c.ShadingQuads)
	}
	if c.Decoupled.Draws == 0 && c.PerSampleDraws == 0 && c.ShadingQuads != c.QuadsShaded {
		t.Errorf("%s: no decoupled draw, but %d shading quads for %d shaded quads", name, c.ShadingQuads, c.QuadsShaded)
	}
	if c.VSInvocations != c.VertexCacheMisses {
		t.Errorf("%s: %d vertex shader invocations != %d tag misses", name, c.VSInvocations, c.VertexCacheMisses)
	}
	if c.Triangles != c.Rejected+c.Culled+c.SetUp-c.ClipOutput+c.Clipped {
		// Every assembled triangle is rejected, culled or set up; a clipped one
		// becomes ClipOutput triangles that are each culled or set up.
		t.Errorf("%s: triangle accounting: %d in, %d rejected, %d clipped into %d, %d culled, %d set up",
			name, c.Triangles, c.Rejected, c.Clipped, c.ClipOutput, c.Culled, c.SetUp)
	}
}

func TestBuiltinsConservationAndLateZ(t *testing.T) {
	for _, name := range scene.BuiltinNames() {
		for _, samples := range []int{1, 4} {
			s := builtin(t, name, 160, 90, samples)
			early := render(t, s, reference.DefaultOptions())
			checkConservation(t, name, &early.Counters)
			o := reference.DefaultOptions()
			o.ForceLateZ = true
			late := render(t, s, o)
			checkConservation(t, name+" (late Z)", &late.Counters)
			if !sameImage(early.Image, late.Image) {
				t.Errorf("%s %dx: early-Z and late-Z images differ", name, samples)
			}
			if early.Counters.CoveredSamples != late.Counters.CoveredSamples || early.Counters.SamplesWritten != late.Counters.SamplesWritten {
				t.Errorf("%s %dx: covered/written samples differ between early and late Z: %d/%d vs %d/%d", name, samples,
					early.Counters.CoveredSamples, early.Counters.SamplesWritten, late.Counters.CoveredSamples, late.Counters.SamplesWritten)
			}
		}
	}
}

func TestDeterministicAndIndependentOfWarpSize(t *testing.T) {
	s := builtin(t, scene.DefaultName, 192, 108, 4)
	a := render(t, s, reference.DefaultOptions())
	b := render(t, s, reference.DefaultOptions())
	if !sameImage(a.Image, b.Image) || a.Counters != b.Counters {
		t.Fatal("two renders of the same scene differ")
	}
	o := reference.DefaultOptions()
	o.WarpQuads = 1
	c := render(t, s, o)
	if !sameImage(a.Image, c.Image) {
		t.Fatal("the image depends on the warp size")
	}
	if c.Counters.QuadsShaded != a.Counters.QuadsShaded || c.Counters.PixelWarps != c.Counters.QuadsShaded {
		t.Fatalf("1-quad warps: %d warps for %d quads (8-quad warps shaded %d quads)",
			c.Counters.PixelWarps, c.Counters.QuadsShaded, a.Counters.QuadsShaded)
	}
}

// TestWideSampleCounts renders the triangle and room scenes at 27 and 64
// samples per pixel (Hammersley patterns): the counters balance, the covered
// area matches the 16-sample render's to within its edges, pixels away from
// edges resolve to the same colour, and the resolved image stays close to the
// 16-sample image everywhere.
func TestWideSampleCounts(t *testing.T) {
	const w, h = 96, 54
	for _, name := range []string{"triangle", "room"} {
		ref := render(t, builtin(t, name, w, h, 16), reference.DefaultOptions())
		for _, samples := range []int{27, 64} {
			r := render(t, builtin(t, name, w, h, samples), reference.DefaultOptions())
			checkConservation(t, name, &r.Counters)
			if r.Image.Rect != ref.Image.Rect {
				t.Fatalf("%s %dx: image %v, want %v", name, samples, r.Image.Rect, ref.Image.Rect)
			}
			// Coverage in pixels: the patterns differ, the area must not (a sample
			// per pixel and per edge crossing at most).
			area, refArea := float64(r.Counters.CoveredSamples)/float64(samples), float64(ref.Counters.CoveredSamples)/16
			if d := math.Abs(area - refArea); d > 0.02*refArea {
				t.Errorf("%s %dx: covered %.1f pixels, 16x %.1f", name, samples, area, refArea)
			}
			var sum, same, n int
			worst := 0
			for i := 0; i < len(r.Image.Pix); i += 4 {
				d := 0
				for c := 0; c < 3; c++ {
					d = max(d, abs(int(r.Image.Pix[i+c])-int(ref.Image.Pix[i+c])))
				}
				sum += d
				worst = max(worst, d)
				if d == 0 {
					same++
				}
				n++
			}
			t.Logf("%s %dx: mean difference to 16x %.3f, max %d, %d of %d pixels equal", name, samples, float64(sum)/float64(n), worst, same, n)
			if mean := float64(sum) / float64(n); mean > 0.5 || worst > 48 || same < n*9/10 {
				t.Errorf("%s %dx: resolve differs from 16x: mean %.3f, max %d, %d of %d pixels equal", name, samples, mean, worst, same, n)
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
