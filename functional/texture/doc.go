// Package texture models textures in memory and the texture sampler's
// filtering (Giesen, "A trip through the Graphics Pipeline 2011", part 4):
// texel formats (RGBA8 UNORM and sRGB, R8, RG8, RGBA16F, RGBA32F and the block
// compressed BC1-BC5), 2D textures, 2D arrays, cube maps and 3D textures with
// mip chains, texel addresses in a linear or tiled layout (the byte-address
// function the hardware uses), the decoded address space the texture L1 is
// tagged in, addressing modes (wrap, mirror, clamp, border, mirror-once),
// level-of-detail selection from screen-space gradients, and point, bilinear,
// trilinear and anisotropic (up to 16x) filtering. The sampler reports the
// texels it reads (taps) so the timed texture unit can drive its cache
// simulation with exactly the texels the filter used.
//
// # Formats
//
// A texel decodes to a float32 vec4 before filtering: UNORM8 channels to v/255;
// RGBA8_SRGB's R, G and B through the sRGB curve (c/12.92 for c <= 0.04045,
// else ((c+0.055)/1.055)^2.4, in float64, rounded to float32 once: a table of
// 256 values), its alpha to v/255, so filtering happens in linear space;
// RGBA16F exactly (binary16 to binary32); RGBA32F as stored. Missing channels
// read 0 and missing alpha 1: R8 and BC4 read (r, 0, 0, 1), RG8 and BC5 (r, g,
// 0, 1). The block formats are decoded with the exact integer rules in bc.go
// to RGBA8, then to v/255. The border colour is used as given.
//
// # Storage
//
// A Texture's bytes (Bytes) are its memory image: the levels packed one after
// another from offset 0, each level starting at a multiple of 256 bytes
// (LevelAlign). A level holds Depth slices: the layers of an array, the six
// faces of a cube (+X, -X, +Y, -Y, +Z, -Z), or the depth slices of a 3D
// texture (max(1, depth>>level) of them). With one slice the level is that
// slice; with several, slice z starts at z*SliceStride, the slice size
// rounded up to 256 bytes. A driver copies the bytes into simulated memory,
// and NewFromBytes rebuilds the identical Texture from a Descriptor and the
// bytes. The storage unit of a format is a texel or, for the block formats, a
// 4x4 block (UnitBytes); inside a slice (Address, the byte-address function):
//
//   - Linear: texels row-major, offset + (y*w + x)*unit.
//   - Tiled: 4x4-texel tiles (64 bytes for RGBA8), tiles row-major with
//     tilesX = ceil(w/4) (partial tiles at the right and bottom edges are
//     padded), texels row-major inside a tile:
//     offset + ((y/4)*tilesX + x/4)*16*unit + ((y%4)*4 + x%4)*unit.
//   - Block formats, in either layout: blocks row-major (a block is already a
//     4x4 tile), offset + ((y/4)*ceil(w/4) + x/4)*unit.
//
// The decoded (L1) space of a texture (DecodedAddress, FillRanges) has the
// same levels and slices, but every texel takes DecodedBytes (the fill path
// decodes blocks and widens sRGB texels to 16 bits per channel) and texels
// sit in 4x4 tiles, tiles row-major: a 64-byte L1 line holds one tile of
// RGBA8, half a tile (4x2) of sRGB or RGBA16F, a quarter (4x1) of RGBA32F,
// four tiles (16x4) of R8. FillRanges lists the stored bytes one decoded line
// needs: one 8-byte block for a BC1 line, 32 bytes for an sRGB line, four
// 16-byte row pieces for a tile of a Linear RGBA8 texture.
//
// # Mip chain
//
// Level n+1 has size max(1, w/2) x max(1, h/2) (integer division), and for 3D
// textures max(1, d/2) slices, and is the box filter of level n: texel (i, j)
// averages texels (2i, 2j), (2i+1, 2j), (2i, 2j+1), (2i+1, 2j+1) of level n
// (and of slices 2k and 2k+1 for 3D), with coordinates clamped to the level
// (which matters only when a dimension is 1; with an odd size the last row or
// column is dropped). UNORM8 channels average in integers, (a+b+c+d+2)/4 (for
// 8 texels (sum+4)/8); sRGB colour channels average in linear space (float64)
// and are re-encoded to the nearest sRGB byte; half and float channels sum in
// float32 in texel order and are scaled by 1/n (halves rounded to nearest
// even). Block formats are filtered as RGBA8 (BC4 as R8, BC5 as RG8) and each
// level is compressed (EncodeBlock). A full chain ends at 1x1(x1): MipLevels =
// floor(log2(max(w, h[, d]))) + 1 levels; array layers and faces do not count.
//
// # Coordinates and level of detail
//
// A sample's coordinates (Coords) are what the shader sends: (u, v) for 2D;
// (u, v) and the layer for arrays (round-half-up(z), clamped to the layers;
// NaN is layer 0); the direction (x, y, z) for cubes; (u, v, w) for 3D. For a
// cube the face is the major axis of the direction (largest |component|; ties
// prefer x, then y; a zero or non-finite major component reads the centre of
// face +X) and the face coordinates are s = (sc/|ma| + 1)/2, t = (tc/|ma| + 1)/2
// with (D3D's table; CubeDirection maps face coordinates back to a direction)
//
//	face  ma  sc  tc        face  ma  sc  tc
//	+X    x   -z  -y        -X    x   +z  -y
//	+Y    y   +x  +z        -Y    y   +x  -z
//	+Z    z   +x  -y        -Z    z   -x  -y
//
// clamped to [0, 1]. The derivatives of s and t follow by the quotient rule:
// ds = (dsc*|ma| - sc*d|ma|) / (2*ma^2).
//
// With LODGradient, the LOD comes from the derivatives in texels of level 0
// (w x h [x d]; a cube face is w x w):
//
//	Px = |(ddx.u*w, ddx.v*h[, ddx.w*d])|,  Py = |(ddy.u*w, ddy.v*h[, ddy.w*d])|
//	rho = max(Px, Py)
//	lod = log2(rho) + SamplerState.LODBias + value     (value is the shader's bias)
//
// With the Anisotropic filter and MaxAnisotropy > 1, the footprint is instead
// covered by N = min(ceil(max/min), MaxAnisotropy) probes (N = 1 when both
// lengths are 0) and rho = max(Px, Py)/N. With LODExplicit, lod = value (the
// sampler's LODBias is not added, and there is one probe). Then lod is clamped
// to [MinLOD, min(MaxLOD, levels-1)] (a NaN lod becomes 0 before clamping; a
// NaN bound is ignored). Products and sums are float32 with explicit rounding;
// square roots and log2 are computed in float64 and rounded to float32. A zero
// gradient gives lod = -Inf, which clamps to MinLOD.
//
// A lod <= 0 means magnification: level 0 is used. Point and Bilinear use the
// nearest level, round-half-up(lod); Trilinear and each anisotropic probe use
// floor(lod) and floor(lod)+1 weighted by 1-frac(lod) and frac(lod); when
// frac(lod) is 0 or floor(lod) is the last level only one level is read.
//
// # Addressing and filtering
//
// Texel i covers [i, i+1) in texel space; its centre is at (i+0.5)/size in
// normalized coordinates. Wrap reduces u to u - floor(u), Clamp (to edge)
// clamps u to [0, 1], MirrorOnce uses min(|u|, 1) then clamps like Clamp,
// Mirror reduces u to r = u - 2*floor(u/2) in [0, 2] and mirrors texel indices
// with period 2*size (index m >= size becomes 2*size-1-m), Border leaves u as
// it is and texel indices outside [0, size) read BorderColor. A NaN
// coordinate, and an infinite one under Wrap and Mirror, is treated as 0.
// Point reads texel min(floor(u*size), size-1) (u*size reaches size only at u
// = 1 or by float32 rounding, and those points lie in the last texel).
// Linear filtering takes x = u*size - 0.5, the texels floor(x) and floor(x)+1
// (wrapped, mirrored, clamped to the edge, or outside for Border) and the
// weight frac(x), likewise in v (and w for 3D); it lerps top = lerp(t00, t10,
// fx), bottom = lerp(t01, t11, fx), result = lerp(top, bottom, fy) (for 3D the
// two slices' results are lerped by fz), with lerp(a, b, f) = a + f*(b-a) in
// float32. Trilinear lerps the two levels by frac(lod) the same way.
//
// Cube maps ignore the address modes and filter seamlessly: a linear
// footprint that crosses a face edge reads the neighbouring face's texel, the
// one containing the projection of the outside texel's centre; a footprint
// corner outside both edges reads the face's own corner texel (D3D averages
// three texels there; the difference is one texel in a corner).
//
// Anisotropic probes sit along the longer gradient (ddx when Px >= Py) in
// normalized coordinates, at coord + axis*((2i+1-N)/(2N)) for i = 0..N-1;
// each is a trilinear sample, and the result is (((p0 + p1) + p2) + ...)*(1/N)
// in float32.
//
// # Taps
//
// SampleCoords (and SampleTaps) append one Tap per texel read, in filter
// order: per probe, per level, (x0, y0), (x1, y0), (x0, y1), (x1, y1) (then
// the same at z1 for 3D) for linear filtering, one tap for point. A linear
// footprint always has all its taps (some may have weight 0, repeat a texel at
// a clamped edge, or be Border taps that read no memory), because hardware
// fetches the whole footprint. Weights are the products of the axis weights
// times the level's weight and 1/N, and sum to 1 up to float32 rounding. They
// describe the filter; the colour is computed with the lerps. At most MaxTaps
// (256) taps per sample.
package texture
