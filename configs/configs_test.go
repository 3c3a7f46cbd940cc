package configs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

var update = flag.Bool("update", false, "rewrite configs/README.md's field table")

func TestDefaultIsValidAndDocumented(t *testing.T) {
	c := Default()
	if c.Name != "sortlast" || c.ShaderCore.Count != 8 || c.Memory.Type != "dramctl" || c.Memory.Channels != 16 {
		t.Fatalf("default machine: %+v", c)
	}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		tt := v.Type()
		for i := 0; i < tt.NumField(); i++ {
			f := tt.Field(i)
			if f.Tag.Get("yaml") == "" {
				continue
			}
			if f.Tag.Get("desc") == "" {
				t.Errorf("%s.%s has no description", path, f.Name)
			}
			if v.Field(i).Kind() == reflect.Struct {
				walk(v.Field(i), path+"."+f.Name)
			}
		}
	}
	walk(reflect.ValueOf(c).Elem(), "Config")
	// The resolved YAML decodes back to the same configuration.
	again, err := Parse("resolved.yaml", c.YAML())
	if err != nil {
		t.Fatal(err)
	}
	again.lines, again.file, c.lines, c.file = nil, "", nil, ""
	if !reflect.DeepEqual(again, c) {
		t.Fatal("resolved YAML does not round-trip")
	}
	// Its closing comment gives the values the GDDR6 preset filled in (the
	// fields say 0), from Micron's MT61K256M32JE-14 as presets.go cites.
	want := "# memory: the GDDR6 preset fills geometry's and timing's zero fields; the channels ran with\n" +
		"#   geometry: {bus_width: 16, burst_length: 16, data_rate: 8, ranks: 1, bank_groups: 4, banks: 4, rows: 16384, columns: 64}\n" +
		"#   timing: {tck_ps: 571, cl: 24, cwl: 6, rcd: 26, rcdwr: 16, rp: 26, ras: 53, rc: 79, ccd_s: 2, ccd_l: 3, rrd_s: 7, rrd_l: 7, faw: 28, " +
		"wtr_s: 9, wtr_l: 11, rtp: 4, wr: 26, refi: 3333, rfc: 210, rtw: 2, rtrs: 1}\n"
	if y := string(c.YAML()); !strings.HasSuffix(y, want) {
		t.Errorf("resolved YAML ends\n%s\nwant\n%s", y[max(0, len(y)-len(want)):], want)
	}
}

func TestOverlay(t *testing.T) {
	c, err := Parse("small.yaml", []byte("shader_core: {count: 1}\nraster:\n  rasterizers: 4\nmemory: {type: ideal}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ShaderCore.Count != 1 || c.Raster.Rasterizers != 4 || c.Memory.Type != "ideal" {
		t.Fatalf("overlay not applied: %+v", c)
	}
	if c.ShaderCore.WarpSize != 32 || c.Raster.TileSize != 8 {
		t.Fatal("fields not in the file lost their defaults")
	}
	if _, err := Parse("empty.yaml", nil); err != nil {
		t.Fatalf("empty file: %v", err)
	}
}

// parseError is a configuration file's text and the one error Parse must
// report for it (file, line, field, message).
type parseError struct{ name, src, want string }

// wantParseErrors parses each case as m.yaml and wants exactly its error.
func wantParseErrors(t *testing.T, tests []parseError) {
	t.Helper()
	for _, tc := range tests {
		_, err := Parse("m.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got  %v\n want %s", tc.name, err, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []parseError{
		{"unknown top key", "shader_cores: {count: 2}\n", "m.yaml:1: shader_cores: unknown field; did you mean \"shader_core\"? (want one of buses, clocks, command_processor, decoupled, depth_unit, engine, engine_workers, hiz, input_assembler, l2, machine, memory, multipass, name, primitive_assembly, quad_packer, raster, reorder_buffer, rop, sage, shader_core, sortmiddle, texture_sampler, watchdog_cycles)"},
		{"unknown nested key", "raster:\n  tile: 8\n", "m.yaml:2: raster.tile: unknown field (want one of input_queue, output_queue, quad_order, quads_per_cycle, rasterizers, sample_tests_per_cycle, stride, tile_order, tile_size, tiles_per_cycle)"},
		{"wrong type", "shader_core:\n  count: many\n", `m.yaml:2: shader_core.count: want an integer, got "many"`},
		{"float for int", "shader_core: {count: 2.5}\n", `m.yaml:1: shader_core.count: want an integer, got "2.5"`},
		{"number beyond 64 bits", "clocks: {core_mhz: 1e400}\n", `m.yaml:1: clocks.core_mhz: want a finite number, got "1e400"`},
		{"integer beyond 64 bits", "shader_core: {count: 99999999999999999999}\n", `m.yaml:1: shader_core.count: integer "99999999999999999999" out of range`},
		{"mapping expected", "raster: 4\n", `m.yaml:1: raster: want a mapping, got "4"`},
		{"scalar expected", "raster: {rasterizers: [1, 2]}\n", "m.yaml:1: raster.rasterizers: want an integer, got a list"},
		{"negative", "shader_core: {count: -1}\n", "m.yaml:1: shader_core.count: -1 out of range [1, 256]"},
		// SAGE's pipes have no sort-last back end: its sections changed nothing.
		{"ROPs on SAGE", "machine: sage\nrop: {count: 8}\n",
			"m.yaml:2: rop: the SAGE machine has no ROPs: its pipes write samples to the 3DRAM interleaves (sage.sample_buffer), so this section would change nothing: remove it"},
		{"reorder buffer on SAGE", "machine: sage\nreorder_buffer:\n  entries: 64\n",
			"m.yaml:3: reorder_buffer: the SAGE machine has no reorder buffer: its pipes write samples to the 3DRAM interleaves (sage.sample_buffer), so this section would change nothing: remove it"},
		// A field of another memory type than memory.type changed nothing.
		{"dramctl timing on Akita's DRAM", "memory:\n  type: dram\n  timing: {cl: 200}\n",
			"m.yaml:3: memory.timing: this field configures memory type dramctl, but memory.type is dram, where it would change nothing: remove it, or set memory.type: dramctl"},
		{"Akita protocol on dramctl", "memory: {protocol: DDR3, bus_width: 8}\n",
			"m.yaml:1: memory.protocol: this field configures memory type dram, but memory.type is dramctl, where it would change nothing: remove it, or set memory.type: dram"},
		{"ideal latency on dramctl", "memory:\n  preset: HBM2\n  ideal_latency: 7\n",
			"m.yaml:3: memory.ideal_latency: this field configures memory type ideal, but memory.type is dramctl, where it would change nothing: remove it, or set memory.type: ideal"},
		{"octal integer", "raster: {rasterizers: 010}\n", "m.yaml:1: raster.rasterizers: 010 has a leading zero, which YAML reads as an octal number: write it without the zero"},
		// 0 was taken as "the default" (10 cycles): slower than 1.
		{"zero bank latency", "l2: {bank_latency: 0}\n", "m.yaml:1: l2.bank_latency: 0 out of range [1, 1000] cycles"},
		{"zero l1 latency", "texture_sampler: {l1_latency: 0}\n", "m.yaml:1: texture_sampler.l1_latency: 0 out of range [1, 1000] cycles"},
		{"shading cache too small to hold one sample's taps", "reorder_buffer:\n  shading_cache_entries: 3\n",
			"m.yaml:2: reorder_buffer.shading_cache_entries: 3 out of range [4, 1048576]"},
		{"zero pattern seed", "decoupled: {pattern_seed: 0}\n", "m.yaml:1: decoupled.pattern_seed: 0 out of range [1, 2147483647]"},
		{"zero latency link width", "buses:\n  tile: {width: 0}\n", "m.yaml:2: buses.tile.width: 0 out of range [1, 65536] bytes/cycle"},
		{"not pow2", "raster: {tile_size: 12}\n", "m.yaml:1: raster.tile_size: 12 is not a power of two"},
		{"oneof, far from all", "memory: {type: flash}\n", `m.yaml:1: memory.type: "flash" is not one of dram, ideal, dramctl`},
		{"oneof", "memory: {type: sram}\n", `m.yaml:1: memory.type: "sram" is not one of dram, ideal, dramctl; did you mean "dram"?`},
		{"duplicate", "engine: serial\nengine: parallel\n", "m.yaml:2: engine: duplicate key"},
		{"sage section without machine", "raster: {rasterizers: 2}\nsage: {pipes: 2}\n",
			"m.yaml:2: sage: this section configures the sage machine, but the file names no machine and runs the default sortlast one: add machine: sage"},
		{"sortmiddle section without machine", "sortmiddle:\n  tile_units: 3\n",
			"m.yaml:2: sortmiddle: this section configures the sortmiddle machine, but the file names no machine and runs the default sortlast one: add machine: sortmiddle"},
		{"sortmiddle section on sortlast", "machine: sortlast\nsortmiddle: {tile_units: 3}\n",
			"m.yaml:2: sortmiddle: this section configures the sortmiddle machine, but the file runs machine sortlast, where it would change nothing: remove it, or set machine: sortmiddle"},
		{"sage section on sortmiddle", "machine: sortmiddle\nsage:\n  pipes: 2\n",
			"m.yaml:3: sage: this section configures the sage machine, but the file runs machine sortmiddle, where it would change nothing: remove it, or set machine: sage"},
		{"memory check off dramctl", "memory: {type: ideal, check: true}\n",
			"m.yaml:1: memory.check: true, but memory type ideal issues no DRAM commands to check (the protocol checker replays dramctl's)"},
		{"no value", "raster:\n  rasterizers:\n  stride: 2\n", "m.yaml:2: raster.rasterizers: no value: give one, or remove the line to keep the default (2)"},
		{"null value", "memory: {preset: ~}\n", `m.yaml:1: memory.preset: no value: give one, or remove the line to keep the default ("GDDR6")`},
		{"null list", "machine: sage\nsage:\n  convolve:\n    table:\n", "m.yaml:4: sage.convolve.table: no value: give one, or remove the line to keep the default ([])"},
		{"cross field", "input_assembler: {batch_vertices: 48}\n", "m.yaml:1: input_assembler.batch_vertices: 48 vertices do not fit a warp of 32 lanes"},
		{"cache geometry", "rop:\n  cache: {size_kb: 3, ways: 4, line_bytes: 64}\n", "m.yaml:2: rop.cache.size_kb: 3 KB is not a power-of-two number of sets of 4 ways x 64-byte lines"},
		{"rop line with compression", "rop:\n  cache: {size_kb: 32, ways: 4, line_bytes: 16}\n", "m.yaml:2: rop.compression: on with 16-byte colour lines, smaller than the 32-byte memory access unit: turn it off (it applies only to lines of 64 bytes or more)"},
		{"rop line with compression, Akita DRAM", "memory: {type: dram, channels: 4}\nrop:\n  cache: {size_kb: 32, ways: 4, line_bytes: 32}\n", "m.yaml:3: rop.compression: on with 32-byte colour lines, smaller than the 64-byte memory access unit: turn it off (it applies only to lines of 128 bytes or more)"},
		{"depth line with compression", "depth_unit:\n  cache: {size_kb: 32, ways: 4, line_bytes: 16}\n", "m.yaml:2: depth_unit.compression: on with 16-byte depth lines, smaller than the 32-byte memory access unit: turn it off (it applies only to lines of 64 bytes or more)"},
		{"index cache line", "input_assembler:\n  index_cache: {size_kb: 4, ways: 4, line_bytes: 8}\n", "m.yaml:2: input_assembler.index_cache.line_bytes: 8 bytes: lines of this cache must be at least 16 bytes (4-byte lines are for the ROP colour and depth caches)"},
		{"hiz cache line", "hiz:\n  mode: zmask\n  cache: {size_kb: 16, ways: 4, line_bytes: 8}\n", "m.yaml:3: hiz.cache.line_bytes: 8 bytes: HiZ cache lines must be at least 16 bytes"},
		{"line under 4", "rop:\n  compression: false\n  cache: {size_kb: 32, ways: 4, line_bytes: 2}\n", "m.yaml:3: rop.cache.line_bytes: 2 out of range [4, 4096] bytes"},
		{"prefetch reserve", "rop:\n  prefetch_distance: 4\n  prefetch_reserve: 32\n", "m.yaml:3: rop.prefetch_reserve: 32 slots leave none of the 32 for prefetches: make it smaller (or prefetch_distance 0)"},
		{"bad yaml", "raster: {rasterizers: 2\n", "m.yaml:1: yaml: did not find expected ',' or '}'"},
	}
	wantParseErrors(t, tests)
}

// TestErrorInEverySection: a representative bad value of every section is
// reported with the file, the line of the value and the field, once. Values
// that only a builder used to refuse (the command processor's prefetch, the
// DRAM geometry, the L2 line) are among them, as are rules that tie a field
// the file sets to one it leaves at its default (reported at the line set).
func TestErrorInEverySection(t *testing.T) {
	tests := []parseError{
		{"name", "name: [a]\n", "m.yaml:1: name: want a string, got a list"},
		{"engine", "engine: fast\n", `m.yaml:1: engine: "fast" is not one of serial, parallel`},
		{"engine workers", "engine_workers: -1\n", `m.yaml:1: engine_workers: -1 out of range [0, 256]`},
		{"engine workers serial", "engine_workers: 2\n", `m.yaml:1: engine_workers: 2 workers: they run the parallel engine's rounds; the serial engine has none (set engine: parallel, or engine_workers: 0)`},
		{"watchdog_cycles", "watchdog_cycles: 10\n", "m.yaml:1: watchdog_cycles: 10 out of range [1000, 2147483647] cycles"},
		{"merge key", "raster: {<<: {tile_size: 8}}\n", "m.yaml:1: raster.<<: merge keys are not supported in configuration files: write the fields out (an anchor and alias of a whole value work)"},
		{"clocks", "clocks:\n  core_mhz: 0\n", "m.yaml:2: clocks.core_mhz: 0 out of range [1, 10000] MHz"},
		{"command_processor", "command_processor:\n  dma_chunk_bytes: 64\n", "m.yaml:2: command_processor.max_outstanding_dma: 4 chunks of 64 bytes (dma_chunk_bytes) cannot hold the largest command (464 bytes)"},
		{"input_assembler", "input_assembler:\n  vertex_cache: {size_kb: 5}\n", "m.yaml:2: input_assembler.vertex_cache.size_kb: 5 KB is not a power-of-two number of sets of 4 ways x 64-byte lines"},
		{"primitive_assembly", "primitive_assembly:\n  batch_slots: 0\n", "m.yaml:2: primitive_assembly.batch_slots: 0 out of range [1, 1024]"},
		{"raster", "raster:\n  tile_order: hilbert\n", `m.yaml:2: raster.tile_order: "hilbert" is not one of rowmajor, zorder`},
		{"depth_unit", "depth_unit:\n  test_latency: 0\n", "m.yaml:2: depth_unit.test_latency: 0 out of range [1, 1000] cycles"},
		{"hiz", "hiz:\n  mode: forward\n  layers: 2\n", "m.yaml:3: hiz.layers: 2: only zmask tiles have layers"},
		{"hiz packed tile wider than the raster tile", "\nhiz:\n  packed: true\n", "m.yaml:3: hiz.tile_samples: 128 samples make 16x8-pixel tiles at 1 sample per pixel, larger than the 8-pixel raster tile: " +
			"a HiZ tile must fit a raster tile at every sample count a frame may use, 1 included (raise raster.tile_size to 16)"},
		{"quad_packer", "quad_packer:\n  quads_per_warp: 16\n", "m.yaml:2: quad_packer.quads_per_warp: 16 quads need 64 lanes, the warp has 32"},
		{"reorder_buffer", "reorder_buffer:\n  entries: 2\n", "m.yaml:2: reorder_buffer.entries: 2 entries cannot hold one warp of 8 quads"},
		{"shader_core", "shader_core:\n  warp_size: 8\n", "m.yaml:2: shader_core.simd_width: 16 does not divide the warp size 8"},
		{"texture_sampler", "texture_sampler:\n  cores_per_sampler: 3\n", "m.yaml:2: texture_sampler.cores_per_sampler: 3 does not divide the 8 shader cores"},
		{"l2", "l2:\n  line_bytes: 4096\n", "m.yaml:2: l2.line_bytes: 4096 exceeds the memory's interleave_bytes 256 (a line must belong to one channel)"},
		{"dma chunk", "command_processor: {dma_chunk_bytes: 65536}\n",
			"m.yaml:1: command_processor.dma_chunk_bytes: 65536 bytes is more than memory.interleave_bytes (256): a request to memory must lie in one channel's interleave granule"},
		{"colour line", "rop:\n  cache: {line_bytes: 4096}\n",
			"m.yaml:2: rop.cache.line_bytes: 4096 bytes is more than memory.interleave_bytes (256): a request to memory must lie in one channel's interleave granule"},
		{"small interleave", "memory: {interleave_bytes: 64}\n",
			"m.yaml:1: command_processor.dma_chunk_bytes: 256 bytes is more than memory.interleave_bytes (64): a request to memory must lie in one channel's interleave granule"},
		{"rop", "rop:\n  blend_latency: 0\n", "m.yaml:2: rop.blend_latency: 0 out of range [1, 1000] cycles"},
		{"memory", "memory:\n  type: dram\n  ranks: 3\n", "m.yaml:3: memory.ranks: 3 is not a power of two"},
		{"memory queue too short for a wider interleave", "memory:\n  interleave_bytes: 4096\n", "m.yaml:2: memory.read_queue: 32 bursts is outside [128, 65536]: a request of up to 4096 bytes needs 128 bursts of 32 bytes"},
		{"Akita memory queue too short for a wider interleave", "memory:\n  type: dram\n  interleave_bytes: 4096\n", "m.yaml:3: memory.transaction_queue: 32 is below 66 (a request within one interleave_bytes granule may need interleave_bytes/access unit + 1 access units, and Akita needs more queue entries than that)"},
		{"buses", "buses:\n  l2:\n    latency: -1\n", "m.yaml:3: buses.l2.latency: -1 out of range [0, 100000] cycles"},
		{"multipass", "multipass:\n  registers: 33\n", "m.yaml:2: multipass.registers: 33 out of range [0, 32]"},
		{"decoupled", "decoupled:\n  pattern_seed: x\n", `m.yaml:2: decoupled.pattern_seed: want an integer, got "x"`},
		{"not UTF-8", "raster:\n  tile_order: \"\xff\"\n", "m.yaml:2: yaml: invalid leading UTF-8 octet"},
		{"second document", "raster: {tile_size: 8}\n---\nraster: {tile_size: 16}\n", "m.yaml:2: yaml: a second document (after ---) would not be read: keep one document per file"},
	}
	wantParseErrors(t, tests)
}

// TestSmallRenderTargetLines: the ROP colour and depth caches take any
// power-of-two line from 4 bytes when compression is off.
func TestSmallRenderTargetLines(t *testing.T) {
	for _, lb := range []int{4, 8, 16, 32, 64, 128} {
		src := fmt.Sprintf("rop:\n  compression: false\n  cache: {size_kb: 32, ways: 4, line_bytes: %d}\n"+
			"depth_unit:\n  compression: false\n  cache: {size_kb: 32, ways: 4, line_bytes: %d}\n", lb, lb)
		c, err := Parse("m.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%d-byte lines: %v", lb, err)
		}
		if c.ROP.Cache.LineBytes != lb || c.DepthUnit.Cache.LineBytes != lb {
			t.Fatalf("%d-byte lines: parsed %d and %d", lb, c.ROP.Cache.LineBytes, c.DepthUnit.Cache.LineBytes)
		}
	}
}

func TestREADMEFieldTable(t *testing.T) {
	const begin, end = "<!-- fields begin -->\n", "<!-- fields end -->"
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md has no field table markers")
	}
	table := FieldTable()
	if s[i+len(begin):j] != table {
		if *update {
			s = s[:i+len(begin)] + table + s[j:]
			if err := os.WriteFile("README.md", []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatal("configs/README.md's field table is stale: run: go test ./configs -run README -args -update")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("shader_core: {count: 2}\n"))
	f.Add(sortlastYAML)
	f.Add([]byte("a: &x {b: *x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err != nil && len(err.Error()) > 1000 {
			t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
		}
		if err == nil {
			if err := c.Validate(); err != nil {
				t.Fatalf("Parse accepted a configuration Validate rejects: %v", err)
			}
		}
	})
}

// TestDefaultMachineErrorsNameItsFile: errors about the default machine name
// configs/sortlast.yaml, not the file of a section decoded into it (the
// sortmiddle or sage section), and so do a file's errors once a file is given.
func TestDefaultMachineErrorsNameItsFile(t *testing.T) {
	err := Default().ReserveMemory(inputs.NewBudget(1 << 10))
	want := "configs/sortlast.yaml: machine sortlast needs about "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("ReserveMemory(1 KiB) = %v, want it to start %q", err, want)
	}
	c := Default()
	c.ShaderCore.Count = 0
	if err := c.Validate(); err == nil || !strings.HasPrefix(err.Error(), "configs/sortlast.yaml") {
		t.Fatalf("Validate = %v, want it to name configs/sortlast.yaml", err)
	}
	f, err := Parse("m.yaml", []byte("shader_core: {count: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ReserveMemory(inputs.NewBudget(1 << 10)); err == nil || !strings.HasPrefix(err.Error(), "m.yaml: machine sortlast") {
		t.Fatalf("a file's ReserveMemory(1 KiB) = %v, want it to name m.yaml", err)
	}
}

// TestCheckScene: a register file that cannot hold one warp of a program the
// scene uses is refused before the run, naming shader_core.registers; every
// built-in scene fits the default machine.
func TestCheckScene(t *testing.T) {
	for _, name := range scene.BuiltinNames() {
		s, err := scene.Builtin(name, scene.WithResolution(16, 16))
		if err != nil {
			t.Fatal(err)
		}
		if err := Default().CheckScene(s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	s, err := scene.Builtin("room", scene.WithResolution(16, 16))
	if err != nil {
		t.Fatal(err)
	}
	small := machine(t, "small", "shader_core: {registers: 64}\n")
	want := `small.yaml:1: shader_core.registers: 64: material "tiles"'s program "textured.ps.gsa" needs 320 registers per warp of 32 lanes (10 temporaries each)`
	if err := small.CheckScene(s); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if _, _, err := RunScene(small, s); err == nil || err.Error() != want {
		t.Errorf("RunScene: got %v\nwant %s", err, want)
	}
	// A geometry shader warp holds up to 64 primitives whatever the warp
	// size: its registers (two warps' worth at 32 lanes) and its output
	// buffer bytes must fit. Multipass limits that leave a pixel shader no
	// partition are refused naming the limit (the driver refused the scene
	// without naming the configuration).
	for _, tc := range []struct {
		scene   string
		samples int
		yaml    string
		want    string
	}{
		{"grass", 1, "shader_core: {registers: 447}\n", `c.yaml:1: shader_core.registers: 447: material "meadow"'s program "grass.gs.gsa" needs 448 registers per geometry shader warp of 64 invocations (7 temporaries on 2 warps of 32 lanes)`},
		{"grass", 1, "shader_core: {registers: 448}\n", ""},
		{"grass", 1, "shader_core: {gs_output_buffer_kb: 11}\n", `c.yaml:1: shader_core.gs_output_buffer_kb: 11 KB: material "meadow"'s geometry shader "grass.gs.gsa" needs 12288 bytes for a warp of 64 invocations (6 vertices x 2 output registers x 16 bytes each)`},
		{"grass", 1, "shader_core: {gs_output_buffer_kb: 12}\n", ""},
		{"room", 1, "multipass: {ops: 1}\n", `c.yaml:1: multipass.ops: 1: material "tiles"'s pixel shader "textured.ps.gsa" fits no partition into passes: textured.ps.gsa:61: mul r9, r9, c16: fits in no pass on configured machine: with its operands restored it needs 3 operations (limit 1)`},
		{"room", 1, "multipass:\n  ops: 24\n  tex_units: 1\n", `c.yaml:3: multipass.tex_units: 1: material "tiles"'s pixel shader "textured.ps.gsa" fits no partition into passes: textured.ps.gsa:28: mul r3.xyz, r3, r3.w: fits in no pass on configured machine: with its operands restored it needs 2 texture units (limit 1)`},
		{"room", 1, "multipass: {ops: 24, registers: 4, tex_units: 4, interpolants: 4}\n", ""},
		// A shader that is split needs one sample per pixel; a pass of 4
		// temporaries needs 128 registers of a 32-lane warp, not the 320
		// of the whole shader.
		{"room", 4, "multipass: {ops: 24, registers: 4, tex_units: 4, interpolants: 4}\n", `c.yaml:1: multipass.ops: 24: material "tiles"'s pixel shader "textured.ps.gsa" needs 43 operations (limit 24) in one pass: it is split into passes, and multipass rendering needs 1 sample per pixel (the scene has 4)`},
		{"texmagnify", 1, "multipass: {ops: 24, registers: 4, tex_units: 4, interpolants: 4}\nshader_core: {registers: 128}\n", ""},
		{"texmagnify", 1, "multipass: {ops: 24, registers: 4, tex_units: 4, interpolants: 4}\nshader_core: {registers: 127}\n",
			`c.yaml:2: shader_core.registers: 127: material "wall"'s program "textured.ps.gsa#pass1" needs 128 registers per warp of 32 lanes (4 temporaries each)`},
		// A limit the shader fits in one pass does not split it: the
		// whole shader's registers are needed (a machine of 66 registers
		// was refused by the shader core during the run).
		{"room", 4, "multipass: {tex_depth: 3}\nshader_core: {registers: 66}\n", `c.yaml:2: shader_core.registers: 66: material "tiles"'s program "textured.ps.gsa" needs 320 registers per warp of 32 lanes (10 temporaries each)`},
		{"foliage", 1, "multipass: {ops: 6}\n", `c.yaml:1: multipass.ops: 6: material "leaf"'s pixel shader "alphatest.ps.gsa" fits no partition into passes: it cannot be split (alphatest.ps.gsa:22: kil r10.x: multipass: KIL is not supported (a pass cannot discard the fragment for the other passes)) and needs 44 operations (limit 6) in one pass`},
	} {
		s, err := scene.Builtin(tc.scene, scene.WithResolution(16, 16), scene.WithSamples(tc.samples))
		if err != nil {
			t.Fatal(err)
		}
		err = machine(t, "c", tc.yaml).CheckScene(s)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%s on %q: got %v\nwant %s", tc.scene, tc.yaml, err, tc.want)
		}
	}
	// A material that no object draws never runs: it is not checked (it
	// was refused as fitting no partition).
	unused, err := scene.Parse("u.yaml", []byte("resolution: [16, 16]\nsamples: 1\nmeshes: {tri: {procedural: {kind: triangle}}}\n"+
		"materials: {plain: {shader: unlit}, unused: {shader: depthwrite}}\nobjects: [{mesh: tri, material: plain}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := machine(t, "c", "multipass: {ops: 24}\n").CheckScene(unused); err != nil {
		t.Errorf("a scene whose unused material fits no partition: %v", err)
	}
}

// TestLoadRefusesAnEmptyFile: a configuration file that sets no field (empty,
// or only comments) is refused by name; one that names the default machine
// loads it.
func TestLoadRefusesAnEmptyFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ src, wantErr string }{
		{"", "the file sets no field (it is empty or holds only comments): write the fields to change, or machine: sortlast for the default machine"},
		{"# nothing yet\n\n", "the file sets no field (it is empty or holds only comments): write the fields to change, or machine: sortlast for the default machine"},
		{"machine: sortlast\n", ""},
	} {
		file := filepath.Join(dir, "m.yaml")
		if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(file)
		switch {
		case tc.wantErr == "" && (err != nil || c.Machine != "sortlast"):
			t.Errorf("%q: %v", tc.src, err)
		case tc.wantErr != "" && (err == nil || err.Error() != file+": "+tc.wantErr):
			t.Errorf("%q: %v\nwant %s: %s", tc.src, err, file, tc.wantErr)
		}
	}
}

// TestMultipassErrorNamesFile: a frame that the multipass limits of a
// configuration file cannot render is an error naming the scene and the
// file and line of the limits ("on configured machine" before, naming
// neither file).
func TestMultipassErrorNamesFile(t *testing.T) {
	s, err := scene.Builtin("bowlingpin", scene.WithResolution(32, 24), scene.WithSamples(4))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ src, want string }{
		{"name: r8500\nmultipass: {ops: 16, registers: 6, tex_units: 6, interpolants: 6, tex_depth: 2}\n",
			`builtin:bowlingpin: driver: objects[0]: material "floor": shader "textured": multipass rendering on ` +
				`the machine of r8500.yaml:2 (multipass: ops 16, registers 6, tex_units 6, interpolants 6, tex_depth 2) needs 1 sample per pixel (the scene has 4): a pass saves one value per pixel`},
		{"name: tiny\n\nmultipass:\n  registers: 1\n  ops: 1\n",
			`builtin:bowlingpin: driver: objects[0]: material "floor": shader "textured": textured.ps.gsa:61: mul r9, r9, c16: ` +
				`fits in no pass on the machine of r8500.yaml:4 (multipass: ops 1, registers 1): with its operands restored it needs 3 operations (limit 1)`},
	} {
		c, err := Parse("r8500.yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := driver.Encode(s, c.DriverOptions()); err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}
