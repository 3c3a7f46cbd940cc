// Package reference is gfxsim's reference renderer: it executes a command stream in
// API order with the functional model alone (no timing) and counts what happened.
// Every timed simulation is checked against it: the timed image must equal the
// reference image bit for bit, and the counters both keep must agree.
//
// The order of work is that of the hardware, without its parallelism: vertex
// batches of up to BatchVertices unique vertices are shaded, primitives assembled
// in API order, clipped, culled and set up; each primitive is rasterized tile by
// tile into quads; quads go through early Z (when the pixel shader allows it), are
// packed into pixel warps of WarpQuads quads, shaded, and then merged into the
// render target in order (late Z, blending).
//
// A draw with a geometry shader or stream-out takes the geometry stage after
// vertex shading: each batch's primitives are geometry shaded, the output
// strips cut into primitives, those streamed out in API order and, unless
// the draw turned rasterization off, set up and rasterized like the others.
//
// Options.Observer lets a study watch a frame without changing it: each
// primitive, each quad that survived early Z, each tap of the decoupling map
// (the 5D path of decoupled draws, in memo look-up order; not in supersample
// mode), each per-sample depth and colour access at its address in memory, and
// each pixel-shader texture request. With no observer the renderer runs as
// before.
package reference
