// Package quadpacker models the quad packer of gfxsim's sort-last GPU: the
// dispatch buffer between early Z and the pixel shaders that gathers surviving
// 2x2-pixel quads into warps.
//
// # Hardware
//
// After the depth units have run early Z, the surviving quads of every partition
// arrive, as streams of "quad coordinates plus coverage masks", at a dispatch unit
// that farms them out to the shader cores. Its unit of dispatch is a warp of 32
// threads: one thread per pixel, so 8 quads (helper pixels of partially covered
// quads included, because derivatives need whole quads). The packer grabs 8
// incoming quads before sending a batch off to the shaders, and sends fewer "in
// case there's a shader switch or pipeline flush" (Giesen, "A trip through the
// Graphics Pipeline 2011", part 8, ../shared/seeds/004_c86c00924c04c1f0.txt). Here
// a shader switch is a change of draw (a warp runs one draw's pixel shader with
// one constant buffer), a pipeline flush is the end of a draw, and a partial warp
// also leaves after a time-out so that the last quads before a stall are not held
// back for ever (docs/design-timing.md, section 5).
//
// # Ports
//
//   - FromDepthUnits (in, InputQueue messages): protocol.TileQuads with the quads
//     that passed early Z (Live = surviving samples), and protocol.DrawEnd{draw, From: p}
//     from depth unit p once it has forwarded every quad of its part of the draw.
//     Every depth unit sends into this one port through one connection.
//   - ToReorderBuffer (out): protocol.PixelWarp (warp IDs 0, 1, 2, ... in sending
//     order, from WarpIDBase when set: a tile unit's packer on the tiled
//     machine) and protocol.DrawEnd, addressed to ReorderBufferPort, the
//     reorder buffer's input port, which the platform builder sets after
//     building.
//
// # The life of a quad
//
//  1. A TileQuads message arrives in FromDepthUnits. The pack stage reads its
//     quads in order, QuadsPerCycle per cycle (a message may take several cycles;
//     it leaves the port when its last quad is taken, so the input queue
//     back-pressures the depth units).
//  2. Each quad becomes a protocol.WarpQuad (primitive, position, live mask,
//     partition; Sample = protocol.PerPixel) appended to the open warp. A warp
//     holds quads of one draw: a quad of another draw first flushes the open
//     warp (reason draw_change).
//  3. When the open warp holds QuadsPerWarp quads it is flushed (reason full): it
//     becomes protocol.NewPixelWarp(draw, id, quads) in the output register (two
//     messages), and the send stage sends it to the reorder buffer the next cycle.
//  4. A DrawEnd from depth unit p counts as one item of the per-cycle budget: if
//     the open warp holds quads of that draw it is flushed (reason draw_end), then
//     a DrawEnd{draw, From: p} is queued behind it. Since the depth unit sent its
//     DrawEnd after all its quads and the packer keeps arrival order, the reorder
//     buffer sees it after every quad of p's part of the draw.
//  5. If no quad entered the open partial warp for FlushCycles cycles (its last
//     quad entered at cycle L), it is flushed at the start of cycle L+FlushCycles
//     (reason timeout) and sent at L+FlushCycles+1. The packer sleeps meanwhile and
//     is woken by a timing.Waker.
//
// # Decoupling stage (decoupled sampling)
//
// The quads of a decoupled draw's 5D primitive (TileQuads whose Prim.Blur is
// set: visibility quads, Live = the samples that passed early Z) are not
// packed: they go through the decoupling stage (Ragan-Kelley et al. 2011,
// Fig. 7, "decoupling" after early Z; decoupler.go), in arrival order with the
// 2D quads:
//
//  1. An open warp of 2D quads is flushed first (counted as
//     flushes_visibility), so that the reorder buffer keeps arrival order.
//  2. The stage maps SamplesPerCycle live samples per cycle, in order (a quad
//     with more samples takes several cycles; several small quads share one).
//     When a quad's last sample is mapped, pipeline.MapSamples computes every
//     live sample's look-up: Map.Index of its barycentrics (1 to 4 taps), or
//     in supersample mode one tap {Prim, quad, sample} at the lane of its
//     pixel, as functional/reference does.
//  3. When a message's last quad is mapped, its protocol.VisibilityQuads (one
//     per TileQuads: a 16-byte header, 4 bytes and a live mask per quad, 8
//     bytes per tap) enters the output register and leaves the next cycle. A
//     message of Q quads with S live samples therefore leaves ceil(S /
//     SamplesPerCycle) cycles after the stage started it, at the earliest.
//
// The stage exists only when Config.SamplesPerCycle is positive (the
// platform's default is 16); without it the packer is the 2D packer unchanged
// and a 5D primitive's quads are a protocol error. 2D quads keep exactly their
// path and timing.
//
// When the reorder buffer is full it stops taking messages from its port, the
// packer's Send fails, the output register fills, and packing stops (activity
// blocked_output) until the port frees. Tick runs send, timeout and pack, back to
// front, so a quad packed at cycle c leaves at c+1 at the earliest.
//
// # Parameters (Builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine and clock (required), the halt and the progress; Config
// (DefaultConfig) holds QuadsPerWarp (8, at most shader.MaxLanes/4),
// FlushCycles (64), QuadsPerCycle (4), InputQueue (16 messages),
// SamplesPerCycle (0: no decoupling stage; configs:
// quad_packer.samples_per_cycle, 16) and WarpIDBase (0).
//
// A message of an unexpected type stops the simulation through the Halt flag (a
// panic when none is set).
//
// # Statistics
//
// Named "<component name>.<counter>": quads, warps, draw_ends, quads_per_warp
// (average over sent warps), flushes_full, flushes_draw_change, flushes_draw_end,
// flushes_timeout; with the decoupling stage also samples_mapped, taps,
// visibility_quads, visibility_messages, flushes_visibility,
// decouple_cycles_busy (cycles that mapped samples) and
// decouple_cycles_blocked_output (a mapped message waited for the output
// register); and per-cycle activity cycles_busy, cycles_blocked_output
// (the reorder buffer refused a message), cycles_idle, with utilization (busy
// over all cycles). Buffers reports the input port, the open warp and the output
// register.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// warp is a "pixel_warp" task "warp<id>" below its draw, from its first quad to
// its send. On the tiled machine (quads with a TileQuads.Window) it is
// "tu<k>.warp<n>" (protocol.TileUnitWarpBase) below the tile unit's task of
// the draw in that screen tile (protocol.WindowDrawTaskID). Passing on a
// DrawEnd is busy, and no task holds it (see the rasterizer's documentation).
package quadpacker
