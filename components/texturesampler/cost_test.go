package texturesampler_test

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
)

// gradRequest is a 4-lane request at texel (1, 1) of level 0 with explicit
// gradients ddx, ddy (normalized coordinates).
func gradRequest(b *state.TextureBinding, ddx, ddy geom.Vec4) *protocol.TexRequest {
	lanes := make([]shader.TexRequest, 4)
	for i := range lanes {
		c := texel(1, 1)
		lanes[i] = shader.TexRequest{Mode: shader.TexGrad, Coord: geom.Vec4{c[0], c[1]}, DDX: ddx, DDY: ddy}
	}
	return protocol.NewTexRequest(nil, 0, b, lanes)
}

// TestFilterCost pins the response cycle of a warm 4-lane request (sent at
// 100 after the same request warmed the L1 at 0): taken 101, looked up 102,
// data at 106, filter 106 for n cycles, response ready 106+n-1+8, taken by
// the core one cycle later: 115 + (n-1). Flat, n = ceil(4 lanes / 4); by texel
// quads, n = ceil(quads x format factor / texel_quads_per_cycle), the quads
// per lane being 1 bilinear, 2 trilinear between levels, one per probe (of one
// level) for anisotropic at LOD 1.
func TestFilterCost(t *testing.T) {
	tri := texture.DefaultSamplerState()
	aniso := texture.DefaultSamplerState()
	aniso.Filter = texture.Anisotropic
	byQuads := func(per, wide, srgb int) texturesampler.FilterCosts {
		return texturesampler.FilterCosts{Model: texturesampler.FilterCostByTexelQuads, TexelQuadsPerCycle: per, WideFormat: wide, SRGB: srgb}
	}
	// 1 texel = 1/64: trilinear between levels 0 and 1 (rho 1.41, LOD 0.5);
	// anisotropic Px = 8, Py = 2 texels: 4 probes at rho 2, LOD 1 (one level).
	isoGrad := [2]geom.Vec4{{1.0 / 64, 1.0 / 64}, {-1.0 / 64, 1.0 / 64}}
	anisoGrad := [2]geom.Vec4{{8.0 / 64, 0}, {0, 2.0 / 64}}
	tests := []struct {
		name    string
		sampler texture.SamplerState
		format  texture.Format
		grad    [2]geom.Vec4
		costs   texturesampler.FilterCosts
		quads   float64 // texel_quads counted for the two requests
		want    uint64
	}{
		{"flat trilinear", tri, texture.RGBA8, isoGrad, texturesampler.DefaultFilterCosts(), 16, 115},
		{"flat anisotropic", aniso, texture.RGBA8, anisoGrad, texturesampler.DefaultFilterCosts(), 32, 115},
		{"flat RGBA16F", bilinear(), texture.RGBA16F, isoGrad, texturesampler.DefaultFilterCosts(), 8, 115},
		{"bilinear", bilinear(), texture.RGBA8, isoGrad, byQuads(4, 2, 2), 8, 115},
		{"bilinear at 1 quad per cycle", bilinear(), texture.RGBA8, isoGrad, byQuads(1, 1, 1), 8, 118},
		{"trilinear", tri, texture.RGBA8, isoGrad, byQuads(4, 1, 1), 16, 116},
		{"anisotropic 4 probes", aniso, texture.RGBA8, anisoGrad, byQuads(4, 1, 1), 32, 118},
		{"RGBA16F half rate", bilinear(), texture.RGBA16F, isoGrad, byQuads(4, 2, 3), 8, 116},
		{"RGBA32F", bilinear(), texture.RGBA32F, isoGrad, byQuads(4, 3, 2), 8, 117},
		{"sRGB", bilinear(), texture.RGBA8SRGB, isoGrad, byQuads(4, 2, 3), 8, 117},
		{"sRGB trilinear", tri, texture.RGBA8SRGB, isoGrad, byQuads(2, 1, 2), 16, 122},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFormatFixture(t, tc.sampler, desc2D(tc.format, texture.Tiled))
			r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(texturesampler.DefaultConfig(), func(c *texturesampler.Config) { c.Costs = tc.costs }), fx, 20)
			reqs := []scripted{{msg: gradRequest(fx.binding, tc.grad[0], tc.grad[1])},
				{msg: gradRequest(fx.binding, tc.grad[0], tc.grad[1]), at: 100}}
			r.run(t, reqs...)
			checkResults(t, r, reqs)
			if got := r.core.at[1]; got != tc.want {
				t.Errorf("warm response taken at %d, want %d", got, tc.want)
			}
			st := testpeer.StatMap(r.s)
			if got := st["GPU.TextureSampler[0].texel_quads"]; got != tc.quads {
				t.Errorf("texel_quads = %v, want %v", got, tc.quads)
			}
			if got := st["GPU.TextureSampler[0].l1_misses"]; tc.format == texture.RGBA8 && got != float64(len(r.l2.reads)) {
				t.Errorf("l1_misses = %v with %d L2 reads", got, len(r.l2.reads))
			}
		})
	}
}

func TestFilterCostsValidate(t *testing.T) {
	fc := texturesampler.DefaultFilterCosts
	tests := []struct {
		name string
		f    func(*texturesampler.FilterCosts)
		want string
	}{
		{"quads per cycle", func(c *texturesampler.FilterCosts) { c.TexelQuadsPerCycle = 0 }, "FilterCosts.TexelQuadsPerCycle"},
		{"wide", func(c *texturesampler.FilterCosts) { c.WideFormat = 0 }, "FilterCosts.WideFormat"},
		{"srgb", func(c *texturesampler.FilterCosts) { c.SRGB = -1 }, "FilterCosts.SRGB"},
		{"model", func(c *texturesampler.FilterCosts) { c.Model = 7 }, "FilterCosts.Model"},
	}
	for _, tc := range tests {
		c := fc()
		tc.f(&c)
		cfg := texturesampler.DefaultConfig()
		cfg.Costs = c
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.name, err, tc.want)
		}
	}
	for _, s := range []string{"flat", "by_texel_quads"} {
		m, err := texturesampler.ParseFilterCostModel(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseFilterCostModel(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := texturesampler.ParseFilterCostModel("bilinear"); err == nil {
		t.Error("ParseFilterCostModel(bilinear) accepted")
	}
}
