package blend

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum/enumtest"
)

var (
	src      = geom.Vec4{0.5, 0.25, 0.75, 0.5}
	dst      = geom.Vec4{0.25, 0.5, 1, 0.75}
	constant = geom.Vec4{0.125, 0.25, 0.5, 0.625}
)

func TestFactors(t *testing.T) {
	// srcTerm = src * F (factor in the source slot, destination factor Zero);
	// dstTerm = dst * F (factor in the destination slot, source factor Zero).
	tests := []struct {
		f                Factor
		srcTerm, dstTerm geom.Vec4
	}{
		{Zero, geom.Vec4{0, 0, 0, 0}, geom.Vec4{0, 0, 0, 0}},
		{One, geom.Vec4{0.5, 0.25, 0.75, 0.5}, geom.Vec4{0.25, 0.5, 1, 0.75}},
		{SrcColor, geom.Vec4{0.25, 0.0625, 0.5625, 0.25}, geom.Vec4{0.125, 0.125, 0.75, 0.375}},
		{InvSrcColor, geom.Vec4{0.25, 0.1875, 0.1875, 0.25}, geom.Vec4{0.125, 0.375, 0.25, 0.375}},
		{SrcAlpha, geom.Vec4{0.25, 0.125, 0.375, 0.25}, geom.Vec4{0.125, 0.25, 0.5, 0.375}},
		{InvSrcAlpha, geom.Vec4{0.25, 0.125, 0.375, 0.25}, geom.Vec4{0.125, 0.25, 0.5, 0.375}},
		{DstAlpha, geom.Vec4{0.375, 0.1875, 0.5625, 0.375}, geom.Vec4{0.1875, 0.375, 0.75, 0.5625}},
		{InvDstAlpha, geom.Vec4{0.125, 0.0625, 0.1875, 0.125}, geom.Vec4{0.0625, 0.125, 0.25, 0.1875}},
		{DstColor, geom.Vec4{0.125, 0.125, 0.75, 0.375}, geom.Vec4{0.0625, 0.25, 1, 0.5625}},
		{InvDstColor, geom.Vec4{0.375, 0.125, 0, 0.125}, geom.Vec4{0.1875, 0.25, 0, 0.1875}},
		{SrcAlphaSat, geom.Vec4{0.125, 0.0625, 0.1875, 0.5}, geom.Vec4{0.0625, 0.125, 0.25, 0.75}},
		{BlendFactor, geom.Vec4{0.0625, 0.0625, 0.375, 0.3125}, geom.Vec4{0.03125, 0.125, 0.5, 0.46875}},
		{InvBlendFactor, geom.Vec4{0.4375, 0.1875, 0.375, 0.1875}, geom.Vec4{0.21875, 0.375, 0.5, 0.28125}},
	}
	for _, tc := range tests {
		ts := Target{Enable: true, SrcRGB: tc.f, DstRGB: Zero, SrcAlpha: tc.f, DstAlpha: Zero, WriteMask: WriteAll}
		if got := ts.Blend(src, dst, constant); got != tc.srcTerm {
			t.Errorf("%v as source factor: got %v, want %v", tc.f, got, tc.srcTerm)
		}
		td := Target{Enable: true, SrcRGB: Zero, DstRGB: tc.f, SrcAlpha: Zero, DstAlpha: tc.f, WriteMask: WriteAll}
		if got := td.Blend(src, dst, constant); got != tc.dstTerm {
			t.Errorf("%v as destination factor: got %v, want %v", tc.f, got, tc.dstTerm)
		}
	}
}

func TestOps(t *testing.T) {
	tests := []struct {
		op   Op
		f    Factor // used for both slots; Min/Max must ignore it
		want geom.Vec4
	}{
		{Add, One, geom.Vec4{0.75, 0.75, 1.75, 1.25}},
		{Subtract, One, geom.Vec4{0.25, -0.25, -0.25, -0.25}},
		{RevSubtract, One, geom.Vec4{-0.25, 0.25, 0.25, 0.25}},
		{Min, Zero, geom.Vec4{0.25, 0.25, 0.75, 0.5}},
		{Max, Zero, geom.Vec4{0.5, 0.5, 1, 0.75}},
		{Add, SrcAlpha, geom.Vec4{0.375, 0.375, 0.875, 0.625}}, // (src+dst)*0.5
	}
	for _, tc := range tests {
		tg := Target{Enable: true, SrcRGB: tc.f, DstRGB: tc.f, OpRGB: tc.op, SrcAlpha: tc.f, DstAlpha: tc.f, OpAlpha: tc.op}
		if got := tg.Blend(src, dst, constant); got != tc.want {
			t.Errorf("%v/%v: got %v, want %v", tc.op, tc.f, got, tc.want)
		}
	}
}

func TestSeparateAlpha(t *testing.T) {
	// RGB: src*dst.a - dst*1; alpha: max(src.a, dst.a).
	tg := Target{Enable: true, SrcRGB: DstAlpha, DstRGB: One, OpRGB: Subtract, SrcAlpha: Zero, DstAlpha: Zero, OpAlpha: Max}
	want := geom.Vec4{0.125, -0.3125, -0.4375, 0.75}
	if got := tg.Blend(src, dst, constant); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	// Alpha factors use the alpha component: SrcColor on alpha is src.a, DstColor is dst.a.
	tg = Target{Enable: true, SrcRGB: One, DstRGB: Zero, SrcAlpha: DstColor, DstAlpha: SrcColor}
	want = geom.Vec4{0.5, 0.25, 0.75, 0.75} // alpha 0.5*0.75 + 0.75*0.5
	if got := tg.Blend(src, dst, constant); got != want {
		t.Errorf("alpha factors: got %v, want %v", got, want)
	}
}

func TestPresets(t *testing.T) {
	tests := []struct {
		name     string
		s, d     geom.Vec4
		want     geom.Vec4
		readsDst bool
	}{
		{"opaque", geom.Vec4{1, 0, 0, 0.25}, geom.Vec4{0, 0, 1, 1}, geom.Vec4{1, 0, 0, 0.25}, false},
		{"alpha", geom.Vec4{1, 0, 0, 0.25}, geom.Vec4{0, 0, 1, 1}, geom.Vec4{0.25, 0, 0.75, 1}, true},
		{"Additive", geom.Vec4{1, 0, 0, 0.25}, geom.Vec4{0, 0, 1, 1}, geom.Vec4{1, 0, 1, 1.25}, true},
		{"PREMULTIPLIED", geom.Vec4{0.25, 0, 0, 0.25}, geom.Vec4{0, 0, 1, 1}, geom.Vec4{0.25, 0, 0.75, 1}, true},
	}
	for _, tc := range tests {
		tg, err := Preset(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if tg.WriteMask != WriteAll {
			t.Errorf("%s: write mask %#x", tc.name, tg.WriteMask)
		}
		if got := tg.Blend(tc.s, tc.d, geom.Vec4{}); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
		if got := tg.ReadsDestination(); got != tc.readsDst {
			t.Errorf("%s: ReadsDestination %v, want %v", tc.name, got, tc.readsDst)
		}
		if err := tg.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, err := Preset("glass"); err == nil {
		t.Error("unknown preset accepted")
	}
	d := DefaultState()
	for i, tg := range d.Targets {
		if tg != Opaque() {
			t.Errorf("default target %d = %+v", i, tg)
		}
	}
	if d.Constant != (geom.Vec4{1, 1, 1, 1}) {
		t.Errorf("default constant %v", d.Constant)
	}
}

func TestBlendUNORM(t *testing.T) {
	nan := float32(math.NaN())
	a := Alpha()
	// src saturates to (1, 0, 0, 1): rgb = src*1 + dst*0, alpha = 1 + 0.5*0.
	got := a.BlendUNORM(geom.Vec4{1.5, -0.5, nan, 2}, geom.Vec4{0.5, 0.5, 0.5, 0.5}, geom.Vec4{})
	if want := (geom.Vec4{1, 0, 0, 1}); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	// The constant saturates too: BlendFactor (2, 0.5, -1, 0.25) -> (1, 0.5, 0, 0.25).
	bf := Target{Enable: true, SrcRGB: BlendFactor, DstRGB: Zero, SrcAlpha: BlendFactor, DstAlpha: Zero}
	got = bf.BlendUNORM(geom.Vec4{0.5, 0.5, 0.5, 0.5}, geom.Vec4{}, geom.Vec4{2, 0.5, -1, 0.25})
	if want := (geom.Vec4{0.5, 0.25, 0, 0.125}); got != want {
		t.Errorf("constant: got %v, want %v", got, want)
	}
	// Disabled: src passes through unclamped (the store clamps).
	op := Opaque()
	if got := op.BlendUNORM(geom.Vec4{2, -1, 0, 1}, geom.Vec4{}, geom.Vec4{}); got != (geom.Vec4{2, -1, 0, 1}) {
		t.Errorf("disabled: %v", got)
	}
}

func TestZeroFactorIgnoresValue(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	tg := Target{Enable: true, SrcRGB: One, DstRGB: Zero, OpRGB: Add, SrcAlpha: One, DstAlpha: Zero, OpAlpha: RevSubtract, WriteMask: WriteAll}
	got := tg.Blend(geom.Vec4{0.5, 0.25, 0, 1}, geom.Vec4{inf, nan, -inf, nan}, geom.Vec4{})
	if want := (geom.Vec4{0.5, 0.25, 0, -1}); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	if tg.ReadsDestination() {
		t.Error("ReadsDestination with Zero destination factors")
	}
}

func TestReadsDestination(t *testing.T) {
	tests := []struct {
		name string
		t    Target
		want bool
	}{
		{"disabled all channels", Target{WriteMask: WriteAll}, false},
		{"disabled partial mask", Target{WriteMask: WriteR | WriteG | WriteB}, true},
		{"one zero", Target{Enable: true, SrcRGB: One, SrcAlpha: One, WriteMask: WriteAll}, false},
		{"src uses dst color", Target{Enable: true, SrcRGB: DstColor, SrcAlpha: One, WriteMask: WriteAll}, true},
		{"src alpha sat", Target{Enable: true, SrcRGB: SrcAlphaSat, SrcAlpha: One, WriteMask: WriteAll}, true},
		{"dst alpha factor", Target{Enable: true, SrcRGB: One, SrcAlpha: One, DstAlpha: One, WriteMask: WriteAll}, true},
		{"min", Target{Enable: true, OpAlpha: Min, WriteMask: WriteAll}, true},
		{"revsubtract zero dst", Target{Enable: true, SrcRGB: One, OpRGB: RevSubtract, SrcAlpha: One, WriteMask: WriteAll}, false},
	}
	for _, tc := range tests {
		if got := tc.t.ReadsDestination(); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMask(t *testing.T) {
	old := geom.Vec4{1, 2, 3, 4}
	n := geom.Vec4{5, 6, 7, 8}
	tests := []struct {
		mask uint8
		want geom.Vec4
	}{
		{0, geom.Vec4{1, 2, 3, 4}},
		{WriteR, geom.Vec4{5, 2, 3, 4}},
		{WriteG | WriteA, geom.Vec4{1, 6, 3, 8}},
		{WriteB, geom.Vec4{1, 2, 7, 4}},
		{WriteAll, geom.Vec4{5, 6, 7, 8}},
		{0xF0, geom.Vec4{1, 2, 3, 4}},
	}
	for _, tc := range tests {
		if got := Mask(old, n, tc.mask); got != tc.want {
			t.Errorf("mask %#x: got %v, want %v", tc.mask, got, tc.want)
		}
	}
}

func TestSaturate(t *testing.T) {
	got := Saturate(geom.Vec4{float32(math.NaN()), -0.5, 0.5, float32(math.Inf(1))})
	if want := (geom.Vec4{0, 0, 0.5, 1}); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestValidateAndParse(t *testing.T) {
	for _, tc := range []struct {
		set  func(*Target)
		want string // "": any error
	}{
		{func(tg *Target) { tg.DstAlpha = 13 }, "DstAlpha: invalid blend factor 13"},
		{func(tg *Target) { tg.OpAlpha = 5 }, "OpAlpha: invalid blend op 5"},
		{func(tg *Target) { tg.WriteMask = 0x10 }, ""},
	} {
		tg := Alpha()
		tc.set(&tg)
		if err := tg.Validate(); err == nil || (tc.want != "" && err.Error() != tc.want) {
			t.Errorf("%+v: got %v, want %q", tg, err, tc.want)
		}
	}
	enumtest.RoundTrip(t, ParseFactor, numFactors)
	enumtest.RoundTrip(t, ParseOp, numOps)
	enumtest.Parse(t, ParseFactor, map[string]Factor{"inv_src_alpha": InvSrcAlpha})
	enumtest.Parse(t, ParseOp, map[string]Op{"rev-subtract": RevSubtract}, "multiply")
	if s := Factor(40).String(); s != "Factor(40)" {
		t.Errorf("invalid factor name %q", s)
	}
}

func FuzzParse(f *testing.F) {
	enumtest.Fuzz(f, []string{"one", "inv_blend_factor", "max", "alpha", "", "__"},
		enumtest.Check(ParseFactor), enumtest.Check(ParseOp), func(t *testing.T, s string) {
			if tg, err := Preset(s); err == nil {
				if err := tg.Validate(); err != nil {
					t.Errorf("preset %q invalid: %v", s, err)
				}
			}
		})
}

func BenchmarkBlendAlpha(b *testing.B) {
	tg := Alpha()
	c := src
	for i := 0; i < b.N; i++ {
		c = tg.Blend(c, dst, constant)
	}
	_ = c
}
