package multipass

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/functional/shader"
)

// Limits are the per-pass resource constraints of a pipeline configuration
// (the document's Table 2, plus the texture-dependency depth of section 4).
// Zero means unlimited. Whatever the limits, a pass must also fit the ISA:
// at most shader.MaxTemps temporaries, shader.MaxSamplers texture units and
// shader.MaxInputs input registers.
type Limits struct {
	Name         string
	Ops          int // instructions per pass (restores and their address computation included)
	Registers    int // temporaries after register allocation
	TexUnits     int // distinct texture units: the program's samplers plus one per restored value
	Interpolants int // varyings read, plus one (the screen position) when the pass restores
	TexDepth     int // longest chain of dependent fetches (shader.Resources.TexDependencyDepth); a restore is depth 1
}

// PipelineConfigs returns PC1-PC8 of the document's Table 2, in order.
func PipelineConfigs() []Limits {
	return []Limits{
		{Name: "PC1", Ops: 6},
		{Name: "PC2", Registers: 4},
		{Name: "PC3", TexUnits: 4},
		{Name: "PC4", Interpolants: 4},
		{Name: "PC5", Ops: 6, Registers: 4, TexUnits: 4, Interpolants: 4},
		{Name: "PC6", Ops: 24, Registers: 8, TexUnits: 8, Interpolants: 8},
		{Name: "PC7", Ops: 128, Registers: 12, TexUnits: 16, Interpolants: 12},
		{Name: "PC8"},
	}
}

// PipelineConfig returns the configuration called name ("PC1".."PC8",
// case-insensitive).
func PipelineConfig(name string) (Limits, bool) {
	for _, l := range PipelineConfigs() {
		if strings.EqualFold(l.Name, name) {
			return l, true
		}
	}
	return Limits{}, false
}

// Unlimited reports whether every limit is off.
func (l Limits) Unlimited() bool {
	return l.Ops == 0 && l.Registers == 0 && l.TexUnits == 0 && l.Interpolants == 0 && l.TexDepth == 0
}

// Validate rejects negative limits, naming the field.
func (l Limits) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"ops", l.Ops}, {"registers", l.Registers}, {"tex_units", l.TexUnits}, {"interpolants", l.Interpolants}, {"tex_depth", l.TexDepth}} {
		if f.v < 0 {
			return fmt.Errorf("%s: %d is negative (0 means unlimited)", f.name, f.v)
		}
	}
	return nil
}

func limitString(v int) string {
	if v == 0 {
		return "inf"
	}
	return strconv.Itoa(v)
}

// String is the document's notation O_o/R_r/T_t/V_v ("6o/4r/4t/4v", "inf"
// for unlimited), with "/Dd" appended when the dependency depth is limited.
func (l Limits) String() string {
	s := fmt.Sprintf("%so/%sr/%st/%sv", limitString(l.Ops), limitString(l.Registers), limitString(l.TexUnits), limitString(l.Interpolants))
	if l.TexDepth > 0 {
		s += fmt.Sprintf("/%dd", l.TexDepth)
	}
	return s
}

// Usage is what one generated pass consumes.
type Usage struct {
	Ops          int // instructions
	TexFetches   int // texture instructions, restores included
	Restores     int // restored values (texture fetches of saved intermediates)
	Registers    int // temporaries after register allocation
	TexUnits     int // distinct texture units
	Interpolants int // varyings read, plus one when the pass restores
	Inputs       int // input registers (system values included)
	TexDepth     int // dependent-fetch depth
}

// WholeUsage is what program p consumes as one pass, unsplit (a shader that
// cannot be split must fit as it is).
func WholeUsage(p *shader.Program) Usage {
	r := p.Resources()
	return Usage{Ops: r.Instructions, TexFetches: r.TexFetches, Registers: r.Temps, TexUnits: r.Samplers,
		Interpolants: r.Interpolants, Inputs: r.Inputs, TexDepth: r.TexDependencyDepth}
}

// Other returns the non-texture instructions.
func (u Usage) Other() int { return u.Ops - u.TexFetches }

// Add returns the component-wise sum of u and v (for totals over passes;
// Registers, TexUnits, Interpolants and TexDepth take the maximum).
func (u Usage) Add(v Usage) Usage {
	return Usage{Ops: u.Ops + v.Ops, TexFetches: u.TexFetches + v.TexFetches, Restores: u.Restores + v.Restores,
		Registers: max(u.Registers, v.Registers), TexUnits: max(u.TexUnits, v.TexUnits),
		Interpolants: max(u.Interpolants, v.Interpolants), Inputs: max(u.Inputs, v.Inputs), TexDepth: max(u.TexDepth, v.TexDepth)}
}

// Exceeded returns the name of the Limits field ("Ops", "Registers",
// "TexUnits", "Interpolants" or "TexDepth") of the first of the machine's
// limits that u exceeds, in the order of Exceeds; "" when u fits them all
// (it may still exceed the ISA's).
func (l Limits) Exceeded(u Usage) string {
	switch {
	case l.Ops > 0 && u.Ops > l.Ops:
		return "Ops"
	case l.Registers > 0 && u.Registers > l.Registers:
		return "Registers"
	case l.TexUnits > 0 && u.TexUnits > l.TexUnits:
		return "TexUnits"
	case l.Interpolants > 0 && u.Interpolants > l.Interpolants:
		return "Interpolants"
	case l.TexDepth > 0 && u.TexDepth > l.TexDepth:
		return "TexDepth"
	}
	return ""
}

// Exceeds returns a description of the first limit u exceeds ("" when u
// fits): the machine's limits first, then the ISA's.
func (l Limits) Exceeds(u Usage) string {
	over := func(what string, use, limit int) string {
		return fmt.Sprintf("%d %s (limit %d)", use, what, limit)
	}
	switch {
	case l.Ops > 0 && u.Ops > l.Ops:
		return over("operations", u.Ops, l.Ops)
	case l.Registers > 0 && u.Registers > l.Registers:
		return over("registers", u.Registers, l.Registers)
	case l.TexUnits > 0 && u.TexUnits > l.TexUnits:
		return over("texture units", u.TexUnits, l.TexUnits)
	case l.Interpolants > 0 && u.Interpolants > l.Interpolants:
		return over("interpolants", u.Interpolants, l.Interpolants)
	case l.TexDepth > 0 && u.TexDepth > l.TexDepth:
		return over("levels of texture dependency", u.TexDepth, l.TexDepth)
	case u.Registers > shader.MaxTemps:
		return over("registers", u.Registers, shader.MaxTemps) + " of the ISA"
	case u.TexUnits > shader.MaxSamplers:
		return over("texture units", u.TexUnits, shader.MaxSamplers) + " of the ISA"
	case u.Inputs > shader.MaxInputs:
		return over("input registers", u.Inputs, shader.MaxInputs) + " of the ISA"
	}
	return ""
}

// Fits reports whether a pass with usage u is VALID under l.
func (l Limits) Fits(u Usage) bool { return l.Exceeds(u) == "" }

// fractions returns each limited resource's use as a fraction of its limit
// (0 for unlimited resources), in the order o, r, t, v, d.
func (l Limits) fractions(u Usage) [5]float64 {
	f := func(use, limit int) float64 {
		if limit <= 0 {
			return 0
		}
		return float64(use) / float64(limit)
	}
	return [5]float64{f(u.Ops, l.Ops), f(u.Registers, l.Registers), f(u.TexUnits, l.TexUnits),
		f(u.Interpolants, l.Interpolants), f(u.TexDepth, l.TexDepth)}
}

// Recompute is the document's RECOMPUTE heuristic: recompute a subregion
// (rather than save it) if and only if the consumption of each resource is
// less than one-half the maximum allowed. Unlimited resources never prevent
// recomputation.
func (l Limits) Recompute(u Usage) bool {
	half := func(use, limit int) bool { return limit <= 0 || 2*use < limit }
	return half(u.Ops, l.Ops) && half(u.Registers, l.Registers) && half(u.TexUnits, l.TexUnits) &&
		half(u.Interpolants, l.Interpolants) && half(u.TexDepth, l.TexDepth)
}

// Less is the document's MERGE heuristic as a strict order: whether a pass
// using a consumes fewer resources than one using b. A pass that uses no more
// of every resource (and less of one) is smaller; otherwise, when neither
// dominates (5 interpolants and 3 textures against 3 and 5), the smaller sum
// of the fractions of the limits used, then fewer operations, registers,
// texture units, interpolants and dependency levels, in that order. Callers
// break the remaining ties by the order of the candidates.
func (l Limits) Less(a, b Usage) bool {
	va := [5]int{a.Ops, a.Registers, a.TexUnits, a.Interpolants, a.TexDepth}
	vb := [5]int{b.Ops, b.Registers, b.TexUnits, b.Interpolants, b.TexDepth}
	le, ge := true, true
	for i := range va {
		if va[i] > vb[i] {
			le = false
		}
		if va[i] < vb[i] {
			ge = false
		}
	}
	switch {
	case le && !ge:
		return true
	case ge && !le:
		return false
	case le && ge:
		return false
	}
	fa, fb := l.fractions(a), l.fractions(b)
	sa, sb := 0.0, 0.0
	for i := range fa {
		sa += fa[i]
		sb += fb[i]
	}
	if sa != sb {
		return sa < sb
	}
	for i := range va {
		if va[i] != vb[i] {
			return va[i] < vb[i]
		}
	}
	return false
}

// CostModel is the linear cost of section 4: Pass*p + Tex*t + Inst*i for a
// partition with p passes, t texture fetches (restores included) and i other
// instructions, summed over its passes.
type CostModel struct {
	Name            string
	Pass, Tex, Inst float64
}

// CostModels returns the five cost models of section 5.2, in the document's
// order: 15p+5t+i, 5p+3t+i, 3p+2t+i, p+t+i, t+i.
func CostModels() []CostModel {
	return []CostModel{
		{Name: "15p+5t+i", Pass: 15, Tex: 5, Inst: 1},
		{Name: "5p+3t+i", Pass: 5, Tex: 3, Inst: 1},
		{Name: "3p+2t+i", Pass: 3, Tex: 2, Inst: 1},
		{Name: "p+t+i", Pass: 1, Tex: 1, Inst: 1},
		{Name: "t+i", Pass: 0, Tex: 1, Inst: 1},
	}
}

// Radeon8500Cost is the model the document measured on an ATI Radeon 8500
// (section 5.2): 15.7p + 1.36t + i.
var Radeon8500Cost = CostModel{Name: "15.7p+1.36t+i", Pass: 15.7, Tex: 1.36, Inst: 1}

// PassCost returns the cost of one pass with usage u.
func (c CostModel) PassCost(u Usage) float64 {
	return c.Pass + c.Tex*float64(u.TexFetches) + c.Inst*float64(u.Other())
}

// opCost is the cost of one operation: Tex for a texture fetch, Inst otherwise.
func (c CostModel) opCost(tex bool) float64 {
	if tex {
		return c.Tex
	}
	return c.Inst
}

// String returns the model's name, or its formula when it has none.
func (c CostModel) String() string {
	if c.Name != "" {
		return c.Name
	}
	return fmt.Sprintf("%gp+%gt+%gi", c.Pass, c.Tex, c.Inst)
}
