package configs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// sageFrame encodes built-in scene name for machine c (an RGBA10 sample buffer
// on the SAGE machine).
func sageFrame(t testing.TB, c *Config, name string, w, h, samples int) *driver.Frame {
	t.Helper()
	_, f := frameWith(t, name, w, h, samples, c.DriverOptions())
	return f
}

// sum adds the statistic counter of every unit whose name starts with prefix.
func sum(st map[string]float64, prefix, counter string) float64 {
	t := 0.0
	for k, v := range st {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, "."+counter) {
			t += v
		}
	}
	return t
}

// sageMachines are the SAGE variants the invariant is checked on: the board
// (four pipes, unordered rendering of order-independent draws) at 8 samples,
// one pipe with the narrowest FIFOs and a hysteresis of one sample at 1, every
// draw ordered, a barrier before every draw, the board at 16 and at 1, one
// pipe at 16, two pipes at 8, the pixel-interleaved map (at 8, at 16 on three
// pipes, at 1 on 4 interleaves of 3 chips), the board's two video channels (the left and
// right halves, two convolve chips each) at 8 and, with three chips (1 + 2)
// and strict timing, at 4; and behind a slow command bus.
var sageMachines = []struct {
	name, yaml string
	samples    int
	scenes     []string
}{
	{"board", "machine: sage\n", 8, nil},
	{"narrow", `machine: sage
sage:
  pipes: 1
  fill: {quads_per_warp: 3, warps_in_flight: 2, samples_per_cycle: 1, burst_samples: 3}
  sched: {input_fifo: 4, stage_fifo: 2, prewrite_queue: 2, snoop_distance: 1, hysteresis: 1}
  route: {fifo_samples: 64}
`, 1, nil},
	{"ordered", "machine: sage\nsage: {distribution: {mode: ordered}}\n", 4, []string{"room", "overdraw", "foliage", "texmodes"}},
	{"barriers", "machine: sage\nsage: {pipes: 3, distribution: {mode: barrier_per_draw, chunk_triangles: 16}}\n", 4, []string{"room", "overdraw", "smalltris", "grass", "particles"}},
	{"small-chunks", "machine: sage\nsage: {pipes: 3, distribution: {chunk_triangles: 16}}\n", 4, []string{"grass", "silhouette", "particles"}},
	{"sixteen", "machine: sage\nsage: {sched: {hysteresis: 1}}\n", 16, []string{"room", "overdraw", "depthwrite", "bowlingpin"}},
	{"one-sample", "machine: sage\n", 1, []string{"room", "overdraw", "foliage", "texmodes"}},
	{"one-pipe-sixteen", "machine: sage\nsage: {pipes: 1}\n", 16, []string{"room", "foliage", "depthwrite"}},
	{"two-pipes-eight", "machine: sage\nsage: {pipes: 2}\n", 8, []string{"room", "smalltris"}},
	// The pixel-interleaved map (sage.sample_buffer.map: pixel): a pixel's
	// samples in one interleave; at 16 samples, 4 per chip.
	{"pixel-map", "machine: sage\nsage: {sample_buffer: {map: pixel}}\n", 8, nil},
	{"pixel-map-sixteen", "machine: sage\nsage: {pipes: 3, sample_buffer: {map: pixel}, sched: {hysteresis: 1}}\n", 16,
		[]string{"room", "overdraw", "depthwrite", "particles"}},
	{"pixel-map-one", "machine: sage\nsage: {sample_buffer: {map: pixel, interleaves: 4, chips_per_interleave: 3}}\n", 1,
		[]string{"room", "overdraw", "foliage"}},
	// The line map: interleave x mod interleaves, here 6 of 2 chips at 4
	// samples.
	{"line-map", "machine: sage\nsage: {sample_buffer: {map: line, interleaves: 6, chips_per_interleave: 2}}\n", 4,
		[]string{"room", "overdraw"}},
	{"two-channels", "machine: sage\nsage: {video: {channels: 2}}\n", 8, nil},
	{"two-channels-three-chips", "machine: sage\nsage: {convolve: {chips: 3}, video: {channels: 2, mode: strict}}\n", 4,
		[]string{"room", "overdraw", "texmodes"}},
	// A slow command bus delays an empty draw's BatchInfo past the next
	// draw's shaded batches: primitive assembly must keep draw order.
	{"slow-command-bus", "machine: sage\nbuses: {command: {latency: 2000}}\n", 4, []string{"room", "overdraw"}},
}

// TestSageTimedEqualsReference: the SAGE machine's video output equals the
// reference renderer's SAGE image bit for bit, and so does the sample buffer
// (the memory image), for every built-in scene, on every variant.
func TestSageTimedEqualsReference(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	for _, m := range sageMachines {
		cfg := machine(t, "sage-"+m.name, m.yaml)
		names := m.scenes
		if names == nil {
			names = scene.BuiltinNames()
		}
		for _, name := range names {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				f := sageFrame(t, cfg, name, 64, 40, m.samples)
				res := timed(t, cfg, f)
				g := sageFrame(t, cfg, name, 64, 40, m.samples)
				ref := referenceRender(t, cfg, g)
				if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
					t.Errorf("%d samples: the video output differs from the reference SAGE image", m.samples)
				}
				if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
					t.Error("the memory images (sample buffer, depth) differ after the frame")
				}
				c := &ref.Counters
				written, failed := sum(res.Stats, "GPU.Interleave[", "samples_written"), sum(res.Stats, "GPU.Interleave[", "z_failed")
				counts := []struct {
					name   string
					timed  float64
					refval int
				}{
					// Every shaded sample the shader kept is tested exactly once.
					{"samples tested", written + failed, c.SamplesWritten + c.DepthTestsFailed},
					{"samples blended", sum(res.Stats, "GPU.Interleave[", "samples_blended"), c.SamplesBlended},
					{"samples killed", sum(res.Stats, "GPU.Pipe[", "killed_samples"), c.SamplesKilled},
					{"sample quads", sum(res.Stats, "GPU.Pipe[", "sample_quads"), c.ShadingQuads},
				}
				if cfg.Sage.Pipes == 1 || cfg.Sage.Distribution.Mode == "ordered" {
					// In API order the depth tests see what the reference's see.
					// Otherwise order-independent draws meet their samples in
					// another order: the image is the same, the split between
					// written and failed is not.
					counts = append(counts, struct {
						name   string
						timed  float64
						refval int
					}{"samples written", written, c.SamplesWritten})
				}
				for _, k := range counts {
					if k.timed != float64(k.refval) {
						t.Errorf("%s: %v timed, %d reference", k.name, k.timed, k.refval)
					}
				}
				scanned := res.Stats["GPU.Video.pixels"]
				if cfg.Sage.Video.Channels == 2 {
					scanned = res.Stats["GPU.Video[0].pixels"] + res.Stats["GPU.Video[1].pixels"]
					if l, r := res.Stats["GPU.Video[0].pixels"], res.Stats["GPU.Video[1].pixels"]; l != 32*40 || r != 32*40 {
						t.Errorf("the channels scanned %v and %v pixels, want %d each (halves of 64x40)", l, r, 32*40)
					}
				}
				if scanned != float64(len(res.Image.Pix)/4) {
					t.Errorf("the video output scanned %v pixels of %d", scanned, len(res.Image.Pix)/4)
				}
			})
		}
	}
}

// TestSageDeterminism: two runs give identical statistics, and the parallel
// engine gives the same image and statistics as the serial one.
func TestSageDeterminism(t *testing.T) {
	cfg := SageMachine()
	a := timed(t, cfg, sageFrame(t, cfg, "room", 64, 40, 4))
	b := timed(t, cfg, sageFrame(t, cfg, "room", 64, 40, 4))
	diffStats(t, "serial run 1 vs 2", a, b)
	par := SageMachine()
	par.Engine = "parallel"
	c := timed(t, par, sageFrame(t, par, "room", 64, 40, 4))
	diffStats(t, "serial vs parallel", a, c)
}

// TestSageMaps: sage.sample_buffer.map reaches the sample fills (which
// route each sample to its interleave) and the interleaves (its chip, row and
// the clear's share). A 63x40 raster at 8 samples is 630 samples per chip
// under the sample map, so every interleave clears 2520 (158 cycles at 16 a
// cycle); under the pixel map interleaves 3 and 7 (columns x mod 4 = 3) hold
// 15 of the 63 columns, 2400 samples (150 cycles), the others 16 (2560:
// 160); under the line map (interleave x mod 8) interleave 7 holds 7 of the
// 63 columns, 2240 samples (140 cycles), the others 8 (2560: 160).
func TestSageMaps(t *testing.T) {
	for _, m := range []string{"sample", "pixel", "line"} {
		cfg := machine(t, "map-"+m, "machine: sage\nsage: {sample_buffer: {map: "+m+"}}\n")
		p, res := timedOn(t, cfg, sageFrame(t, cfg, "room", 63, 40, 8))
		for _, pipe := range p.Sage.Pipes {
			if got := pipe.SampleFill.Cfg.Geometry.Map.String(); got != m {
				t.Errorf("map %s: %s has map %s", m, pipe.SampleFill.Name(), got)
			}
		}
		for i, il := range p.Sage.Interleaves {
			want := 158.0
			switch m {
			case "pixel":
				want = map[bool]float64{true: 150, false: 160}[i%4 == 3]
			case "line":
				want = map[bool]float64{true: 140, false: 160}[i == 7]
			}
			clears := res.Stats[fmt.Sprintf("GPU.Interleave[%d].clears", i)]
			if got := res.Stats[fmt.Sprintf("GPU.Interleave[%d].clear_cycles", i)]; clears < 1 || got != want*clears || il.Cfg.Geometry.Map.String() != m {
				t.Errorf("map %s: interleave %d (map %v) took %v cycles for %v clears, want %v each", m, i, il.Cfg.Geometry.Map, got, clears, want)
			}
		}
	}
}

// TestSageCapacity: a raster the sample buffer cannot hold is refused before
// the simulation starts, naming the field.
func TestSageCapacity(t *testing.T) {
	cfg := machine(t, "small", "machine: sage\nsage: {sample_buffer: {capacity_samples: 10000}}\n")
	_, _, err := runFrame(t, cfg, sageFrame(t, cfg, "triangle", 64, 40, 4))
	want := "small.yaml:2: sage.sample_buffer.capacity_samples: resolution: 64x40 at 4 samples per pixel is 10240 samples; the sample buffer holds 10000 per buffer (double-buffered, with z)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	want = "configs/sage.yaml:14: machine: sage: a frame of 27 samples per pixel: the SAGE pattern RAM holds 1 to 16 (choose -samples or the scene's samples accordingly)"
	if err := SageMachine().CheckFrame(64, 40, 27); err == nil || err.Error() != want {
		t.Errorf("27 samples: got %v\nwant %s", err, want)
	}
	fifo := machine(t, "fifo", "machine: sage\nsage:\n  route: {fifo_samples: 4}\n")
	want = "fifo.yaml:3: sage.route.fifo_samples: 4 samples: a frame of 8 samples per pixel needs a FIFO of at least one pixel's samples"
	if err := fifo.CheckFrame(64, 40, 8); err == nil || err.Error() != want {
		t.Errorf("FIFO of 4 samples at 8 samples: got %v\nwant %s", err, want)
	}
	if err := fifo.CheckFrame(64, 40, 4); err != nil {
		t.Errorf("FIFO of 4 samples at 4 samples: %v", err)
	}
}

// TestSageChannels: with sage.video.channels 2 each half of the frame has its
// own video output, named GPU.Video[c], with the half's pixel clock at the
// same refresh and its own statistics, fed by its own two convolve chips; an
// output too narrow to split is refused, naming the field, before anything
// runs.
func TestSageChannels(t *testing.T) {
	cfg := machine(t, "two", "machine: sage\nsage: {video: {channels: 2}}\n")
	res := timed(t, cfg, sageFrame(t, cfg, "room", 64, 40, 4))
	// 32x40 per channel, totals 32 + ceil(32 x 0.31875) = 43 by 40 + ceil(40 x
	// 0.041015625) = 42, at 76 Hz.
	for c := 0; c < 2; c++ {
		n := fmt.Sprintf("GPU.Video[%d].", c)
		if got, want := res.Stats[n+"required_pixel_rate"], float64(43*42*76); got != want {
			t.Errorf("%srequired_pixel_rate %v, want %v", n, got, want)
		}
		for _, k := range []string{"underruns", "stall_cycles", "delivered_pixel_rate"} {
			if _, ok := res.Stats[n+k]; !ok {
				t.Errorf("no statistic %s%s", n, k)
			}
		}
	}
	if _, ok := res.Stats["GPU.Video.pixels"]; ok {
		t.Error("GPU.Video.pixels reported on a two-channel machine")
	}
	for k := 0; k < 4; k++ {
		n := fmt.Sprintf("GPU.Convolve[%d].pixels", k)
		if got := res.Stats[n]; got != 16*40 {
			t.Errorf("%s %v, want %d", n, got, 16*40)
		}
	}
	_, _, err := runFrame(t, cfg, sageFrame(t, cfg, "triangle", 1, 40, 4))
	want := "two.yaml:2: sage.video.channels: a 1x40 video output: a 1-pixel-wide output for 2 channels: each channel needs at least one column"
	if err == nil || err.Error() != want {
		t.Errorf("a 1-pixel-wide frame on two channels: got %v\nwant %s", err, want)
	}
}

// TestSageSlowSampleBuffer: 3DRAM fills and write-backs of 100,000 cycles
// (the fields' maximum) keep the interleaves busy for millions of cycles with
// nothing to send (a present's flush writes every dirty block back); the
// interleaves say so (timing.Progress.BusyUntil), so the watchdog lets the
// frame run to its end, which equals the reference image.
func TestSageSlowSampleBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	cfg := machine(t, "slow", "machine: sage\nsage: {sample_buffer: {fill_cycles: 100000, writeback_cycles: 100000}}\n")
	outlastsWatchdog(t, cfg, "triangle", 64, 40, 4, 2)
}

// TestSageSlowPixelClock: a 16x8 raster refreshed once a second has a pixel
// clock of 22 x 9 x 1 Hz: the video output ticks every 2.5 million cycles of
// the 500 MHz pipes, longer than the watchdog's default limit, while spans
// wait for its next edge. The output says it is busy until that edge
// (timing.Progress.BusyUntil), so the frame runs to its end (it stalled at the
// watchdog, listing the convolve chips' full buffers) and equals the
// reference image. The frame's commands end early (the Present's Done does
// not wait for the pixel clock); its scan-out lasts the second
// (GPU.video_end_cycles).
func TestSageSlowPixelClock(t *testing.T) {
	cfg := machine(t, "slow", "machine: sage\nsage: {video: {refresh_hz: 1}}\n")
	outlastsWatchdog(t, cfg, "triangle", 16, 8, 4, 2)
}

// TestSageVideoRefusals: a video output the convolve chips cannot make for
// the frame is refused before the run, at the line that sets it, on the timed
// machine (CheckFrame, called by the platform) and on the reference renderer
// alike: a 20x reduction (the chips step at most 16 source pixels between
// centres), and an output of another aspect.
func TestSageVideoRefusals(t *testing.T) {
	for _, tc := range []struct{ video, want string }{
		{"{width: 16, height: 10}", "v.yaml:2: sage.video: 16x10 output from a 320x200 render: a reduction by 20; " +
			"the convolve chips' 5x5 window reaches at most 16 source pixels per output pixel"},
		{"{width: 160, height: 90}", "v.yaml:2: sage.video: 160x90 output from a 320x200 render: resizing scales both axes by one factor"},
	} {
		cfg := machine(t, "v", "machine: sage\nsage: {video: "+tc.video+"}\n")
		if err := cfg.CheckFrame(320, 200, 1); err == nil || err.Error() != tc.want {
			t.Errorf("CheckFrame, %s: got %v\nwant %s", tc.video, err, tc.want)
		}
		f := sageFrame(t, cfg, "triangle", 320, 200, 1)
		if _, _, err := runFrame(t, cfg, f); err == nil || err.Error() != tc.want {
			t.Errorf("timed, %s: got %v\nwant %s", tc.video, err, tc.want)
		}
		if _, err := cfg.RenderReference(f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("reference, %s: got %v\nwant %s", tc.video, err, tc.want)
		}
	}
}
