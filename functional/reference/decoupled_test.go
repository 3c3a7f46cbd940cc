package reference_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
)

// decoupled sets every material of s to the decoupled-sampling setting dc.
func decoupled(s *scene.Scene, dc scene.Decoupling) *scene.Scene {
	for i := range s.Materials {
		s.Materials[i].Decoupled = dc
	}
	return s
}

// With no blur and the shading grid at pixel centres, decoupled sampling is
// MSAA: the same image, the same shader invocations, helper pixels and quad
// account, and one shading quad per shaded MSAA quad.
func TestDecoupledWithoutBlurIsMSAA(t *testing.T) {
	for _, name := range []string{"room", "foliage", "motion", "depthwrite"} {
		t.Run(name, func(t *testing.T) {
			msaa := render(t, blurScaled(t, name, 0), reference.DefaultOptions())
			s := decoupled(blurScaled(t, name, 0), scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1})
			dec := render(t, s, reference.DefaultOptions())
			if !sameImage(msaa.Image, dec.Image) {
				t.Fatal("the decoupled image differs from MSAA's")
			}
			m, d := &msaa.Counters, &dec.Counters
			if d.PSInvocations != m.PSInvocations || d.HelperPixels != m.HelperPixels || d.QuadsShaded != m.QuadsShaded ||
				d.SamplesWritten != m.SamplesWritten || d.QuadsWritten != m.QuadsWritten {
				t.Errorf("decoupled counters differ from MSAA's: invocations %d/%d, helpers %d/%d, quads shaded %d/%d, samples written %d/%d",
					d.PSInvocations, m.PSInvocations, d.HelperPixels, m.HelperPixels, d.QuadsShaded, m.QuadsShaded,
					d.SamplesWritten, m.SamplesWritten)
			}
			dc := &d.Decoupled
			if dc.Draws == 0 || dc.ShadingQuads != int64(m.QuadsShaded) || dc.Raster.Tests() != 0 {
				t.Errorf("decoupled draws %d, shading quads %d (MSAA quads %d), 5D sample tests %d",
					dc.Draws, dc.ShadingQuads, m.QuadsShaded, dc.Raster.Tests())
			}
			if name != "depthwrite" && (dc.BlurArea() != 0 || dc.ShadingRate() < 1) {
				t.Errorf("blur area %v (the 2D path reads no map), shading rate %v", dc.BlurArea(), dc.ShadingRate())
			}
		})
	}
}

// blurScaled loads built-in scene name at 160x90 with its blur scaled by k.
func blurScaled(t *testing.T, name string, k float32) *scene.Scene {
	t.Helper()
	s, err := scene.Builtin(name, scene.WithBlur(k))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResolution(160, 90, 0); err != nil {
		t.Fatal(err)
	}
	return s
}

// The decoupled image is a function of the scene alone: the warp size (and so
// the order and grouping of shading) changes no pixel, and shading is memoized
// (a shading quad is shaded once per primitive), so the shading rate is far
// below supersampling's.
func TestDecoupledBlurIndependentOfWarpsAndMemoized(t *testing.T) {
	for _, name := range []string{"defocus", "egomotion", "motion"} {
		t.Run(name, func(t *testing.T) {
			s := decoupled(blurScaled(t, name, 1), scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1})
			a := render(t, s, reference.DefaultOptions())
			o := reference.DefaultOptions()
			o.WarpQuads = 1
			b := render(t, s, o)
			if !sameImage(a.Image, b.Image) {
				t.Fatal("the image depends on the warp size")
			}
			ca, cb := &a.Counters.Decoupled, &b.Counters.Decoupled
			if ca.ShadingQuads != cb.ShadingQuads || ca.VisibleSamples != cb.VisibleSamples {
				t.Errorf("warp size changed the work: %d/%d shading quads, %d/%d visible samples",
					ca.ShadingQuads, cb.ShadingQuads, ca.VisibleSamples, cb.VisibleSamples)
			}
			if ca.Raster.Tests() == 0 || ca.MemoHits == 0 || ca.BlurArea() <= 1 {
				t.Errorf("no blur seen: %d sample tests, %d memo hits, blur area %v", ca.Raster.Tests(), ca.MemoHits, ca.BlurArea())
			}
			if ca.MemoMisses != ca.ShadingQuads || ca.MemoHits+ca.MemoMisses < ca.VisibleSamples {
				t.Errorf("memo: %d hits, %d misses for %d shading quads and %d visible samples",
					ca.MemoHits, ca.MemoMisses, ca.ShadingQuads, ca.VisibleSamples)
			}
			if sv := ca.Savings(); sv <= 1 {
				t.Errorf("savings against supersampling %v, want > 1 at %d samples", sv, s.Samples)
			}
			blurred := render(t, blurScaled(t, name, 0), reference.DefaultOptions())
			if sameImage(a.Image, blurred.Image) {
				t.Error("blur 1 renders the image of blur 0")
			}
		})
	}
}

// Supersampling shades every visible sample once: its shader lanes that are
// not helpers are exactly the visible samples, and it shades more than
// decoupled sampling does.
func TestSupersampleShadesEveryVisibleSample(t *testing.T) {
	on := render(t, decoupled(blurScaled(t, "defocus", 1), scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1}), reference.DefaultOptions())
	ss := render(t, decoupled(blurScaled(t, "defocus", 1), scene.Decoupling{Mode: scene.DecoupleSupersample, Rate: 1}), reference.DefaultOptions())
	c := &ss.Counters
	if lanes := int64(c.PSInvocations - c.HelperPixels); lanes != c.Decoupled.VisibleSamples {
		t.Errorf("supersampling shaded %d non-helper lanes for %d visible samples", lanes, c.Decoupled.VisibleSamples)
	}
	if c.Decoupled.VisibleSamples != on.Counters.Decoupled.VisibleSamples {
		t.Errorf("visible samples %d (supersample) and %d (decoupled) differ", c.Decoupled.VisibleSamples, on.Counters.Decoupled.VisibleSamples)
	}
	if c.Decoupled.ShadingQuads <= 2*on.Counters.Decoupled.ShadingQuads {
		t.Errorf("supersampling shaded %d quads, decoupled %d", c.Decoupled.ShadingQuads, on.Counters.Decoupled.ShadingQuads)
	}
}
