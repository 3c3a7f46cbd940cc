package geom

import "math"

// Viewport maps normalized device coordinates to screen pixels and depth:
//
//	X = vp.X + (x/w + 1) * vp.Width/2
//	Y = vp.Y + (1 - y/w) * vp.Height/2
//	Z = vp.MinZ + (z/w) * (vp.MaxZ - vp.MinZ)
//
// Screen Y grows downwards; pixel (px, py) covers [px, px+1) x [py, py+1).
type Viewport struct{ X, Y, Width, Height, MinZ, MaxZ float32 }

// SubPixelBits is the sub-pixel precision of snapped screen coordinates
// (D3D11 requires exactly 8 bits).
const SubPixelBits = 8

// SubPixelScale is the number of snapped units per pixel (1 << SubPixelBits).
const SubPixelScale = 1 << SubPixelBits

// SnapLimit bounds snapped coordinates: Snap saturates to [-SnapLimit,
// SnapLimit] (2^29 units, 2^21 pixels). With coordinates inside this range the
// rasterizer's int64 edge arithmetic cannot overflow (|A|, |B| <= 2^30,
// |C| <= 2^60, edge values below 2^62), and neither can SignedArea. Guard-band
// clipping keeps real geometry far inside it (2^22 units by default).
const SnapLimit = 1 << 29

// Snap converts a screen coordinate in pixels to the sub-pixel grid:
// int32(RoundToEven(v * 256)). Values beyond +-SnapLimit saturate, NaN snaps to 0.
func Snap(v float32) int32 {
	s := math.RoundToEven(float64(v) * SubPixelScale)
	switch {
	case s != s: // NaN
		return 0
	case s > SnapLimit:
		return SnapLimit
	case s < -SnapLimit:
		return -SnapLimit
	}
	return int32(s)
}

// ScreenVertex is a vertex after the perspective divide, the viewport
// transform and snapping.
type ScreenVertex struct {
	X, Y int32   // snapped, 1/256 pixel units
	Z    float32 // viewport depth
	InvW float32 // 1/w, for perspective-correct interpolation
}

// ToScreen applies the perspective divide (invW := 1/w; x*invW, y*invW,
// z*invW) and the viewport transform, and snaps X and Y. Each float32 operation
// is rounded separately (no fused multiply-add), so every platform produces the
// same bits. A w of zero yields infinite coordinates, which Snap saturates;
// callers clip against the near plane and reject non-finite positions first.
func (vp Viewport) ToScreen(p Vec4) ScreenVertex {
	invW := 1 / p[3]
	nx := float32(p[0] * invW)
	ny := float32(p[1] * invW)
	nz := float32(p[2] * invW)
	halfW := float32(vp.Width * 0.5)
	halfH := float32(vp.Height * 0.5)
	x := vp.X + float32((nx+1)*halfW)
	y := vp.Y + float32((1-ny)*halfH)
	z := vp.MinZ + float32(nz*float32(vp.MaxZ-vp.MinZ))
	return ScreenVertex{X: Snap(x), Y: Snap(y), Z: z, InvW: invW}
}

// CullMode selects which faces are discarded (D3D11_CULL_MODE).
type CullMode uint8

// Cull modes. The numeric values match the command stream's SetRaster encoding.
const (
	CullNone CullMode = iota
	CullFront
	CullBack
)

// String returns the mode's name.
func (m CullMode) String() string {
	switch m {
	case CullNone:
		return "none"
	case CullFront:
		return "front"
	case CullBack:
		return "back"
	}
	return "CullMode(?)"
}

// SignedArea returns the doubled signed area of the snapped triangle,
// A = (x1-x0)*(y2-y0) - (y1-y0)*(x2-x0), in 1/256-pixel units squared.
// With Y down, A > 0 means the vertices are clockwise on screen.
func SignedArea(v0, v1, v2 ScreenVertex) int64 {
	x0, y0 := int64(v0.X), int64(v0.Y)
	return (int64(v1.X)-x0)*(int64(v2.Y)-y0) - (int64(v1.Y)-y0)*(int64(v2.X)-x0)
}

// Cull reports whether a triangle of signed area area is culled and whether
// it is back-facing. Zero-area triangles are always culled. The front face is
// clockwise on screen (A > 0) unless frontCCW is set (D3D FrontCounterClockwise).
func Cull(area int64, mode CullMode, frontCCW bool) (culled, backFacing bool) {
	if area == 0 {
		return true, false
	}
	front := (area > 0) != frontCCW
	backFacing = !front
	switch mode {
	case CullFront:
		culled = front
	case CullBack:
		culled = backFacing
	}
	return culled, backFacing
}
