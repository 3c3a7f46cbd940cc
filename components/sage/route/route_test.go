package route

import (
	"math/rand"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/timing"
)

// fakeConvolve sends its script (a PresentCmd, then LineRequests) and records
// the SampleSpans it receives with their arrival cycles.
type fakeConvolve struct {
	*sim.TickingComponent
	Out, In sim.Port
	script  []sim.Msg
	spans   []*protocol.SampleSpan
	arrived []uint64
}

func newFakeConvolve(e sim.Engine, f sim.Freq) *fakeConvolve {
	c := &fakeConvolve{}
	c.TickingComponent = sim.NewTickingComponent("Convolve", e, f, c)
	c.Out = sim.NewLimitNumMsgPort(c, 4, "Convolve.Out")
	c.In = sim.NewLimitNumMsgPort(c, 64, "Convolve.In")
	return c
}

func (c *fakeConvolve) Tick(now sim.VTimeInSec) bool {
	progress := false
	for len(c.script) > 0 {
		c.script[0].Meta().SendTime = now
		if c.Out.Send(c.script[0]) != nil {
			break
		}
		c.script = c.script[1:]
		progress = true
	}
	for c.Out.Retrieve(now) != nil { // Done
		progress = true
	}
	for {
		m := c.In.Retrieve(now)
		if m == nil {
			break
		}
		c.spans = append(c.spans, m.(*protocol.SampleSpan))
		c.arrived = append(c.arrived, c.Freq.Cycle(now))
		progress = true
	}
	return progress
}

func setup(t *testing.T, w, h, n int, cfg Config) (*Comp, *fakeConvolve, *framebuffer.ColorTarget, command.Target) {
	t.Helper()
	e := sim.NewSerialEngine()
	g := framebuffer.Geometry{Width: w, Height: h, Samples: n}
	ct, err := framebuffer.NewColorTarget(g, framebuffer.RGBA10)
	if err != nil {
		t.Fatal(err)
	}
	rand.New(rand.NewSource(7)).Read(ct.Bytes())
	img := command.NewImage()
	addr := img.Put(ct.Bytes(), 64)
	cfg.Convolves = 1
	r := MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: 50 * sim.MHz, Halt: &timing.Halt{}}).WithConfig(cfg).Build("Route")
	r.Image = img
	f := newFakeConvolve(e, r.Freq)
	conn := sim.NewDirectConnection("Conn", e, r.Freq)
	for _, p := range []sim.Port{f.Out, f.In, r.Control, r.FromConvolves, r.ToConvolves} {
		conn.PlugIn(p, 4)
	}
	r.Convolves = []sim.Port{f.In}
	tg := command.Target{Addr: addr, Width: uint32(w), Height: uint32(h), Samples: uint32(n),
		Format: uint32(framebuffer.RGBA10)}
	p := protocol.NewPresentCmd(tg, 0)
	p.Src, p.Dst = f.Out, r.Control
	f.script = append(f.script, p)
	return r, f, ct, tg
}

func request(f *fakeConvolve, r *Comp, y, x0, x1 int) {
	m := protocol.NewLineRequest(y, x0, x1, 0)
	m.Src, m.Dst = f.Out, r.FromConvolves
	f.script = append(f.script, m)
}

// TestBurstTiming: a burst of 324 pixels at 8 samples on 32 chips costs
// ceil(324*8/32) = 81 clocks, in spans of 32 pixels every 8 clocks and a last
// one of 4 pixels one clock later; the samples are the target's.
func TestBurstTiming(t *testing.T) {
	r, f, ct, _ := setup(t, 400, 2, 8, DefaultConfig())
	request(f, r, 1, 10, 334)
	f.TickLater(0)
	testpeer.Run(t, r.TickingComponent.Engine)
	if len(f.spans) != 11 {
		t.Fatalf("%d spans, want 11", len(f.spans))
	}
	for k, s := range f.spans {
		want := uint64(8 * k)
		if k == 10 {
			want = 81 - 8
		}
		if got := f.arrived[k] - f.arrived[0]; got != want {
			t.Errorf("span %d arrived %d clocks after the first, want %d", k, got, want)
		}
		if s.Y != 1 || s.X0 != 10+32*k || s.X1 != min(334, 10+32*(k+1)) || s.N != 8 {
			t.Errorf("span %d: line %d [%d, %d) x %d", k, s.Y, s.X0, s.X1, s.N)
		}
		for i, v := range s.Samples {
			if want, _ := ct.Sample(s.X0+i/8, 1, i%8); v != want {
				t.Fatalf("span %d sample %d: %v, want %v", k, i, v, want)
			}
		}
	}
}

// TestBurstTimingByMap: the chips read in lock step, so a burst costs its
// busiest chip's samples. A 324-pixel burst of a 1280-pixel line (pixels
// [318, 642) of line 5) and its first 32-pixel span: under the sample map the
// 32 chips share every burst (1 spp: ceil(324/32) = 11 and ceil(32/32) = 1
// clocks; 8 spp: 81 and 8); under the pixel map the line's 4 interleaves hold
// it, chip 0 of each the most of each pixel (1 spp: ceil(324/4) = 81 and 8;
// 8 spp: 2 of the 8 samples, 162 and 16); under the line map all 8
// interleaves (1 spp: ceil(324/8) = 41 and 4; 8 spp: 82 and 8).
func TestBurstTimingByMap(t *testing.T) {
	for _, tc := range []struct {
		m           samplebuffer.Map
		n           int
		burst, span uint64
	}{
		{samplebuffer.MapSample, 1, 11, 1}, {samplebuffer.MapSample, 8, 81, 8},
		{samplebuffer.MapPixel, 1, 81, 8}, {samplebuffer.MapPixel, 8, 162, 16},
		{samplebuffer.MapLine, 1, 41, 4}, {samplebuffer.MapLine, 8, 82, 8},
	} {
		cfg := DefaultConfig()
		cfg.Geometry.Map = tc.m
		r, f, _, _ := setup(t, 1280, 6, tc.n, cfg)
		request(f, r, 5, 318, 642)
		f.TickLater(0)
		testpeer.Run(t, r.TickingComponent.Engine)
		if len(f.spans) != 11 {
			t.Fatalf("%v at %d spp: %d spans, want 11", tc.m, tc.n, len(f.spans))
		}
		if got, want := f.arrived[10]-f.arrived[0], tc.burst-tc.span; got != want {
			t.Errorf("%v at %d spp: the last span arrived %d clocks after the first, want %d", tc.m, tc.n, got, want)
		}
	}
}

// TestFIFOBackPressure: a FIFO of 8 samples (one pixel) and a port that holds
// no span until the fake takes it still deliver every pixel, in order.
func TestFIFOBackPressure(t *testing.T) {
	cfg := DefaultConfig()
	cfg.FIFOSamples = 8
	r, f, _, _ := setup(t, 50, 3, 8, cfg)
	request(f, r, 0, 0, 50)
	request(f, r, 2, 5, 9)
	f.TickLater(0)
	testpeer.Run(t, r.TickingComponent.Engine)
	x, y := 0, 0
	for _, s := range f.spans {
		if s.X1-s.X0 != 1 {
			t.Errorf("span of %d pixels through a one-pixel FIFO", s.X1-s.X0)
		}
		if y == 0 && x == 50 {
			x, y = 5, 2
		}
		if s.Y != y || s.X0 != x {
			t.Fatalf("span line %d pixel %d, want line %d pixel %d", s.Y, s.X0, y, x)
		}
		x = s.X1
	}
	if y != 2 || x != 9 {
		t.Errorf("ended at line %d pixel %d, want line 2 pixel 9", y, x)
	}
}

func TestConfigValidate(t *testing.T) {
	testpeer.CheckInvalid(t, DefaultConfig())
	testpeer.CheckAtLeast(t, DefaultConfig(), "route", 1,
		"SamplesPerChip", "Convolves", "FIFOSamples", "SpanPixels", "RequestQueue")
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("Route") })
}
