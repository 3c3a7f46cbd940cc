package shader

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

var (
	inf  = float32(math.Inf(1))
	ninf = float32(math.Inf(-1))
	nan  = float32(math.NaN())
)

// sameFloat compares bit patterns, except that any NaN equals any NaN and
// -0 differs from +0.
func sameFloat(a, b float32) bool {
	if a != a && b != b {
		return true
	}
	return math.Float32bits(a) == math.Float32bits(b)
}

func sameVec(a, b geom.Vec4) bool {
	for i := range a {
		if !sameFloat(a[i], b[i]) {
			return false
		}
	}
	return true
}

const aluHeader = `.ps
.input v0 a perspective
.input v1 b perspective
.input v2 c perspective
.output o0 color
.def c0 1 2 3 4
.def c1 -0.5 0 0.5 2
`

// TestInstructions runs one instruction sequence on lane 0 and checks r0.
func TestInstructions(t *testing.T) {
	cases := []struct {
		name    string
		code    string
		a, b, c geom.Vec4
		want    geom.Vec4
	}{
		{"mov", "mov r0, v0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 2, 3, 4}},
		{"mov swizzle wzyx", "mov r0, v0.wzyx", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{4, 3, 2, 1}},
		{"mov swizzle .x replicates", "mov r0, v0.y", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{2, 2, 2, 2}},
		{"mov swizzle .xz repeats last", "mov r0, v0.xz", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 3, 3, 3}},
		{"mov swizzle rgba set", "mov r0, v0.bgra", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{3, 2, 1, 4}},
		{"mov write mask", "mov r0.yw, v0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0, 2, 0, 4}},
		{"mov rgba mask", "mov r0.ra, v0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 0, 0, 4}},
		{"negate", "mov r0, -v0", geom.Vec4{1, -2, 0, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-1, 2, float32(math.Copysign(0, -1)), -4}},
		{"abs", "mov r0, |v0|", geom.Vec4{-1, 2, -3, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 2, 3, 0}},
		{"negated abs", "mov r0, -|v0|", geom.Vec4{-1, 2, -3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-1, -2, -3, -4}},
		{"abs then swizzle", "mov r0, |v0|.yx", geom.Vec4{-1, -2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{2, 1, 1, 1}},
		{"abs with inner swizzle", "mov r0, -|v0.w|", geom.Vec4{-1, -2, 3, -4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-4, -4, -4, -4}},
		{"sat", "mov_sat r0, v0", geom.Vec4{-1, 0.5, 2, nan}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0, 0.5, 1, 0}},
		{"sat negative zero", "mov_sat r0, -v0", geom.Vec4{0, 0, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0, 0, 0, 0}},
		{"constant", "mov r0, c0", geom.Vec4{}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 2, 3, 4}},
		{"constant modifiers", "mul r0, v0, -|c1.xw|", geom.Vec4{1, 1, 1, 1}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-0.5, -2, -2, -2}},
		{"add", "add r0, v0, v1", geom.Vec4{1, 2, 3, 4}, geom.Vec4{0.5, -2, 10, 0.25}, geom.Vec4{}, geom.Vec4{1.5, 0, 13, 4.25}},
		{"mul", "mul r0, v0, v1", geom.Vec4{1, 2, 3, 4}, geom.Vec4{0.5, -2, 10, 0.25}, geom.Vec4{}, geom.Vec4{0.5, -4, 30, 1}},
		{"mad", "mad r0, v0, v1, v2", geom.Vec4{1, 2, 3, 4}, geom.Vec4{2, 2, 2, 2}, geom.Vec4{0.5, 0.5, 0.5, -8}, geom.Vec4{2.5, 4.5, 6.5, 0}},
		// (1+2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 (tie to even);
		// a fused multiply-add would give 2^-11 + 2^-24.
		{"mad rounds the product", "mad r0.x, v0, v0, v1", geom.Vec4{1 + 1.0/4096}, geom.Vec4{-1}, geom.Vec4{}, geom.Vec4{1.0 / 2048, 0, 0, 0}},
		{"dp3", "dp3 r0, v0, v1", geom.Vec4{1, 2, 3, 4}, geom.Vec4{5, 6, 7, 8}, geom.Vec4{}, geom.Vec4{38, 38, 38, 38}},
		{"dp3 masked", "dp3 r0.z, v0, v1", geom.Vec4{1, 2, 3, 4}, geom.Vec4{5, 6, 7, 8}, geom.Vec4{}, geom.Vec4{0, 0, 38, 0}},
		{"dp4", "dp4 r0, v0, v1", geom.Vec4{1, 2, 3, 4}, geom.Vec4{5, 6, 7, 8}, geom.Vec4{}, geom.Vec4{70, 70, 70, 70}},
		// Left to right: (1e8 + -1e8) + 1 = 1; right to left would be 0.
		{"dp4 order", "dp4 r0, v0, v1", geom.Vec4{1e8, -1e8, 1, 0}, geom.Vec4{1, 1, 1, 1}, geom.Vec4{}, geom.Vec4{1, 1, 1, 1}},
		{"rcp", "rcp r0, v0.y", geom.Vec4{0, 4, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0.25, 0.25, 0.25, 0.25}},
		{"rcp 0", "rcp r0, v0", geom.Vec4{0, 4, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{inf, inf, inf, inf}},
		{"rcp -0", "rcp r0, -v0", geom.Vec4{0, 4, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{ninf, ninf, ninf, ninf}},
		{"rsq", "rsq r0.xy, v0.z", geom.Vec4{0, 0, 16, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0.25, 0.25, 0, 0}},
		{"rsq of |x|", "rsq r0, v0", geom.Vec4{-4, 0, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0.5, 0.5, 0.5, 0.5}},
		{"rsq 0", "rsq r0, v0", geom.Vec4{0, 1, 1, 1}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{inf, inf, inf, inf}},
		{"min", "min r0, v0, v1", geom.Vec4{1, -2, 3, nan}, geom.Vec4{2, -3, 3, 5}, geom.Vec4{}, geom.Vec4{1, -3, 3, 5}},
		{"min nan second", "min r0, v0, v1", geom.Vec4{7}, geom.Vec4{nan}, geom.Vec4{}, geom.Vec4{7, 0, 0, 0}},
		{"max", "max r0, v0, v1", geom.Vec4{1, -2, 3, nan}, geom.Vec4{2, -3, 3, 5}, geom.Vec4{}, geom.Vec4{2, -2, 3, 5}},
		{"max nan second", "max r0, v0, v1", geom.Vec4{-7}, geom.Vec4{nan}, geom.Vec4{}, geom.Vec4{-7, 0, 0, 0}},
		{"slt", "slt r0, v0, v1", geom.Vec4{1, 2, 3, nan}, geom.Vec4{2, 2, 2, 2}, geom.Vec4{}, geom.Vec4{1, 0, 0, 0}},
		{"sge", "sge r0, v0, v1", geom.Vec4{1, 2, 3, nan}, geom.Vec4{2, 2, 2, 2}, geom.Vec4{}, geom.Vec4{0, 1, 1, 0}},
		{"frc", "frc r0, v0", geom.Vec4{1.25, -0.25, -1.75, 3}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0.25, 0.75, 0.25, 0}},
		{"flr", "flr r0, v0", geom.Vec4{1.25, -0.25, -1.75, 3}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, -1, -2, 3}},
		{"ex2", "ex2 r0, v0", geom.Vec4{3, 0, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{8, 8, 8, 8}},
		{"ex2 negative", "ex2 r0.w, v0.y", geom.Vec4{3, -1, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0, 0, 0, 0.5}},
		{"lg2", "lg2 r0, v0", geom.Vec4{8, 0, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{3, 3, 3, 3}},
		{"lg2 of |x|", "lg2 r0, v0", geom.Vec4{-0.25, 0, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-2, -2, -2, -2}},
		{"lg2 0", "lg2 r0, v0", geom.Vec4{0, 1, 1, 1}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{ninf, ninf, ninf, ninf}},
		{"pow", "pow r0, v0, v1", geom.Vec4{2, 0, 0, 0}, geom.Vec4{10, 0, 0, 0}, geom.Vec4{}, geom.Vec4{1024, 1024, 1024, 1024}},
		{"pow of |a|", "pow r0, v0, v1.y", geom.Vec4{-3, 0, 0, 0}, geom.Vec4{0, 2, 0, 0}, geom.Vec4{}, geom.Vec4{9, 9, 9, 9}},
		{"pow 0", "pow r0, v0, v1", geom.Vec4{0, 0, 0, 0}, geom.Vec4{4, 0, 0, 0}, geom.Vec4{}, geom.Vec4{0, 0, 0, 0}},
		{"pow 0^0 is NaN", "pow r0, v0, v1", geom.Vec4{0, 0, 0, 0}, geom.Vec4{0, 0, 0, 0}, geom.Vec4{}, geom.Vec4{nan, nan, nan, nan}},
		{"sin", "sin r0, v0", geom.Vec4{0, 0, 0, 0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{0, 0, 0, 0}},
		// float32(pi/2) = 1.5707963705; its sine rounds to 1.
		{"sin pi/2", "sin r0, v0", geom.Vec4{math.Pi / 2}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 1, 1, 1}},
		{"cos", "cos r0, v0", geom.Vec4{0}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 1, 1, 1}},
		{"cos pi", "cos r0, v0", geom.Vec4{math.Pi}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-1, -1, -1, -1}},
		{"lrp", "lrp r0, v0, v1, v2", geom.Vec4{0.25, 0, 1, 0.5}, geom.Vec4{8, 8, 8, 8}, geom.Vec4{4, 4, 4, 2}, geom.Vec4{5, 4, 8, 5}},
		{"cmp", "cmp r0, v0, v1, v2", geom.Vec4{-1, 0, 1, float32(math.Copysign(0, -1))}, geom.Vec4{1, 1, 1, 1}, geom.Vec4{2, 2, 2, 2}, geom.Vec4{2, 1, 1, 1}},
		{"cmp nan", "cmp r0, v0, v1, v2", geom.Vec4{nan, nan, nan, nan}, geom.Vec4{1, 1, 1, 1}, geom.Vec4{2, 2, 2, 2}, geom.Vec4{2, 2, 2, 2}},
		{"ddx single lane", "ddx r0, v0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{-1, -2, -3, -4}},
		// Destination aliasing a swizzled source: each component reads the
		// value before the instruction.
		{"alias swap", "mov r0, v0\nadd r0.xy, r0.yx, r0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{3, 3, 3, 4}},
		{"alias shift", "mov r0, v0\nmov r0.yzw, r0.xxyz", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 1, 2, 3}},
		{"alias in place", "mov r0, v0\nmul r0, r0, r0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 4, 9, 16}},
		{"alias dp3", "mov r0, v0\ndp3 r0.w, r0, r0", geom.Vec4{1, 2, 3, 4}, geom.Vec4{}, geom.Vec4{}, geom.Vec4{1, 2, 3, 14}},
	}
	w := NewWarp(4)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustAssemble(t, "t.gsa", aluHeader+tc.code+"\nmov o0, r0\n")
			// Lane 0 holds the operands; lanes 1..3 hold zeros, so DDX on
			// lane 0 is lane1 - lane0 = -a.
			w.Reset(p, 4, p.InitConstants(nil))
			w.SetInput(0, 0, tc.a)
			w.SetInput(0, 1, tc.b)
			w.SetInput(0, 2, tc.c)
			w.Run(nil)
			if got := w.Output(0, 0); !sameVec(got, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.code, got, tc.want)
			}
		})
	}
}

// quadProgram computes derivatives of v0.
const quadProgram = `.ps
.input v0 a perspective
.output o0 color
.output o1 color
ddx r0, v0
ddy r1, v0.yxzw
mov o0, r0
mov o1, r1
`

func TestDerivativesOnQuads(t *testing.T) {
	p := mustAssemble(t, "quad.gsa", quadProgram)
	// 32 lanes = 8 quads. Lane value at pixel (x, y) of quad q:
	// v = (q*100 + 3x + 5y + x*y, 7y, 0, 0), with (x,y) = (i&1, i>>1&1).
	w := NewWarp(32)
	w.Reset(p, 32, nil)
	for i := 0; i < 32; i++ {
		q, x, y := float32(i/4), float32(i&1), float32(i>>1&1)
		w.SetInput(i, 0, geom.Vec4{q*100 + 3*x + 5*y + x*y, 7 * y, 0, 0})
	}
	w.Run(nil)
	for i := 0; i < 32; i++ {
		y := float32(i >> 1 & 1)
		x := float32(i & 1)
		// d/dx in row y: 3 + y; d/dy of .y (swizzle yx): 7 in column x.
		wantDx := geom.Vec4{3 + y, 0, 0, 0}
		wantDy := geom.Vec4{7, 5 + x, 0, 0}
		if got := w.Output(i, 0); got != wantDx {
			t.Errorf("lane %d ddx = %v, want %v", i, got, wantDx)
		}
		if got := w.Output(i, 1); got != wantDy {
			t.Errorf("lane %d ddy = %v, want %v", i, got, wantDy)
		}
	}

	// An incomplete trailing quad gets zero derivatives.
	w.Reset(p, 6, nil)
	for i := 0; i < 6; i++ {
		w.SetInput(i, 0, geom.Vec4{float32(i * i), 0, 0, 0})
	}
	w.Run(nil)
	want := []float32{1, 1, 5, 5, 0, 0}
	for i, wv := range want {
		if got := w.Output(i, 0)[0]; got != wv {
			t.Errorf("6 lanes: lane %d ddx = %v, want %v", i, got, wv)
		}
	}

	// In a vertex shader derivatives are zero.
	vs := mustAssemble(t, "vs.gsa", ".vs\n.input v0 position\n.output o0 position\nddx r0, v0\nddy r1, v0\nadd o0, r0, r1\n")
	w.Reset(vs, 4, nil)
	for i := 0; i < 4; i++ {
		w.SetInput(i, 0, geom.Vec4{float32(i), float32(2 * i), 1, 1})
	}
	w.Run(nil)
	for i := 0; i < 4; i++ {
		if got := w.Output(i, 0); got != (geom.Vec4{}) {
			t.Errorf("vs lane %d derivative = %v, want 0", i, got)
		}
	}
}

func TestKill(t *testing.T) {
	p := mustAssemble(t, "kil.gsa", `.ps
.input v0 a perspective
.output o0 color
kil v0
kil v0.wwww
add o0, v0, v0
`)
	w := NewWarp(8)
	w.Reset(p, 8, nil)
	in := []geom.Vec4{
		{0, 0, 0, 0},                             // kept: 0 is not < 0
		{-1, 0, 0, 0},                            // killed by x
		{0, 0, -0.5, 0},                          // killed by z
		{1, 1, 1, -1},                            // killed by w (both instructions)
		{float32(math.Copysign(0, -1)), 0, 0, 0}, // -0 is not < 0
		{nan, 0, 0, 0},                           // NaN is not < 0
		{2, 2, 2, 2},
		{0, -1e-30, 0, 0}, // killed by y
	}
	for i, v := range in {
		w.SetInput(i, 0, v)
	}
	w.Helper = 1 << 6
	w.Run(nil)
	if want := uint64(0b10001110); w.Killed != want {
		t.Errorf("Killed = %08b, want %08b", w.Killed, want)
	}
	if want := uint64(0b00110001); w.StoreMask() != want {
		t.Errorf("StoreMask = %08b, want %08b", w.StoreMask(), want)
	}
	// Killed lanes keep executing.
	if got := w.Output(3, 0); got != (geom.Vec4{2, 2, 2, -2}) {
		t.Errorf("killed lane output = %v, want (2,2,2,-2)", got)
	}
	if w.Stats.Kill != 2 || w.Stats.ALU != 1 || w.Stats.Instructions != 3 || w.Stats.LaneInstructions != 24 {
		t.Errorf("stats = %+v", w.Stats)
	}
}

// fakeSampler records requests and returns a value derived from them.
type fakeSampler struct {
	reqs []TexRequest
}

func (f *fakeSampler) SampleTexture(r *TexRequest) geom.Vec4 {
	f.reqs = append(f.reqs, *r)
	return geom.Vec4{r.Coord[0] * 2, r.Coord[1] + float32(r.Unit), r.DDX[0] + r.DDY[1], r.LODOrBias}
}

// texCheck is the request lane slot i must have made.
type texCheck struct {
	i    int
	want TexRequest
}

// check checks that the sampler received n requests, request c.i being
// c.want for every check c.
func (f *fakeSampler) check(t *testing.T, n int, checks []texCheck) {
	t.Helper()
	if len(f.reqs) != n {
		t.Fatalf("%d requests, want %d", len(f.reqs), n)
	}
	for _, c := range checks {
		if f.reqs[c.i] != c.want {
			t.Errorf("request %d = %+v, want %+v", c.i, f.reqs[c.i], c.want)
		}
	}
}

func (f *fakeSampler) results(reqs []TexRequest) []geom.Vec4 {
	out := make([]geom.Vec4, len(reqs))
	for i := range reqs {
		out[i] = f.SampleTexture(&reqs[i])
	}
	return out
}

const texProgram = `.ps
.input v0 texcoord perspective
.input v1 grad perspective
.output o0 color
.output o1 color
.output o2 color
.output o3 color
.sampler s0 albedo
.sampler s3 bumps
tex r0, v0, s0
texb r1.xyw, v0.xyzw, s3
texl_sat o2, v0, s3
texd r3, v0.yx, v1, -v1.yx, s0
mov o0, r0
mov o1, r1
mov o3, r3
`

func TestTexture(t *testing.T) {
	p := mustAssemble(t, "tex.gsa", texProgram)
	setup := func(w *Warp) {
		w.Reset(p, 8, nil)
		for i := 0; i < 8; i++ {
			x, y := float32(i&1), float32(i>>1&1)
			w.SetInput(i, 0, geom.Vec4{0.5*x + 0.25*y + float32(i/4), 0.125 * y, 9, -1})
			w.SetInput(i, 1, geom.Vec4{float32(i), 2, 0, 0})
		}
	}
	f := &fakeSampler{}
	w := NewWarp(8)
	setup(w)
	w.Run(f)
	// Lane 3 (pixel (1,1) of quad 0): coord (0.75, 0.125).
	f.check(t, 32, []texCheck{
		{3, TexRequest{Unit: 0, Mode: TexImplicit, Coord: geom.Vec4{0.75, 0.125, 0, 0}, DDX: geom.Vec4{0.5, 0, 0, 0}, DDY: geom.Vec4{0.25, 0.125, 0, 0}}},
		{8 + 5, TexRequest{Unit: 3, Mode: TexBias, Coord: geom.Vec4{1.5, 0, 0, -1}, DDX: geom.Vec4{0.5, 0, 0, 0}, DDY: geom.Vec4{0.25, 0.125, 0, 0}, LODOrBias: -1}},
		{16 + 2, TexRequest{Unit: 3, Mode: TexLOD, Coord: geom.Vec4{0.25, 0.125, 0, -1}, LODOrBias: -1}},
		{24 + 1, TexRequest{Unit: 0, Mode: TexGrad, Coord: geom.Vec4{0, 0.5, 0, 0}, DDX: geom.Vec4{1, 2, 0, 0}, DDY: geom.Vec4{-2, -1, 0, 0}}},
	})
	// Results: lane 3 of tex: (1.5, 0.125, 0.5+0.125, 0).
	if got, want := w.Output(3, 0), (geom.Vec4{1.5, 0.125, 0.625, 0}); got != want {
		t.Errorf("tex lane 3 = %v, want %v", got, want)
	}
	// texb with mask xyw: lane 5 (quad 1, pixel (1,0)): coord (1.5, 0), unit 3.
	if got, want := w.Output(5, 1), (geom.Vec4{3, 3, 0, -1}); got != want {
		t.Errorf("texb lane 5 = %v, want %v", got, want)
	}
	// texl_sat: lane 2 coord (0.25, 0.125): (0.5, 3.125, 0, -1) saturated.
	if got, want := w.Output(2, 2), (geom.Vec4{0.5, 1, 0, 0}); got != want {
		t.Errorf("texl lane 2 = %v, want %v", got, want)
	}
	ran := [4][8]geom.Vec4{}
	for i := 0; i < 8; i++ {
		for o := 0; o < 4; o++ {
			ran[o][i] = w.Output(i, o)
		}
	}
	runStats := w.Stats

	// Splitting every texture instruction into request and completion gives
	// the same results.
	f2 := &fakeSampler{}
	w2 := NewWarp(8)
	setup(w2)
	var reqs []TexRequest
	for !w2.Done() {
		reqs = w2.TexRequests(reqs[:0])
		if len(reqs) == 0 {
			w2.Step(nil)
			continue
		}
		if len(reqs) != 8 {
			t.Fatalf("pc %d: %d requests, want 8", w2.PC(), len(reqs))
		}
		pc := w2.PC()
		w2.CompleteTex(f2.results(reqs))
		if w2.PC() != pc+1 {
			t.Fatalf("CompleteTex did not advance the PC")
		}
	}
	for i := range f.reqs {
		if f.reqs[i] != f2.reqs[i] {
			t.Fatalf("request %d differs: %+v vs %+v", i, f.reqs[i], f2.reqs[i])
		}
	}
	for i := 0; i < 8; i++ {
		for o := 0; o < 4; o++ {
			if got := w2.Output(i, o); got != ran[o][i] {
				t.Errorf("split lane %d o%d = %v, Run gave %v", i, o, got, ran[o][i])
			}
		}
	}
	if w2.Stats != runStats {
		t.Errorf("split stats %+v, Run stats %+v", w2.Stats, runStats)
	}
	if want := (Stats{Instructions: 7, LaneInstructions: 56, ALU: 3, Texture: 4, TexRequests: 32}); runStats != want {
		t.Errorf("stats = %+v, want %+v", runStats, want)
	}
}

func TestVertexTexture(t *testing.T) {
	p := mustAssemble(t, "vtex.gsa", `.vs
.input v0 position
.output o0 position
.sampler s1 height
tex r0, v0, s1
texl r1, v0, s1
texd r2, v0, v0, v0, s1
mov o0, r0
`)
	f := &fakeSampler{}
	w := NewWarp(4)
	w.Reset(p, 1, nil)
	w.SetInput(0, 0, geom.Vec4{0.5, 0.25, 7, 3})
	w.Run(f)
	want := []TexRequest{
		{Unit: 1, Mode: TexLOD, Coord: geom.Vec4{0.5, 0.25, 0, 0}, Vertex: true},
		{Unit: 1, Mode: TexLOD, Coord: geom.Vec4{0.5, 0.25, 0, 3}, LODOrBias: 3, Vertex: true},
		{Unit: 1, Mode: TexGrad, Coord: geom.Vec4{0.5, 0.25, 0, 0}, DDX: geom.Vec4{0.5, 0.25, 0, 0}, DDY: geom.Vec4{0.5, 0.25, 0, 0}, Vertex: true},
	}
	if len(f.reqs) != len(want) {
		t.Fatalf("%d requests, want %d", len(f.reqs), len(want))
	}
	for i := range want {
		if f.reqs[i] != want[i] {
			t.Errorf("request %d = %+v, want %+v", i, f.reqs[i], want[i])
		}
	}
}

func TestWarpResetAndFaults(t *testing.T) {
	p := mustAssemble(t, "t.gsa", aluHeader+"add r0, v0, c0\nmov o0, r0\n")
	w := NewWarp(16)
	consts := p.InitConstants(nil)
	w.Reset(p, 16, consts)
	w.SetInput(3, 0, geom.Vec4{1, 1, 1, 1})
	w.Run(nil)
	if got := w.Output(3, 0); got != (geom.Vec4{2, 3, 4, 5}) {
		t.Fatalf("output %v", got)
	}
	// A second run starts from zeroed registers.
	w.Reset(p, 16, consts)
	w.Run(nil)
	if got := w.Output(3, 0); got != (geom.Vec4{1, 2, 3, 4}) {
		t.Errorf("after Reset: %v, want (1,2,3,4)", got)
	}
	// Constants past the end of the buffer read as 0.
	w.Reset(p, 16, nil)
	w.Run(nil)
	if got := w.Output(3, 0); got != (geom.Vec4{}) {
		t.Errorf("missing constants: %v, want 0", got)
	}
	// Out-of-range accessors do not panic.
	w.SetInput(-1, 0, geom.Vec4{})
	w.SetInput(0, 99, geom.Vec4{})
	_ = w.Output(99, 0)
	_ = w.Depth(-3)
	_ = w.Temp(0, 40)

	allocs := testing.AllocsPerRun(100, func() {
		w.Reset(p, 16, consts)
		w.Run(nil)
	})
	if allocs != 0 {
		t.Errorf("Reset+Run allocates %v times", allocs)
	}

	// Growing past the capacity works.
	w.Reset(p, 64, consts)
	w.SetInput(63, 0, geom.Vec4{1, 0, 0, 0})
	w.Run(nil)
	if got := w.Output(63, 0); got != (geom.Vec4{2, 2, 3, 4}) {
		t.Errorf("lane 63: %v", got)
	}

	// Invalid programs fault instead of panicking.
	bad := &Program{Stage: PixelStage, Code: []Instr{{Op: OpMov, Dst: Dst{File: FileTemp, Index: 99, Mask: 15}, Src: [3]Src{{File: FileTemp}}}}}
	w.Reset(bad, 4, nil)
	if !w.Done() || w.Err() == nil {
		t.Errorf("invalid program: Done %v Err %v", w.Done(), w.Err())
	}
	w.Run(nil)
	w.Reset(nil, 4, nil)
	if w.Err() != ErrNoProgram {
		t.Errorf("nil program: %v", w.Err())
	}
	// A program built in code runs once validated by Reset.
	good := &Program{Stage: PixelStage, Outputs: []OutputDecl{{File: FileOutput, Semantic: "color"}},
		Defs: []DefDecl{{Reg: 0, Value: geom.Vec4{1, 2, 3, 4}}},
		Code: []Instr{{Op: OpMov, Dst: Dst{File: FileOutput, Mask: 15}, Src: [3]Src{{File: FileConst, Swizzle: IdentitySwizzle}}}}}
	w.Reset(good, 4, good.InitConstants(nil))
	w.Run(nil)
	if w.Err() != nil || w.Output(2, 0) != (geom.Vec4{1, 2, 3, 4}) {
		t.Errorf("hand-built program: err %v output %v", w.Err(), w.Output(2, 0))
	}
}

func TestDepthOutput(t *testing.T) {
	p := mustAssemble(t, "depth.gsa", `.ps
.input v0 sv_position
.input v1 sv_isfrontface
.output o0 color
.output oDepth depth
.def c0 0.25
mad_sat oDepth, v0.z, v1.x, c0.x
mov o0, v1
`)
	w := NewWarp(4)
	w.Reset(p, 4, p.InitConstants(nil))
	for i := 0; i < 4; i++ {
		w.SetInput(i, 0, geom.Vec4{0.5, 0.5, float32(i) * 0.5, 1})
		w.SetInput(i, 1, geom.Vec4{1, 1, 1, 1})
	}
	w.Run(nil)
	for i, want := range []float32{0.25, 0.75, 1, 1} {
		if got := w.Depth(i); got != want {
			t.Errorf("lane %d depth %v, want %v", i, got, want)
		}
	}
	if r := p.Resources(); !r.WritesDepth || r.Interpolants != 0 || r.Inputs != 2 {
		t.Errorf("resources %+v", r)
	}
}

// mustAssemble assembles src (named name in errors); an error ends the test.
func mustAssemble(t testing.TB, name, src string) *Program {
	t.Helper()
	p, err := Assemble(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
