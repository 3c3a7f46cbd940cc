package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene"
)

// TestMemorySummary checks the memory table's cells: a dramctl channel shows
// its own achieved and peak bandwidth, row-hit rate and latency; an Akita
// channel its bytes over the frame, the configuration's peak per channel, no
// row hits, and its latency in cycles of its clock and in ns.
func TestMemorySummary(t *testing.T) {
	for _, tc := range []struct {
		name string
		mc   memory.Config
		st   map[string]float64
		want []string
	}{
		{
			name: "dramctl",
			mc:   memory.Config{Type: memory.TypeDRAMCtl, NumChannels: 2, DRAMCtl: dramctl.Config{Preset: "HBM2"}},
			st: map[string]float64{
				"GPU.Memory.Channel[0].bytes_read": 3e6, "GPU.Memory.Channel[0].bytes_written": 1e6,
				"GPU.Memory.Channel[0].achieved_bandwidth": 12.34, "GPU.Memory.Channel[0].peak_bandwidth": 32,
				"GPU.Memory.Channel[0].row_hit_rate": 0.877, "GPU.Memory.Channel[0].read_latency_avg": 150,
				"GPU.Memory.Channel[0].refresh_cycles": 62500, "GPU.Memory.Channel[0].bursts_per_activate": 4.5,
				"GPU.Memory.Channel[1].bytes_read": 1e6, "GPU.Memory.Channel[1].bytes_written": 0,
				"GPU.Memory.Channel[1].achieved_bandwidth": 2.5, "GPU.Memory.Channel[1].peak_bandwidth": 32,
				"GPU.Memory.Channel[1].row_hit_rate": 0, "GPU.Memory.Channel[1].read_latency_avg": 40,
				"GPU.Memory.Channel[1].bursts_per_activate": 1,
			},
			want: []string{
				// HBM2 runs at 1 GHz: cycles are ns; 62,500 refresh cycles of the frame's 1,000,000.
				"GPU.Memory.Channel[0]     3.00        1.00  12.3       32.0     87.7%        4.50     6.2%                        150   150",
				"GPU.Memory.Channel[1]     1.00        0.00   2.5       32.0      0.0%        1.00        -                         40    40",
				// 5 MB over 1 ms; peak 2 x 32.
				"total                     4.00        1.00   5.0       64.0",
			},
		},
		{
			name: "akita dram",
			mc:   memory.Config{NumChannels: 4, Freq: 1200 * sim.MHz},
			st: map[string]float64{
				"GPU.Memory.Channel[0].bytes_read": 2e6, "GPU.Memory.Channel[0].bytes_written": 2e6,
				"GPU.Memory.Channel[0].read_latency_avg": 600,
				"GPU.Memory.Channel[3].bytes_read":       1e6, "GPU.Memory.Channel[3].bytes_written": 0,
				"GPU.Memory.Channel[3].read_latency_avg": 0,
				"GPU.ROP.memory.bytes_read":              7e6, // not a channel
			},
			want: []string{
				// 4 MB over 1 ms is 4 GB/s; 153.6 GB/s / 4 channels; 600 cycles at 1.2 GHz = 500 ns.
				"GPU.Memory.Channel[0]     2.00        2.00   4.0       38.4         -           -        -                        600   500",
				"GPU.Memory.Channel[3]     1.00        0.00   1.0       38.4         -           -        -                          0     0",
				"total                     3.00        2.00   5.0      153.6",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			memorySummary(&b, tc.st, 1e-3, tc.mc.WithDefaults())
			out := b.String()
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("no line %q in\n%s", want, out)
				}
			}
			if strings.Contains(out, "GPU.ROP") {
				t.Errorf("a client in the channel table:\n%s", out)
			}
		})
	}
}

// TestROPSummary: the ROP line sums the ROPs of both machines' names (and no
// other unit), shares their stalls over ROPs x cycles, and the prefetch line
// appears only when prefetches were issued.
func TestROPSummary(t *testing.T) {
	st := map[string]float64{
		"GPU.ROP[0].quads_in": 10, "GPU.ROP[0].quads_written": 8, "GPU.ROP[0].cycles_wait_memory": 100,
		"GPU.ROP[0].cycles_wait_late_z": 50, "GPU.ROP[0].cache_line_reads": 3, "GPU.ROP[0].bytes_read": 1.5e6,
		"GPU.ROP[0].prefetch_issued": 10, "GPU.ROP[0].prefetch_useful": 6, "GPU.ROP[0].prefetch_late": 1,
		"GPU.ROP[0].prefetch_useless":  2,
		"GPU.TileUnit[1].ROP.quads_in": 5, "GPU.TileUnit[1].ROP.quads_written": 4, "GPU.TileUnit[1].ROP.cycles_wait_memory": 300,
		"GPU.TileUnit[1].ROP.bytes_read":      0.5e6,
		"GPU.DepthUnit[0].cycles_wait_memory": 1000, "GPU.ROP[0].memory.bytes_read": 9e9,
	}
	var b bytes.Buffer
	ropSummary(&b, st, 1000)
	want := "\nROPs: 12 quads written; waiting for memory 20.0% and for late Z 2.5% of their cycles; colour lines read 3 (2.00 MB)\n" +
		"framebuffer prefetch: 10 lines issued: 6 useful, 1 late, 2 useless (70.0% useful or late)\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	delete(st, "GPU.ROP[0].prefetch_issued")
	b.Reset()
	ropSummary(&b, st, 1000)
	if strings.Contains(b.String(), "prefetch") {
		t.Errorf("a prefetch line without prefetches:\n%s", b.String())
	}
}

func TestGeometrySummary(t *testing.T) {
	st := map[string]float64{
		"GPU.ShaderCore[0].gs_warps": 3, "GPU.ShaderCore[1].gs_warps": 2, "GPU.ShaderCore[0].gs_invocations": 200,
		"GPU.ShaderCore[1].gs_invocations": 100, "GPU.ShaderCore[0].gs_instructions": 50,
		"GPU.ShaderCore[1].gs_admit_blocked_output_buffer_cycles": 7, "GPU.ShaderCore[0].gs_admit_blocked_warps_cycles": 2,
		"GPU.PrimitiveAssembly.gs_primitives": 600, "GPU.PrimitiveAssembly.cycles_wait_gs_warp": 40,
		"GPU.PrimitiveAssembly.gs_warps_reordered": 2, "GPU.PrimitiveAssembly.gs_warps_returned": 5,
		"GPU.PrimitiveAssembly.so_primitives_needed": 10, "GPU.PrimitiveAssembly.so_primitives_written": 8,
		"GPU.PrimitiveAssembly.so_bytes_written": 2e6, "GPU.PrimitiveAssembly.so_write_requests": 30,
		"GPU.PrimitiveAssembly.cycles_wait_stream_out": 12, "GPU.CommandProcessor.draw_auto_reads": 1,
	}
	var b bytes.Buffer
	geometrySummary(&b, st)
	want := "\ngeometry shading: 5 GS warps (300 primitives in, 600 out), 50 warp instructions; cores' GS admission blocked 7 cycles on the output buffer, 2 on the GS warp limit; primitive assembly waited 40 cycles for a GS warp (2 of 5 warps came back before their turn)\n" +
		"stream-out: 8 of 10 primitives written (2.00 MB in 30 write requests); primitive assembly waited 12 cycles for it; 1 DrawAuto counter reads\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	b.Reset()
	geometrySummary(&b, map[string]float64{"GPU.ShaderCore[0].gs_warps": 0})
	if b.Len() != 0 {
		t.Errorf("a geometry summary without a geometry stage: %q", b.String())
	}
}

// TestUnitSharesSumTo100: on a real frame (room, 64x36, 4x MSAA, on the
// sort-last, tiled and SAGE machines) every unit's printed busy, idle/starved
// and stall causes add up to 100% within their rounding, and its causes to
// its stalled share. The shares are of each unit's own cycles: on the
// sort-last and tiled machines every unit's states sum to the frame's
// cycles, so that no unit's count is off unseen; on SAGE the 100 MHz sched
// and interleave chips count a fifth of them, and the video path (route and
// convolve chips) counts until the last video line. (Before, the SAGE rows
// were shares of the core cycles and summed to 20% or to 700%.) A blurred
// frame (motion, decoupled sampling) on the sort-last and tiled machines adds
// the reorder buffer's shading cache: its stall counters that are not states
// of the activity must not be taken for some. (Before, cycles_cache_all_referenced
// counted cycles the activity already counted as full, and the sort-last
// reorder buffer's row was a share of 129% of its cycles.)
func TestUnitSharesSumTo100(t *testing.T) {
	smallCache := func(c *configs.Config) *configs.Config {
		c.ReorderBuffer.ShadingCacheEntries = 32 // every entry referenced at times
		return c
	}
	for _, run := range []struct {
		cfg   *configs.Config
		scene string
	}{
		{configs.Default(), scene.DefaultName}, {configs.SortMiddleMachine(), scene.DefaultName}, {configs.SageMachine(), scene.DefaultName},
		{smallCache(configs.Default()), "motion"}, {smallCache(configs.SortMiddleMachine()), "motion"},
	} {
		cfg := run.cfg
		s, err := scene.Builtin(run.scene, scene.WithResolution(64, 36), scene.WithSamples(4))
		if err != nil {
			t.Fatal(err)
		}
		p, res, err := configs.RunScene(cfg, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.Units {
			a := activityOf(res.Stats, u.Name())
			own, want := a.busy+a.idle+a.stalled, float64(res.Cycles)
			switch {
			case cfg.Machine != "sage":
			case strings.HasPrefix(u.Name(), "GPU.Sched") || strings.HasPrefix(u.Name(), "GPU.Interleave"):
				want = float64(res.Cycles / 5)
			case u.Name() == "GPU.Video":
				want = 0 // counts no states
			case u.Name() == "GPU.Route" || strings.HasPrefix(u.Name(), "GPU.Convolve"):
				want = own // its clock until the last video line
				if end := res.Stats["GPU.video_end_cycles"]; own <= float64(res.Cycles)/10 || end <= float64(res.Cycles) {
					t.Errorf("%s: %s counts %v cycles; the frame took %d core cycles, the video ended at %v", cfg.Name, u.Name(), own, res.Cycles, end)
				}
			}
			if d := own - want; d > 1 || d < -1 {
				t.Errorf("%s: %s counts %v cycles of states, want %v", cfg.Name, u.Name(), own, want)
			}
		}
		var b bytes.Buffer
		unitTable(&b, p, res.Stats)
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if len(lines) != len(p.Units)+3 {
			t.Fatalf("%s: %d lines for %d units:\n%s", cfg.Name, len(lines), len(p.Units), b.String())
		}
		for _, line := range lines[2 : len(lines)-1] {
			f := strings.Fields(line)
			if f[1] == "-" {
				if f[0] != "GPU.Video" {
					t.Errorf("%s: %s", cfg.Name, line)
				}
				continue
			}
			busy, slackB := parseShare(t, f[1])
			idle, slackI := parseShare(t, f[2])
			stalled, slackS := parseShare(t, f[3])
			causes, slackC := 0.0, 0.0
			if f[4] != "-" {
				for _, c := range strings.Split(strings.Join(f[4:], " "), ", ") {
					name, v, ok := strings.Cut(c, " ")
					if !ok || name == "" {
						t.Fatalf("%s: cause %q", line, c)
					}
					x, sl := parseShare(t, v)
					causes, slackC = causes+x, slackC+sl
				}
			}
			if d := busy + idle + causes - 100; d > slackB+slackI+slackC || -d > slackB+slackI+slackC {
				t.Errorf("%s: %s: busy + idle/starved + causes = %.2f%%", cfg.Name, line, busy+idle+causes)
			}
			if d := causes - stalled; d > slackC+slackS || -d > slackC+slackS {
				t.Errorf("%s: %s: causes sum to %.2f%%, stalled %.1f%%", cfg.Name, line, causes, stalled)
			}
		}
	}
}

// parseShare reads a printed share ("12.3%" or "<0.1%") as its midpoint and
// the most its rounding can be off.
func parseShare(t *testing.T, s string) (v, slack float64) {
	t.Helper()
	if s == "<0.1%" {
		return 0.025, 0.025
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || !strings.HasSuffix(s, "%") {
		t.Fatalf("share %q", s)
	}
	return v, 0.05
}

// TestBusiestLink: a crossbar's busiest link is the busiest of all its
// destination links, also those whose names hold a dot (on SAGE the video
// crossbar's convolve chips take spans at ToConvolve[c].FromRoute and nothing
// at ToConvolve[c]; the memory crossbar's pipes answer at
// ToPipe[p].InputAssembler); a bus reports its own busy cycles.
func TestBusiestLink(t *testing.T) {
	st := map[string]float64{
		"GPU.VideoXbar.busy_cycles": 21240, "GPU.VideoXbar.ToRoute.busy_cycles": 720,
		"GPU.VideoXbar.ToConvolve[0].busy_cycles": 0, "GPU.VideoXbar.ToConvolve[0].FromRoute.busy_cycles": 5040,
		"GPU.VideoXbar.ToConvolve[2].FromRoute.busy_cycles": 5220, "GPU.VideoXbar.ToRoute.ToConvolves.busy_cycles": 0,
		"GPU.MemoryXbar.ToPipe[0].InputAssembler.busy_cycles": 3218, "GPU.MemoryXbar.ToPipe[2].InputAssembler.busy_cycles": 3492,
		"GPU.HostBus.busy_cycles": 2827, "GPU.HostBusX.ToY.busy_cycles": 99999,
	}
	for name, want := range map[string]float64{"GPU.VideoXbar": 5220, "GPU.MemoryXbar": 3492, "GPU.HostBus": 2827} {
		if got := busiestLink(st, name); got != want {
			t.Errorf("busiestLink(%s) = %v, want %v", name, got, want)
		}
	}
}

// On SAGE each pipe's texture memory gets a row (its channels summed, the
// read latency their reads' mean, the row hits over their bursts) and each
// video output a line; other machines print neither.
func TestPipeMemoryAndVideoSummary(t *testing.T) {
	st := map[string]float64{
		"GPU.Pipe[0].TextureMemory.Channel[0].bytes_read": 2e6, "GPU.Pipe[0].TextureMemory.Channel[1].bytes_read": 1e6,
		"GPU.Pipe[0].TextureMemory.Channel[0].bytes_written": 0, "GPU.Pipe[0].TextureMemory.Channel[1].bytes_written": 0,
		"GPU.Pipe[0].TextureMemory.Channel[0].reads": 30, "GPU.Pipe[0].TextureMemory.Channel[0].read_latency_avg": 100,
		"GPU.Pipe[0].TextureMemory.Channel[1].reads": 10, "GPU.Pipe[0].TextureMemory.Channel[1].read_latency_avg": 60,
		"GPU.Pipe[0].TextureMemory.Channel[0].row_hits": 3, "GPU.Pipe[0].TextureMemory.Channel[0].row_misses": 5,
		"GPU.Pipe[0].TextureMemory.Channel[1].row_conflicts": 2,
		"GPU.Video[1].pixels":                                100, "GPU.Video[1].required_pixel_rate": 2e6, "GPU.Video[1].delivered_pixel_rate": 1.5e6,
		"GPU.Video[1].underruns": 7, "GPU.Video[1].stall_cycles": 0, "GPU.Video[1].late_spans": 2, "GPU.Video[1].spans": 10,
	}
	var b bytes.Buffer
	pipeMemorySummary(&b, st, 1e-3)
	videoSummary(&b, st)
	for _, want := range []string{
		"GPU.Pipe[0].TextureMemory         2     3.00        0.00   3.0     30.0%                         90",
		"\nGPU.Video[1]: 100 pixels scanned out; 2.0 Mpixel/s needed, 1.5 delivered; 7 underruns, 0 stall cycles, 2 late spans of 10\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	pipeMemorySummary(&b, map[string]float64{"GPU.Memory.Channel[0].bytes_read": 1}, 1e-3)
	videoSummary(&b, map[string]float64{"GPU.ROP[0].pixels": 1})
	if b.Len() != 0 {
		t.Errorf("a sort-last frame printed %q", b.String())
	}
}
