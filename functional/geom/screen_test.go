package geom

import (
	"math"
	"testing"
)

func TestSnap(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		in   float32
		want int32
	}{
		{0, 0},
		{1, 256},
		{0.5 / 256, 0},  // half rounds to even: 0.5 -> 0
		{1.5 / 256, 2},  // 1.5 -> 2
		{2.5 / 256, 2},  // 2.5 -> 2
		{-0.5 / 256, 0}, // -0.5 -> -0 -> 0
		{-1.5 / 256, -2},
		{-3.5 / 256, -4},
		{100.25, 25664},
		{-7.75, -1984},
		{3000000, SnapLimit}, // beyond 2^21 pixels saturates
		{-3000000, -SnapLimit},
		{inf, SnapLimit},
		{-inf, -SnapLimit},
		{nan, 0},
	}
	for _, tc := range tests {
		if got := Snap(tc.in); got != tc.want {
			t.Errorf("Snap(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestToScreen(t *testing.T) {
	vp := Viewport{X: 0, Y: 0, Width: 1280, Height: 720, MinZ: 0, MaxZ: 1}
	tests := []struct {
		name string
		vp   Viewport
		p    Vec4
		want ScreenVertex
	}{
		{"centre", vp, Vec4{0, 0, 0.5, 1}, ScreenVertex{X: 640 * 256, Y: 360 * 256, Z: 0.5, InvW: 1}},
		{"top left", vp, Vec4{-1, 1, 0, 1}, ScreenVertex{X: 0, Y: 0, Z: 0, InvW: 1}},
		{"bottom right w=2", vp, Vec4{2, -2, 2, 2}, ScreenVertex{X: 1280 * 256, Y: 720 * 256, Z: 1, InvW: 0.5}},
		{"quarter w=4", vp, Vec4{-2, 2, 1, 4}, ScreenVertex{X: 320 * 256, Y: 180 * 256, Z: 0.25, InvW: 0.25}},
		{"offset viewport and depth range",
			Viewport{X: 100, Y: 50, Width: 200, Height: 100, MinZ: 0.25, MaxZ: 0.75},
			Vec4{0.5, 0.5, 0.5, 1},
			ScreenVertex{X: 250 * 256, Y: 75 * 256, Z: 0.5, InvW: 1}},
		{"sub-pixel", Viewport{Width: 2, Height: 2, MaxZ: 1}, Vec4{0.001953125, 0, 0, 1}, // x/w*1 + 1 = 1 + 1/512
			ScreenVertex{X: 256, Y: 256, Z: 0, InvW: 1}}, // 256.5 rounds to even 256
	}
	for _, tc := range tests {
		if got := tc.vp.ToScreen(tc.p); got != tc.want {
			t.Errorf("%s: ToScreen(%v) = %+v, want %+v", tc.name, tc.p, got, tc.want)
		}
	}
}

func TestSignedAreaAndCull(t *testing.T) {
	cw := [3]ScreenVertex{{X: 0, Y: 0}, {X: 256, Y: 0}, {X: 0, Y: 256}} // right, then down-left: clockwise with Y down
	if got := SignedArea(cw[0], cw[1], cw[2]); got != 65536 {
		t.Fatalf("SignedArea(cw) = %d, want 65536", got)
	}
	if got := SignedArea(cw[0], cw[2], cw[1]); got != -65536 {
		t.Fatalf("SignedArea(ccw) = %d, want -65536", got)
	}
	if got := SignedArea(ScreenVertex{X: -SnapLimit, Y: -SnapLimit}, ScreenVertex{X: SnapLimit, Y: -SnapLimit},
		ScreenVertex{X: -SnapLimit, Y: SnapLimit}); got != 1<<60 {
		t.Fatalf("SignedArea at the snap limit = %d, want 2^60", got)
	}
	tests := []struct {
		area                 int64
		mode                 CullMode
		frontCCW             bool
		wantCulled, wantBack bool
	}{
		{0, CullNone, false, true, false},
		{0, CullBack, true, true, false},
		{100, CullNone, false, false, false},
		{100, CullBack, false, false, false},
		{100, CullFront, false, true, false},
		{-100, CullNone, false, false, true},
		{-100, CullBack, false, true, true},
		{-100, CullFront, false, false, true},
		{100, CullBack, true, true, true},
		{100, CullFront, true, false, true},
		{-100, CullBack, true, false, false},
		{-100, CullFront, true, true, false},
	}
	for _, tc := range tests {
		culled, back := Cull(tc.area, tc.mode, tc.frontCCW)
		if culled != tc.wantCulled || back != tc.wantBack {
			t.Errorf("Cull(%d, %v, ccw=%v) = %v, %v; want %v, %v", tc.area, tc.mode, tc.frontCCW, culled, back, tc.wantCulled, tc.wantBack)
		}
	}
}
