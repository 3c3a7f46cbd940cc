// Package geom holds the vector and matrix math of gfxsim and the fixed-function
// geometry stages that sit between vertex shading and triangle setup (part 5 of
// Giesen's "A trip through the Graphics Pipeline 2011"): clip codes, clipping
// against the guard-band and near/far planes, the perspective divide, the
// viewport transform, snapping to the sub-pixel grid, and back-face and
// zero-area culling.
//
// All arithmetic is float32, the precision of the hardware it models, and every
// function is deterministic: the timed components and the reference renderer
// call the same functions, so they agree bit for bit. Products that feed a sum
// are rounded explicitly (float32(a*b)) so that no platform fuses them into a
// multiply-add.
//
// Conventions (D3D10/11, see docs/design-functional.md):
//   - Matrices are row-major, Mat4[row][col], and transform column vectors: p' = M p.
//   - Clip space: -w <= x <= w, -w <= y <= w, 0 <= z <= w.
//   - Screen space: X grows to the right, Y grows downwards, pixel centres at +0.5.
//   - Snapped coordinates are int32 in 1/256 pixel (SubPixelBits = 8), rounded
//     half to even and saturated at +-SnapLimit (2^29).
//   - Winding: SignedArea > 0 is clockwise on screen, D3D's default front face.
//
// The per-triangle flow is:
//
//	c[i] := ClipCode(p[i], gb)                       // gb := NewGuardBand(vp, DefaultGuardBandRange)
//	reject, mask := ClassifyTriangle(c[0], c[1], c[2])
//	if mask != 0 { ClipTriangle(p, mask, gb, &poly) } // fan poly from V[0]
//	s[i] := vp.ToScreen(pos)                         // divide, viewport, snap
//	culled, back := Cull(SignedArea(s[0], s[1], s[2]), mode, frontCCW)
//
// Guard band: the side planes of the frustum are only used for trivial
// rejection. Triangles are clipped against the guard-band planes |x| <= X*w,
// |y| <= Y*w instead, chosen so that snapped screen coordinates stay inside the
// rasterizer's range (16384 pixels by default, |X|, |Y| < 2^22 units), which
// keeps every edge product of the rasterizer far inside int64. Clipping follows
// the rules that keep meshes watertight: vertices inside are preserved
// bit-exactly, an edge is clipped the same in both directions, and the planes
// are always visited in the same order.
//
// Finite and AllFinite are the one check for NaN and infinite coordinates.
package geom
