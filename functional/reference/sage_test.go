package reference_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// renderSage renders s into an RGBA10 sample buffer, shaded per sample.
func renderSage(t testing.TB, s *scene.Scene, o reference.Options) *reference.Result {
	t.Helper()
	do := driver.DefaultOptions()
	do.ColorFormat = framebuffer.RGBA10
	return renderWith(t, s, o, do)
}

func TestPerSampleShadingAccounts(t *testing.T) {
	for _, name := range scene.BuiltinNames() {
		for _, samples := range []int{1, 4} {
			s := builtin(t, name, 96, 64, samples)
			o := reference.DefaultOptions()
			o.Sage = &reference.SageOptions{}
			early := renderSage(t, s, o)
			c := &early.Counters
			if c.Decoupled.Draws != 0 {
				t.Errorf("%s: %d decoupled draws on the per-sample path", name, c.Decoupled.Draws)
			}
			checkConservation(t, name, c)
			// Every sample quad shades four lanes; a quad has a sample quad per
			// sample live in one of its pixels, so at least one.
			if samples == 1 && c.ShadingQuads != c.QuadsShaded || c.ShadingQuads < c.QuadsShaded {
				t.Errorf("%s %dx: %d sample quads for %d shaded quads", name, samples, c.ShadingQuads, c.QuadsShaded)
			}
			o.ForceLateZ = true
			late := renderSage(t, s, o)
			if !sameImage(early.Image, late.Image) {
				t.Errorf("%s %dx: early-Z and late-Z images differ", name, samples)
			}
			o.ForceLateZ, o.WarpQuads = false, 3
			if w3 := renderSage(t, s, o); !sameImage(early.Image, w3.Image) {
				t.Errorf("%s %dx: the image depends on the warp size", name, samples)
			}
		}
	}
}

// With every varying at the pixel centre the per-sample path computes what the
// per-pixel path does, sample by sample: the images are identical unless a
// shader reads its position (depthwrite) or a centroid input (evaluated at the
// centre here). Blur is off: the per-sample path renders blur scenes sharp.
func TestPerSampleAtPixelRateIsMSAA(t *testing.T) {
	all := []string{"texcoord", "color", "normal", "tangent", "worldpos", "pin", "slide"}
	for _, name := range scene.BuiltinNames() {
		if name == "depthwrite" {
			continue
		}
		s := builtin(t, name, 96, 64, 4)
		s.Blur = 0
		o := reference.DefaultOptions()
		msaa := renderSage(t, s, o)
		o.Sage = &reference.SageOptions{PixelRate: all}
		ps := renderSage(t, s, o)
		if !sameImage(msaa.Image, ps.Image) {
			t.Errorf("%s: per-sample shading at pixel rate differs from MSAA", name)
		}
	}
}
