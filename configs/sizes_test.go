package configs

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// The smallest-size audit: an architect sets a buffer, queue, cache, FIFO,
// width or count to the smallest value the validator accepts, and the machine
// must either render the reference image bit for bit or refuse the value
// before the simulation with an error naming the file, the line and the
// field; it must never hang (the watchdog would name the stuck buffers) nor
// panic. Every frame runs with the watchdog at its minimum, 1,000 cycles, so
// that a wait no unit or link declares is caught too.
//
// TestSmallestSizes sets every numeric field, one at a time, to its minimum
// (and to 1 where the minimum 0 means "off" or "unlimited") on every machine
// it applies to; TestAllSmallestSizes sets all of a machine's fields to their
// minimum at once; TestRandomSmallSizes (-sizes.random N) sets seeded random
// combinations of small values. -sizes.record prints the tables of the first
// two from what the machines do, to review when a message or a rule changes.

var (
	sizesRandom = flag.Int("sizes.random", 0, "TestRandomSmallSizes: random combinations of small sizes per machine (0: skip)")
	sizesRecord = flag.Bool("sizes.record", false, "TestSmallestSizes and TestAllSmallestSizes: print the refusals and exceptions they find as entries of smallestRefused (keyed by machine: merge the entries equal on every machine of a field into one) and allSmallestExceptions, to review and paste")
)

// sizeMachine is a machine of the audit and the tiny frame it renders: a
// built-in scene with texturing and depth (texmagnify: a textured wall, 2
// triangles); the SAGE machine's 16x8 raster has the slowest pixel clock of a
// small frame, the decoupled machines render a decoupled scene.
type sizeMachine struct {
	name    string
	header  string // the configuration file's first line
	scene   string
	w, h, n int // frame size and samples per pixel
}

var (
	sizeSortLast   = sizeMachine{"sortlast", "machine: sortlast", "texmagnify", 16, 16, 4}
	sizeSortMiddle = sizeMachine{"sortmiddle", "machine: sortmiddle", "texmagnify", 16, 16, 4}
	sizeSage       = sizeMachine{"sage", "machine: sage", "texmagnify", 16, 8, 4}
	// Decoupled sampling, on the sort-last machine's global shading cache and
	// on the tiled machine's per-tile one.
	sizeDecoupled           = sizeMachine{"decoupled", "machine: sortlast", "egomotion", 16, 16, 8}
	sizeSortMiddleDecoupled = sizeMachine{"sortmiddle-decoupled", "machine: sortmiddle", "egomotion", 16, 16, 8}
)

// notSizes are the numeric fields the audit leaves out.
var notSizes = map[string]string{
	"engine_workers":         "goroutines of the parallel engine, not part of a machine",
	"decoupled.pattern_seed": "a seed",
	"sage.pattern.seed":      "a seed",
}

// decoupledFields act on decoupled draws only: they are checked on the
// decoupled machines.
var decoupledFields = []string{"reorder_buffer.shading_cache_entries", "reorder_buffer.ref_bits",
	"reorder_buffer.lookups_per_cycle", "quad_packer.samples_per_cycle", "raster.sample_tests_per_cycle",
	"primitive_assembly.setup_5d_cycles"}

// geometryFields act on geometry shaders and stream-out only: they are checked
// on the particles scene (stream-out steps and sprites), 1 sample per pixel.
var geometryFields = []string{"shader_core.gs_output_buffer_kb", "shader_core.max_gs_warps",
	"primitive_assembly.stream_out_queue", "primitive_assembly.stream_out_writes"}

// sizeMachinesOf returns the machines whose units field configures, with the
// frame each renders for it.
func sizeMachinesOf(field string) []sizeMachine {
	section, _, _ := strings.Cut(field, ".")
	switch {
	case slices.Contains(decoupledFields, field):
		return []sizeMachine{sizeDecoupled, sizeSortMiddleDecoupled}
	case slices.Contains(geometryFields, field):
		var out []sizeMachine
		for _, m := range []sizeMachine{sizeSortLast, sizeSortMiddle, sizeSage} {
			m.scene, m.w, m.h, m.n = "particles", 16, 16, 1
			out = append(out, m)
		}
		return out
	case section == "sage":
		return []sizeMachine{sizeSage}
	case section == "sortmiddle":
		return []sizeMachine{sizeSortMiddle}
	case section == "multipass":
		// Multipass rendering saves one value per pixel: 1 sample (the
		// SAGE machine splits no shader).
		sl, sm := sizeSortLast, sizeSortMiddle
		sl.n, sm.n = 1, 1
		return []sizeMachine{sl, sm}
	case section == "hiz", field == "rop.count", field == "rop.stride", field == "raster.rasterizers", field == "raster.stride":
		// The tiled and the SAGE machines have no HiZ units, one
		// rasterizer per tile unit or pipe, one ROP per tile unit.
		return []sizeMachine{sizeSortLast}
	case slices.Contains([]string{"depth_unit", "quad_packer", "reorder_buffer", "rop"}, section),
		slices.ContainsFunc([]string{"buses.quad.", "buses.warp.", "buses.rop.", "buses.late_z."}, func(p string) bool { return strings.HasPrefix(field, p) }):
		return []sizeMachine{sizeSortLast, sizeSortMiddle} // SAGE's pipes have none of these units
	}
	return []sizeMachine{sizeSortLast, sizeSortMiddle, sizeSage}
}

// sizeContext returns the fields that make field mean something: the memory
// type its controller needs, the policy or mode that reads it.
func sizeContext(field string) map[string]string {
	switch {
	case strings.HasPrefix(field, "memory.ideal_"):
		return map[string]string{"memory.type": "ideal"}
	case slices.Contains([]string{"memory.bus_width", "memory.burst_length", "memory.ranks", "memory.bank_groups",
		"memory.banks", "memory.command_queue", "memory.transaction_queue"}, field):
		return map[string]string{"memory.type": "dram"}
	case field == "memory.page_timeout":
		return map[string]string{"memory.page_policy": "timeout"}
	case field == "hiz.feedback_delay", field == "hiz.feedback_queue":
		return map[string]string{"hiz.feedback": "update"}
	case field == "rop.prefetch_reserve":
		return map[string]string{"rop.prefetch_distance": "2"}
	}
	return nil
}

// sizeYAML is a configuration file: the machine's header line, the
// watchdog at its minimum (unless set sets it), then the fields of set
// (paths to values) as nested sections, in path order. With the watchdog at
// 1,000 cycles a wait that nothing declares (timing.Progress.BusyUntil) ends
// the run.
func sizeYAML(header string, set map[string]string) string {
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString(header + "\n")
	if _, ok := set["watchdog_cycles"]; !ok {
		b.WriteString("watchdog_cycles: 1000\n")
	}
	var open []string // the sections written for the previous path
	for _, p := range paths {
		parts := strings.Split(p, ".")
		same := 0
		for same < len(open) && same < len(parts)-1 && open[same] == parts[same] {
			same++
		}
		for i := same; i < len(parts)-1; i++ {
			fmt.Fprintf(&b, "%s%s:\n", strings.Repeat("  ", i), parts[i])
		}
		open = parts[:len(parts)-1]
		fmt.Fprintf(&b, "%s%s: %s\n", strings.Repeat("  ", len(parts)-1), parts[len(parts)-1], set[p])
	}
	return b.String()
}

// sizeField is a numeric field of the configuration and its valid range.
type sizeField struct {
	path     string
	min, max string // the tags
	float    bool
	pow2     bool
}

// sizeFields returns every numeric field of the configuration but notSizes.
func sizeFields() []sizeField {
	var out []sizeField
	eachField(reflect.ValueOf(Config{}), "", func(fp string, f reflect.StructField, fv reflect.Value) error {
		k := fv.Kind()
		if (k != reflect.Int && k != reflect.Float64) || notSizes[fp] != "" {
			return nil
		}
		out = append(out, sizeField{fp, f.Tag.Get("min"), f.Tag.Get("max"), k == reflect.Float64, f.Tag.Get("pow2") == "true"})
		return nil
	})
	return out
}

// smallestRefused are the minima refused before the run (with the other
// fields at the machine's values: by the validator, by the scene check for
// the frame's programs, by the frame check), keyed "field=value" when the
// refusal holds on every machine the field applies to, "machine
// field=value" when on that machine only, with the exact error, and the
// smallest value
// accepted (searched upwards, doubling a power of two), which must render
// ("" for a value not searched: a float, or the 1 of a field whose minimum 0
// means off). Each error names the file, the line that set the field, and
// the field at fault or the one it breaks a rule with.
var smallestRefused = map[string]struct{ err, smallest string }{
	"command_processor.dma_chunk_bytes=16":      {"sizes.yaml:4: command_processor.max_outstanding_dma: 4 chunks of 16 bytes (dma_chunk_bytes) cannot hold the largest command (464 bytes)", "128"},
	"command_processor.max_outstanding_dma=1":   {"sizes.yaml:4: command_processor.max_outstanding_dma: 1 chunks of 256 bytes (dma_chunk_bytes) cannot hold the largest command (464 bytes)", "2"},
	"input_assembler.index_cache.line_bytes=4":  {"sizes.yaml:5: input_assembler.index_cache.line_bytes: 4 bytes: lines of this cache must be at least 16 bytes (4-byte lines are for the ROP colour and depth caches)", "16"},
	"input_assembler.vertex_cache.line_bytes=4": {"sizes.yaml:5: input_assembler.vertex_cache.line_bytes: 4 bytes: lines of this cache must be at least 16 bytes (4-byte lines are for the ROP colour and depth caches)", "16"},
	"sortlast raster.tile_size=2": {"sizes.yaml:4: hiz.tile_samples: 32 samples make 8x4-pixel tiles at 1 sample per pixel, larger than the 2-pixel raster tile: " +
		"a HiZ tile must fit a raster tile at every sample count a frame may use, 1 included (raise raster.tile_size to 8)", "8"},
	"depth_unit.cache.line_bytes=4":         {"sizes.yaml:5: depth_unit.compression: on with 4-byte depth lines, smaller than the 32-byte memory access unit: turn it off (it applies only to lines of 64 bytes or more)", "32"},
	"hiz.tile_samples=1":                    {"sizes.yaml:4: hiz.tile_samples: 1 is not 0 or a power of two in [16, 256]", ""},
	"hiz.layers=1":                          {"sizes.yaml:4: hiz.layers: 1: a zmask tile has 2 to 4 layers (forward is the one-layer design)", ""},
	"hiz.cache.line_bytes=4":                {"sizes.yaml:5: hiz.cache.line_bytes: 4 bytes: HiZ cache lines must be at least 16 bytes", "16"},
	"reorder_buffer.entries=1":              {"sizes.yaml:4: reorder_buffer.entries: 1 entries cannot hold one warp of 8 quads", "8"},
	"shader_core.warp_size=4":               {"sizes.yaml:4: shader_core.simd_width: 16 does not divide the warp size 4", "32"},
	"shader_core.registers=64":              {"sizes.yaml:4: shader_core.registers: 64: material \"wall\"'s program \"textured.ps.gsa\" needs 320 registers per warp of 32 lanes (10 temporaries each)", "320"},
	"shader_core.gs_output_buffer_kb=1":     {"sizes.yaml:4: shader_core.gs_output_buffer_kb: 1 KB: material \"step\"'s geometry shader \"particle_step.gs.gsa\" needs 4096 bytes for a warp of 64 invocations (2 vertices x 2 output registers x 16 bytes each)", "8"},
	"texture_sampler.l1.line_bytes=4":       {"sizes.yaml:5: texture_sampler.l1.line_bytes: 4 bytes: a line must hold the widest decoded texel (16 bytes)", "16"},
	"rop.tile_size=2":                       {"sizes.yaml:4: rop.tile_size: 2 pixels is smaller than the raster tile (8)", "8"},
	"rop.samples_per_cycle=0":               {"sizes.yaml:4: rop.samples_per_cycle: 0: the by_samples cost model blends samples_per_cycle samples per cycle; set it to at least 1", "1"},
	"rop.cache.line_bytes=4":                {"sizes.yaml:5: rop.compression: on with 4-byte colour lines, smaller than the 32-byte memory access unit: turn it off (it applies only to lines of 64 bytes or more)", "32"},
	"memory.interleave_bytes=64":            {"sizes.yaml:4: command_processor.dma_chunk_bytes: 256 bytes is more than memory.interleave_bytes (64): a request to memory must lie in one channel's interleave granule", "256"},
	"memory.bus_width=8":                    {"sizes.yaml:4: memory.transaction_queue: 32 is below 34 (a request within one interleave_bytes granule may need interleave_bytes/access unit + 1 access units, and Akita needs more queue entries than that)", "16"},
	"memory.burst_length=2":                 {"sizes.yaml:4: memory.burst_length: 2 transfers is less than one clock at 4 transfers per clock (GDDR5)", "4"},
	"memory.transaction_queue=1":            {"sizes.yaml:4: memory.transaction_queue: 1 is below 6 (a request within one interleave_bytes granule may need interleave_bytes/access unit + 1 access units, and Akita needs more queue entries than that)", "6"},
	"memory.page_timeout=0":                 {"sizes.yaml:5: memory.page_timeout: 0 cycles: the timeout page policy needs at least 1", "1"},
	"memory.read_queue=1":                   {"sizes.yaml:4: memory.read_queue: 1 bursts is outside [8, 65536]: a request of up to 256 bytes needs 8 bursts of 32 bytes", "8"},
	"memory.write_queue=1":                  {"sizes.yaml:4: memory.write_queue: 1 bursts is outside [8, 65536]: a request of up to 256 bytes needs 8 bursts of 32 bytes", "24"},
	"memory.write_high=1":                   {"sizes.yaml:4: memory.write_high: 1 is not above the low watermark write_low 8 (the default machine's): set write_low below it too", "9"},
	"memory.geometry.bus_width=1":           {"sizes.yaml:5: memory.geometry.bus_width: 1 bits is less than a byte", ""},
	"memory.geometry.burst_length=1":        {"sizes.yaml:5: memory.geometry.burst_length: 1 transfers is less than one clock at 8 transfers per clock", ""},
	"memory.geometry.data_rate=1":           {"sizes.yaml:5: memory.timing.ccd_s: 2 is less than a burst (16 cycles): bursts would overlap on the data bus", ""},
	"memory.timing.ras=1":                   {"sizes.yaml:5: memory.timing.ras: 1 is less than tRCD = 26 (a row would close before it can be read)", ""},
	"memory.timing.rc=1":                    {"sizes.yaml:5: memory.timing.rc: 1 is less than tRAS + tRP = 53 + 26", ""},
	"memory.timing.ccd_s=1":                 {"sizes.yaml:5: memory.timing.ccd_s: 1 is less than a burst (2 cycles): bursts would overlap on the data bus", ""},
	"memory.timing.ccd_l=1":                 {"sizes.yaml:5: memory.timing.ccd_l: 1 is less than tCCD_S = 2", ""},
	"memory.timing.rrd_l=1":                 {"sizes.yaml:5: memory.timing.rrd_l: 1 is less than tRRD_S = 7", ""},
	"memory.timing.wtr_l=1":                 {"sizes.yaml:5: memory.timing.wtr_l: 1 is less than tWTR_S = 9", ""},
	"memory.timing.refi=1":                  {"sizes.yaml:5: memory.timing.refi: 1 is not more than tRFC = 210 (refresh would take all the time)", ""},
	"multipass.ops=1":                       {"sizes.yaml:4: multipass.ops: 1: material \"wall\"'s pixel shader \"textured.ps.gsa\" fits no partition into passes: textured.ps.gsa:61: mul r9, r9, c16: fits in no pass on configured machine: with its operands restored it needs 3 operations (limit 1)", ""},
	"multipass.registers=1":                 {"sizes.yaml:4: multipass.registers: 1: material \"wall\"'s pixel shader \"textured.ps.gsa\" fits no partition into passes: textured.ps.gsa:28: mul r3.xyz, r3, r3.w: fits in no pass on configured machine: with its operands restored it needs 2 registers (limit 1)", ""},
	"multipass.interpolants=1":              {"sizes.yaml:4: multipass.interpolants: 1: material \"wall\"'s pixel shader \"textured.ps.gsa\" fits no partition into passes: textured.ps.gsa:21: mul r0.xyz, v0, r0.w: fits in no pass on configured machine: with its operands restored it needs 2 interpolants (limit 1)", ""},
	"sage.sched.prewrite_queue=1":           {"sizes.yaml:5: sage.sched.snoop_distance: 16 samples: the snoop looks inside the 1-sample pre-write queue (at most 0)", "17"},
	"sage.sample_buffer.capacity_samples=1": {"sizes.yaml:5: sage.sample_buffer.capacity_samples: resolution: 16x8 at 4 samples per pixel is 512 samples; the sample buffer holds 1 per buffer (double-buffered, with z)", "512"},
	"sage.sample_buffer.page_samples=1":     {"sizes.yaml:5: sage.sample_buffer.page_samples: 1 samples is not a whole number of 8-sample blocks", "8"},
	"sage.route.fifo_samples=1":             {"sizes.yaml:5: sage.route.fifo_samples: 1 samples: a frame of 4 samples per pixel needs a FIFO of at least one pixel's samples", "4"},
	"sage.video.width=1":                    {"sizes.yaml:5: sage.video: 1x0 output from a 16x8 render: resizing scales both axes by one factor", ""},
	"sage.video.height=1":                   {"sizes.yaml:5: sage.video: 0x1 output from a 16x8 render: resizing scales both axes by one factor", ""},
	"sortmiddle.tile_width=1":               {"sizes.yaml:4: sortmiddle.tile_width: 1x0: set both, or both 0 (the size follows the tile memory)", ""},
	"sortmiddle.tile_height=1":              {"sizes.yaml:4: sortmiddle.tile_height: 0x1: set both, or both 0 (the size follows the tile memory)", ""},
}

// smallestAccepted returns the smallest value of fd from v up (doubling a
// power-of-two field) that machine m accepts for its frame: the validator,
// the scene check and the frame check pass; with its configuration parsed
// from its file, or "" past the field's maximum. The values on the way are
// set on a copy of the parsed machine, without a file of their own.
func smallestAccepted(t *testing.T, m sizeMachine, fd sizeField, v int, ctx map[string]string) (string, *Config) {
	hi, _ := strconv.Atoi(fd.max)
	s := testframe.Scene(t, m.scene, m.w, m.h, m.n)
	base, err := Parse("sizes.yaml", []byte(sizeYAML(m.header, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for ; v <= hi; v++ {
		if fd.pow2 && v&(v-1) != 0 {
			continue
		}
		c := *base
		eachField(reflect.ValueOf(&c).Elem(), "", func(fp string, _ reflect.StructField, fv reflect.Value) error {
			if x, ok := ctx[fp]; ok && fv.Kind() == reflect.String {
				fv.SetString(x)
			} else if ok {
				n, _ := strconv.Atoi(x)
				fv.SetInt(int64(n))
			}
			if fp == fd.path {
				fv.SetInt(int64(v))
			}
			return nil
		})
		if c.Validate() != nil || c.CheckScene(s) != nil || c.CheckFrame(m.w, m.h, m.n) != nil {
			continue
		}
		set := map[string]string{fd.path: strconv.Itoa(v)}
		for k, x := range ctx {
			set[k] = x
		}
		pc, err := Parse("sizes.yaml", []byte(sizeYAML(m.header, set)))
		if err != nil {
			t.Fatalf("%s=%d: accepted when set on the parsed machine, refused in a file: %v", fd.path, v, err)
		}
		return strconv.Itoa(v), pc
	}
	return "", nil
}

// renderSmall renders m's frame on c: nil when the image and the memory
// image equal the reference renderer's, else what went wrong. An error that
// refuses the frame before the run (a configuration error naming its line)
// is returned as refused.
func renderSmall(t *testing.T, c *Config, m sizeMachine) (refused, failed error) {
	t.Helper()
	s := testframe.Scene(t, m.scene, m.w, m.h, m.n)
	if err := c.CheckScene(s); err != nil {
		return err, nil
	}
	f, err := driver.Encode(s, c.DriverOptions())
	if err != nil {
		return nil, fmt.Errorf("driver: %v", err)
	}
	g, err := driver.Encode(testframe.Scene(t, m.scene, m.w, m.h, m.n), c.DriverOptions())
	if err != nil {
		return nil, err
	}
	p, err := Build(c)
	if err != nil {
		return nil, fmt.Errorf("build: %v", err)
	}
	res, err := p.Run(f)
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) && ce.Line > 0 {
			return err, nil
		}
		return nil, fmt.Errorf("run: %v", err)
	}
	ref, err := c.RenderReference(g)
	if err != nil {
		return nil, fmt.Errorf("reference: %v", err)
	}
	if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
		return nil, errors.New("the timed image differs from the reference image")
	}
	if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
		return nil, errors.New("the memory images differ after the frame")
	}
	return nil, nil
}

// TestSmallestSizes: every numeric field (but notSizes), one at a time, at
// its minimum, and at 1 where the minimum 0 means "off" or "unlimited", on
// every machine whose units it configures: the tiny frame equals the
// reference renderer's image and memory bit for bit, or the value is refused
// before the run with the exact error of smallestRefused, and then the
// smallest value accepted renders.
func TestSmallestSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("about 900 cases, most of them a frame")
	}
	used := map[string]bool{}
	cases, ran := 0, 0
	base := map[string]string{} // each machine's resolved configuration, as YAML
	for _, fd := range sizeFields() {
		for _, m := range sizeMachinesOf(fd.path) {
			if _, ok := base[m.name]; !ok {
				c, err := Parse("sizes.yaml", []byte(sizeYAML(m.header, nil)))
				if err != nil {
					t.Fatal(err)
				}
				base[m.name] = string(c.YAML())
			}
			values := []string{fd.min}
			if fd.min == "0" {
				values = append(values, "1")
			}
			for _, v := range values {
				key := fmt.Sprintf("%s=%s", fd.path, v)
				cases++
				t.Run(m.name+" "+key, func(t *testing.T) {
					ran++
					want, refusedHere := smallestRefused[m.name+" "+key]
					if refusedHere {
						used[m.name+" "+key] = true
					} else if want, refusedHere = smallestRefused[key]; refusedHere {
						used[key] = true
					}
					ctx := sizeContext(fd.path)
					set := map[string]string{fd.path: v}
					for k, x := range ctx {
						set[k] = x
					}
					src := sizeYAML(m.header, set)
					c, err := Parse("sizes.yaml", []byte(src))
					var refused error
					switch {
					case err != nil:
						refused = err
					case string(c.YAML()) == base[m.name]:
						// The machine's own value: its frames are
						// tested elsewhere.
					default:
						if refused, err = renderSmall(t, c, m); err != nil {
							t.Fatalf("%s\n%s", err, src)
						}
					}
					if *sizesRecord && refused != nil {
						sm := ""
						if !fd.float && v == fd.min {
							from, _ := strconv.Atoi(fd.min)
							sm, _ = smallestAccepted(t, m, fd, from, ctx)
						}
						fmt.Printf("\t%q: {%q, %q},\n", m.name+" "+key, refused.Error(), sm)
						return
					}
					switch {
					case refused == nil && refusedHere:
						t.Fatalf("renders; want the error %q", want.err)
					case refused == nil:
						return
					case !refusedHere:
						t.Fatalf("refused: %v\n%s", refused, src)
					case refused.Error() != want.err:
						t.Fatalf("error\n%v\nwant\n%s", refused, want.err)
					}
					if fd.float || v != fd.min {
						// Floats and the "on" value of an off-by-default
						// field are not searched further.
						if want.smallest != "" {
							t.Fatalf("smallest %q given for a value that is not searched", want.smallest)
						}
						return
					}
					from, _ := strconv.Atoi(fd.min)
					got, c := smallestAccepted(t, m, fd, from, ctx)
					if got != want.smallest {
						t.Fatalf("the smallest value accepted is %q, want %q", got, want.smallest)
					}
					if string(c.YAML()) == base[m.name] {
						return // the machine's own value
					}
					if refused, err := renderSmall(t, c, m); refused != nil || err != nil {
						t.Fatalf("%s=%s: refused %v, failed %v", fd.path, got, refused, err)
					}
				})
			}
		}
	}
	for k := range smallestRefused {
		if ran == cases && !used[k] { // (-run may leave cases out)
			t.Errorf("smallestRefused[%q] is checked by no case", k)
		}
	}
}

// allSmallestExceptions are the fields that cannot take their minimum when
// every other field of the machine takes its own, with the smallest value
// they take then (found by raising, in field order, the field each refusal
// names at its line). The fields whose minimum needs another field's mode
// (sizeContext) keep the machine's values.
var allSmallestExceptions = map[string]map[string]string{
	"sortlast":   sortLastSmallest,
	"sortmiddle": sortMiddleSmallest,
	"sage": {
		"command_processor.max_outstanding_dma":   "29",
		"input_assembler.index_cache.line_bytes":  "16",
		"input_assembler.vertex_cache.line_bytes": "16",
		"memory.read_queue":                       "2",
		"memory.write_queue":                      "2",
		"sage.route.fifo_samples":                 "4",
		"sage.sample_buffer.capacity_samples":     "512",
		"texture_sampler.l1.line_bytes":           "16",
	},
	// Decoupled sampling adds no exception to its machine's.
	"decoupled":            sortLastSmallest,
	"sortmiddle-decoupled": sortMiddleSmallest,
}

// sortLastSmallest and sortMiddleSmallest are the exceptions of the
// sort-last and tiled machines, with or without decoupled sampling.
var sortLastSmallest = map[string]string{
	"command_processor.max_outstanding_dma":   "29",
	"depth_unit.cache.line_bytes":             "32",
	"hiz.cache.line_bytes":                    "16",
	"input_assembler.index_cache.line_bytes":  "16",
	"input_assembler.vertex_cache.line_bytes": "16",
	"memory.read_queue":                       "2",
	"memory.write_queue":                      "2",
	"raster.tile_size":                        "8",
	"rop.cache.line_bytes":                    "32",
	"rop.samples_per_cycle":                   "1",
	"rop.tile_size":                           "8",
	"texture_sampler.l1.line_bytes":           "16",
}

var sortMiddleSmallest = map[string]string{
	"command_processor.max_outstanding_dma":   "29",
	"depth_unit.cache.line_bytes":             "32",
	"input_assembler.index_cache.line_bytes":  "16",
	"input_assembler.vertex_cache.line_bytes": "16",
	"memory.read_queue":                       "2",
	"memory.write_queue":                      "2",
	"rop.cache.line_bytes":                    "32",
	"rop.samples_per_cycle":                   "1",
	"texture_sampler.l1.line_bytes":           "16",
}

// TestAllSmallestSizes: on each machine, every numeric field at its minimum at
// once (but allSmallestExceptions): the tiny frame equals the reference.
func TestAllSmallestSizes(t *testing.T) {
	for _, m := range []sizeMachine{sizeSortLast, sizeSortMiddle, sizeSage, sizeDecoupled, sizeSortMiddleDecoupled} {
		t.Run(m.name, func(t *testing.T) {
			set := map[string]string{}
			fields := map[string]sizeField{}
			// The decoupled machines are the sort-last and the tiled ones;
			// the decoupled-sampling fields act on every machine but SAGE.
			own := strings.TrimSuffix(m.name, "-decoupled")
			if own == "decoupled" {
				own = "sortlast"
			}
			for _, fd := range sizeFields() {
				if sizeContext(fd.path) != nil {
					continue
				}
				if slices.ContainsFunc(sizeMachinesOf(fd.path), func(x sizeMachine) bool { return x.name == own }) ||
					own != "sage" && slices.Contains(decoupledFields, fd.path) {
					set[fd.path] = fd.min
					fields[fd.path] = fd
				}
			}
			if *sizesRecord {
				s := testframe.Scene(t, m.scene, m.w, m.h, m.n)
				exc := map[string]string{}
				for it := 0; ; it++ {
					if it > 3000 {
						t.Fatalf("stuck: %v", exc)
					}
					src := sizeYAML(m.header, set)
					c, err := Parse("sizes.yaml", []byte(src))
					if err == nil {
						if err = c.CheckScene(s); err == nil {
							err = c.CheckFrame(m.w, m.h, m.n)
						}
					}
					if err == nil {
						break
					}
					var ce *Error
					if !errors.As(err, &ce) {
						t.Fatal(err)
					}
					p := yamlPathAt(src, ce.Line)
					fd := fields[p]
					v, _ := strconv.Atoi(set[p])
					if fd.pow2 {
						v *= 2
					} else {
						v++
					}
					if hi, _ := strconv.Atoi(fd.max); v > hi || fd.float || set[p] == "" {
						// Raising it does not help: it keeps the
						// machine's value (its minimum here, or
						// another field is at fault).
						delete(set, p)
						delete(exc, p)
						continue
					}
					set[p], exc[p] = strconv.Itoa(v), strconv.Itoa(v)
				}
				fmt.Printf("\t%q: {\n", m.name)
				for _, k := range slices.Sorted(maps.Keys(exc)) {
					fmt.Printf("\t\t%q: %q,\n", k, exc[k])
				}
				fmt.Printf("\t},\n")
			}
			for k, v := range allSmallestExceptions[m.name] {
				set[k] = v
			}
			src := sizeYAML(m.header, set)
			c, err := Parse("sizes.yaml", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if refused, err := renderSmall(t, c, m); refused != nil || err != nil {
				t.Fatalf("refused %v, failed %v\n%s", refused, err, src)
			}
		})
	}
}

// TestRandomSmallSizes: -sizes.random N seeded combinations of small values
// per machine (seed s of machine m is recorded in the subtest's name; -run
// with it repeats one): each configuration the validator accepts renders the
// reference image; each refusal names its file, line and field.
func TestRandomSmallSizes(t *testing.T) {
	if *sizesRandom == 0 {
		t.Skip("-sizes.random N runs N random combinations per machine")
	}
	for _, m := range []sizeMachine{sizeSortLast, sizeSortMiddle, sizeSage, sizeDecoupled} {
		var pool []sizeField
		for _, fd := range sizeFields() {
			if !fd.float && slices.ContainsFunc(sizeMachinesOf(fd.path), func(x sizeMachine) bool { return x.name == m.name }) {
				pool = append(pool, fd)
			}
		}
		for seed := uint64(1); seed <= uint64(*sizesRandom); seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", m.name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 0x5eed))
				set := map[string]string{}
				for range 8 + rng.IntN(24) {
					fd := pool[rng.IntN(len(pool))]
					lo, _ := strconv.Atoi(fd.min)
					hi, _ := strconv.Atoi(fd.max)
					v := lo + rng.IntN(4)
					if fd.pow2 {
						v = max(1, lo) << rng.IntN(3)
					}
					set[fd.path] = strconv.Itoa(min(v, hi))
					for k, x := range sizeContext(fd.path) {
						set[k] = x
					}
				}
				// Drop the field each refusal names until the rest is accepted.
				var c *Config
				for {
					src := sizeYAML(m.header, set)
					var err error
					if c, err = Parse("sizes.yaml", []byte(src)); err == nil {
						break
					}
					var ce *Error
					if !errors.As(err, &ce) || ce.Line < 2 || ce.Field == "" {
						t.Fatalf("a refusal without its line and field: %v\n%s", err, src)
					}
					if p := yamlPathAt(src, ce.Line); set[p] != "" {
						delete(set, p)
					} else {
						t.Fatalf("the refusal's line %d sets no field: %v\n%s", ce.Line, err, src)
					}
				}
				refused, err := renderSmall(t, c, m)
				if err != nil {
					t.Fatalf("%v\n%s", err, sizeYAML(m.header, set))
				}
				if refused != nil {
					var ce *Error
					if !errors.As(refused, &ce) || ce.Field == "" {
						t.Fatalf("a refusal without its field: %v", refused)
					}
				}
			})
		}
	}
}

// yamlPathAt returns the dotted path of the key at line (from 1) of a file
// written by sizeYAML.
func yamlPathAt(src string, line int) string {
	var path []string
	for i, l := range strings.Split(src, "\n") {
		depth := (len(l) - len(strings.TrimLeft(l, " "))) / 2
		key, _, _ := strings.Cut(strings.TrimSpace(l), ":")
		path = append(path[:min(depth, len(path))], key)
		if i+1 == line {
			return strings.Join(path, ".")
		}
	}
	return ""
}
