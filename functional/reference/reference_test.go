package reference_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// render encodes s and renders it with the reference renderer.
func render(t testing.TB, s *scene.Scene, o reference.Options) *reference.Result {
	t.Helper()
	f, err := driver.Encode(s, driver.DefaultOptions())
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
	s, err := scene.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResolution(w, h, samples); err != nil {
		t.Fatal(err)
	}
	return s
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
	if c.Decoupled.Draws == 0 && c.ShadingQuads != c.QuadsShaded {
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
