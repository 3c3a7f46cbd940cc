// Package framebuffer models render targets in memory: multisampled colour and
// depth/stencil surfaces, their memory layouts and byte addresses, load and store with
// format conversion, clears, the MSAA resolve and PNG output.
//
// The bytes of a target (Bytes) are exactly what simulated memory holds: Address is
// the byte offset a timed ROP or cache uses, and Load/Store read and write the same
// bytes through the same layout. A timed model can therefore wrap a region of its
// memory image with NewColorTargetFromBytes / NewDepthTargetFromBytes and get the
// identical image the reference renderer produces.
//
// # Layouts
//
// A surface of Width x Height pixels with Samples samples per pixel (any count from 1 to raster.MaxSamples = 64)
// is stored as a sequence of pixels in the layout's order; the samples of one pixel
// are adjacent (element index = pixelIndex*Samples + sample, byte address = element
// index * bytes per sample). Pixel order:
//
//   - Linear: row-major, pixelIndex = y*Width + x. No padding.
//   - Tiled: the surface is padded to whole TileW x TileH tiles (default 4x4; with
//     RGBA8 or D24S8 and one sample, a 4x4 tile is one 64-byte DRAM burst, the shape
//     Giesen's part 9 motivates); tiles are row-major, pixels row-major inside a tile:
//     pixelIndex = (ty*tilesX + tx)*TileW*TileH + (y%TileH)*TileW + x%TileW with
//     tx = x/TileW, ty = y/TileH, tilesX = ceil(Width/TileW).
//   - ZOrder: the surface is padded to PW x PH, the next powers of two of Width and
//     Height, and pixels follow the Morton (Z) curve: with m = min(log2 PW, log2 PH), the
//     low m bits of x and y are interleaved (x in the even bits, y in the odd bits) and
//     the remaining high bits of the larger dimension are placed above them. This is
//     dense: the padded surface maps onto [0, PW*PH).
//
// Over the padded extents (PaddedWidth x PaddedHeight x Samples) every layout's
// Address is a bijection onto [0, SizeBytes) (for D32F, onto the depth plane); the
// visible pixels are a subset. Padding bytes belong to the allocation, are cleared by
// Clear and never read by Resolve. Address does not check its arguments; Load and Store
// ignore coordinates outside the visible surface (Load returns zeros).
//
// # Colour formats
//
//   - RGBA8: 4 bytes per sample, R, G, B, A, UNORM. Store clamps each channel to [0, 1]
//     (NaN becomes 0) and writes floor(c*255 + 0.5) computed in float32; Load returns
//     v/255 in float32.
//   - RGBA32F: 16 bytes per sample, four little-endian IEEE float32 R, G, B, A, stored
//     as given (no clamping, NaN kept).
//   - RGBA10: the SAGE sample buffer's 40-bit sample, 5 bytes, four 10-bit UNORM
//     channels packed little-endian with R in the low bits. Store converts each
//     channel to 12 bits like RGBA8 (floor(c*4095 + 0.5)) and dithers it to 10:
//     (v + t) >> 2, at most 1023, with the threshold t = DitherThreshold(x, y, s) of a
//     2x2 Bayer matrix over pixel and sample, so that four consecutive samples of a
//     pixel sum to the 12-bit value exactly, up to 4092 (the cap at 1023 makes the sum
//     4092 for 4093-4095). Clear rounds (t = 2). Load returns v/1023;
//     Sample returns the raw 10-bit values for the reconstruction filter.
//
// Store writes only the channels whose bit is set in the write mask (R=1, G=2, B=4,
// A=8). BlendStore does the whole output-merger colour path: load the destination,
// blend (blend.Target.BlendUNORM for RGBA8 and RGBA10, Blend for RGBA32F) and store with the
// target's write mask.
//
// # Depth formats
//
//   - D24S8: 4 bytes per sample, one little-endian uint32 with the 24-bit depth in bits
//     0..23 and the stencil in bits 24..31. Address(x, y, s) is the word;
//     StencilAddress(x, y, s) = Address + 3, its high byte.
//   - D32F: two planes. The depth plane holds 4 bytes per sample (the float32 bits,
//     little-endian) at Address(x, y, s) = element*4, starting at offset 0. The stencil
//     plane holds 1 byte per sample at StencilAddress(x, y, s) = StencilPlaneOffset +
//     element, where StencilPlaneOffset is the depth plane size rounded up to 256 bytes.
//
// Depth values are the depth package's stored representation (depth.Quantize).
//
// # Resolve and output
//
// Resolve box-filters the samples of each visible pixel into an *image.RGBA whose
// bytes are the resolved RGBA8 values, not premultiplied: RGBA8 averages in integers,
// (sum + N/2) / N per channel; RGBA10 likewise, (255 sum + 1023N/2) / 1023N; RGBA32F sums the float32 samples in sample order,
// divides by N in float32 and converts like an RGBA8 store. SampleImage extracts one
// sample per pixel. WritePNG writes an *image.RGBA's bytes verbatim (as
// non-premultiplied RGBA), so the PNG's pixels equal the render target's bytes.
package framebuffer
