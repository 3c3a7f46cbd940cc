package configs

import (
	"fmt"
	"strings"

	"github.com/gfxsim/gfxsim/internal/inputs"
)

// Memory costs of a built machine, measured with runtime.MemStats after
// Build (configs/README.md, "Memory").
const (
	runBaselineBytes  = 256 << 20 // Akita engine, components, buses and queues of a run
	tagLineBytes      = 24        // a line of a timing.TagArray (tag, LRU stamp, flags), rounded up
	l2LineBytes       = 128       // a block of Akita's write-back cache directory
	reorderEntryBytes = 160       // a reorder-buffer quad entry
	visRecordBytes    = 96        // a reorder-buffer entry's visibility record (shading-cache mode), before its samples
	shadingEntryBytes = 192       // a shading-cache entry: tag, state, references, LRU, four lanes' outputs
	warpSlotBytes     = 40 << 10  // a shader core warp slot (registers and lanes of the widest warp)
	// binnedPrimBytes is what the tiled machine holds per primitive of a
	// pass until its tiles are rendered: the primitive set up (a
	// pipeline.Primitive, 4.7 KB with its 16 outputs' attributes), its share
	// of the slices that grow by appends, and its bin entries. Sibenik at
	// 320x180 peaks 480 MiB above sort-last for 69,106 binned primitives.
	binnedPrimBytes = 7 << 10
)

// PassBytes estimates the host memory that a frame of the given triangles
// holds on top of the machine's estimate and the frame's image: on the tiled
// machine every binned primitive of a pass (binnedPrimBytes each; triangles
// a geometry shader makes are not counted), nothing elsewhere (the other
// machines stream their primitives).
func (c *Config) PassBytes(triangles int) int64 {
	if c.Machine != "sortmiddle" {
		return 0
	}
	return binnedPrimBytes * int64(triangles)
}

// MemoryItem is one part of a machine's memory estimate.
type MemoryItem struct {
	Field string // the configuration fields it comes from
	Bytes int64
}

// MemoryEstimate returns what building and running the machine takes in host
// memory, by the fields that cost it: the caches' tag stores and the L2
// directories (per line, times the units that have one), the reorder buffer's
// entries, the shader cores' warp slots, and a fixed baseline for the engine
// and everything else. On SAGE every pipe has its own input assembler, shader
// cores, samplers and texture memory with its L2, and there is no depth unit,
// HiZ, ROP or reorder buffer; a video output of its own size (sage.video)
// is held twice, the machine's and the reference's. The frame itself (targets, textures, buffers) is
// the scene's (scene.Scene.FrameBytes), held MemoryImageCopies times more by a
// timed machine.
func (c *Config) MemoryEstimate() []MemoryItem {
	lines := func(cc Cache) int64 { return int64(cc.SizeKB) * 1024 / int64(max(1, cc.LineBytes)) }
	samplers := int64(c.ShaderCore.Count / max(1, c.TextureSampler.CoresPerSampler))
	l2 := l2LineBytes * int64(c.L2.BankSizeKB) * 1024 / int64(max(1, c.L2.LineBytes)) * int64(c.Memory.Channels)
	iaCaches := tagLineBytes * (lines(c.InputAssembler.IndexCache) + lines(c.InputAssembler.VertexCache))
	warps := warpSlotBytes * int64(c.ShaderCore.WarpSlots) * int64(c.ShaderCore.Count)
	if c.Machine == "sage" {
		pipes := int64(c.Sage.Pipes)
		return []MemoryItem{
			{"baseline (engine, components, buses)", runBaselineBytes},
			{"input_assembler.index_cache, vertex_cache x sage.pipes", iaCaches * pipes},
			{"texture_sampler.l1 x samplers x sage.pipes", tagLineBytes * lines(c.TextureSampler.L1) * samplers * pipes},
			{"l2.bank_size_kb x memory.channels x sage.pipes", l2 * pipes},
			{"shader_core.warp_slots x count x sage.pipes", warps * pipes},
			{"sage.video.width x height (the video output, and the reference's)", 8 * int64(c.Sage.Video.Width) * int64(c.Sage.Video.Height)},
		}
	}
	rops, ropField := int64(c.ROP.Count), " x rop.count"
	robs, robField := int64(1), ""
	if c.Machine == "sortmiddle" {
		// Each tile unit has a depth unit, a ROP and a reorder buffer.
		rops, robs, ropField = int64(c.SortMiddle.TileUnits), int64(c.SortMiddle.TileUnits), " x sortmiddle.tile_units"
		robField = ropField
	}
	return []MemoryItem{
		{"baseline (engine, components, buses)", runBaselineBytes},
		{"input_assembler.index_cache, vertex_cache", iaCaches},
		{"depth_unit.cache" + ropField, tagLineBytes * lines(c.DepthUnit.Cache) * rops},
		{"hiz.cache" + ropField, tagLineBytes * lines(c.HiZ.Cache) * rops},
		{"rop.cache" + ropField, tagLineBytes * lines(c.ROP.Cache) * rops},
		{"texture_sampler.l1 x samplers", tagLineBytes * lines(c.TextureSampler.L1) * samplers},
		{"l2.bank_size_kb x memory.channels", l2},
		{"reorder_buffer.entries" + robField, (reorderEntryBytes + visRecordBytes) * int64(c.ReorderBuffer.Entries) * robs},
		{"reorder_buffer.shading_cache_entries" + robField, shadingEntryBytes * int64(c.ReorderBuffer.ShadingCacheEntries) * robs},
		{"shader_core.warp_slots x count", warps},
	}
}

// MemoryImageCopies returns how many copies of the driver's memory image a
// timed run of the machine loads beside the driver's own: one into the GPU's
// memory, and on SAGE one more into every pipe's texture memory (a texture
// upload to each rasterize chip).
func (c *Config) MemoryImageCopies() int {
	if c.Machine == "sage" {
		return 1 + c.Sage.Pipes
	}
	return 1
}

// MemoryBytes is the total of MemoryEstimate.
func (c *Config) MemoryBytes() int64 {
	var n int64
	for _, it := range c.MemoryEstimate() {
		n += it.Bytes
	}
	return n
}

// ReserveMemory reserves the machine's memory estimate in budget b, or
// returns an error that gives the estimate and its three largest parts.
func (c *Config) ReserveMemory(b *inputs.Budget) error {
	items := c.MemoryEstimate()
	if err := b.Reserve("machine "+c.Name, c.MemoryBytes()); err != nil {
		for i := range items {
			for j := i + 1; j < len(items); j++ {
				if items[j].Bytes > items[i].Bytes {
					items[i], items[j] = items[j], items[i]
				}
			}
		}
		var parts []string
		for _, it := range items[:3] {
			parts = append(parts, fmt.Sprintf("%s %s", it.Field, inputs.Bytes(it.Bytes)))
		}
		f := c.file
		if f == "" {
			f = DefaultName
		}
		return fmt.Errorf("%s: %v; largest: %s (see configs/README.md, Memory)", f, err, strings.Join(parts, ", "))
	}
	return nil
}
