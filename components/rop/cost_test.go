package rop_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
)

// TestCostBySamples sends 8 fully covered quads of one draw along the first
// two rows of a 16x8 target in one message: they share their colour lines, so
// once the lines are in they blend back to back and the last one's DrawDone
// shows the blend rate. Flat, a quad per cycle; by samples, a quad costs its
// live samples (4 x samples per pixel) times the format and blend factors, at
// samples_per_cycle, so quads start ceil(cost/rate) cycles apart and the
// DrawDone comes 7 x (interval - 1) cycles after the flat one.
func TestCostBySamples(t *testing.T) {
	bySamples := func(wide, bl int) rop.Costs { return rop.Costs{Model: rop.CostBySamples, WideFormat: wide, Blend: bl} }
	spec := func(f framebuffer.ColorFormat, samples int) backendtest.TargetSpec {
		s := backendtest.DefaultSpec()
		s.ColorFormat, s.Samples = f, samples
		return s
	}
	tests := []struct {
		name     string
		spec     backendtest.TargetSpec
		blending bool
		rate     int
		costs    rop.Costs
		extra    uint64 // cycles after the flat model's DrawDone
	}{
		{"4 samples at 4 per cycle", spec(framebuffer.RGBA8, 1), false, 4, bySamples(2, 2), 0},
		{"4 samples at 1 per cycle", spec(framebuffer.RGBA8, 1), false, 1, bySamples(1, 1), 21},
		{"opaque, blend factor unused", spec(framebuffer.RGBA8, 1), false, 2, bySamples(1, 2), 7},
		{"blending at half rate", spec(framebuffer.RGBA8, 1), true, 2, bySamples(1, 2), 21},
		{"RGBA32F at half rate", spec(framebuffer.RGBA32F, 1), false, 4, bySamples(2, 1), 7},
		{"4x MSAA at 8 samples per cycle", spec(framebuffer.RGBA8, 4), false, 8, bySamples(1, 1), 7},
		{"4x MSAA blending", spec(framebuffer.RGBA8, 4), true, 8, bySamples(2, 2), 21},
	}
	last := func(tc int, b rop.Config) uint64 {
		bn := newBench(t, b, tests[tc].spec, 10)
		d := bn.TG.Draw(0, true)
		if tests[tc].blending {
			d.State.Blend.Targets[0] = blend.Alpha()
		}
		p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
		var qs []protocol.ShadedQuad
		for x := int32(0); x < 16; x += 2 {
			qs = append(qs, shaded(d, p, x, 0, geom.Vec4{1, 0, 0, 0.5}, 0xf))
		}
		m := protocol.NewShadedQuads(d, qs)
		ref, _ := expectWrites(bn.TG, []*protocol.ShadedQuads{m})
		bn.rob.SendAt(0, bn.rop.FromReorderBuffer, m)
		bn.rob.SendAt(0, bn.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
		bn.run()
		if string(bn.TG.Color.Bytes()) != string(ref.Color.Bytes()) {
			t.Errorf("%s: the colour target differs from pipeline.WriteQuad", tests[tc].name)
		}
		return bn.cp.Received[0].Cycle
	}
	for i, tc := range tests {
		flat := last(i, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.SamplesPerCycle = tc.rate }))
		got := last(i, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.SamplesPerCycle = tc.rate; c.Costs = tc.costs }))
		if got != flat+tc.extra {
			t.Errorf("%s: DrawDone at %d, flat at %d: want %d cycles later", tc.name, got, flat, tc.extra)
		}
	}
}

func TestCostsValidate(t *testing.T) {
	type cfg = rop.Config
	costs := func(m rop.CostModel, wide, blend int) func(c *cfg) {
		return func(c *cfg) { c.Costs = rop.Costs{Model: m, WideFormat: wide, Blend: blend} }
	}
	testpeer.CheckValidate(t, rop.DefaultConfig(), []testpeer.ConfigCase[cfg]{
		{Want: "SamplesPerCycle", Edit: costs(rop.CostBySamples, 1, 1)},
		{Want: "Costs.WideFormat", Edit: costs(rop.CostFlat, 0, 1)},
		{Want: "Costs.Blend", Edit: costs(rop.CostFlat, 1, 0)},
		{Want: "Costs.Model", Edit: costs(9, 1, 1)},
		{Edit: func(c *cfg) { costs(rop.CostBySamples, 2, 2)(c); c.SamplesPerCycle = 4 }},
	})
	for _, s := range []string{"flat", "by_samples"} {
		if m, err := rop.ParseCostModel(s); err != nil || m.String() != s {
			t.Errorf("ParseCostModel(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := rop.ParseCostModel("quads"); err == nil {
		t.Error("ParseCostModel(quads) accepted")
	}
}
