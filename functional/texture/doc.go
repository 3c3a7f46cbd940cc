// Package texture models textures in memory and the texture sampler's filtering
// (Giesen, "A trip through the Graphics Pipeline 2011", part 4): mip chains, texel
// addresses in a linear or tiled layout, addressing modes, level-of-detail selection
// from screen-space gradients, and point, bilinear and trilinear filtering. The
// sampler can report the texels it reads (taps) so the timed texture unit can drive
// its cache simulation with exactly the texels the filter used.
//
// This is the basic version: RGBA8 UNORM 2D textures. Format, Layout, Descriptor and
// the sampler enums are designed to grow (more formats, arrays, cube and 3D textures,
// anisotropic filtering, more address modes, block compression).
//
// # Storage
//
// A Texture's bytes (Bytes) are its memory image: the levels packed one after another
// from offset 0, each level starting at a multiple of 256 bytes (LevelAlign). A driver
// copies these bytes into simulated memory, and NewFromBytes rebuilds the identical
// Texture from a Descriptor and the bytes. Inside a level:
//
//   - Linear: texels row-major, TexelAddress = offset + (y*w + x)*4.
//   - Tiled: 4x4-texel tiles (64 bytes for RGBA8), tiles row-major with
//     tilesX = ceil(w/4) (partial tiles at the right and bottom edges are padded),
//     texels row-major inside a tile: offset + ((y/4)*tilesX + x/4)*64 +
//     ((y%4)*4 + x%4)*4.
//
// RGBA8 texels are 4 bytes R, G, B, A (straight, not premultiplied alpha) and decode
// to float32 v/255 before filtering.
//
// # Mip chain
//
// Level n+1 has size max(1, w/2) x max(1, h/2) (integer division) and is the 2x2 box
// filter of level n: texel (i, j) averages texels (2i, 2j), (2i+1, 2j), (2i, 2j+1),
// (2i+1, 2j+1) of level n, with coordinates clamped to the level (which matters
// only when a dimension is 1; with an odd size the last row or column is dropped),
// per channel in integers: (a + b + c + d + 2) / 4. A full chain ends at 1x1:
// MipLevels(w, h) = floor(log2(max(w, h))) + 1 levels.
//
// # Level of detail
//
// With LODGradient, the LOD comes from the coordinate's screen-space derivatives in
// texels of level 0 (w x h):
//
//	rho = max(|(ddx.u*w, ddx.v*h)|, |(ddy.u*w, ddy.v*h)|)
//	lod = log2(rho) + SamplerState.LODBias + value     (value is the shader's bias)
//
// With LODExplicit, lod = value (the sampler's LODBias is not added). Then lod is
// clamped to [MinLOD, min(MaxLOD, levels-1)] (a NaN lod becomes 0 before clamping; a
// NaN bound is ignored). Products and sums are float32 with explicit rounding; the
// square root and log2 are computed in float64 and rounded to float32. A zero gradient
// gives lod = -Inf, which clamps to MinLOD.
//
// A lod <= 0 means magnification: level 0 is used. Point and Bilinear use the nearest
// level, round-half-up(lod); Trilinear uses floor(lod) and floor(lod)+1 weighted by
// 1-frac(lod) and frac(lod); when frac(lod) is 0 or floor(lod) is the last level only
// one level is read.
//
// # Addressing and filtering
//
// Texel i covers [i, i+1) in texel space; its centre is at (i+0.5)/size in normalized
// coordinates. Wrap first reduces u to u - floor(u); Clamp (to edge) clamps u to
// [0, 1]; a NaN coordinate, and an infinite one under Wrap, is treated as 0. Point
// reads texel min(floor(u*size), size-1) (u*size reaches size only at u = 1 or by
// float32 rounding, and those points lie in the last texel). Bilinear takes x = u*size - 0.5,
// the texels floor(x) and floor(x)+1 (wrapped, or clamped to the edge) and the weight
// frac(x), likewise in v; it lerps top = lerp(t00, t10, fx), bottom = lerp(t01, t11,
// fx), result = lerp(top, bottom, fy), with lerp(a, b, f) = a + f*(b-a) in float32.
// Trilinear lerps the two bilinear results by frac(lod) the same way.
//
// # Taps
//
// SampleTaps appends one Tap per texel read, in filter order: per level, (x0, y0),
// (x1, y0), (x0, y1), (x1, y1) for bilinear, one tap for point. A bilinear footprint
// always has four taps (some may have weight 0 or repeat a texel at a clamped edge),
// because hardware fetches the whole 2x2 footprint. Weights are the products
// (1-fx)(1-fy), fx(1-fy), (1-fx)fy, fx*fy times the level's weight, and sum to 1 up to
// float32 rounding. They describe the filter; the colour is computed with the lerps.
package texture
