// Package samplepattern is SAGE's sample pattern RAM (Deering & Naegle 2002,
// §6.1), shared by the rasterize chips (where a sample lies) and the convolve
// chips (its distance to a filter centre): 64 entries, each a 2x2 pixel quad of
// 16 samples per pixel, every sample a 6-bit x 6-bit offset o from the pixel's
// corner, the sample sitting at corner + (o+0.5)/64 pixel. A 2D hardware hash
// (Entry) maps a pixel's quad to an entry so that the 64 entries tile a
// 128x128-pixel area without repeating, and the pattern repeats only with that
// period.
//
// # Units
//
// Offset returns offsets from the pixel centre in 1/256 pixel, the unit of
// functional/raster (SamplePattern, MinOffset..MaxOffset): 4*o + 2 - 128, exact,
// in [-126, 126]. The pixel centre itself (o = 31.5) is not on the 6-bit grid.
//
// # The hash
//
// The pixel (px, py) lies in quad (qx, qy) = (px>>1, py>>1) (floor, so
// negative coordinates work), taken mod 64 (qx&63, qy&63: two's complement
// makes & a true mod). Entry = X(qx) xor Y(qy), where X and Y are permutations
// of 0..63 built from a 3-round Feistel network on 3-bit halves with the round
// function f(u) = (rotl(u,1) & rotl(u,2)) xor u xor k, Y after a multiply by 37
// (y + y<<2 + y<<5 mod 64): a handful of gates, shifts and xors. Because each
// row (and each column) is a permutation of the 64 entries, every entry is used
// exactly 64 times per period and horizontally or vertically adjacent quads
// never share an entry, across the period's wrap too; X and Y are nonlinear, so
// no translation other than multiples of 64 quads maps the hash onto itself,
// and none keeps more than 137 of the 4096 quads' entries (chance: 64).
//
// # Generate
//
// Generate builds the "constrained random perturbations of uniform grids" of
// §6.1: per pixel, a 4x4 stratified jittered grid at 6-bit resolution (each
// stratum is 16x16 offsets; the sample is uniform within it), ordered so that
// every prefix of length 1, 2, 4 and 8 is itself well spread, since a density
// n < 16 uses the first n samples of the entry. Sample k (bits k3 k2 k1 k0) takes
// the stratum column i = 2*k0 + k2 and row j = 2*(k0 xor k1) + (k2 xor k3):
// samples 0 and 1 lie in diagonally opposite quadrants, samples 0-3 one per
// quadrant, samples 0-7 two per quadrant, per stratum row and per stratum
// column, and 0-15 one per stratum. Each pixel then xors the column and
// row with its own random 2-bit values and may transpose them: a relabelling
// that keeps every one of these properties while making pixels differ.
//
// A density of 1 uses sample 0 like every other density (a jittered sample,
// not the centre): the rasterize and convolve chips read the same table with
// no special case, and the exact centre is not representable in 6 bits anyway.
// A machine that wants Figure 6's uniform one sample per pixel uses no table
// (functional/raster's standard pattern, the centre).
//
// The PRNG is math/rand/v2's PCG seeded with (seed, a fixed constant): the
// same seed gives the same table on every machine and Go version that keeps
// PCG's documented output.
package samplepattern
