// Package binning is the functional part of the tiled sort-middle machine's
// binning (Ragan-Kelley et al. 2011, sections 4.4 and 5, and
// ../shared/docs/decoupled-sampling.md): the grid of screen tiles a frame is cut into,
// the tile size that fits a tile memory budget, the tiles a primitive is
// binned to, the layout of the bins in memory, and the memory lines of a
// screen tile's colour and depth samples that a tile unit loads and stores.
//
// # Tile size
//
// A tile unit holds a tile's colour, depth and stencil at the frame's sample
// count in its on-chip tile memory (128 KB by default, as in the document). The
// tile is the largest power-of-two rectangle, at least as wide as tall, whose
// pixels x samples x (colour + depth bytes per sample) fit the budget (the
// rule of decouple.TileSize with the frame's real formats): 128x128 at 1x
// RGBA8 with D24S8, 64x64 at 4x, 64x32 at 8x, 32x16 at 27 samples, 16x16 at
// 64. A configuration may fix the size; it must then fit the budget.
//
// # Binning
//
// A primitive is binned to every tile its screen box touches: the set-up
// triangle's box on the 2D path, the union of its boxes over the shutter
// interval and the lens on the 5D path (raster5d's BBox), both already
// clipped to the viewport and scissor. Bin spread is tiles per binned
// primitive.
//
// # Bins in memory
//
// Each bin is a chained list of chunks of the binner's ChunkBytes:
// EntryBytes-byte entries (the primitive's index in the pass's parameter buffer
// and its draw), and the chunk's last LinkBytes hold the address of the next
// chunk. The parameter buffer holds each binned primitive once,
// RecordBytes(links) bytes (the edge equations, depth plane and the three
// vertices of every interpolant, as protocol.PrimitiveMsg charges a bus). The
// binner places the parameter buffer and the chunks in a region of memory above
// the frame's image (components/sortmiddle/binner's SetFrame).
package binning
