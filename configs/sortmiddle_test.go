package configs

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// TestSortMiddleErrors: bad tiled-machine configurations are refused with the
// field named, before any simulation.
func TestSortMiddleErrors(t *testing.T) {
	tests := []parseError{
		{"no tile units", "machine: sortmiddle\nsortmiddle: {tile_units: 0}\n", "m.yaml:2: sortmiddle.tile_units: 0 out of range [1, 64]"},
		{"one side", "machine: sortmiddle\nsortmiddle: {tile_width: 32}\n",
			"m.yaml:2: sortmiddle.tile_width: 32x0: set both, or both 0 (the size follows the tile memory)"},
		{"the other side", "machine: sortmiddle\nsortmiddle:\n  tile_height: 16\n",
			"m.yaml:3: sortmiddle.tile_height: 0x16: set both, or both 0 (the size follows the tile memory)"},
		{"odd tile", "machine: sortmiddle\nsortmiddle: {tile_width: 33, tile_height: 16}\n",
			"m.yaml:2: sortmiddle.tile_width: 33x16: tiles are whole quads (even sizes)"},
		{"two ROPs", "machine: sortmiddle\nrop: {count: 2}\n",
			"m.yaml:2: rop.count: 2: a tile unit has one ROP and one depth unit (set sortmiddle.tile_units for more)"},
		{"HiZ", "machine: sortmiddle\nhiz: {mode: zmask}\n",
			"m.yaml:2: hiz.mode: zmask: the tiled machine keeps depth in its tile memory and has no HiZ units: set off"},
		{"store", "machine: sortmiddle\nsortmiddle: {store: depth}\n", `m.yaml:2: sortmiddle.store: "depth" is not one of samples, resolved`},
		{"no tile buffer", "machine: sortmiddle\nsortmiddle: {tile_buffers: 0}\n", "m.yaml:2: sortmiddle.tile_buffers: 0 out of range [1, 8]"},
		{"buffers over jobs", "machine: sortmiddle\nsortmiddle:\n  tile_buffers: 3\n",
			"m.yaml:3: sortmiddle.tile_buffers: 3 tile buffers and 2 jobs per unit: a unit holding fewer tiles than buffers leaves buffers unused (raise jobs_per_unit)"},
	}
	wantParseErrors(t, tests)
}

// TestSortMiddleFrameErrors: a tile memory too small for one pixel at the
// frame's sample count, and fixed tiles that do not fit it, are refused when
// the frame starts, before anything runs, naming the field.
func TestSortMiddleFrameErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		samples    int
		want       string
	}{
		{"one pixel", "machine: sortmiddle\nsortmiddle: {tile_memory_kb: 1}\n", 64,
			"m.yaml:2: sortmiddle.tile_memory_kb: 1 KB at 64 samples per pixel: 1024 bytes: less than one pixel of 64 samples (1280 bytes)"},
		{"tile too large", "machine: sortmiddle\nsortmiddle: {tile_width: 64, tile_height: 64}\n", 4,
			"m.yaml:2: sortmiddle.tile_width: 64x64 tiles at 4 samples of 20 bytes need 327680 bytes, more than sortmiddle.tile_memory_kb (128 KB)"},
		{"tile too large for a buffer", "machine: sortmiddle\nsortmiddle: {tile_width: 32, tile_height: 32, tile_buffers: 2}\n", 4,
			"m.yaml:2: sortmiddle.tile_width: 32x32 tiles at 4 samples of 20 bytes need 81920 bytes, more than sortmiddle.tile_memory_kb (128 KB) in 2 tile buffers (sortmiddle.tile_buffers)"},
	}
	for _, tc := range tests {
		cfg := machine(t, "m", tc.yaml)
		o := driver.DefaultOptions()
		o.ColorFormat = framebuffer.RGBA32F // 16 bytes a sample, and 4 of depth
		_, f := frameWith(t, "triangle", 32, 32, tc.samples, o)
		p, _, err := runFrame(t, cfg, f)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got  %v\n want %s", tc.name, err, tc.want)
		}
		if p.CommandProcessor.Finished() || p.Engine.CurrentTime() != 0 {
			t.Errorf("%s: the simulation ran", tc.name)
		}
	}
}

// TestSortMiddleTiles: the tile grid follows the tile memory and the frame's
// samples and formats (the document's 128 KB: 64x64 at 4x, 32x16 at 27), and
// every binned primitive is rasterized in every tile it was binned to and no
// other: the primitives the tile units send equal the bin entries, the
// rasterizers take exactly those, and the quads add up to the reference's
// (TestTimedEqualsReference).
func TestSortMiddleTiles(t *testing.T) {
	for _, tc := range []struct {
		samples      int
		tileW, tileH int
	}{{1, 128, 128}, {4, 64, 64}, {8, 64, 32}, {27, 32, 16}} {
		t.Run(fmt.Sprintf("%dx", tc.samples), func(t *testing.T) {
			cfg := SortMiddleMachine()
			_, f := frame(t, "room", 160, 90, tc.samples)
			p, res := timedOn(t, cfg, f)
			if g := p.SortMiddle.Grid; g.TileW != tc.tileW || g.TileH != tc.tileH {
				t.Errorf("%dx%d tiles, want %dx%d", g.TileW, g.TileH, tc.tileW, tc.tileH)
			}
			st := res.Stats
			var sent, taken float64
			for k := range p.SortMiddle.TileUnits {
				n := fmt.Sprintf("GPU.TileUnit[%d]", k)
				sent += st[n+".primitives"]
				taken += st[n+".Rasterizer.primitives"]
				if st[n+".tile_memory_peak_bytes"] > float64(cfg.SortMiddle.TileMemoryKB*1024) {
					t.Errorf("%s: tile memory peak %v bytes", n, st[n+".tile_memory_peak_bytes"])
				}
			}
			if entries := st["GPU.Binner.bin_entries"]; sent != entries || taken != entries || entries == 0 {
				t.Errorf("%v bin entries, %v primitives sent to the rasterizers, %v taken", entries, sent, taken)
			}
		})
	}
}

// TestSortMiddleDecoupledEqualsReference: the blurred study scenes at 8 and 27
// samples per pixel on the tiled machine, with its per-tile shading cache of
// 32 and 1024 entries: the image and memory equal the reference renderer's,
// the visibility counters too, and the per-tile cache shades at least what
// the reference's unbounded memo shades.
func TestSortMiddleDecoupledEqualsReference(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	for _, entries := range []int{32, 1024} {
		cfg := machine(t, "sortmiddle", fmt.Sprintf("machine: sortmiddle\nreorder_buffer: {shading_cache_entries: %d}\n", entries))
		for _, sc := range []struct {
			name    string
			samples int
		}{{"defocus", 8}, {"motion", 27}, {"egomotion", 27}} {
			t.Run(fmt.Sprintf("%d-entries/%s/%dx", entries, sc.name, sc.samples), func(t *testing.T) {
				s, f := frame(t, sc.name, 64, 36, sc.samples)
				res := timed(t, cfg, f)
				_, g := frame(t, sc.name, 64, 36, sc.samples)
				ref := referenceRender(t, cfg, g)
				if ref.Counters.Decoupled.Raster.Tests() == 0 {
					t.Fatalf("%s: no 5D primitive", s.Name)
				}
				if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
					t.Errorf("%s: the timed image differs from the reference image", s.Name)
				}
				tc, rc := sameMemoryAndCounters(t, s.Name+": ", f, g, res, ref, "ps_invocations", "helper_pixels")
				if tc["ps_invocations"] < rc["ps_invocations"] {
					t.Errorf("%s: %v invocations timed, fewer than the unbounded memo's %v", s.Name, tc["ps_invocations"], rc["ps_invocations"])
				}
				if res.Stats["GPU.Binner.bin_spread"] <= 1 {
					t.Errorf("%s: bin spread %v: the blurred primitives span no tile boundary", s.Name, res.Stats["GPU.Binner.bin_spread"])
				}
			})
		}
	}
}

// TestSortMiddleOddFrame: a frame of odd width or height clips the last
// screen tiles to an odd pixel; the tile units send quad-aligned windows and
// the image, memory and counters equal the reference renderer's (a plain and
// a 5D draw).
func TestSortMiddleOddFrame(t *testing.T) {
	cfg := SortMiddleMachine()
	for _, tc := range []struct {
		scene         string
		width, height int
		samples       int
	}{{"room", 97, 55, 4}, {"room", 1, 1, 1}, {"defocus", 65, 37, 8}} {
		t.Run(fmt.Sprintf("%s/%dx%d", tc.scene, tc.width, tc.height), func(t *testing.T) {
			s, f := frame(t, tc.scene, tc.width, tc.height, tc.samples)
			res := timed(t, cfg, f)
			_, g := frame(t, tc.scene, tc.width, tc.height, tc.samples)
			ref := referenceRender(t, cfg, g)
			if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
				t.Errorf("%s: the timed image differs from the reference image", s.Name)
			}
			// A decoupled draw shades per tile (TestSortMiddleDecoupledEqualsReference).
			var skip []string
			if tc.scene == "defocus" {
				skip = []string{"ps_invocations", "helper_pixels"}
			}
			sameMemoryAndCounters(t, s.Name+": ", f, g, res, ref, skip...)
		})
	}
}

// TestSortMiddleSlowMemory: a tile unit waiting on a slow memory
// progresses with every response (memclient counts them for the watchdog): a
// frame behind a 100,000-cycle memory runs to its end instead of being
// stopped as hung, and equals the reference image.
func TestSortMiddleSlowMemory(t *testing.T) {
	outlastsWatchdog(t, machine(t, "slow", "machine: sortmiddle\nmemory: {type: ideal, ideal_latency: 100000}\n"), "room", 64, 36, 4, 1)
}

// TestSortMiddleDeterminism: two runs give identical statistics, and the
// parallel engine gives the same image and statistics as the serial one.
func TestSortMiddleDeterminism(t *testing.T) {
	cfg := machine(t, "sortmiddle", "machine: sortmiddle\nsortmiddle: {tile_width: 32, tile_height: 16, tile_units: 3}\n")
	_, f1 := frame(t, "room", 80, 48, 4)
	_, f2 := frame(t, "room", 80, 48, 4)
	a, b := timed(t, cfg, f1), timed(t, cfg, f2)
	diffStats(t, "serial run 1 vs 2", a, b)
	par := machine(t, "sortmiddle", "machine: sortmiddle\nengine: parallel\nsortmiddle: {tile_width: 32, tile_height: 16, tile_units: 3}\n")
	_, f3 := frame(t, "room", 80, 48, 4)
	diffStats(t, "serial vs parallel", a, timed(t, par, f3))
}

// TestSortMiddleStuckTileUnitIsReported: a tile unit whose rasterizer never
// takes its primitives ends the run with an error naming the tile unit and
// the buffer it is stuck on, not a hang.
func TestSortMiddleStuckTileUnitIsReported(t *testing.T) {
	_, f := frame(t, "room", 64, 32, 1)
	stuck(t, SortMiddleMachine(), f, "tile unit", func(p *Platform) {
		p.SortMiddle.TileUnits[0].Unit.Rasterizer = sinkOn(t, p, "GPU.TileUnit[0].PrimitiveBus")
	}, "GPU.TileUnit[0].Tile[0].PrimitivesToSend")
}
