package depth

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/internal/enum/enumtest"
)

func TestCompareFuncs(t *testing.T) {
	// want[f] for (a, b) = (1, 2), (2, 2), (3, 2).
	tests := []struct {
		f                    CompareFunc
		less, equal, greater bool
	}{
		{Never, false, false, false},
		{Less, true, false, false},
		{Equal, false, true, false},
		{LessEqual, true, true, false},
		{Greater, false, false, true},
		{NotEqual, true, false, true},
		{GreaterEqual, false, true, true},
		{Always, true, true, true},
		{CompareFunc(99), false, false, false},
	}
	for _, tc := range tests {
		for _, c := range []struct {
			a    uint32
			want bool
		}{{1, tc.less}, {2, tc.equal}, {3, tc.greater}} {
			if got := tc.f.Compare(c.a, 2); got != c.want {
				t.Errorf("%v.Compare(%d, 2) = %v, want %v", tc.f, c.a, got, c.want)
			}
			if got := tc.f.CompareFloat(float32(c.a)/4, 0.5); got != c.want {
				t.Errorf("%v.CompareFloat(%v, 0.5) = %v, want %v", tc.f, float32(c.a)/4, got, c.want)
			}
		}
	}
}

func TestCompareFloatNaNAndZeros(t *testing.T) {
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	tests := []struct {
		f           CompareFunc
		nan, zeroEq bool // a NaN operand; (-0, +0)
	}{
		{Never, false, false},
		{Less, false, false},
		{Equal, false, true},
		{LessEqual, false, true},
		{Greater, false, false},
		{NotEqual, true, false},
		{GreaterEqual, false, true},
		{Always, true, true},
	}
	for _, tc := range tests {
		if got := tc.f.CompareFloat(nan, 0.5); got != tc.nan {
			t.Errorf("%v(NaN, 0.5) = %v, want %v", tc.f, got, tc.nan)
		}
		if got := tc.f.CompareFloat(0.5, nan); got != tc.nan {
			t.Errorf("%v(0.5, NaN) = %v, want %v", tc.f, got, tc.nan)
		}
		if got := CompareDepth(D32F, tc.f, math.Float32bits(negZero), 0); got != tc.zeroEq {
			t.Errorf("%v(-0, +0) = %v, want %v", tc.f, got, tc.zeroEq)
		}
	}
}

func TestCompareDepthFormats(t *testing.T) {
	// D24 compares only the low 24 bits: a stencil byte left in the high bits is ignored.
	if !CompareDepth(D24S8, Equal, 0x12345678, 0xFF345678) {
		t.Error("D24S8 Equal must ignore bits 24..31")
	}
	// D32F compares as floats, not as bit patterns: -1 < 0.5 although its bits are larger.
	if !CompareDepth(D32F, Less, math.Float32bits(-1), math.Float32bits(0.5)) {
		t.Error("D32F Less(-1, 0.5) must pass")
	}
	if CompareDepth(D24S8, Less, 0xFFFFFF, 1) {
		t.Error("D24S8 Less(0xFFFFFF, 1) must fail")
	}
}

func TestQuantize(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		z    float32
		f    Format
		want uint32
	}{
		{0, D24S8, 0},
		{1, D24S8, 16777215},
		{0.5, D24S8, 8388608},              // 8388607.5: the tie, rounds to even
		{0.25, D24S8, 4194304},             // 4194303.75
		{0.75, D24S8, 12582911},            // 12582911.25
		{1 - 1.0/(1<<24), D24S8, 16777214}, // 16777214.00000006
		{1.0 / (1 << 24), D24S8, 1},        // 0.99999994
		{1.0 / (1 << 25), D24S8, 0},        // 0.49999997
		{-0.5, D24S8, 0},
		{1.5, D24S8, 16777215},
		{nan, D24S8, 0},
		{inf, D24S8, 16777215},
		{0.5, D32F, 0x3F000000},
		{1, D32F, 0x3F800000},
		{float32(math.Copysign(0, -1)), D32F, 0},
		{-3, D32F, 0},
		{2, D32F, 0x3F800000},
		{nan, D32F, 0},
		{inf, D32F, 0x3F800000},
		{float32(math.Inf(-1)), D32F, 0},
	}
	for _, tc := range tests {
		if got := Quantize(tc.z, tc.f); got != tc.want {
			t.Errorf("Quantize(%v, %v) = %d (%#x), want %d (%#x)", tc.z, tc.f, got, got, tc.want, tc.want)
		}
	}
}

func TestDequantize(t *testing.T) {
	tests := []struct {
		v    uint32
		f    Format
		want float32
	}{
		{0, D24S8, 0},
		{16777215, D24S8, 1},
		{0xFF000000 | 16777215, D24S8, 1}, // high byte ignored
		{8388608, D24S8, float32(8388608.0 / 16777215.0)},
		{0x3F000000, D32F, 0.5},
	}
	for _, tc := range tests {
		if got := Dequantize(tc.v, tc.f); got != tc.want {
			t.Errorf("Dequantize(%#x, %v) = %v, want %v", tc.v, tc.f, got, tc.want)
		}
	}
	// Quantize(Dequantize(v)) == v for every 24-bit value.
	for v := uint32(0); v <= MaxD24; v++ {
		if q := Quantize(Dequantize(v, D24S8), D24S8); q != v {
			t.Fatalf("D24 round trip %d -> %d", v, q)
		}
	}
}

func TestStencilOps(t *testing.T) {
	const ref = 0x5A
	tests := []struct {
		op   StencilOp
		in   uint8
		want uint8
	}{
		{Keep, 7, 7},
		{Zero, 7, 0},
		{Replace, 7, ref},
		{IncrSat, 7, 8},
		{IncrSat, 255, 255},
		{DecrSat, 7, 6},
		{DecrSat, 0, 0},
		{Invert, 0x0F, 0xF0},
		{IncrWrap, 254, 255},
		{IncrWrap, 255, 0},
		{DecrWrap, 1, 0},
		{DecrWrap, 0, 255},
		{StencilOp(77), 7, 7},
	}
	for _, tc := range tests {
		if got := tc.op.Apply(tc.in, ref); got != tc.want {
			t.Errorf("%v.Apply(%d) = %d, want %d", tc.op, tc.in, got, tc.want)
		}
	}
}

func TestStencilWriteMask(t *testing.T) {
	// Pass op Replace with ref 0xAB, stored 0x34, write mask 0x0F: 0x30 | 0x0B.
	s := State{StencilEnable: true, StencilRef: 0xAB, ReadMask: 0xFF, WriteMask: 0x0F,
		Front: StencilFace{Func: Always, Pass: Replace}}
	r := s.Test(D24S8, 0, 0, 0x34, false)
	if !r.Pass || r.Stencil != 0x3B {
		t.Errorf("got %+v, want pass with stencil 0x3B", r)
	}
	// Invert with mask 0xF0 on 0x34: 0xC4.
	s.Front.Pass = Invert
	s.WriteMask = 0xF0
	if r := s.Test(D24S8, 0, 0, 0x34, false); r.Stencil != 0xC4 {
		t.Errorf("invert masked: stencil %#x, want 0xc4", r.Stencil)
	}
}

func TestStencilReadMask(t *testing.T) {
	// ref 0x13 & 0x0F = 3; stored 0xA3 & 0x0F = 3: Equal passes although the raw values differ.
	s := State{StencilEnable: true, StencilRef: 0x13, ReadMask: 0x0F, WriteMask: 0xFF,
		Front: StencilFace{Func: Equal, Fail: Zero, Pass: IncrWrap}}
	if r := s.Test(D24S8, 0, 0, 0xA3, false); !r.Pass || r.Stencil != 0xA4 {
		t.Errorf("got %+v, want pass, stencil 0xA4", r)
	}
	// ref (3) Less stored (0xA5&0x0F = 5) passes.
	s.Front.Func = Less
	if r := s.Test(D24S8, 0, 0, 0xA5, false); !r.Pass {
		t.Errorf("3 < 5 must pass: %+v", r)
	}
	if r := s.Test(D24S8, 0, 0, 0xA2, false); r.Pass || r.Stencil != 0 {
		t.Errorf("3 < 2 must fail with Fail=Zero: %+v", r)
	}
}

func TestDepthStencilOrder(t *testing.T) {
	base := State{DepthEnable: true, DepthWrite: true, DepthFunc: Less,
		StencilEnable: true, StencilRef: 1, ReadMask: 0xFF, WriteMask: 0xFF,
		Front: StencilFace{Func: Equal, Fail: IncrSat, DepthFail: Invert, Pass: Replace},
		Back:  StencilFace{Func: NotEqual, Fail: Zero, DepthFail: DecrWrap, Pass: IncrWrap}}
	tests := []struct {
		name         string
		mod          func(*State)
		frag, stored uint32
		stencil      uint8
		back         bool
		want         Result
	}{
		{"stencil fail skips depth", nil, 10, 20, 5, false, Result{false, 20, 6}},
		{"depth fail", nil, 30, 20, 1, false, Result{false, 20, 0xFE}},
		{"both pass", nil, 10, 20, 1, false, Result{true, 10, 1}},
		{"back face pass", nil, 10, 20, 5, true, Result{true, 10, 6}},
		{"back face stencil fail", nil, 10, 20, 1, true, Result{false, 20, 0}},
		{"back face depth fail", nil, 30, 20, 5, true, Result{false, 20, 4}},
		{"no depth write", func(s *State) { s.DepthWrite = false }, 10, 20, 1, false, Result{true, 20, 1}},
		{"depth disabled passes, no write", func(s *State) { s.DepthEnable = false; s.Front.Pass = IncrSat }, 30, 20, 1, false, Result{true, 20, 2}},
		{"stencil disabled keeps stencil", func(s *State) { s.StencilEnable = false }, 30, 20, 9, false, Result{false, 20, 9}},
		{"stencil disabled pass", func(s *State) { s.StencilEnable = false }, 10, 20, 9, false, Result{true, 10, 9}},
		{"equal depth with Less fails", nil, 20, 20, 1, false, Result{false, 20, 0xFE}},
		{"LessEqual passes equal", func(s *State) { s.DepthFunc = LessEqual }, 20, 20, 1, false, Result{true, 20, 1}},
		{"all off", func(s *State) { s.DepthEnable = false; s.StencilEnable = false }, 30, 20, 9, false, Result{true, 20, 9}},
	}
	for _, tc := range tests {
		s := base
		if tc.mod != nil {
			tc.mod(&s)
		}
		if got := s.Test(D24S8, tc.frag, tc.stored, tc.stencil, tc.back); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestDepthFuncsThroughTest(t *testing.T) {
	// Each function with fragment 0.25 against stored 0.5, in D32F, depth writes on.
	frag, stored := Quantize(0.25, D32F), Quantize(0.5, D32F)
	want := map[CompareFunc]bool{Never: false, Less: true, Equal: false, LessEqual: true,
		Greater: false, NotEqual: true, GreaterEqual: false, Always: true}
	for f := Never; f <= Always; f++ {
		s := State{DepthEnable: true, DepthWrite: true, DepthFunc: f}
		r := s.Test(D32F, frag, stored, 0, false)
		wantDepth := stored
		if want[f] {
			wantDepth = frag
		}
		if r.Pass != want[f] || r.Depth != wantDepth {
			t.Errorf("%v: got %+v, want pass=%v depth=%#x", f, r, want[f], wantDepth)
		}
	}
}

func TestEarlyZAllowed(t *testing.T) {
	def := DefaultState()
	noWrite := def
	noWrite.DepthWrite = false
	tests := []struct {
		name              string
		discards, writesZ bool
		s                 *State
		want              bool
	}{
		{"plain shader", false, false, &def, true},
		{"writes depth", false, true, &def, false},
		{"writes depth, state writes nothing", false, true, &noWrite, false},
		{"discards", true, false, &def, false},
		{"discards, state writes nothing", true, false, &noWrite, false},
		{"discards and writes depth", true, true, &def, false},
		{"plain, nil state", false, false, nil, true},
	}
	for _, tc := range tests {
		if got := EarlyZAllowed(tc.discards, tc.writesZ, tc.s); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWrites(t *testing.T) {
	def := DefaultState()
	stencilKeep := def
	stencilKeep.StencilEnable = true // all ops Keep
	stencilWrite := stencilKeep
	stencilWrite.Back.DepthFail = Zero
	stencilMasked := stencilWrite
	stencilMasked.WriteMask = 0
	noDepth := def
	noDepth.DepthEnable = false
	tests := []struct {
		name           string
		s              State
		depth, stencil bool
	}{
		{"default", def, true, false},
		{"stencil keep", stencilKeep, true, false},
		{"stencil writes", stencilWrite, true, true},
		{"stencil write mask 0", stencilMasked, true, false},
		{"depth test off", noDepth, false, false},
	}
	for _, tc := range tests {
		if got := tc.s.WritesDepth(); got != tc.depth {
			t.Errorf("%s: WritesDepth %v", tc.name, got)
		}
		if got := tc.s.WritesStencil(); got != tc.stencil {
			t.Errorf("%s: WritesStencil %v", tc.name, got)
		}
	}
}

func TestParse(t *testing.T) {
	enumtest.Parse(t, ParseCompareFunc, map[string]CompareFunc{"less_equal": LessEqual, "GREATEREQUAL": GreaterEqual},
		"lessish", "les")
	enumtest.Parse(t, ParseStencilOp, map[string]StencilOp{"decr-wrap": DecrWrap})
	enumtest.Parse(t, ParseFormat, map[string]Format{"d32f": D32F}, "")
	enumtest.RoundTrip(t, ParseCompareFunc, numCompareFuncs)
	enumtest.RoundTrip(t, ParseStencilOp, numStencilOps)
	if s := CompareFunc(9).String(); s != "CompareFunc(9)" {
		t.Errorf("invalid name %q", s)
	}
}

func TestValidate(t *testing.T) {
	s := DefaultState()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		set  func(*State)
		want string
	}{
		{func(s *State) { s.Back.DepthFail = 8 }, "Back.DepthFail: invalid value 8"},
		{func(s *State) { s.DepthFunc = 8 }, "DepthFunc: invalid value 8"},
	} {
		s := DefaultState()
		tc.set(&s)
		if err := s.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	enumtest.Fuzz(f, []string{"less", "Less_Equal", "incrsat", "D24S8", "", "-_-"},
		enumtest.Check(ParseCompareFunc), enumtest.Check(ParseStencilOp), enumtest.Check(ParseFormat))
}
