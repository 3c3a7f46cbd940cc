// Package protocol defines the messages the components of gfxsim's timed sort-last
// GPU exchange (docs/design-timing.md, section 4), and the Unit interface every
// component implements.
//
// One struct per meaning, each embedding sim.MsgMeta. Constructors (NewX) fill the
// payload and set TrafficBytes from it, so that buses charge the right number of
// cycles: a message is as large as the data the hardware would move (a quad with
// four colours is larger than a tile coverage mask). Pointers to immutable
// functional objects (the draw, a primitive) are shared between messages, but their
// size is still charged where the hardware would move the data.
//
// Coverage and live masks are raster.SampleMask values (one 64-bit word per pixel
// of a quad, up to 64 samples per pixel), but a mask is charged as the hardware
// sends it: 4 pixels x samples bits rounded up to bytes (coverageBytes), so that
// message sizes at 1 to 16 samples are those of the packed 64-bit mask of the
// past, and grow at 27 or 64 samples.
//
// Callers set Src, Dst and SendTime before sending (Meta()).
//
// Ownership: TileOwner interleaves raster tiles over rasterizers and
// partitions; BlurOwners, BlurTileOwned and BlurTilePrimary (owner5d.go) give
// the 32x32 tiles of decoupled draws' 5D primitives to the owners of the raster
// tiles they overlap, so that one rasterizer sends all the work of a pixel.
//
// Traces: the task kinds and the ID builders every component uses to report its
// tasks (trace.go; docs/design-timing.md, section 10) so that a unit knows the ID
// of its parent's task from the messages it receives.
package protocol
