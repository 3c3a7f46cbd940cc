package configs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// grassFrame encodes the built-in grass scene at 160x90, its meadow drawn
// with material shader (grass, or grass_instanced), for machine c.
func grassFrame(t *testing.T, c *Config, shader string) *driver.Frame {
	t.Helper()
	src, err := scene.BuiltinSource("grass")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(src), "shader: grass\n", "shader: "+shader+"\n", 1)
	s, err := scene.Parse("grass-"+shader+".yaml", []byte(y))
	if err == nil {
		err = s.SetResolution(160, 90, 1)
	}
	return encodeFor(t, c, s, err)
}

// TestGSInstancingTimedEqualsReference: grass_instanced (.instances 2:
// instance 0 passes a ground triangle through, instance 1 grows its blade)
// makes the image grass makes, on the reference renderer and on the timed
// sort-last, tiled and SAGE machines: the same triangles in the same order.
// The geometry shader runs 2 invocations per triangle (2 x 1152), in twice
// the warps, each lane emitting 3 vertices instead of 6, and the output
// primitives are grass's.
func TestGSInstancingTimedEqualsReference(t *testing.T) {
	for _, m := range []struct{ name, yaml string }{
		{"default", ""},
		{"sortmiddle", "machine: sortmiddle\n"},
		{"sage", "machine: sage\n"},
	} {
		t.Run(m.name, func(t *testing.T) {
			cfg := machine(t, m.name, m.yaml)
			plain := referenceRender(t, cfg, grassFrame(t, cfg, "grass"))
			ref := referenceRender(t, cfg, grassFrame(t, cfg, "grass_instanced"))
			if !bytes.Equal(ref.Image.Pix, plain.Image.Pix) {
				t.Errorf("reference: the instanced image differs from grass's")
			}
			if got, want := ref.Counters.GSInvocations, 2*plain.Counters.GSInvocations; got != want || want != 2*1152 {
				t.Errorf("reference: %d GS invocations, want %d (twice grass's %d)", got, want, plain.Counters.GSInvocations)
			}
			if got, want := ref.Counters.GSPrimitives, plain.Counters.GSPrimitives; got != want {
				t.Errorf("reference: %d GS output primitives, grass %d", got, want)
			}
			res := timed(t, cfg, grassFrame(t, cfg, "grass_instanced"))
			if !bytes.Equal(res.Image.Pix, plain.Image.Pix) {
				t.Errorf("timed: the instanced image differs from grass's reference image")
			}
			if got := sum(res.Stats, "GPU.", "gs_invocations"); got != 2*1152 {
				t.Errorf("timed: gs_invocations %v, want %d", got, 2*1152)
			}
		})
	}
}
