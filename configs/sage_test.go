package configs

import (
	"strings"
	"testing"
)

func TestSageMachine(t *testing.T) {
	c := SageMachine()
	if c.Machine != "sage" || c.Sage.Pipes != 4 || c.Sage.SampleBuffer.Interleaves != 8 || c.Sage.Convolve.Chips != 4 {
		t.Fatalf("embedded SAGE machine: %+v", c.Sage)
	}
	// A file that says machine: sage starts from it; one that does not, from the default.
	got, err := Parse("s.yaml", []byte("machine: sage\nsage: {pipes: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Sage.Pipes != 2 || got.Raster.Rasterizers != 1 || got.Clocks.CoreMHz != c.Clocks.CoreMHz {
		t.Errorf("overlay on the SAGE machine: pipes %d, rasterizers %d, core %v MHz", got.Sage.Pipes, got.Raster.Rasterizers, got.Clocks.CoreMHz)
	}
	// One that does not run the default machine, where a sage section would do
	// nothing: it is refused (TestErrors).
	if _, err := Parse("d.yaml", []byte("sage: {pipes: 2}\n")); err == nil {
		t.Errorf("a sage section without machine: sage was accepted")
	}
	if _, err := c.SageFilter(); err != nil {
		t.Error(err)
	}
}

// TestSageIgnoresTheSortLastBackEnd: the rules of the sort-last back end
// (depth units, quad packer, reorder buffer, ROPs, which SAGE's pipes do not
// have) do not refuse a SAGE machine: a 4-lane warp with one sample quad per
// fill warp is accepted though the inherited quad_packer.quads_per_warp (8)
// needs 32 lanes; on the sort-last machine the same fields are refused. A
// SAGE file that sets those sections is told that SAGE has none of them (the
// first the file sets), not the sort-last rule.
func TestSageIgnoresTheSortLastBackEnd(t *testing.T) {
	for _, tc := range []struct{ yaml, sage, sortlast string }{
		{"shader_core: {warp_size: 4, simd_width: 4, sfu_rate: 4}\ninput_assembler: {batch_vertices: 4}\nsage: {fill: {quads_per_warp: 1}}\n", "",
			"m.yaml:2: quad_packer.quads_per_warp: 8 quads need 32 lanes, the warp has 4"},
		{"rop: {cache: {line_bytes: 4}, tile_size: 2}\ndepth_unit: {cache: {line_bytes: 512}}\n",
			"m.yaml:2: rop: the SAGE machine has no ROPs: its pipes write samples to the 3DRAM interleaves (sage.sample_buffer), so this section would change nothing: remove it",
			"m.yaml:2: rop.tile_size: 2 pixels is smaller than the raster tile (8)"},
	} {
		if _, err := Parse("m.yaml", []byte("machine: sage\n"+tc.yaml)); tc.sage == "" && err != nil || tc.sage != "" && (err == nil || err.Error() != tc.sage) {
			t.Errorf("SAGE, %q: got %v\nwant %s", tc.yaml, err, tc.sage)
		}
		sl := strings.Replace(tc.yaml, "sage: {fill: {quads_per_warp: 1}}\n", "", 1)
		if _, err := Parse("m.yaml", []byte("machine: sortlast\n"+sl)); err == nil || err.Error() != tc.sortlast {
			t.Errorf("sort-last, %q: got %v\nwant %s", sl, err, tc.sortlast)
		}
	}
}

func TestSageErrors(t *testing.T) {
	table := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat("0.5, ", n), ", ") + "]"
	}
	tests := []parseError{
		{"radius beyond the window", "machine: sage\nsage:\n  convolve:\n    radius: 3\n",
			"m.yaml:4: sage.convolve.radius: 3 pixels: the 5x5 filter window holds radii from 0.0625 to 2.5"},
		{"table of 255", "machine: sage\nsage:\n  convolve:\n    filter: table\n    radius: 2\n    table: " + table(255) + "\n",
			"m.yaml:6: sage.convolve.table: 255 coefficients: the coefficient table has exactly 256 entries"},
		{"table without table filter", "machine: sage\nsage:\n  convolve:\n    table: " + table(256) + "\n",
			"m.yaml:4: sage.convolve.table: 256 coefficients given, but the filter is mitchell (set filter: table to use them)"},
		{"table filter without a table", "machine: sage\nsage:\n  convolve:\n    filter: table\n    radius: 2\n",
			"m.yaml:4: sage.convolve.table: 0 coefficients: the coefficient table has exactly 256 entries"},
		{"table without radius", "machine: sage\nsage:\n  convolve:\n    filter: table\n    table: " + table(256) + "\n",
			"m.yaml:4: sage.convolve.filter: table needs sage.convolve.radius, the table's radius (the squared distance is scaled by 1/radius^2)"},
		{"table entry", "machine: sage\nsage:\n  convolve:\n    filter: table\n    radius: 2\n    table: [x]\n",
			`m.yaml:6: sage.convolve.table[0]: want a number, got "x"`},
		{"hysteresis zero", "machine: sage\nsage:\n  sched: {hysteresis: 0}\n",
			"m.yaml:3: sage.sched.hysteresis: 0 out of range [1, 1048576] samples"},
		{"fifo zero", "machine: sage\nsage:\n  sched: {input_fifo: 0}\n",
			"m.yaml:3: sage.sched.input_fifo: 0 out of range [1, 1048576] samples"},
		{"pipes", "machine: sage\nsage: {pipes: 5}\n", "m.yaml:2: sage.pipes: 5 out of range [1, 4]"},
		{"two rasterizers", "machine: sage\nraster: {rasterizers: 2}\n",
			"m.yaml:2: raster.rasterizers: 2: a SAGE pipe has one rasterize chip (set sage.pipes for more pipes)"},
		{"pixel rate", "machine: sage\nsage:\n  fill: {pixel_rate: [texcoord, bogus]}\n",
			`m.yaml:3: sage.fill.pixel_rate: "bogus" is the semantic of no pixel shader input of the shader library (have color, normal, pin, slide0, slide1, slide2, slide3, tangent, texcoord, worldpos)`},
		{"hiz", "machine: sage\nhiz: {mode: zmask}\n",
			"m.yaml:2: hiz.mode: zmask: the SAGE machine keeps z in its 3DRAM sample buffer and has no HiZ units: set off"},
		{"map", "machine: sage\nsage:\n  sample_buffer:\n    map: chip\n",
			`m.yaml:4: sage.sample_buffer.map: "chip" is not one of sample, pixel, line`},
		{"odd interleaves", "machine: sage\nsage:\n  sample_buffer: {interleaves: 7}\n",
			"m.yaml:3: sage.sample_buffer.interleaves: 7: the two sched chips serve half of the interleaves each"},
		{"filter name", "machine: sage\nsage:\n  convolve: {filter: lanczos}\n",
			`m.yaml:3: sage.convolve.filter: "lanczos" is not one of mitchell, cylinder, laplacian, gaussian, box, table`},
		{"two channels, one chip", "machine: sage\nsage:\n  convolve: {chips: 1}\n  video: {channels: 2}\n",
			"m.yaml:4: sage.video.channels: 2 channels need at least 2 convolve chips (one chain each, §7.1), the board has 1"},
		{"three channels", "machine: sage\nsage:\n  video: {channels: 3}\n", "m.yaml:3: sage.video.channels: 3 out of range [1, 2]"},
		{"split", "machine: sage\nsage:\n  video: {split: mirror}\n", `m.yaml:3: sage.video.split: "mirror" is not one of vertical`},
		{"machine", "machine: tiled\n", `m.yaml:1: machine: "tiled" is not one of sortlast, sage, sortmiddle`},
		{"snoop beyond the queue", "machine: sage\nsage:\n  sched: {prewrite_queue: 8, snoop_distance: 8}\n",
			"m.yaml:3: sage.sched.snoop_distance: 8 samples: the snoop looks inside the 8-sample pre-write queue (at most 7)"},
	}
	wantParseErrors(t, tests)
}
