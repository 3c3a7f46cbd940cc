// Package blend models the blend unit of the output merger (the ROP): the
// fixed-function stage that combines a shaded colour with the colour already in the
// render target, per render target, in API order (Giesen, "A trip through the
// Graphics Pipeline 2011", part 9). It computes results only; storage, formats and
// the write mask's effect on memory belong to functional/framebuffer.
//
// # Equation
//
// With a Target enabled, the result is, per channel,
//
//	rgb   = OpRGB(src.rgb * SrcRGB, dst.rgb * DstRGB)
//	alpha = OpAlpha(src.a * SrcAlpha, dst.a * DstAlpha)
//
// where Add is s+d, Subtract s-d, RevSubtract d-s, and Min/Max take min(src, dst)
// and max(src, dst) of the unweighted colours (they ignore the factors, as in D3D).
// The alpha channel uses the alpha (fourth) component of its factors: SrcColor on
// alpha is src.a, DstColor is dst.a, BlendFactor is constant.a. SrcAlphaSat is
// (f, f, f, 1) with f = min(src.a, 1-dst.a). Inv* factors are 1-x.
//
// Arithmetic is float32 with every product and sum rounded to float32 (Go may not fuse
// them: the code converts explicitly), so results are identical on every platform.
// A term whose factor is Zero is exactly 0, whatever the colour (even Inf or NaN), so
// a ROP need not read the destination when ReadsDestination is false; otherwise IEEE
// rules apply, and Min/Max follow Go's min/max (a NaN operand gives NaN). The
// framebuffer's store turns NaN into 0 for UNORM formats. Invalid factors act as Zero
// and invalid ops as Add. A disabled Target returns src unchanged.
//
// # Ranges
//
// Blend works on the values given. For UNORM render targets D3D clamps the source
// colour and the blend constant to [0, 1] before blending (the destination, read
// back from a UNORM target, already is); BlendUNORM does exactly that. Float render
// targets use Blend. The result is clamped to the format's range when stored
// (framebuffer.ColorTarget.Store), not here.
//
// # Write mask
//
// Target.WriteMask has one bit per channel (WriteR=1, WriteG=2, WriteB=4, WriteA=8);
// channels whose bit is clear keep the stored value. It applies whether or not
// blending is enabled. A zero Target writes nothing: use DefaultState or the presets.
package blend
