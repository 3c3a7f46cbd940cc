// Package hiz models hierarchical Z (a conservative coarse depth buffer that
// culls whole tiles before the per-sample depth test) and the depth unit's
// depth-buffer compression, as pure functions with no timing. The timed HiZ
// unit (components/hiz), the depth unit (components/depthunit) and the
// reference renderer's HiZ filter (Filter, through reference.Hooks) all call
// this package, so they take the same decisions.
//
// # Sources
//
// Giesen, "A trip through the Graphics Pipeline 2011", part 7
// (../shared/seeds/004_c86c00924c04c1f0.txt): hierarchical Z sits between
// coarse and fine rasterization; its test is strictly conservative ("it will
// never claim that all pixels are rejected when in fact they weren't"); for
// "less" tests it keeps a per-tile z-max (and a z-min), mirrored for "greater"
// tests; Z compression stores plane equations or delta codes with tag bits on
// chip. Andersson, Hasselgren and Akenine-Möller, "Masked Depth Culling for
// Graphics Hardware" (2015; ../shared/seeds/001_0872957dcfba183a.txt, digest in
// ../shared/docs/seeds.md): the ZMASK algorithm, its PACKED variant and the
// configurations compared (ORACLE, FORWARD, FEEDBACK, ZMASK, PACKED ZMASK).
//
// # Keys and forms
//
// Depths are compared as keys (key.go): the 24-bit value of D24S8, the bits of
// a D32F value in [0, 1]. A tile (TileState) is held in the "less" form (z-min
// Lo, per-layer z-max Hi[i], a selection mask per layer) or the "greater" form,
// which is the same structure over negated keys, so one test serves both. A
// depth function that needs the other form converts the tile first (the
// paper's conversion: collapse the layers, clear the mask); Equal, NotEqual,
// Always and Never use either form.
//
// # The coarse test and update (Buffer.Piece)
//
// For one primitive on one HiZ tile, with the primitive's conservative depth
// bounds [tmin, tmax] over the tile (PrimitiveBounds: the rasterizer's depth
// plane at the tile's corner samples, widened by its float32 error bound,
// quantized outwards) and its covered samples:
//
//   - test: covered samples of layer i surely fail when tmin >= Hi[i] (Less;
//     > for LessEqual; outside [Lo, Hi[i]] for Equal; always for Never); the
//     tile is trivially accepted when tmax < Lo. WithCoverage tests per layer
//     (Listing 1 of the paper); IntervalOnly compares [tmin, tmax] with [Lo,
//     max Hi] (Listing 2). Failed samples are culled (removed from the quads'
//     live masks) unless the stencil state could change on them (stencil on,
//     write mask non-zero and Fail or DepthFail not Keep): then the stencil
//     passes through conservatively and nothing is culled.
//   - update (depth writes on), with the samples not culled: Lo = min(Lo,
//     tmin). When every passing sample is surely written (early Z, no stencil
//     test that can fail), the covered samples of layers with Hi[i] > tmax
//     move to the primitive's layer with z-max tmax; a draw that may not write
//     (discard, shader depth, stencil) leaves the layers, which stay valid as
//     "less" writes only lower values. NotEqual and Always move every covered
//     sample (or raise the layers' z-max when writes are not certain). The
//     three (or L+1) layers are merged by the paper's closest-pair rule
//     (Listing 4, generalized in insert), its distances taken between keys:
//     the depth values themselves for D24S8, whose keys are linear in depth;
//     for D32F the distance between float bit patterns, which is not linear
//     in depth, so the closest pair can differ from the paper's (D32F is
//     reachable only through the driver API, not from scenes).
//
// FORWARD is a ZMASK tile of one layer: its z-max changes only when a
// primitive covers the whole tile. ORACLE keeps a per-sample replica of the
// depth buffer (intervals where a write was uncertain) and tests every sample
// exactly. A tile is unknown (no test, no update) until a clear.
//
// # Feedback
//
// ApplyFeedback lowers every layer's z-max to a tile's true maximum measured
// at an API position (Pos); it is dropped when a clear, a form conversion or a
// NotEqual/Always write happened after that position (a Barrier later than
// Pos; feedback at the Barrier itself applies), or the tile is unknown. The ideal
// source (IdealFeedback) recomputes the tile's bounds from the replica after
// every update and delays them by FeedbackDelay coarse tests (the paper's FIFO);
// the timed model adds feedback from the depth unit (UpdateFeedback,
// EvictFeedback).
//
// # PACKED ZMASK (pack.go)
//
// Pack brings a tile to its memory form when its line leaves the HiZ cache:
// values rounded outwards to 15-bit floats (4 exponent bits, 11 mantissa bits,
// [0, 1]); the selection mask coded by blocks of MaskBlock samples (a uniform
// block costs 2 bits, a mixed one 1 + MaskBlock bits: MaskCost = 2s/b +
// (b-1)m), and when more blocks are mixed than the budget allows (PackedBits
// minus 46 header bits: 82 bits, at most 7 mixed blocks of 8 for a 128-sample
// tile) the mixed blocks with the fewest samples on the nearer layer are forced
// onto the farther layer. Encode and Decode give the exact bit layout.
//
// # Tiles and statistics
//
// A HiZ tile holds TileSamples samples (TileDims: 16 samples are 4x4 pixels at
// 1x and 2x2 at 4x; 32 are 8x4 and 4x2; 128 are 16x8 and 8x4). At sample counts
// that do not divide the tile (27, or 64 with small tiles) a tile is the
// largest power-of-two block of whole pixels that fits, at least one pixel,
// whose memory format NewBuffer sizes (TileDims); packed tiles need tiles of
// exactly TileSamples samples. Live masks arrive as raster.SampleMask. Stats counts
// coarse tests per (primitive, HiZ tile) as culled, trivially accepted or
// ambiguous, and normalizes to 16-sample units (Units, UnitsCulled) so that
// configurations with different tile sizes compare (the paper's Fig. 6).
//
// # Depth compression (zcompress.go)
//
// DepthCodec sizes the lossless plane-predicted delta code of a depth-cache
// line (the depth unit's Z compression); see its documentation.
//
// # Conventions
//
// Everything is deterministic and allocation-free per sample; a Buffer's
// scratch buffers grow once. Errors name the field (Config.Validate) or the
// byte offset (Decode).
package hiz
