// Package depth models the depth/stencil test of a D3D10/11-class pipeline: the
// fixed-function unit that runs once right after rasterization ("early Z") and once
// after pixel shading ("late Z", in the output merger), as described in part 7 of
// Giesen's "A trip through the Graphics Pipeline 2011".
//
// The package computes results only; it owns no storage. The depth/stencil buffer
// itself (its formats in memory, its layouts and addresses) is
// functional/framebuffer.DepthTarget. The reference renderer and the timed depth
// unit and ROPs call the same functions, so they agree bit for bit.
//
// # Formats
//
//   - D24S8: 24-bit unsigned normalized depth plus an 8-bit stencil value. Quantize
//     clamps z to [0, 1] (NaN becomes 0), forms the exact product z*(2^24-1) and
//     rounds it to the nearest integer, ties to even. The only float32 depth whose
//     product is an exact tie is 0.5 (8388607.5), which rounds to 8388608 (the same
//     result that rounding half up gives). Stored values are compared as unsigned
//     integers on their low 24 bits.
//   - D32F: 32-bit float depth (the IEEE-754 bits are the stored value) plus an 8-bit
//     stencil value kept in a separate plane by the framebuffer. Quantize clamps z to
//     [0, 1] like D3D clamps depth to the viewport range, turns NaN into +0 and -0
//     into +0, so a quantized depth is never NaN. Comparisons decode both values and
//     compare them as float32 with IEEE semantics: if either value is NaN (a stored
//     value can be, when the buffer was written by other means), Less, Equal,
//     LessEqual, Greater and GreaterEqual fail, NotEqual passes, Never fails and
//     Always passes. +0 and -0 compare equal.
//
// # Test order
//
// State.Test applies the D3D output-merger order for one sample:
//
//  1. Stencil test (when StencilEnable): (StencilRef & ReadMask) Func
//     (stored & ReadMask), with the face (Front or Back) chosen by the primitive's
//     facing. On failure the face's Fail op updates the stencil and the sample is
//     rejected; depth is not tested.
//  2. Depth test (when DepthEnable; a disabled depth test passes): fragment Func
//     stored, with the fragment depth on the left ("Less" passes when the new value
//     is smaller). On failure the DepthFail op updates the stencil and the sample is
//     rejected.
//  3. Both passed: the Pass op updates the stencil, and the fragment depth is stored
//     when DepthEnable and DepthWrite are both set.
//
// Stencil ops write (stored &^ WriteMask) | (op(stored) & WriteMask). Replace
// writes StencilRef (not masked by ReadMask). When StencilEnable is false the
// stencil value is never changed. Result carries the values to store: the stored
// ones when nothing changes, so a caller can always write Result back.
//
// # Early Z
//
// EarlyZAllowed states when the test may run before the pixel shader: only when the
// shader neither discards nor writes depth (there is no depth to test before a
// depth-writing shader runs, and a discarding shader could kill samples whose depth
// or stencil early Z already wrote). Otherwise the test runs after shading (late Z).
// The rule is deliberately the simple one of docs/design-functional.md; Giesen
// (part 7) notes that a discarding shader could still be tested early when the state
// writes nothing, a refinement State.WritesDepth and WritesStencil make easy to add.
package depth
