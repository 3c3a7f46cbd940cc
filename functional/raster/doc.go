// Package raster is gfxsim's triangle setup and rasterizer: integer edge
// equations with the D3D top-left fill rule, a coarse rasterizer that
// classifies screen tiles, a fine rasterizer that produces 2x2 pixel quads with
// per-sample coverage masks (MSAA), the scissor/bounds mask, depth planes,
// barycentrics and attribute interpolation (perspective, noperspective, flat,
// centroid) and helper-pixel masks. It follows the Pineda-style hardware
// rasterizer of part 6 of Giesen's "A trip through the Graphics Pipeline 2011"
// and the interpolation rules of its parts 7 and 8. The reference renderer and
// the timed rasterizer call the same functions.
//
// # Conventions
//
// Positions are snapped integers in 1/256 pixel (geom.ScreenVertex). Pixel
// (px, py) covers [px, px+1) x [py, py+1); sample s of the pixel sits at
// (px*256 + 128 + dx, py*256 + 128 + dy) where (dx, dy) are the pattern's
// offsets from the centre in 1/256 pixel, in [-128, 127]. Any count from 1 to
// MaxSamples (64) works; PatternFor gives every caller the same pattern: the D3D
// standard positions for 1, 2, 4, 8 and 16 samples (the 1/16-pixel table times
// 16), and for every other count (27 and 64 for decoupled sampling among them)
// the Hammersley point set on the 1/256 grid (HammersleyPattern: x stratified in
// count columns, y the radical inverse), the same in every pixel.
//
// A SamplePattern may instead carry SAGE's pattern RAM (functional/samplepattern,
// attached by SamplePattern.WithTable, 1 to 16 samples): sample s of pixel
// (px, py) is then at Table.Offset(px, py, s), different in every pixel of a
// 128x128 period. Setup bounds each edge over the box of the table's offsets
// (SamplePattern.Extremes), so BBox, the tile test and the quad test stay
// conservative; a pixel an edge crosses is resolved by evaluating the edge at
// each sample's own position with the inequality of CoversSample (E >= 0).
// SamplePosition, EvalPosition and the depth functions read the pixel's own
// offsets. Without a table the code paths and results are today's.
//
// Setup builds, for the edge opposite each vertex k, E_k(x, y) = A*x + B*y + C
// in int64, oriented so that the inside is positive whatever the winding. The
// fill rule is a -1 bias in C on edges that are neither top (horizontal, inside
// below) nor left (inside to the right), so a sample on a shared edge belongs to
// exactly one of the two triangles; a sample is covered when all three E >= 0.
// With coordinates within geom.SnapLimit (2^29 units; guard-band clipping keeps
// them below 2^22) every product fits in int64 with room to spare.
//
// The coarse rasterizer works on TileSize x TileSize pixel tiles (a power of two,
// default 8), which are quad aligned. TestTile evaluates each edge at the corner
// of the tile that maximises it (and minimises it), over the actual sample
// positions, which makes TileOutside and TileInside exact (conservative with a
// pattern table). Tiles walks the
// bounding box's tiles; TileQuads produces a tile's quads with non-zero coverage.
// A quad's coverage is a SampleMask: word pixel, bit sample, pixel = (x&1) +
// 2*(y&1). Each edge keeps its sample offsets sorted, so a pixel that an edge
// crosses costs a binary search of about log2(count) compares, for any count
// (with a pattern table: one compare per sample).
//
// Traversal orders (Config.TileOrder, Config.QuadOrder): RowMajor, or ZOrder
// (Morton, x in the low bit) over tile coordinates relative to the bounding
// box's first tile, and over quad coordinates relative to the tile's first quad.
// MortonSpread, MortonCompact and MortonDecode are the one home of Morton bit
// interleaving (the HiZ geometry and the framebuffer's ZOrder layout use them).
//
// Depth is a screen-space linear plane through the snapped vertices (in float32,
// relative to vertex 0), evaluated at each sample and clamped to the viewport's
// [MinZ, MaxZ] (Config). Barycentrics are screen-linear from the same float
// planes, or perspective-correct by weighting with 1/w. Attributes are
// interpolated at the pixel centre, or with the centroid flag at the covered
// sample closest to the centre when the pixel is only partly covered. Flat
// attributes take vertex 0's value (the API triangle's leading vertex).
//
// Everything is deterministic and does not allocate per tile, quad or sample:
// callers pass the output slices and reuse them.
package raster
