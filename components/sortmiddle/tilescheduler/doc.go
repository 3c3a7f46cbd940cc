// Package tilescheduler models the tile scheduler of gfxsim's tiled
// sort-middle machine (configs/sortmiddle.yaml): it hands the screen tiles of
// a binned pass to the tile units.
//
// # Hardware
//
// When a pass ends, its tiles are independent: each tile unit renders one
// tile at a time in its own tile memory. The scheduler walks the tiles in
// Order (Z order by default, so that consecutive tiles are close on screen and
// share texture lines in the L2) and gives the next tile to the next unit that
// holds fewer than JobsPerUnit tiles, round-robin. Tiles without primitives
// are skipped unless the pass presents (every tile is resolved) or stores a
// cleared target (every tile of it is written).
//
// # Ports
//
//   - FromBinner (in/out, peer Binner): protocol.BinnedPass in; Done out when
//     every tile of the pass is stored.
//   - ToTileUnits (out/in, peers TileUnits): protocol.TileJob out; the units'
//     Done in. A Done that answers no tile job in progress (never handed out,
//     or answered twice) stops the run with an error naming the unit and the
//     job.
//
// # Statistics
//
// Stats reports, under "<name>.": passes, tiles, tiles_skipped, tiles_u<k>
// per unit, and the activity cycles (cycles_busy, cycles_wait_tile_units,
// cycles_blocked_send, cycles_idle) and utilization.
//
// # Tasks
//
// None: the scheduler works within the binner's "pass" task (which ends when
// the scheduler's Done comes back); the tiles it hands out are the tile
// units' "screen_tile" tasks below that pass (docs/design-timing.md, section
// 10).
package tilescheduler
