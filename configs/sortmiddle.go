package configs

import (
	"github.com/gfxsim/gfxsim/components/sortmiddle/binner"
	"github.com/gfxsim/gfxsim/components/sortmiddle/tilescheduler"
	"github.com/gfxsim/gfxsim/components/sortmiddle/tileunit"
)

// The tiled sort-middle machine (Ragan-Kelley et al. 2011, sections 4.4 and 5;
// a binning GPU as most phones ship): selected by "machine: sortmiddle",
// described by the sortmiddle section, built from the embedded sortmiddle.yaml
// on top of the default machine. The front end (command processor, input
// assembly, vertex shading on the unified cores, primitive assembly and setup)
// is the sort-last machine's; the binner writes every primitive to the bins of
// the screen tiles it touches, and at the end of each pass the tile scheduler
// hands the tiles to the tile units, each a rasterizer, a depth unit, a quad
// packer, a reorder buffer and a ROP (built from those sections, one of each)
// around an on-chip tile memory. The shader cores are shared.

// SortMiddle is the tiled machine's own section.
type SortMiddle struct {
	TileUnits    int                `yaml:"tile_units" desc:"back-end tile units, each with its own rasterizer, depth unit, quad packer, reorder buffer, ROP and tile memory (the shader cores are shared)" min:"1" max:"64"`
	TileMemoryKB int                `yaml:"tile_memory_kb" desc:"on-chip tile memory per tile unit: a tile's colour, depth and stencil at the frame's sample count must fit a buffer of it (the document's 128 KB)" unit:"KB" min:"1" max:"65536"`
	TileBuffers  int                `yaml:"tile_buffers" desc:"tiles the tile memory holds, each in tile_memory_kb / tile_buffers: 1, or 2 and more to store finished tiles while the next tile loads and renders (double buffering; at most jobs_per_unit)" min:"1" max:"8"`
	TileWidth    int                `yaml:"tile_width" desc:"screen tile width; 0: the largest power-of-two tile that fits a tile buffer (tile_memory_kb / tile_buffers) at the frame's sample count and formats" unit:"pixels" min:"0" max:"4096"`
	TileHeight   int                `yaml:"tile_height" desc:"screen tile height; 0 with tile_width 0" unit:"pixels" min:"0" max:"4096"`
	TileOrder    string             `yaml:"tile_order" desc:"order in which the tile scheduler hands out a pass's tiles" oneof:"zorder,rowmajor"`
	JobsPerUnit  int                `yaml:"jobs_per_unit" desc:"tiles a tile unit holds at once (the next one is queued while one renders)" min:"1" max:"64"`
	Store        string             `yaml:"store" desc:"samples: a finished tile's colour and depth samples are written to memory (and the displayed pixels when the pass presents); resolved: a presenting pass writes only the resolved, displayed pixels" oneof:"samples,resolved"`
	Binner       SortMiddleBinner   `yaml:"binner" desc:"the binner: bins and parameter buffer in memory"`
	TileUnit     SortMiddleTileUnit `yaml:"tile_unit" desc:"each tile unit's bin reader and tile memory"`
}

// SortMiddleBinner is the binner's section.
type SortMiddleBinner struct {
	EntriesPerCycle      int `yaml:"entries_per_cycle" desc:"bin entries (8 bytes: primitive and draw) appended per cycle" min:"1" max:"1024"`
	ChunkBytes           int `yaml:"chunk_bytes" desc:"bin chunk: entries and an 8-byte link to the next chunk" unit:"bytes" min:"16" max:"65536"`
	MaxOutstandingMemory int `yaml:"max_outstanding_memory" desc:"bin and parameter-buffer writes in flight" min:"1" max:"4096"`
	InputQueue           int `yaml:"input_queue" desc:"primitives waiting to be binned" unit:"messages" min:"1" max:"4096"`
}

// SortMiddleTileUnit is each tile unit's own section (the units it contains
// take the raster, depth_unit, quad_packer, reorder_buffer and rop sections).
type SortMiddleTileUnit struct {
	PrimitivesPerCycle   int `yaml:"primitives_per_cycle" desc:"primitives of the bin sent to the rasterizer per cycle" min:"1" max:"64"`
	MaxOutstandingMemory int `yaml:"max_outstanding_memory" desc:"bin, primitive, load and store requests in flight" min:"1" max:"4096"`
	MemoryLatency        int `yaml:"memory_latency" desc:"tile memory: cycles from a line request of the ROP or depth unit to its answer" unit:"cycles" min:"1" max:"1000"`
	MemoryBytesPerCycle  int `yaml:"memory_bytes_per_cycle" desc:"tile memory: bytes taken per cycle" unit:"bytes" min:"4" max:"65536"`
	InputQueue           int `yaml:"input_queue" desc:"tile memory requests waiting" unit:"messages" min:"1" max:"4096"`
}

// validateSortMiddle checks what the tiled machine needs of the other
// sections; the frame's sample count and formats are checked at Run.
func (c *Config) validateSortMiddle(fail func(fields at, format string, a ...any) error) error {
	s := &c.SortMiddle
	// The tile size's rules name the dimension the file sets (the width
	// when it sets both or neither).
	size := at{"sortmiddle.tile_width", "sortmiddle.tile_height"}
	if c.lines[size[0]] == 0 && c.lines[size[1]] > 0 {
		size = at{size[1], size[0]}
	}
	switch {
	case c.Raster.Rasterizers != 1:
		return fail(at{"raster.rasterizers", "machine"}, "%d: a tile unit has one rasterizer (set sortmiddle.tile_units for more)", c.Raster.Rasterizers)
	case c.ROP.Count != 1:
		return fail(at{"rop.count", "machine"}, "%d: a tile unit has one ROP and one depth unit (set sortmiddle.tile_units for more)", c.ROP.Count)
	case c.HiZ.Mode != "off":
		return fail(at{"hiz.mode", "machine"}, "%s: the tiled machine keeps depth in its tile memory and has no HiZ units: set off", c.HiZ.Mode)
	case (s.TileWidth == 0) != (s.TileHeight == 0):
		return fail(size, "%dx%d: set both, or both 0 (the size follows the tile memory)", s.TileWidth, s.TileHeight)
	case s.TileWidth%2 != 0 || s.TileHeight%2 != 0:
		return fail(size, "%dx%d: tiles are whole quads (even sizes)", s.TileWidth, s.TileHeight)
	case s.TileBuffers > s.JobsPerUnit:
		return fail(at{"sortmiddle.tile_buffers", "sortmiddle.jobs_per_unit"}, "%d tile buffers and %d jobs per unit: a unit holding fewer tiles than buffers leaves buffers unused (raise jobs_per_unit)", s.TileBuffers, s.JobsPerUnit)
	case s.Binner.ChunkBytes%8 != 0 || 64%s.Binner.ChunkBytes != 0 && s.Binner.ChunkBytes%64 != 0:
		return fail(at{"sortmiddle.binner.chunk_bytes"}, "%d: whole 8-byte entries, and a multiple or a divisor of the 64-byte write", s.Binner.ChunkBytes)
	}
	return nil
}

// binnerConfig returns the binner's configuration.
func (c *Config) binnerConfig() binner.Config {
	b := c.SortMiddle.Binner
	return binner.Config{EntriesPerCycle: b.EntriesPerCycle, ChunkBytes: b.ChunkBytes, LineBytes: 64,
		MaxOutstandingMemory: b.MaxOutstandingMemory, InputQueue: b.InputQueue}
}

// schedulerConfig returns the tile scheduler's configuration.
func (c *Config) schedulerConfig() tilescheduler.Config {
	o, _ := tilescheduler.ParseOrder(c.SortMiddle.TileOrder) // validated
	return tilescheduler.Config{TileUnits: c.SortMiddle.TileUnits, JobsPerUnit: c.SortMiddle.JobsPerUnit, Order: o}
}

// tileUnitConfig returns tile unit k's configuration.
func (c *Config) tileUnitConfig(k int) tileunit.Config {
	t := c.SortMiddle.TileUnit
	return tileunit.Config{Index: k, StoreResolved: c.SortMiddle.Store == "resolved", LineBytes: c.AccessBytes(),
		PrimitivesPerCycle: t.PrimitivesPerCycle, MaxOutstandingMemory: t.MaxOutstandingMemory,
		MemoryLatency: t.MemoryLatency, MemoryBytesPerCycle: t.MemoryBytesPerCycle,
		MemoryBytes: c.SortMiddle.TileMemoryKB * 1024 / c.SortMiddle.TileBuffers, InputQueue: t.InputQueue,
		TileBuffers: c.SortMiddle.TileBuffers}
}
