package texturesampler

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// FilterCostModel says what a request costs in the filter stage.
type FilterCostModel uint8

// Filter cost models.
const (
	// FilterCostFlat: a lane costs one lane of LanesPerCycle whatever its
	// filter and format (a request of n lanes takes ceil(n/LanesPerCycle)
	// cycles).
	FilterCostFlat FilterCostModel = iota
	// FilterCostByTexelQuads: a lane costs the 2x2 texel quads its filter
	// read (texture.TexelQuads: bilinear 1, trilinear 2, anisotropic the sum
	// over its probes), times WideFormat for a texture format wider than 32
	// bits per texel and times SRGB for an sRGB one; a request takes
	// ceil(cost/TexelQuadsPerCycle) cycles.
	FilterCostByTexelQuads
)

var filterCostNames = enum.Names[FilterCostModel]{Type: "FilterCostModel", Exact: true, What: "filter cost model", Names: []string{"flat", "by_texel_quads"}}

func (m FilterCostModel) String() string { return filterCostNames.String(m) }

// ParseFilterCostModel returns the model named s, exactly ("flat" or
// "by_texel_quads").
func ParseFilterCostModel(s string) (FilterCostModel, error) {
	return filterCostNames.Parse(s)
}

// FilterCosts is the filter stage's cost model (Builder.WithFilterCosts).
type FilterCosts struct {
	Model FilterCostModel
	// TexelQuadsPerCycle is the filter's rate under FilterCostByTexelQuads.
	TexelQuadsPerCycle int
	// WideFormat multiplies the cost of a request to a texture whose texels
	// are wider than 32 bits (RGBA16F, RGBA32F) under FilterCostByTexelQuads.
	WideFormat int
	// SRGB multiplies the cost of a request to an sRGB texture under
	// FilterCostByTexelQuads.
	SRGB int
}

// DefaultFilterCosts returns the flat model with, for when it is switched to
// FilterCostByTexelQuads, 4 texel quads per cycle (the default LanesPerCycle:
// a bilinear lane then costs what it does flat) and factors of 1.
func DefaultFilterCosts() FilterCosts {
	return FilterCosts{Model: FilterCostFlat, TexelQuadsPerCycle: 4, WideFormat: 1, SRGB: 1}
}

// Validate names the first bad field.
func (fc FilterCosts) Validate() error {
	if fc.Model > FilterCostByTexelQuads {
		return fmt.Errorf("FilterCosts.Model: %v is not a model", fc.Model)
	}
	for _, p := range []struct {
		name string
		v    int
	}{{"TexelQuadsPerCycle", fc.TexelQuadsPerCycle}, {"WideFormat", fc.WideFormat}, {"SRGB", fc.SRGB}} {
		if p.v < 1 || p.v > 1<<16 {
			return fmt.Errorf("FilterCosts.%s: %d is outside [1, %d]", p.name, p.v, 1<<16)
		}
	}
	return nil
}

// factor returns the format factor of a request to tex.
func (fc FilterCosts) factor(tex *texture.Texture) int {
	f := 1
	if tex.Format.BytesPerTexel() > 4 {
		f *= fc.WideFormat
	}
	if tex.Format == texture.RGBA8SRGB {
		f *= fc.SRGB
	}
	return f
}

// filterCycles returns the cycles request r occupies the filter stage.
func (c *Comp) filterCycles(r *request) uint64 {
	per, units := c.Cfg.LanesPerCycle, len(r.msg.Lanes)
	if c.Cfg.Costs.Model == FilterCostByTexelQuads {
		per, units = c.Cfg.Costs.TexelQuadsPerCycle, r.texelQuads
	}
	return uint64(max(1, (units+per-1)/per))
}
