package configs

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/gfxsim/gfxsim/components/commandprocessor"
	"github.com/gfxsim/gfxsim/components/memory"
)

// Validate checks every field's range and the rules that tie fields together.
func (c *Config) Validate() error {
	f := c.file
	if f == "" {
		f = DefaultName
	}
	return c.validate(f)
}

func (c *Config) validate(file string) error {
	if err := c.checkRanges(file, reflect.ValueOf(c).Elem(), ""); err != nil {
		return err
	}
	fail := func(fields at, format string, a ...any) error {
		return &Error{File: file, Line: c.lineNear(fields...), Field: fields[0], Msg: fmt.Sprintf(format, a...)}
	}
	// A sage or sortmiddle section changes only the machine that its file
	// names: a file that names none runs the default machine, where the
	// section would silently do nothing. (A resolved config.yaml holds every
	// section, but also its machine, so it still loads.)
	if c.lines["machine"] == 0 && c.Machine == "sortlast" {
		for _, m := range []string{"sage", "sortmiddle"} {
			if l := c.lineOf(m); l > 0 {
				return &Error{File: file, Line: l, Field: m, Msg: fmt.Sprintf("this section configures the %s machine, but the file names no machine and runs the default sortlast one: add machine: %s", m, m)}
			}
		}
	}
	// A file that names its machine may hold another machine's section (a
	// resolved config.yaml holds every section), but only as the default
	// machine has it: a changed one would silently do nothing.
	if c.lines["machine"] > 0 {
		def := defaultDecoded()
		for _, s := range []struct {
			name      string
			unchanged bool
		}{{"sage", reflect.DeepEqual(c.Sage, def.Sage)}, {"sortmiddle", reflect.DeepEqual(c.SortMiddle, def.SortMiddle)}} {
			if l := c.lineOf(s.name); l > 0 && c.Machine != s.name && !s.unchanged {
				return &Error{File: file, Line: l, Field: s.name, Msg: fmt.Sprintf("this section configures the %s machine, but the file runs machine %s, where it would change nothing: remove it, or set machine: %s", s.name, c.Machine, s.name)}
			}
		}
	}
	if c.Memory.Check && c.MemoryConfig().Type != memory.TypeDRAMCtl {
		return fail(at{"memory.check", "memory.type"}, "true, but memory type %s issues no DRAM commands to check (the protocol checker replays dramctl's)", c.Memory.Type)
	}
	if field, owner := c.otherMemoryTypeField(); field != "" {
		return fail(at{"memory." + field}, "this field configures memory type %s, but memory.type is %s, where it would change nothing: "+
			"remove it, or set memory.type: %s", owner, c.Memory.Type, owner)
	}
	sc := &c.ShaderCore
	// The sort-last back end (depth units, quad packer, reorder buffer, ROPs;
	// the tiled machine's tile units have one of each): SAGE's pipes have
	// none, so its rules do not refuse a SAGE machine (a 4-lane warp with
	// the inherited 8-quad warps of the quad packer).
	backEnd := c.Machine != "sage"
	switch {
	case c.EngineWorkers > 0 && c.Engine != "parallel":
		return fail(at{"engine_workers", "engine"}, "%d workers: they run the parallel engine's rounds; the %s engine has none (set engine: parallel, or engine_workers: 0)", c.EngineWorkers, c.Engine)
	case sc.SIMDWidth > sc.WarpSize || sc.WarpSize%sc.SIMDWidth != 0:
		return fail(at{"shader_core.simd_width", "shader_core.warp_size"}, "%d does not divide the warp size %d", sc.SIMDWidth, sc.WarpSize)
	case sc.SFURate > sc.WarpSize:
		return fail(at{"shader_core.sfu_rate", "shader_core.warp_size"}, "%d lanes per cycle is more than the warp size %d", sc.SFURate, sc.WarpSize)
	case backEnd && c.ROP.Cost == "by_samples" && c.ROP.SamplesPerCycle < 1:
		return fail(at{"rop.samples_per_cycle", "rop.cost"}, "%d: the by_samples cost model blends samples_per_cycle samples per cycle; set it to at least 1", c.ROP.SamplesPerCycle)
	case sc.WarpSize%4 != 0:
		return fail(at{"shader_core.warp_size"}, "%d is not a multiple of 4 (pixel warps are made of 2x2 quads)", sc.WarpSize)
	case c.InputAssembler.BatchVertices > sc.WarpSize:
		return fail(at{"input_assembler.batch_vertices", "shader_core.warp_size"}, "%d vertices do not fit a warp of %d lanes", c.InputAssembler.BatchVertices, sc.WarpSize)
	case backEnd && 4*c.QuadPacker.QuadsPerWarp > sc.WarpSize:
		return fail(at{"quad_packer.quads_per_warp", "shader_core.warp_size"}, "%d quads need %d lanes, the warp has %d", c.QuadPacker.QuadsPerWarp, 4*c.QuadPacker.QuadsPerWarp, sc.WarpSize)
	case backEnd && c.ReorderBuffer.Entries < c.QuadPacker.QuadsPerWarp:
		return fail(at{"reorder_buffer.entries", "quad_packer.quads_per_warp"}, "%d entries cannot hold one warp of %d quads", c.ReorderBuffer.Entries, c.QuadPacker.QuadsPerWarp)
	case backEnd && c.ROP.PrefetchDistance > 0 && c.ROP.PrefetchReserve >= c.ROP.MaxOutstandingMemory:
		return fail(at{"rop.prefetch_reserve", "rop.max_outstanding_memory"}, "%d slots leave none of the %d for prefetches: make it smaller (or prefetch_distance 0)", c.ROP.PrefetchReserve, c.ROP.MaxOutstandingMemory)
	case backEnd && c.ROP.TileSize < c.Raster.TileSize:
		return fail(at{"rop.tile_size", "raster.tile_size"}, "%d pixels is smaller than the raster tile (%d)", c.ROP.TileSize, c.Raster.TileSize)
	case sc.Registers < sc.WarpSize:
		return fail(at{"shader_core.registers", "shader_core.warp_size"}, "%d registers cannot hold one register per lane of a %d-lane warp", sc.Registers, sc.WarpSize)
	case sc.Count%c.TextureSampler.CoresPerSampler != 0:
		return fail(at{"texture_sampler.cores_per_sampler", "shader_core.count"}, "%d does not divide the %d shader cores", c.TextureSampler.CoresPerSampler, sc.Count)
	case c.TextureSampler.L1.LineBytes < 16:
		return fail(at{"texture_sampler.l1.line_bytes"}, "%d bytes: a line must hold the widest decoded texel (16 bytes)", c.TextureSampler.L1.LineBytes)
	}
	// Compression moves whole memory access units: a line smaller than one can
	// never shrink (lines of one access unit do not compress either, but are
	// accepted: compression then simply never applies, as at one sample).
	if ab := c.AccessBytes(); backEnd && c.ROP.Compression && c.ROP.Cache.LineBytes < ab {
		return fail(at{"rop.compression", "rop.cache.line_bytes", "memory"}, "on with %d-byte colour lines, smaller than the %d-byte memory access unit: turn it off (it applies only to lines of %d bytes or more)",
			c.ROP.Cache.LineBytes, ab, 2*ab)
	} else if backEnd && c.DepthUnit.Compression && c.DepthUnit.Cache.LineBytes < ab {
		return fail(at{"depth_unit.compression", "depth_unit.cache.line_bytes", "memory"}, "on with %d-byte depth lines, smaller than the %d-byte memory access unit: turn it off (it applies only to lines of %d bytes or more)",
			c.DepthUnit.Cache.LineBytes, ab, 2*ab)
	}
	if err := c.validateHiZ(fail); err != nil {
		return err
	}
	if c.Machine == "sage" {
		if err := c.validateSage(fail); err != nil {
			return err
		}
	}
	if c.Machine == "sortmiddle" {
		if err := c.validateSortMiddle(fail); err != nil {
			return err
		}
	}
	// Render-target caches take any power-of-two line from 4 bytes (one RGBA8 or
	// depth sample; a wider sample spans lines); the others hold at least 16.
	for _, cc := range []struct {
		field   string
		cache   Cache
		minLine int
		used    bool
	}{
		{"input_assembler.index_cache", c.InputAssembler.IndexCache, 16, true},
		{"input_assembler.vertex_cache", c.InputAssembler.VertexCache, 16, true},
		{"depth_unit.cache", c.DepthUnit.Cache, 4, backEnd},
		{"texture_sampler.l1", c.TextureSampler.L1, 16, true},
		{"rop.cache", c.ROP.Cache, 4, backEnd},
	} {
		if !cc.used {
			continue
		}
		if cc.cache.LineBytes < cc.minLine {
			return fail(at{cc.field + ".line_bytes"}, "%d bytes: lines of this cache must be at least %d bytes (4-byte lines are for the ROP colour and depth caches)",
				cc.cache.LineBytes, cc.minLine)
		}
		if err := cc.cache.check(); err != nil {
			return fail(at{cc.field + ".size_kb", cc.field + ".ways", cc.field + ".line_bytes"}, "%v", err)
		}
	}
	if err := c.validateBuilt(fail); err != nil {
		return err
	}
	// The host interface's DMA and the input assembler's, depth, HiZ and
	// colour caches send their requests straight to the memory, where each
	// must lie in one channel's interleave granule (the L2's lines are checked
	// by the memory's own configuration).
	for _, r := range []struct {
		field string
		bytes int
		used  bool
	}{
		{"command_processor.dma_chunk_bytes", c.CommandProcessor.DMAChunkBytes, true},
		{"input_assembler.index_cache.line_bytes", c.InputAssembler.IndexCache.LineBytes, true},
		{"input_assembler.vertex_cache.line_bytes", c.InputAssembler.VertexCache.LineBytes, true},
		{"depth_unit.cache.line_bytes", c.DepthUnit.Cache.LineBytes, backEnd},
		{"hiz.cache.line_bytes", c.HiZ.Cache.LineBytes, backEnd},
		{"rop.cache.line_bytes", c.ROP.Cache.LineBytes, backEnd},
	} {
		if r.used && r.bytes > c.Memory.InterleaveBytes {
			return fail(at{r.field, "memory.interleave_bytes"}, "%d bytes is more than memory.interleave_bytes (%d): a request to memory must lie in one channel's interleave granule",
				r.bytes, c.Memory.InterleaveBytes)
		}
	}
	if bank := c.L2.BankSizeKB * 1024; bank%(c.L2.Ways*c.L2.LineBytes) != 0 || !pow2(bank/(c.L2.Ways*c.L2.LineBytes)) {
		return fail(at{"l2.bank_size_kb", "l2.ways", "l2.line_bytes"}, "%d KB is not a power-of-two number of sets of %d ways x %d bytes", c.L2.BankSizeKB, c.L2.Ways, c.L2.LineBytes)
	}
	return nil
}

// at lists the fields an error is about: the first is the one it names, the
// others the fields it depends on, in the order their line is preferred.
type at []string

// lineOf returns the line of the first of fields set in the file: a field
// path, or a section ("memory") for the first line set in it. A rule that ties
// two fields together is reported at the one the file set when the named field
// kept its default (0: none of them is in the file).
func (c *Config) lineOf(fields ...string) int {
	for _, f := range fields {
		if l := c.lines[f]; l > 0 {
			return l
		}
		first := 0
		for k, l := range c.lines {
			if strings.HasPrefix(k, f+".") && (first == 0 || l < first) {
				first = l
			}
		}
		if first > 0 {
			return first
		}
	}
	return 0
}

// lineNear is lineOf, or when the file sets none of the fields, the line of
// the nearest enclosing section it sets of the first (a rule broken by a
// default value that another field of the file brings into play, such as
// sage.convolve.table's 256 entries once filter: table is set, is still
// reported where the file touches it).
func (c *Config) lineNear(fields ...string) int {
	if l := c.lineOf(fields...); l > 0 {
		return l
	}
	for f := fields[0]; strings.Contains(f, "."); {
		f = f[:strings.LastIndex(f, ".")]
		if l := c.lineOf(f); l > 0 {
			return l
		}
	}
	return 0
}

// validateBuilt applies the rules that the builders of the command processor,
// the memory and the L2 check, so that a value they refuse is reported at its
// field before anything is built.
func (c *Config) validateBuilt(fail func(fields at, format string, a ...any) error) error {
	cp := c.CommandProcessor
	if cp.DMAChunkBytes*cp.MaxOutstandingDMA < commandprocessor.MaxCommandBytes {
		return fail(at{"command_processor.max_outstanding_dma", "command_processor.dma_chunk_bytes"},
			"%d chunks of %d bytes (dma_chunk_bytes) cannot hold the largest command (%d bytes)",
			cp.MaxOutstandingDMA, cp.DMAChunkBytes, commandprocessor.MaxCommandBytes)
	}
	mc := c.MemoryConfig()
	if m := c.Memory; mc.Type == memory.TypeDRAMCtl && m.WriteLow >= m.WriteHigh && m.WriteHigh > 0 && c.lines["memory.write_low"] == 0 && c.lines["memory.write_high"] > 0 {
		// The file lowered the high watermark alone, to or below the
		// default machine's low one: name the field it set.
		return fail(at{"memory.write_high"}, "%d is not above the low watermark write_low %d (the default machine's): set write_low below it too",
			m.WriteHigh, m.WriteLow)
	}
	err := mc.Validate()
	if err == nil {
		err = c.L2Config().Validate(mc)
	}
	var fe *memory.FieldError
	if errors.As(err, &fe) {
		msg := memoryNames.Replace(fe.Msg)
		if f, ok := memoryFields[fe.Field]; ok {
			return fail(append(f, "memory", "l2"), "%s", msg)
		}
		return fail(at{"memory", "l2"}, "%s: %s", fe.Field, msg)
	} else if err != nil {
		return fail(at{"memory"}, "%v", err)
	}
	return nil
}

// memoryFields maps the fields of memory.Config and memory.L2Config to the
// configuration fields they come from.
var memoryFields = map[string]at{
	"Type":                  {"memory.type"},
	"NumChannels":           {"memory.channels"},
	"InterleaveBytes":       {"memory.interleave_bytes"},
	"Freq":                  {"clocks.memory_mhz"},
	"Ideal.Latency":         {"memory.ideal_latency"},
	"Ideal.Width":           {"memory.ideal_width"},
	"Ideal.BytesPerCycle":   {"memory.ideal_bytes_per_cycle"},
	"Ideal.MaxOutstanding":  {"memory.ideal_max_outstanding"},
	"DRAM.Protocol":         {"memory.protocol"},
	"DRAM.BusWidth":         {"memory.bus_width"},
	"DRAM.BurstLength":      {"memory.burst_length", "memory.protocol"},
	"DRAM.Ranks":            {"memory.ranks"},
	"DRAM.BankGroups":       {"memory.bank_groups"},
	"DRAM.Banks":            {"memory.banks", "memory.ranks", "memory.bank_groups"},
	"DRAM.CommandQueue":     {"memory.command_queue"},
	"DRAM.TransactionQueue": {"memory.transaction_queue", "memory.interleave_bytes", "memory.bus_width", "memory.burst_length"},
	"L2.LineBytes":          {"l2.line_bytes", "memory.interleave_bytes"},
	"L2.Ways":               {"l2.ways"},
	"L2.SizeBytes":          {"l2.bank_size_kb", "l2.ways", "l2.line_bytes"},
	"L2.MSHRs":              {"l2.mshrs"},
	"L2.DirectoryLatency":   {"l2.directory_latency"},
	"L2.BankLatency":        {"l2.bank_latency"},
	"L2.Freq":               {"clocks.core_mhz"},
}

// memoryNames writes the memory package's Go names in its messages as the
// configuration's fields ("a burst of 128 bytes (bus_width/8*burst_length)
// exceeds interleave_bytes 64"); BankGroups before Banks, the longer first.
var memoryNames = strings.NewReplacer("InterleaveBytes", "interleave_bytes", "NumChannels", "channels",
	"BusWidth", "bus_width", "BurstLength", "burst_length", "BankGroups", "bank_groups", "Banks", "banks",
	"Ranks", "ranks", "Columns", "columns", "Rows", "rows", "LineBytes", "line_bytes", "Ways", "ways")

func init() {
	// dramctl's fields, at their YAML names in the memory section.
	for field, yml := range map[string]string{
		"Preset": "preset", "Mapping": "mapping", "PagePolicy": "page_policy", "PageTimeout": "page_timeout",
		"Scheduler": "scheduler", "StarvationCap": "starvation_cap", "ReadQueue": "read_queue",
		"WriteQueue": "write_queue", "WriteHigh": "write_high", "WriteLow": "write_low",
	} {
		memoryFields["DRAMCtl."+field] = at{"memory." + yml}
	}
	memoryFields["DRAMCtl.ReadQueue"] = at{"memory.read_queue", "memory.interleave_bytes"}
	memoryFields["DRAMCtl.WriteQueue"] = at{"memory.write_queue", "memory.interleave_bytes"}
	memoryFields["DRAMCtl.WriteLow"] = at{"memory.write_low", "memory.write_high"}
	memoryFields["DRAMCtl.PageTimeout"] = at{"memory.page_timeout", "memory.page_policy"}
	memoryFields["DRAMCtl.Mapping"] = at{"memory.mapping", "memory.geometry", "memory.preset"}
	t := reflect.TypeOf(DRAMTiming{})
	for i := 0; i < t.NumField(); i++ {
		memoryFields["DRAMCtl.Timing."+t.Field(i).Name] = at{"memory.timing." + t.Field(i).Tag.Get("yaml"), "memory.timing", "memory.preset"}
	}
	g := reflect.TypeOf(DRAMGeometry{})
	for i := 0; i < g.NumField(); i++ {
		memoryFields["DRAMCtl.Geometry."+g.Field(i).Name] = at{"memory.geometry." + g.Field(i).Tag.Get("yaml"), "memory.geometry", "memory.preset"}
	}
	memoryFields["DRAMCtl.Geometry.BusWidth"] = at{"memory.geometry.bus_width", "memory.geometry", "memory.interleave_bytes", "memory.preset"}
}

func pow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func (cc Cache) check() error {
	size := cc.SizeKB * 1024
	if size%(cc.Ways*cc.LineBytes) != 0 || !pow2(size/(cc.Ways*cc.LineBytes)) {
		return fmt.Errorf("%d KB is not a power-of-two number of sets of %d ways x %d-byte lines", cc.SizeKB, cc.Ways, cc.LineBytes)
	}
	return nil
}

// checkRanges re-applies the field tags (for configurations built in code).
func (c *Config) checkRanges(file string, v reflect.Value, path string) error {
	return eachField(v, path, func(fp string, f reflect.StructField, fv reflect.Value) error {
		return checkField(f, fv, func(format string, a ...any) error {
			return &Error{File: file, Line: c.lines[fp], Field: fp, Msg: fmt.Sprintf(format, a...)}
		})
	})
}

// memoryOwners names the memory type each type-specific field of the memory
// section configures; the dramctl fields are those whose description
// starts "dramctl:".
var memoryOwners = map[string]string{
	"protocol": memory.TypeDRAM, "bus_width": memory.TypeDRAM, "burst_length": memory.TypeDRAM, "ranks": memory.TypeDRAM,
	"bank_groups": memory.TypeDRAM, "banks": memory.TypeDRAM, "command_queue": memory.TypeDRAM, "transaction_queue": memory.TypeDRAM,
	"ideal_latency": memory.TypeIdeal, "ideal_width": memory.TypeIdeal, "ideal_access_bytes": memory.TypeIdeal,
	"ideal_bytes_per_cycle": memory.TypeIdeal, "ideal_max_outstanding": memory.TypeIdeal,
}

// otherMemoryTypeField returns the first field of the memory section that
// the file sets for a memory type other than memory.type, with a value other
// than the default machine's (a resolved config.yaml holds every field, the
// others' as the default has them), and the type it configures; "" when
// there is none.
func (c *Config) otherMemoryTypeField() (field, owner string) {
	def := reflect.ValueOf(defaultDecoded().Memory)
	v, t := reflect.ValueOf(c.Memory), reflect.TypeOf(c.Memory)
	first := 0
	for i := range t.NumField() {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("yaml"), ",")[0]
		o := memoryOwners[name]
		if strings.HasPrefix(f.Tag.Get("desc"), "dramctl:") {
			o = memory.TypeDRAMCtl
		}
		l := c.lineOf("memory." + name)
		if o == "" || o == c.Memory.Type || l == 0 || reflect.DeepEqual(v.Field(i).Interface(), def.Field(i).Interface()) {
			continue
		}
		if first == 0 || l < first {
			first, field, owner = l, name, o
		}
	}
	return field, owner
}
