package configs

import (
	"bytes"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// machines are the configurations the invariant tests run every built-in scene on.
// Each overrides the default machine; samples overrides the scene's sample count.
var machines = []struct {
	name    string
	yaml    string
	samples int
	scenes  []string // nil: every built-in scene
	w, h    int      // frame size (0: 96x54)
}{
	{"default", "", 0, nil, 0, 0},
	// The default machine's own frame size class: every built-in scene at
	// 320x180, 4x MSAA, on the default memory (gfxsim's DRAM controller, 16
	// GDDR6 channels) with every DRAM command replayed through the protocol
	// checker. (With these timings depthwrite stalled the sort-last depth
	// unit until early-Z tiles waiting for an earlier draw's late Z let that
	// draw's pass-through tiles go past them: depthunit's bypass.)
	{"default 320x180, DRAM commands checked", "memory: {check: true}\n", 4, nil, 320, 180},
	// Akita's mem/dram (configs/akita-dram.yaml), still selectable.
	{"akita-dram", overlay("akita-dram.yaml"), 0, []string{"triangle", "room", "depthwrite", "foliage"}, 0, 0},
	{"narrow", `
raster: {rasterizers: 1}
rop: {count: 1}
shader_core: {count: 1}
reorder_buffer: {entries: 8}
memory: {type: ideal, ideal_latency: 50}
buses:
  dispatch: {width: 8}
  shaded: {width: 8}
  primitive: {width: 8}
  tile: {width: 8}
  quad: {width: 8}
  warp: {width: 8}
  rop: {width: 8}
  memory: {width: 8}
`, 1, nil, 0, 0},
	{"wide", `
raster: {rasterizers: 4, stride: 2}
rop: {count: 2}
shader_core: {count: 8}
texture_sampler: {cores_per_sampler: 4}
reorder_buffer: {entries: 1024}
memory: {type: ideal, ideal_latency: 200, channels: 2}
buses:
  dispatch: {width: 1024}
  shaded: {width: 1024}
  tile: {width: 1024}
  rop: {width: 1024}
  memory: {width: 256}
`, 8, nil, 0, 0},
	// A stochastic sample count (Hammersley pattern, 14-byte masks, one-pixel
	// HiZ tiles) with small render-target lines of the decoupled study (ideal
	// memory: the DRAM model's cost per small transfer would dominate the test;
	// with a bandwidth and a concurrency limit, so that gfxsim's limited ideal
	// controller renders images too).
	{"27 samples, 32-byte colour and 16-byte depth lines", `
memory: {type: ideal, ideal_latency: 100, ideal_bytes_per_cycle: 16, ideal_max_outstanding: 8}
rop:
  compression: false
  cache: {size_kb: 32, ways: 4, line_bytes: 32}
depth_unit:
  compression: false
  cache: {size_kb: 16, ways: 4, line_bytes: 16}
`, 27, []string{"triangle", "room"}, 0, 0},
	// The tiled sort-middle machine: its default tiles (one 128x128 tile at
	// 1x for the 96x54 test frame); small fixed tiles at 4x that cut every
	// primitive into many windows, on one unit; and three units with
	// resolved stores in row-major order (the blending and overdraw scenes
	// prove API order inside each tile).
	{"sortmiddle", "machine: sortmiddle\n", 1, nil, 0, 0},
	{"sortmiddle 4x, 16x16 tiles, one unit", "machine: sortmiddle\nsortmiddle: {tile_units: 1, tile_width: 16, tile_height: 16}\n", 4, nil, 0, 0},
	{"sortmiddle 32x16 tiles, three units, resolved", "machine: sortmiddle\nsortmiddle: {tile_units: 3, tile_width: 32, tile_height: 16, store: resolved, tile_order: rowmajor}\n", 4,
		[]string{"triangle", "overdraw", "depthwrite", "foliage", "room", "motion", "grass", "silhouette", "particles"}, 0, 0},
	// Double buffering: each unit stores a tile while the next renders.
	{"sortmiddle 16x16 tiles, two buffers, two units", "machine: sortmiddle\nsortmiddle: {tile_units: 2, tile_buffers: 2, jobs_per_unit: 3, tile_width: 16, tile_height: 16}\n", 4,
		[]string{"triangle", "overdraw", "room", "grass", "particles"}, 0, 0},
}

// overlay returns the text of a configuration file of this folder.
func overlay(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// tileUnitName matches the tiled machine's "TileUnit[k]." name segment.
var tileUnitName = regexp.MustCompile(`TileUnit\[[0-9]+\]\.`)

// sameMemoryAndCounters checks a timed frame f (its result res) against the
// reference render ref of the same frame g: the memory images after the
// frame, and every counter the two count but those of skip (errors start with
// prefix). It returns the timed and the reference counters.
func sameMemoryAndCounters(t *testing.T, prefix string, f, g *driver.Frame, res *Result, ref *reference.Result, skip ...string) (tc, rc map[string]float64) {
	t.Helper()
	if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
		t.Errorf("%sthe memory images differ after the frame", prefix)
	}
	tc, rc = timedCounters(res.Stats), referenceCounters(&ref.Counters)
	for k, v := range rc {
		if !slices.Contains(skip, k) && tc[k] != v {
			t.Errorf("%scounter %s = %v timed, %v reference", prefix, k, tc[k], v)
		}
	}
	return tc, rc
}

// timedCounters collects, from a timed run's statistics, the counters the
// reference renderer keeps too.
func timedCounters(st map[string]float64) map[string]float64 {
	sum := func(prefix, counter string) float64 {
		t := 0.0
		for k, v := range st {
			k = tileUnitName.ReplaceAllString(k, "") // the tiled machine's units count like the sort-last ones
			if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, "."+counter) && !strings.Contains(k[len(prefix):], ".memory.") {
				rest := strings.TrimSuffix(k[len(prefix):], "."+counter)
				if !strings.Contains(rest, ".") {
					t += v
				}
			}
		}
		return t
	}
	return map[string]float64{
		"triangles":             st["GPU.PrimitiveAssembly.triangles"],
		"rejected":              st["GPU.PrimitiveAssembly.rejected"],
		"clipped":               st["GPU.PrimitiveAssembly.clipped"],
		"culled":                st["GPU.PrimitiveAssembly.culled"],
		"set_up":                st["GPU.PrimitiveAssembly.set_up"],
		"vs_invocations":        st["GPU.InputAssembler.vertices"],
		"quads":                 sum("GPU.Rasterizer", "quads"),
		"covered_samples":       sum("GPU.Rasterizer", "covered_samples"),
		"early_z_quads_culled":  sum("GPU.DepthUnit", "quads_culled_early_z"),
		"hiz_quads_culled":      sum("GPU.HiZ", "quads_culled"),
		"ps_invocations":        sum("GPU.ShaderCore", "ps_invocations"),
		"helper_pixels":         sum("GPU.ShaderCore", "helper_pixels"),
		"quads_discarded":       sum("GPU.ROP", "quads_discarded"),
		"quads_late_z_culled":   sum("GPU.ROP", "quads_late_z_culled"),
		"quads_written":         sum("GPU.ROP", "quads_written"),
		"samples_written":       sum("GPU.ROP", "samples_written"),
		"samples_killed":        sum("GPU.ROP", "samples_killed"),
		"gs_invocations":        sum("GPU.ShaderCore", "gs_invocations"),
		"gs_warps":              sum("GPU.ShaderCore", "gs_warps"),
		"gs_instructions":       sum("GPU.ShaderCore", "gs_instructions"),
		"gs_emits":              sum("GPU.ShaderCore", "gs_emits"),
		"gs_emits_dropped":      sum("GPU.ShaderCore", "gs_emits_dropped"),
		"gs_primitives":         st["GPU.PrimitiveAssembly.gs_primitives"],
		"so_primitives_written": st["GPU.PrimitiveAssembly.so_primitives_written"],
		"so_primitives_needed":  st["GPU.PrimitiveAssembly.so_primitives_needed"],
		"so_bytes_written":      st["GPU.PrimitiveAssembly.so_bytes_written"],
	}
}

func referenceCounters(c *reference.Counters) map[string]float64 {
	return map[string]float64{
		"triangles": float64(c.Triangles), "rejected": float64(c.Rejected), "clipped": float64(c.Clipped),
		"culled": float64(c.Culled), "set_up": float64(c.SetUp), "vs_invocations": float64(c.VSInvocations),
		"quads": float64(c.Quads), "covered_samples": float64(c.CoveredSamples),
		"early_z_quads_culled": float64(c.EarlyZQuadsCulled), "ps_invocations": float64(c.PSInvocations),
		"hiz_quads_culled": float64(c.HiZQuadsCulled),
		"helper_pixels":    float64(c.HelperPixels), "quads_discarded": float64(c.QuadsDiscarded),
		"quads_late_z_culled": float64(c.QuadsLateZCulled), "quads_written": float64(c.QuadsWritten),
		"samples_written": float64(c.SamplesWritten), "samples_killed": float64(c.SamplesKilled),
		"gs_invocations": float64(c.GSInvocations), "gs_warps": float64(c.GSWarps),
		"gs_instructions": float64(c.GSInstructions), "gs_emits": float64(c.GSEmits),
		"gs_emits_dropped": float64(c.GSEmitsDropped), "gs_primitives": float64(c.GSPrimitives),
		"so_primitives_written": float64(c.SOPrimitivesWritten), "so_primitives_needed": float64(c.SOPrimitivesNeeded),
		"so_bytes_written": float64(c.SOBytesWritten),
	}
}

func machine(t testing.TB, name, src string) *Config {
	t.Helper()
	c, err := Parse(name+".yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func frame(t testing.TB, name string, w, h, samples int) (*scene.Scene, *driver.Frame) {
	t.Helper()
	return frameWith(t, name, w, h, samples, driver.DefaultOptions())
}

// frameWith encodes built-in scene name at w x h and samples per pixel with
// the driver options o.
func frameWith(t testing.TB, name string, w, h, samples int, o driver.Options) (*scene.Scene, *driver.Frame) {
	t.Helper()
	return testframe.Encode(t, name, w, h, samples, o)
}

func timed(t testing.TB, c *Config, f *driver.Frame) *Result {
	t.Helper()
	_, res := timedOn(t, c, f)
	return res
}

// outlastsWatchdog renders scene name at w x h and samples per pixel on c, a
// machine configured with a long modelled wait, and checks that the frame runs
// to its end with the reference image, and that it lasts at least factor
// times the watchdog's limit (shorter, it would test nothing): the frame's
// commands or, on SAGE, its scan-out (GPU.video_end_cycles), whichever ends
// later.
func outlastsWatchdog(t *testing.T, c *Config, name string, w, h, samples int, factor uint64) {
	t.Helper()
	_, f := frameWith(t, name, w, h, samples, c.DriverOptions())
	res := timed(t, c, f)
	_, g := frameWith(t, name, w, h, samples, c.DriverOptions())
	if ref := referenceRender(t, c, g); !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
		t.Error("the timed image differs from the reference image")
	}
	if n := max(res.Cycles, uint64(res.Stats["GPU.video_end_cycles"])); n < factor*uint64(c.WatchdogCycles) {
		t.Errorf("%d cycles: the frame lasts less than %d times the watchdog's limit (%d) and tests little", n, factor, c.WatchdogCycles)
	}
}

// timedOn is timed that also returns the platform.
func timedOn(t testing.TB, c *Config, f *driver.Frame) (*Platform, *Result) {
	t.Helper()
	p, res, err := runFrame(t, c, f)
	if err != nil {
		t.Fatal(err)
	}
	return p, res
}

// runFrame builds machine c (a build error ends the test) and simulates
// frame f on it, returning the run's error.
func runFrame(t testing.TB, c *Config, f *driver.Frame) (*Platform, *Result, error) {
	t.Helper()
	p, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(f)
	return p, res, err
}

// referenceRender is c.RenderReference(f); an error ends the test.
func referenceRender(t testing.TB, c *Config, f *driver.Frame) *reference.Result {
	t.Helper()
	ref, err := c.RenderReference(f)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func referenceOptions(t testing.TB, c *Config) reference.Options {
	t.Helper()
	o, err := c.ReferenceOptions()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestTimedEqualsReference is the project's main correctness test: for every
// built-in scene and every machine, the timed image equals the reference
// renderer's bit for bit, the counters both keep are equal, and every quad that
// left a rasterizer is accounted for.
func TestTimedEqualsReference(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	for _, m := range machines {
		cfg := machine(t, m.name, m.yaml)
		names := m.scenes
		if names == nil {
			names = scene.BuiltinNames()
		}
		for _, name := range names {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				w, h := 96, 54
				if m.w > 0 {
					w, h = m.w, m.h
				}
				s, f := frame(t, name, w, h, m.samples)
				p, res := timedOn(t, cfg, f)
				_, g := frame(t, name, w, h, m.samples)
				ref := referenceRender(t, cfg, g)
				if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
					t.Errorf("%s (%d samples): the timed image differs from the reference image", s.Name, s.Samples)
				}
				// The display buffer the ROPs' timed resolve (or the tile
				// units' resolved stores) wrote into memory.
				if p.Display != 0 {
					if disp, ok := f.Memory.Slice(p.Display, uint64(len(ref.Image.Pix))); !ok || !bytes.Equal(disp, ref.Image.Pix) {
						t.Errorf("%s: the display buffer the timed resolve wrote differs from the reference image", s.Name)
					}
				}
				// The memory image (colour, depth and display buffers) is identical too.
				if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
					t.Errorf("%s: the memory images differ after the frame", s.Name)
				}
				tc, rc := timedCounters(res.Stats), referenceCounters(&ref.Counters)
				// A bounded shading cache that evicted shades a quad again
				// when it is needed after its eviction, and the tiled
				// machine's shading cache is local to a tile (a decoupled
				// draw's shading quad needed in two tiles is shaded twice,
				// the document's section 4.4): either shades at least what
				// the reference's unbounded memo shades, and exactly that
				// otherwise.
				shadesAgain := ref.Counters.Decoupled.Raster.Tests() > 0 &&
					(strings.HasPrefix(m.name, "sortmiddle") || res.Stats["GPU.ReorderBuffer.cache_evictions"] > 0)
				for k, v := range rc {
					if shadesAgain && (k == "ps_invocations" || k == "helper_pixels") {
						if tc[k] < v {
							t.Errorf("%s: counter %s = %v timed, less than the reference's %v", s.Name, k, tc[k], v)
						}
						continue
					}
					if tc[k] != v {
						t.Errorf("%s: counter %s = %v timed, %v reference", s.Name, k, tc[k], v)
					}
				}
				if q := tc["hiz_quads_culled"] + tc["early_z_quads_culled"] + tc["quads_discarded"] + tc["quads_late_z_culled"] + tc["quads_written"]; q != tc["quads"] {
					t.Errorf("%s: %v quads left the rasterizers, %v accounted for (early Z %v, discarded %v, late Z %v, written %v)",
						s.Name, tc["quads"], q, tc["early_z_quads_culled"], tc["quads_discarded"], tc["quads_late_z_culled"], tc["quads_written"])
				}
			})
		}
	}
}

// TestDeterminism: two runs give identical statistics, and the parallel engine
// gives the same image and statistics as the serial one.
func TestDeterminism(t *testing.T) {
	cfg := Default()
	_, f1 := frame(t, "room", 80, 48, 4)
	_, f2 := frame(t, "room", 80, 48, 4)
	a, b := timed(t, cfg, f1), timed(t, cfg, f2)
	diffStats(t, "serial run 1 vs 2", a, b)
	par := Default()
	par.Engine = "parallel"
	_, f3 := frame(t, "room", 80, 48, 4)
	c := timed(t, par, f3)
	diffStats(t, "serial vs parallel", a, c)
}

func diffStats(t *testing.T, what string, a, b *Result) {
	t.Helper()
	if !bytes.Equal(a.Image.Pix, b.Image.Pix) {
		t.Errorf("%s: images differ", what)
	}
	if a.Cycles != b.Cycles {
		t.Errorf("%s: %d vs %d cycles", what, a.Cycles, b.Cycles)
	}
	if a.Events != b.Events {
		t.Errorf("%s: %d vs %d engine events", what, a.Events, b.Events)
	}
	n := 0
	for k, v := range a.Stats {
		if w, ok := b.Stats[k]; !ok || w != v {
			if n < 10 {
				t.Errorf("%s: %s = %v vs %v", what, k, v, w)
			}
			n++
		}
	}
	if len(a.Stats) != len(b.Stats) {
		t.Errorf("%s: %d vs %d counters", what, len(a.Stats), len(b.Stats))
	}
	if n > 10 {
		t.Errorf("%s: %d counters differ in all", what, n)
	}
}

// TestEngineWorkers: engine_workers sets the parallel engine's workers; 0
// gives the cores Go may use, at most 4.
func TestEngineWorkers(t *testing.T) {
	for _, c := range []struct{ workers, want int }{{0, min(runtime.GOMAXPROCS(0), 4)}, {1, 1}, {3, 3}, {16, 16}} {
		cfg := Default()
		cfg.Engine, cfg.EngineWorkers = "parallel", c.workers
		p, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := p.Engine.(*timing.ParallelEngine)
		if !ok {
			t.Fatalf("engine: parallel built a %T", p.Engine)
		}
		if e.Workers != c.want {
			t.Errorf("engine_workers %d: %d workers, want %d", c.workers, e.Workers, c.want)
		}
	}
}
