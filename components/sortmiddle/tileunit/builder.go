package tileunit

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// DefaultConfig is the tile unit of configs/sortmiddle.yaml: samples stored,
// 64-byte lines, one primitive per cycle, 16 memory requests in flight, a
// 128 KB tile memory answering in 2 cycles and taking 64 bytes per cycle,
// 16 requests waiting, one tile buffer.
func DefaultConfig() Config {
	return Config{LineBytes: 64, PrimitivesPerCycle: 1, MaxOutstandingMemory: 16, MemoryLatency: 2,
		MemoryBytesPerCycle: 64, MemoryBytes: 128 << 10, InputQueue: 16, TileBuffers: 1}
}

// Builder builds a TileUnit: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name) (timing.Builder). Build panics on a bad Env or Config (configs
// validates first).
type Builder = timing.Builder[Config, *TileUnit]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("tile unit", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *TileUnit {
	c := &TileUnit{}
	c.Unit = timing.NewUnit(name, env, cfg, c, stateNames[:]...)
	c.FromScheduler = timing.AddPort(c, "FromScheduler", 4)
	c.ToRasterizer = timing.AddPort(c, "ToRasterizer", 4)
	c.Control = timing.AddPort(c, "Control", 8)
	c.ToMemory = timing.AddPort(c, "ToMemory", cfg.MaxOutstandingMemory)
	c.TileMemory = timing.AddPort(c, "TileMemory", cfg.InputQueue)
	mc, err := memclient.New(c.ToMemory, timing.LateFinder{At: &c.Memory}, env.Freq, memclient.Config{MaxOutstanding: cfg.MaxOutstandingMemory, Progress: env.Progress})
	if err != nil {
		panic(fmt.Sprintf("tile unit %s: %v", name, err))
	}
	c.mem = mc
	return c
}

// stats are the unit's counters, named by their tags (Stats).
type stats struct {
	tiles          uint64 `stat:"tiles"`
	emptyTiles     uint64 `stat:"empty_tiles"`
	tileCycles     uint64 `stat:"tile_cycles"`
	tileCyclesMax  uint64 `stat:"tile_cycles_max"`
	peak           uint64 `stat:"tile_memory_peak_bytes"`
	overBudget     uint64 `stat:"tile_memory_over_budget"`
	loadBytes      uint64 `stat:"load_bytes"`
	storeBytes     uint64 `stat:"store_bytes"`
	displayBytes   uint64 `stat:"display_bytes"`
	binBytes       uint64 `stat:"bin_bytes_read"`
	paramBytes     uint64 `stat:"parameter_bytes_read"`
	prims          uint64 `stat:"primitives"`
	drawEnds       uint64 `stat:"draw_ends"`
	tmReads        uint64 `stat:"tile_memory_reads"`
	tmWrites       uint64 `stat:"tile_memory_writes"`
	tmBytesRead    uint64 `stat:"tile_memory_bytes_read"`
	tmBytesWritten uint64 `stat:"tile_memory_bytes_written"`
}

// Stats reports, under "<name>.": tiles, empty_tiles (stored or resolved
// without primitives), tile_cycles (the sum over tiles, from the job's start
// to its last store), tile_cycles_avg, tile_cycles_max, tile_memory_peak_bytes
// (colour and depth lines of the tiles the tile memory held at once, at a
// tile's start: the largest tile with one buffer), tile_memory_over_budget
// (tiles whose lines exceed a tile buffer), load_bytes, store_bytes,
// display_bytes, bin_bytes_read, parameter_bytes_read, primitives (sent to
// the rasterizer: one per primitive and tile), draw_ends, tile_memory_reads,
// tile_memory_writes, tile_memory_bytes_read, tile_memory_bytes_written, the
// activity cycles and utilization, and the memory client's counters under
// "<name>.memory.".
func (c *TileUnit) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	timing.AddTagged(p, add, &c.st)
	add(p+"tile_cycles_avg", timing.Ratio(c.st.tileCycles, c.st.tiles))
	c.Activity.Stats(c.Name(), add)
	c.mem.Stats(p+"memory", add)
}

// Buffers describes the tiles held, the tile in progress (its draws waiting
// for the ROP, its FlushCmds, its stores), the stores of the tiles storing
// behind it, and the tile memory's queue.
func (c *TileUnit) Buffers() []timing.BufferState {
	n := c.Name()
	bs := []timing.BufferState{
		{Name: n + ".Tiles", Len: len(c.jobs)},
		{Name: n + ".TileMemoryQueue", Len: len(c.tm)},
		c.mem.Buffer(n + ".Memory"),
	}
	if t := c.t; t != nil {
		bs = append(bs,
			timing.BufferState{Name: fmt.Sprintf("%s.Tile[%d].DrawsAtROP", n, t.job.Tile), Len: len(t.drawEnds)},
			timing.BufferState{Name: fmt.Sprintf("%s.Tile[%d].Flushes", n, t.job.Tile), Len: len(t.flushIDs)},
			timing.BufferState{Name: fmt.Sprintf("%s.Tile[%d].PrimitivesToSend", n, t.job.Tile), Len: len(t.bin.Entries) - t.sendNext},
			timing.BufferState{Name: fmt.Sprintf("%s.Tile[%d].Stores", n, t.job.Tile), Len: len(t.stores) + len(t.display) - t.storeNext + t.storeLeft},
		)
	}
	for _, t := range c.storing {
		bs = append(bs, timing.BufferState{Name: fmt.Sprintf("%s.StoringTile[%d].Stores", n, t.job.Tile),
			Len: len(t.stores) + len(t.display) - t.storeNext + t.storeLeft})
	}
	return bs
}

var _ protocol.Unit = (*TileUnit)(nil)
