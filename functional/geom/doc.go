// Package geom holds the vector and matrix math of gfxsim and the fixed-function
// geometry stages that sit between vertex shading and triangle setup: clip codes,
// clipping against the guard-band and near/far planes, the perspective divide, the
// viewport transform, snapping to the sub-pixel grid, and back-face and zero-area
// culling.
//
// All arithmetic is float32, the precision of the hardware it models, and every
// function is deterministic: the timed components and the reference renderer call
// the same functions, so they agree bit for bit.
//
// Conventions (D3D10/11, see docs/design-functional.md):
//   - Matrices are row-major, Mat4[row][col], and transform column vectors: p' = M p.
//   - Clip space: -w <= x <= w, -w <= y <= w, 0 <= z <= w.
//   - Screen space: X grows to the right, Y grows downwards, pixel centres at +0.5.
package geom
