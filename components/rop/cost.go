package rop

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// CostModel says what a quad costs in the blend stage.
type CostModel uint8

// Cost models.
const (
	// CostFlat: a pixel quad costs one quad of QuadsPerCycle whatever its
	// samples, format and blend (a decoupled draw's visibility quad too, or
	// its surviving samples at SamplesPerCycle when that is set).
	CostFlat CostModel = iota
	// CostBySamples: every quad costs its live samples, times WideFormat for a
	// colour format of 64 bits or more per sample and times Blend when the
	// draw blends, at SamplesPerCycle (which must then be set); the blend
	// stage still takes at most QuadsPerCycle quads per cycle.
	CostBySamples
)

var costNames = enum.Names[CostModel]{Type: "CostModel", Exact: true, What: "ROP cost model", Names: []string{"flat", "by_samples"}}

func (m CostModel) String() string { return costNames.String(m) }

// ParseCostModel returns the model named s, exactly ("flat" or "by_samples").
func ParseCostModel(s string) (CostModel, error) {
	return costNames.Parse(s)
}

// Costs is the blend stage's cost model (Config.Costs).
type Costs struct {
	Model CostModel
	// WideFormat multiplies the cost of a quad whose colour target has 64 or
	// more bits per sample, under CostBySamples.
	WideFormat int
	// Blend multiplies the cost of a quad of a draw that blends (render
	// target 0's blend enabled), under CostBySamples.
	Blend int
}

// DefaultCosts returns the flat model, with factors of 1 for when
// CostBySamples is chosen.
func DefaultCosts() Costs { return Costs{Model: CostFlat, WideFormat: 1, Blend: 1} }

// validate names the first bad field; samplesPerCycle is the builder's.
func (c Costs) validate(samplesPerCycle int) error {
	switch {
	case c.Model > CostBySamples:
		return fmt.Errorf("Costs.Model %v is not a model", c.Model)
	case c.WideFormat < 1 || c.WideFormat > 1<<16:
		return fmt.Errorf("Costs.WideFormat %d must be in [1, %d]", c.WideFormat, 1<<16)
	case c.Blend < 1 || c.Blend > 1<<16:
		return fmt.Errorf("Costs.Blend %d must be in [1, %d]", c.Blend, 1<<16)
	case c.Model == CostBySamples && samplesPerCycle < 1:
		return fmt.Errorf("SamplesPerCycle %d must be at least 1 with the by_samples cost model", samplesPerCycle)
	}
	return nil
}

// quadCost returns what a quad of draw d with live samples costs under
// CostBySamples.
func (c Costs) quadCost(d *state.Draw, live raster.SampleMask) int {
	n := live.Count()
	if d.Color.Format.BytesPerSample() >= 8 {
		n *= c.WideFormat
	}
	if d.Blend.Targets[0].Enable {
		n *= c.Blend
	}
	return n
}
