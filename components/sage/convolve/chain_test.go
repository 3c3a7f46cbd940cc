package convolve_test

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"math/rand"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/sage/convolve"
	"github.com/gfxsim/gfxsim/components/sage/route"
	"github.com/gfxsim/gfxsim/components/sage/video"
	"github.com/gfxsim/gfxsim/connections"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/timing"
)

// gridPositions places n samples on a regular k x k grid in the pixel (k =
// ceil(sqrt(n))), row by row.
type gridPositions struct{ k int }

func newGridPositions(n int) gridPositions {
	return gridPositions{k: int(math.Ceil(math.Sqrt(float64(n))))}
}

func (g gridPositions) Offset(_, _, s int) (int16, int16) {
	c := func(i int) int16 { return int16((2*i+1)*128/g.k - 128) }
	return c(s % g.k), c(s / g.k)
}

// targetSamples reads an RGBA10 colour target as filter.Samples.
type targetSamples struct{ t *framebuffer.ColorTarget }

func (s targetSamples) Sample(x, y, i int) ([4]uint16, bool) { return s.t.Sample(x, y, i) }

// frame is a seeded random RGBA10 sample buffer in a memory image.
type frame struct {
	img    *command.Image
	target command.Target
	ct     *framebuffer.ColorTarget
}

func newFrame(t testing.TB, w, h, n int, seed int64) frame {
	t.Helper()
	g := framebuffer.Geometry{Width: w, Height: h, Samples: n, Layout: framebuffer.Linear}
	ct, err := framebuffer.NewColorTarget(g, framebuffer.RGBA10)
	if err != nil {
		t.Fatal(err)
	}
	rand.New(rand.NewSource(seed)).Read(ct.Bytes())
	img := command.NewImage()
	addr := img.Put(ct.Bytes(), 64)
	view, _ := img.Slice(addr, ct.SizeBytes())
	ct, err = framebuffer.NewColorTargetFromBytes(g, framebuffer.RGBA10, view)
	if err != nil {
		t.Fatal(err)
	}
	tg := command.Target{Addr: addr, Width: uint32(w), Height: uint32(h), Samples: uint32(n),
		Format: uint32(framebuffer.RGBA10), Layout: uint32(framebuffer.Linear)}
	return frame{img: img, target: tg, ct: ct}
}

// chainConfig describes one video path under test.
type chainConfig struct {
	srcW, srcH, outW, outH, n int
	chips                     int
	seed                      int64
	fifoSamples               int     // route FIFO per convolve (0: default)
	routeSpan                 int     // route span pixels (0: default)
	videoSpan                 int     // convolve span pixels (0: default)
	convolveHz                float64 // 0: default
	mode                      video.Mode
	linkWidth                 int // route -> convolve link, bytes per cycle
	channels                  int // video channels, split vertically (0: 1)
	processors, rate          int // filter processors and samples each weighs per cycle (0: default)
}

// chain is the route, the convolve chips and the video output, wired as the
// board wires them, with a fake command processor.
type chain struct {
	engine sim.Engine
	halt   *timing.Halt
	cp     *testpeer.Peer // the command processor: PresentCmd out, Done in
	route  *route.Comp
	convs  []*convolve.Comp
	video  *video.Comp   // the first channel's output
	videos []*video.Comp // every channel's, left to right
	frame  frame
	conv   *filter.Convolver
	pos    filter.Positions
	cfg    chainConfig
	links  []interface {
		Stats(func(string, float64))
	}
}

func mitchell(t testing.TB) *filter.Convolver {
	t.Helper()
	tab, err := filter.NewTable(filter.MitchellNetravali{B: 1.0 / 3, C: 1.0 / 3}, filter.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	return filter.NewConvolver(tab)
}

func newChain(t testing.TB, cfg chainConfig) *chain {
	t.Helper()
	if cfg.chips == 0 {
		cfg.chips = 4
	}
	if cfg.linkWidth == 0 {
		cfg.linkWidth = 64
	}
	if cfg.channels == 0 {
		cfg.channels = 1
	}
	streams, err := convolve.SplitVertical(cfg.chips, cfg.channels, cfg.outW)
	if err != nil {
		t.Fatal(err)
	}
	e := sim.NewSerialEngine()
	c := &chain{engine: e, halt: &timing.Halt{}, cfg: cfg, conv: mitchell(t), pos: newGridPositions(cfg.n)}
	c.frame = newFrame(t, cfg.srcW, cfg.srcH, cfg.n, cfg.seed)
	c.cp = testpeer.NewPeer("CP", e, 8)

	rc := route.DefaultConfig()
	rc.Convolves = cfg.chips
	if cfg.fifoSamples > 0 {
		rc.FIFOSamples = cfg.fifoSamples
	}
	if cfg.routeSpan > 0 {
		rc.SpanPixels = cfg.routeSpan
	}
	c.route = route.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: 50 * sim.MHz, Halt: c.halt}).WithConfig(rc).Build("Route")
	c.route.Image = c.frame.img

	stream := make([]int, cfg.chips) // each chip's channel
	for ch, st := range streams {
		vc := video.DefaultConfig()
		vc.Width, vc.Height, vc.OriginX = st.X1-st.X0, cfg.outH, st.X0
		vc.Channel, vc.Channels, vc.Mode = ch, cfg.channels, cfg.mode
		vb := video.MakeBuilder().WithEnv(timing.Env{Engine: e, Halt: c.halt}).WithConfig(vc)
		name := "Video"
		if cfg.channels > 1 {
			name = fmt.Sprintf("Video[%d]", ch)
		}
		c.videos = append(c.videos, vb.Build(name))
		for k := st.First; k < st.First+st.Count; k++ {
			stream[k] = ch
		}
	}
	c.video = c.videos[0]

	for k := 0; k < cfg.chips; k++ {
		cc := convolve.DefaultConfig()
		cc.Index, cc.Chips, cc.Stream = k, cfg.chips, streams[stream[k]]
		cc.OutputWidth, cc.OutputHeight, cc.SourceWidth, cc.SourceHeight = cfg.outW, cfg.outH, cfg.srcW, cfg.srcH
		cc.Samples, cc.Convolver, cc.Positions = cfg.n, c.conv, c.pos
		if cfg.videoSpan > 0 {
			cc.SpanPixels = cfg.videoSpan
		}
		if cfg.processors > 0 {
			cc.Processors = cfg.processors
		}
		if cfg.rate > 0 {
			cc.SamplesPerCycle = cfg.rate
		}
		env := timing.Env{Engine: e, Freq: 250 * sim.MHz, Halt: c.halt}
		if cfg.convolveHz > 0 {
			env.Freq = sim.Freq(cfg.convolveHz)
		}
		c.convs = append(c.convs, convolve.MakeBuilder().WithEnv(env).WithConfig(cc).Build(fmt.Sprintf("Convolve[%d]", k)))
	}

	control := connections.MakeBusBuilder().WithEngine(e).Build("ControlBus")
	control.PlugIn(c.cp.Port, 8)
	control.PlugIn(c.route.Control, 1)
	for _, v := range c.videos {
		control.PlugIn(v.Control, 1)
	}
	requests := connections.MakeBusBuilder().WithEngine(e).WithFreq(250 * sim.MHz).WithWidth(8).Build("RequestBus")
	requests.PlugIn(c.route.FromConvolves, 1)
	samples := connections.MakeCrossbarBuilder().WithEngine(e).WithFreq(250 * sim.MHz).WithWidth(cfg.linkWidth).
		Build("SampleXbar")
	samples.PlugIn(c.route.ToConvolves, 1)
	c.links = append(c.links, control, requests, samples)
	c.route.Convolves = make([]sim.Port, cfg.chips)
	for k, v := range c.convs {
		control.PlugIn(v.Control, 1)
		requests.PlugIn(v.ToRoute, 1)
		samples.PlugIn(v.FromRoute, 1)
		c.route.Convolves[k] = v.FromRoute
		v.Route = c.route.FromConvolves
		link := connections.MakeBusBuilder().WithEngine(e).WithFreq(250 * sim.MHz).WithWidth(16).
			Build(fmt.Sprintf("ChainBus[%d]", k))
		link.PlugIn(v.ToNext, 1)
		if st := streams[stream[k]]; k+1 < st.First+st.Count {
			link.PlugIn(c.convs[k+1].FromPrev, 1)
			v.Next = c.convs[k+1].FromPrev
		} else {
			out := c.videos[stream[k]]
			link.PlugIn(out.FromConvolve, 1)
			v.Next = out.FromConvolve
		}
		c.links = append(c.links, link)
	}
	for _, dst := range c.controls() {
		c.cp.Script = append(c.cp.Script, testpeer.Scripted{Msg: protocol.NewPresentCmd(c.frame.target, 0), Dst: dst})
	}
	return c
}

func (c *chain) controls() []sim.Port {
	p := []sim.Port{c.route.Control}
	for _, v := range c.videos {
		p = append(p, v.Control)
	}
	for _, v := range c.convs {
		p = append(p, v.Control)
	}
	return p
}

// run simulates the frame and checks that it completed.
func (c *chain) run(t testing.TB) {
	t.Helper()
	c.cp.TickLater(0)
	testpeer.RunClean(t, c.engine, c.halt)
	for _, v := range c.videos {
		if !v.Finished() {
			t.Fatalf("%s did not finish: %d Done of %d", v.Name(), len(c.cp.Got), len(c.controls()))
		}
	}
	if len(c.cp.Got) != len(c.controls()) {
		t.Fatalf("%d Done, want %d", len(c.cp.Got), len(c.controls()))
	}
	for _, r := range c.cp.Got {
		if _, ok := r.Msg.(*protocol.Done); !ok {
			t.Fatalf("the command processor got %T, want Done", r.Msg)
		}
	}
}

// want is filter.Display of the frame's samples.
func (c *chain) want(t testing.TB) *image.RGBA {
	t.Helper()
	step := float64(c.cfg.srcW) / float64(c.cfg.outW)
	img, err := filter.Display(c.cfg.outW, c.cfg.outH, c.cfg.n, c.pos, targetSamples{c.frame.ct}, c.conv, step, nil)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// stats collects every counter of the path.
func (c *chain) stats() map[string]float64 {
	s := map[string]float64{}
	add := func(n string, v float64) { s[n] = v }
	now := c.engine.CurrentTime()
	c.route.Finish(now)
	c.route.Stats(add)
	for _, v := range c.convs {
		v.Finish(now)
		v.Stats(add)
	}
	for _, v := range c.videos {
		v.Stats(add)
	}
	for _, l := range c.links {
		l.Stats(add)
	}
	return s
}

// image puts the channels' rasters side by side, the frame the video path
// shows.
func (c *chain) image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, c.cfg.outW, c.cfg.outH))
	x := 0
	for _, v := range c.videos {
		r := v.Image()
		w := r.Rect.Dx()
		for y := 0; y < c.cfg.outH; y++ {
			copy(img.Pix[y*img.Stride+4*x:y*img.Stride+4*(x+w)], r.Pix[y*r.Stride:])
		}
		x += w
	}
	return img
}

func diffImages(t *testing.T, got, want *image.RGBA) {
	t.Helper()
	if bytes.Equal(got.Pix, want.Pix) {
		return
	}
	n := 0
	for y := 0; y < want.Rect.Dy(); y++ {
		for x := 0; x < want.Rect.Dx(); x++ {
			if g, w := got.RGBAAt(x, y), want.RGBAAt(x, y); g != w {
				if n < 8 {
					t.Errorf("pixel (%d, %d): %v, want %v", x, y, g, w)
				}
				n++
			}
		}
	}
	t.Errorf("%d pixels differ from filter.Display", n)
}

func TestChainEqualsDisplay(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  chainConfig
	}{
		{"step1", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 1}},
		{"step0.75", chainConfig{srcW: 30, srcH: 9, outW: 40, outH: 12, n: 4, seed: 2}},
		{"step1.25", chainConfig{srcW: 50, srcH: 15, outW: 40, outH: 12, n: 4, seed: 3}},
		{"8spp", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 8, seed: 4}},
		{"1spp", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 1, seed: 5}},
		{"narrowSwaths", chainConfig{srcW: 6, srcH: 7, outW: 6, outH: 7, n: 2, seed: 6}},
		{"emptySwaths", chainConfig{srcW: 3, srcH: 4, outW: 3, outH: 4, n: 4, seed: 7}},
		{"oneChip", chainConfig{srcW: 17, srcH: 6, outW: 17, outH: 6, n: 4, seed: 8, chips: 1}},
		{"tinyFIFO", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 9, fifoSamples: 4,
			routeSpan: 1, videoSpan: 1, linkWidth: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newChain(t, tc.cfg)
			c.run(t)
			diffImages(t, c.video.Image(), c.want(t))
			s := c.stats()
			if got, want := s["Video.pixels"], float64(tc.cfg.outW*tc.cfg.outH); got != want {
				t.Errorf("Video.pixels %v, want %v", got, want)
			}
			pixels := 0.0
			for k := range c.convs {
				pixels += s[fmt.Sprintf("Convolve[%d].pixels", k)]
			}
			if want := float64(tc.cfg.outW * tc.cfg.outH); pixels != want {
				t.Errorf("convolve pixels %v, want %v", pixels, want)
			}
		})
	}
}

// TestFilterCycles checks the processor array's cost exactly (section 7: 25
// filter processors, each weighing the samples of one pixel of the 5x5
// window, their partial sums added): an output pixel at n samples costs
// ceil(n / samples per cycle) cycles, the work of the busiest processor, not
// the window's samples shared out over 25 (the Mitchell filter's 21n of a
// pixel centre would be ceil(21n/25): 7 cycles at 8 samples, 14 at 16). At
// the screen's border a processor is idle, not faster. With one processor
// the pixel costs every sample it reads.
func TestFilterCycles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      chainConfig
		perPixel float64 // cycles per output pixel (0: samples read)
	}{
		{"8spp", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 8, seed: 21}, 8},
		{"16spp", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 16, seed: 22}, 16},
		{"4spp", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 23}, 4},
		{"1spp", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 1, seed: 24}, 1},
		{"step0.75", chainConfig{srcW: 30, srcH: 9, outW: 40, outH: 12, n: 8, seed: 25}, 8},
		{"16spp2PerCycle", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 16, seed: 26, rate: 2}, 8},
		{"8spp3PerCycle", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 8, seed: 27, rate: 3}, 3},
		{"oneProcessor", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 8, seed: 28, processors: 1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newChain(t, tc.cfg)
			c.run(t)
			diffImages(t, c.video.Image(), c.want(t))
			s := c.stats()
			var pixels, cycles, read float64
			for k := range c.convs {
				n := fmt.Sprintf("Convolve[%d].", k)
				pixels, cycles, read = pixels+s[n+"pixels"], cycles+s[n+"filter_cycles"], read+s[n+"samples_read"]
				if s[n+"nearest"] != 0 {
					t.Fatalf("%snearest %v: the test assumes no nearest-sample fallback", n, s[n+"nearest"])
				}
			}
			want := tc.perPixel * pixels
			if tc.perPixel == 0 {
				want = read
			}
			if pixels != float64(tc.cfg.outW*tc.cfg.outH) || cycles != want {
				t.Errorf("%v pixels cost %v cycles (%v samples read), want %v", pixels, cycles, read, want)
			}
		})
	}
}

// TestSwathOverlap checks each chip's swath and the overlap columns it reads
// (2 each side, clipped at the screen), and the pixels on both sides of every
// swath boundary against filter.Display.
func TestSwathOverlap(t *testing.T) {
	c := newChain(t, chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 11})
	c.run(t)
	want := c.want(t)
	got := c.video.Image()
	for k, v := range c.convs {
		x0, x1, c0, c1 := v.Swath()
		wx0, wx1 := k*10, (k+1)*10
		if x0 != wx0 || x1 != wx1 || c0 != max(0, wx0-2) || c1 != min(40, wx1+2) {
			t.Errorf("chip %d: swath [%d, %d) reading [%d, %d), want [%d, %d) reading [%d, %d)",
				k, x0, x1, c0, c1, wx0, wx1, max(0, wx0-2), min(40, wx1+2))
		}
		for y := 0; y < 12; y++ {
			for _, x := range []int{x0 - 2, x0 - 1, x0, x0 + 1, x1 - 2, x1 - 1, x1, x1 + 1} {
				if x < 0 || x >= 40 {
					continue
				}
				if g, w := got.RGBAAt(x, y), want.RGBAAt(x, y); g != w {
					t.Errorf("swath edge pixel (%d, %d): %v, want %v", x, y, g, w)
				}
			}
		}
	}
	s := c.stats()
	// Each chip reads its 10 columns plus the overlap on 12 lines at 4 samples.
	for k := range c.convs {
		cols := 10 + 2
		if k == 1 || k == 2 {
			cols += 2
		}
		name := fmt.Sprintf("Convolve[%d].samples_in", k)
		if got, want := s[name], float64(cols*12*4); got != want {
			t.Errorf("%s %v, want %v", name, got, want)
		}
	}
}

// TestBackPressure runs the path through a 4-sample route FIFO (one pixel),
// one-pixel spans and one-byte links: every sample read arrives, none lost.
func TestBackPressure(t *testing.T) {
	c := newChain(t, chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 12, fifoSamples: 4,
		routeSpan: 4, linkWidth: 1})
	c.run(t)
	diffImages(t, c.video.Image(), c.want(t))
	s := c.stats()
	in := 0.0
	for k := range c.convs {
		in += s[fmt.Sprintf("Convolve[%d].samples_in", k)]
	}
	if read := s["Route.samples_read"]; read != in || read != float64((10+2)*2*12*4+(10+4)*2*12*4) {
		t.Errorf("Route.samples_read %v, convolve samples_in %v, want both %v", read, in, (10+2)*2*12*4+(10+4)*2*12*4)
	}
	if s["Route.cycles_fifo_full"] == 0 {
		t.Error("Route.cycles_fifo_full is 0: the tiny FIFO never filled")
	}
	if s["Route.send_refused"] == 0 {
		t.Error("Route.send_refused is 0: the one-byte link never pushed back")
	}
}

// TestUnderruns: with the convolve clock too slow for the raster, strict mode
// counts underruns (the image stays exact) and elastic mode stalls instead.
func TestUnderruns(t *testing.T) {
	for _, tc := range []struct {
		mode   video.Mode
		hz     float64
		strict bool
		late   bool
	}{
		{video.Strict, 250e6, true, false},
		{video.Elastic, 250e6, false, false},
		{video.Strict, 5e3, true, true},
		{video.Elastic, 5e3, false, true},
	} {
		t.Run(fmt.Sprintf("%v@%v", tc.mode, tc.hz), func(t *testing.T) {
			c := newChain(t, chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 13,
				mode: tc.mode, convolveHz: tc.hz})
			c.run(t)
			diffImages(t, c.video.Image(), c.want(t))
			s := c.stats()
			under, stall := s["Video.underruns"], s["Video.stall_cycles"]
			switch {
			case !tc.late && (under != 0 || stall != 0):
				t.Errorf("fast chips: underruns %v, stall_cycles %v, want 0, 0", under, stall)
			case tc.late && tc.strict && (under == 0 || stall != 0):
				t.Errorf("strict, slow chips: underruns %v, stall_cycles %v, want > 0, 0", under, stall)
			case tc.late && !tc.strict && (under != 0 || stall == 0):
				t.Errorf("elastic, slow chips: underruns %v, stall_cycles %v, want 0, > 0", under, stall)
			}
			req, del := s["Video.required_pixel_rate"], s["Video.delivered_pixel_rate"]
			t.Logf("underruns %v, stall_cycles %v, pixel rate %.0f delivered of %.0f", under, stall, del, req)
			if tc.late == (del >= req) {
				t.Errorf("delivered pixel rate %v against required %v (slow chips: %v)", del, req, tc.late)
			}
			starved := 0.0
			for k := range c.convs {
				starved += s[fmt.Sprintf("Convolve[%d].cycles_starved", k)]
			}
			if starved == 0 {
				t.Error("no convolve chip was ever starved (it waits for its first lines)")
			}
		})
	}
}

// TestDeterminism runs the same frame twice: same image, same counters.
func TestDeterminism(t *testing.T) {
	cfg := chainConfig{srcW: 30, srcH: 9, outW: 40, outH: 12, n: 4, seed: 14, fifoSamples: 16, linkWidth: 4}
	a, b := newChain(t, cfg), newChain(t, cfg)
	a.run(t)
	b.run(t)
	if !bytes.Equal(a.video.Image().Pix, b.video.Image().Pix) {
		t.Error("images differ between two runs")
	}
	sa, sb := a.stats(), b.stats()
	if len(sa) != len(sb) {
		t.Errorf("%d counters, then %d", len(sa), len(sb))
	}
	for k, v := range sa {
		if sb[k] != v {
			t.Errorf("%s: %v, then %v", k, v, sb[k])
		}
	}
	if a.video.FinishTime() != b.video.FinishTime() {
		t.Errorf("finish time %v, then %v", a.video.FinishTime(), b.video.FinishTime())
	}
}

// TestTwoChannels splits the chips into two chains (section 7.1), the left and
// right halves of the frame each ending at its own video output: the halves
// put together equal filter.Display, each chain's first chip reads the
// overlap columns across the inner edge (no border there), and each output
// scans its half at its own pixel clock.
func TestTwoChannels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   chainConfig
		first []int // each chip's first output column
	}{
		{"board", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 21, channels: 2}, []int{0, 10, 20, 30}},
		{"oddWidth", chainConfig{srcW: 41, srcH: 7, outW: 41, outH: 7, n: 2, seed: 22, channels: 2}, []int{0, 10, 20, 30}},
		{"threeChips", chainConfig{srcW: 30, srcH: 8, outW: 30, outH: 8, n: 4, seed: 23, channels: 2, chips: 3}, []int{0, 15, 22}},
		{"twoChips", chainConfig{srcW: 20, srcH: 6, outW: 20, outH: 6, n: 8, seed: 24, channels: 2, chips: 2}, []int{0, 10}},
		{"step0.75", chainConfig{srcW: 30, srcH: 9, outW: 40, outH: 12, n: 4, seed: 25, channels: 2}, []int{0, 10, 20, 30}},
		{"tinyFIFO", chainConfig{srcW: 40, srcH: 12, outW: 40, outH: 12, n: 4, seed: 26, channels: 2, fifoSamples: 4,
			routeSpan: 1, videoSpan: 1, linkWidth: 1}, []int{0, 10, 20, 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newChain(t, tc.cfg)
			c.run(t)
			diffImages(t, c.image(), c.want(t))
			half := tc.cfg.outW / 2
			for k, v := range c.convs {
				x0, _, c0, _ := v.Swath()
				if x0 != tc.first[k] {
					t.Errorf("chip %d starts at column %d, want %d", k, x0, tc.first[k])
				}
				if x0 == half && c0 != half-2 && tc.cfg.srcW == tc.cfg.outW {
					t.Errorf("chip %d, first of the right half: reads from column %d, want %d (the overlap)", k, c0, half-2)
				}
			}
			s := c.stats()
			for ch, w := range []int{half, tc.cfg.outW - half} {
				name := fmt.Sprintf("Video[%d]", ch)
				if got := s[name+".pixels"]; got != float64(w*tc.cfg.outH) {
					t.Errorf("%s.pixels %v, want %v", name, got, w*tc.cfg.outH)
				}
				ht, vt := video.DefaultTotals(w, tc.cfg.outH)
				if got, want := s[name+".required_pixel_rate"], float64(ht*vt*76); got != want {
					t.Errorf("%s.required_pixel_rate %v, want %v", name, got, want)
				}
				if s[name+".delivered_pixel_rate"] == 0 {
					t.Errorf("%s.delivered_pixel_rate is 0", name)
				}
			}
		})
	}
}

func TestSplitVertical(t *testing.T) {
	got, err := convolve.SplitVertical(4, 2, 1280)
	want := []convolve.Stream{{First: 0, Count: 2, X0: 0, X1: 640}, {First: 2, Count: 2, X0: 640, X1: 1280}}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("SplitVertical(4, 2, 1280) = %v, %v, want %v", got, err, want)
	}
	got, err = convolve.SplitVertical(4, 1, 1280)
	if err != nil || fmt.Sprint(got) != fmt.Sprint([]convolve.Stream{{First: 0, Count: 4, X0: 0, X1: 1280}}) {
		t.Errorf("SplitVertical(4, 1, 1280) = %v, %v", got, err)
	}
	for _, tc := range []struct {
		chips, channels, width int
		want                   string
	}{
		{1, 2, 1280, "1 convolve chips for 2 channels: each channel needs at least one chip"},
		{4, 2, 1, "a 1-pixel-wide output for 2 channels: each channel needs at least one column"},
		{4, 3, 1280, "3 channels: SAGE has 1 or 2 video channels"},
	} {
		if _, err := convolve.SplitVertical(tc.chips, tc.channels, tc.width); err == nil || err.Error() != tc.want {
			t.Errorf("SplitVertical(%d, %d, %d) = %v, want %s", tc.chips, tc.channels, tc.width, err, tc.want)
		}
	}
}
