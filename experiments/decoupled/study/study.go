// Package study is the decoupled-sampling study of experiments/decoupled: it
// reruns section 5 of Ragan-Kelley et al. 2011 on gfxsim's study scenes with the
// reference renderer and models watching it (shading caches, sort-middle tiles,
// ROP caches, the texture L1), and times frames on the sort-last and the tiled
// machines for Fig. 13, with the tiled machine's shading beside Fig. 10's
// functional tiled model (see the README in the folder above).
package study

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/scene"
)

// Options are the study's settings.
type Options struct {
	// Common: Quick runs a reduced sweep at 96x54; Workers are the frames
	// rendered at once (0: 2); Inputs gives each frame its memory budget
	// (-max-memory; nil: the default budget); Instruments are not used.
	expt.Common
	// Width, Height override every figure's frame size (0: each figure's own,
	// see Sizes).
	Width, Height int
	Seed          uint64 // the lens and time pattern seed (0: 1)
	Timed         bool   // run Fig. 13 on the timed machines
	// Figures are the figures to run and write, names from FigureNames
	// (nil: all; Fig. 13 only with Timed).
	Figures []string
}

// ParseFlags reads a command line's args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func ParseFlags(args []string, getenv func(string) string, stderr *os.File) (o Options, err error) {
	var figures string
	o.Inputs = &expt.Inputs{BuiltinOnly: true}
	err = o.Common.Parse("decoupled", expt.Help{Quick: "a reduced sweep at 96x54 (for tests)", Workers: "frames rendered at once"}, func(fs *flag.FlagSet) {
		expt.SizeFlags(fs, &o.Width, &o.Height, "every figure's frame", "each figure's default, see README", "each figure's default")
		fs.Uint64Var(&o.Seed, "seed", 1, "seed of the lens and time sample pattern")
		fs.BoolVar(&o.Timed, "timed", true, "run Fig. 13 on the timed machines (-timed=false: the functional figures only)")
		fs.StringVar(&figures, "figures", "", "the figures to run, a comma-separated list of "+strings.Join(FigureNames, ", ")+
			" (10, 11 and 12 share one sweep of frames; 13 is the timed frames, with the timed tiled rows beside Fig. 10); empty: all")
	}, args, getenv, stderr)
	if figures != "" {
		o.Figures = strings.Split(figures, ",")
	}
	return o, err
}

// FigureNames are the study's figures, as Options.Figures names them: Fig. 9
// (the animation), Figs. 10, 11 and 12 (one sweep of frames serves all
// three), the texture and reconstruction table, and Fig. 13 (the timed
// frames, with the timed tiled rows beside Fig. 10).
var FigureNames = []string{"9", "10", "11", "12", "texture", "13"}

// figures returns the selected figures in FigureNames order, or an error
// naming -figures.
func (o *Options) figures() (map[string]bool, string, error) {
	want := map[string]bool{}
	for _, f := range o.Figures {
		if !slices.Contains(FigureNames, f) {
			return nil, "", fmt.Errorf("-figures %s: %q is not one of %s", strings.Join(o.Figures, ","), f, strings.Join(FigureNames, ", "))
		}
		want[f] = true
	}
	var names []string
	sel := map[string]bool{}
	for _, f := range FigureNames {
		if (len(o.Figures) == 0 || want[f]) && (f != "13" || o.Timed) {
			sel[f] = true
			names = append(names, f)
		}
	}
	if len(names) == 0 {
		return nil, "", fmt.Errorf("-figures %s with -timed=false: no figure to run", strings.Join(o.Figures, ","))
	}
	return sel, strings.Join(names, ","), nil
}

// Size is a frame size.
type Size struct{ Width, Height int }

// Sizes are the default frame sizes per figure (see the README for why).
var Sizes = map[string]Size{
	"sweep":   {640, 360}, // Figs. 10, 11, 12
	"fig09":   {160, 90},
	"texture": {640, 360},
	"fig13":   {160, 90}, // timed frames (-width/-height override)
	"quick":   {96, 54},  // every functional figure with -quick
	"quick13": {64, 36},
}

// The study's sweeps.
var (
	SampleCounts = []int{8, 27, 64}
	BlurScales   = []float64{0, 0.25, 0.5, 1, 2, 4}
	// Moderate is the blur scale of the cache-size and line-size sweeps.
	Moderate = 1.0
	// DefaultEntries is the 4k-sample cache: 1024 shading quads.
	DefaultEntries  = 1024
	GlobalSizes     = []int{32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, Unbounded}
	TiledSizes      = []int{32, 128, 512, 1024, 4096, Unbounded}
	DefaultROP      = ROPCache{ColorBytes: 64 << 10, DepthBytes: 64 << 10, LineBytes: 32}
	ROPTotalsKB     = []int{8, 16, 32, 64, 128, 256, 512} // colour + depth, 32-byte lines
	ROPLines        = []int{4, 8, 16, 32, 64, 128}        // 128 KB total
	AnimationFrames = 50
	// Scenes: the defocus-only and the motion-only frame of Fig. 10-12, and
	// the animation of Fig. 9.
	SweepScenes = []SceneKind{{"defocus", "defocus"}, {"egomotion", "motion"}}
	Animation   = "bats"
)

// SceneKind names a sweep scene and its kind of blur.
type SceneKind struct{ Scene, Kind string }

// On is decoupled sampling at rate 1 with nearest reconstruction.
var On = scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1}

// job is one frame to render for a figure.
type job struct {
	fig    string
	frame  Frame
	models Models
}

type study struct {
	o   Options
	fig map[string]bool // the figures to run (Options.figures)
	log io.Writer       // o.Log through the bar
	t0  time.Time
	mu  sync.Mutex
	pts map[string][]*Point // the functional frames by figure, in plan order
}

func (s *study) logf(format string, a ...any) {
	if s.log != nil {
		s.mu.Lock()
		fmt.Fprintf(s.log, "[%6.1fs] %s\n", time.Since(s.t0).Seconds(), fmt.Sprintf(format, a...))
		s.mu.Unlock()
	}
}

func (s *study) size(fig string) Size {
	if s.o.Width > 0 && s.o.Height > 0 {
		return Size{s.o.Width, s.o.Height}
	}
	if s.o.Quick {
		if fig == "fig13" {
			return Sizes["quick13"]
		}
		return Sizes["quick"]
	}
	return Sizes[fig]
}

// sweep is what the study sweeps: samples per pixel, blur scales, animation
// frames, the global and tiled shading-cache sizes, and the ROP caches' total
// sizes (KB) and lines (bytes).
type sweep struct {
	spps           []int
	blurs          []float64
	frames         int
	gsizes, tsizes []int
	totals, lines  []int
}

// sweep returns the study's sweep: the package's, or -quick's smaller one.
func (s *study) sweep() sweep {
	if s.o.Quick {
		return sweep{[]int{8, 27}, []float64{0, 0.5, 1}, 2,
			[]int{32, 256, 1024, 4096, Unbounded}, []int{32, 1024, Unbounded}, []int{16, 128}, []int{4, 32, 128}}
	}
	return sweep{SampleCounts, BlurScales, AnimationFrames, GlobalSizes, TiledSizes, ROPTotalsKB, ROPLines}
}

// plan returns the study's frames.
func (s *study) plan() []job {
	sp := s.sweep()
	spps, blurs, frames := sp.spps, sp.blurs, sp.frames
	gsizes, tsizes, totals, lines := sp.gsizes, sp.tsizes, sp.totals, sp.lines
	var jobs []job
	sw := s.size("sweep")
	for _, sk := range SweepScenes {
		if !s.fig["10"] && !s.fig["11"] && !s.fig["12"] {
			break
		}
		for _, n := range spps {
			for _, b := range blurs {
				m := Models{Global: []int{DefaultEntries, Unbounded}, Tiled: []int{DefaultEntries, Unbounded}, ROP: []ROPCache{DefaultROP}}
				if b == Moderate || b == 0 {
					m.Global, m.Tiled = gsizes, tsizes
					m.ROP = ropSweep(totals, lines)
				}
				jobs = append(jobs, job{"sweep", Frame{Scene: sk.Scene, Width: sw.Width, Height: sw.Height, Samples: n, Blur: b, Decoupling: On}, m})
			}
		}
	}
	a := s.size("fig09")
	if !s.fig["9"] {
		frames = 0
	}
	for f := 0; f < frames; f++ {
		idx := f
		if s.o.Quick && f == frames-1 {
			idx = AnimationFrames - 1
		}
		for _, n := range spps {
			m := Models{Global: []int{DefaultEntries, Unbounded}, Tiled: []int{DefaultEntries, Unbounded}, ROP: []ROPCache{DefaultROP}}
			jobs = append(jobs, job{"fig09", Frame{Scene: Animation, Width: a.Width, Height: a.Height, Samples: n, Blur: 1, Index: idx, Decoupling: On}, m})
		}
	}
	t := s.size("texture")
	for _, v := range textureVariants(spps) {
		if !s.fig["texture"] {
			break
		}
		m := Models{Global: []int{256, DefaultEntries, Unbounded}, Texture: true}
		for _, sk := range SweepScenes {
			jobs = append(jobs, job{"texture", Frame{Scene: sk.Scene, Width: t.Width, Height: t.Height, Samples: v.samples, Blur: v.blur,
				Decoupling: v.dec, KeepImage: true}, m})
		}
	}
	return jobs
}

// ropSweep returns the default ROP caches, the size sweep (32-byte lines,
// half colour, half depth) and the line sweep (128 KB).
func ropSweep(totals, lines []int) []ROPCache {
	rs := []ROPCache{DefaultROP}
	add := func(r ROPCache) {
		for _, x := range rs {
			if x == r {
				return
			}
		}
		rs = append(rs, r)
	}
	for _, kb := range totals {
		add(ROPCache{ColorBytes: kb << 9, DepthBytes: kb << 9, LineBytes: 32})
	}
	for _, l := range lines {
		add(ROPCache{ColorBytes: 64 << 10, DepthBytes: 64 << 10, LineBytes: l})
	}
	return rs
}

// textureVariant is one frame of the texture and reconstruction table.
type textureVariant struct {
	name    string
	samples int
	blur    float64
	dec     scene.Decoupling
}

func textureVariants(spps []int) []textureVariant {
	vs := []textureVariant{{"MSAA, no blur", 8, 0, scene.Decoupling{Mode: scene.DecoupleOff, Rate: 1}}}
	for _, n := range spps {
		vs = append(vs, textureVariant{"decoupled", n, Moderate, On},
			textureVariant{"bilinear", n, Moderate, scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1, Bilinear: true}})
	}
	vs = append(vs,
		textureVariant{"adaptive", 8, Moderate, scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1, Adaptive: true}},
		textureVariant{"adaptive+bilinear", 8, Moderate, scene.Decoupling{Mode: scene.DecoupleOn, Rate: 1, Adaptive: true, Bilinear: true}})
	return vs
}

// variantName names a texture frame.
func variantName(f Frame) string {
	d := f.Decoupling
	switch {
	case d.Mode == scene.DecoupleOff:
		return "MSAA, no blur"
	case d.Adaptive && d.Bilinear:
		return "adaptive+bilinear"
	case d.Adaptive:
		return "adaptive"
	case d.Bilinear:
		return "bilinear"
	}
	return "decoupled"
}

// result is one point of the study: a functional frame of a figure, or a
// timed frame of Fig. 13.
type result struct {
	Point *Point      `json:",omitempty"`
	Timed *TimedPoint `json:",omitempty"`
}

// jobName names a functional frame's point.
func jobName(j job) string {
	f := j.frame
	spp := strconv.Itoa(f.Samples) + "spp"
	switch j.fig {
	case "fig09":
		return expt.RunName(j.fig, f.Scene, "frame"+strconv.Itoa(f.Index), spp)
	case "texture":
		return expt.RunName(j.fig, f.Scene, variantName(f), spp)
	}
	return expt.RunName(j.fig, f.Scene, spp, "blur"+strconv.FormatFloat(f.Blur, 'g', -1, 64))
}

// Run runs the study's points (all, or the shard o.Sweep names), writes
// each point's file under o.Out/points and, unless sharded, writes the CSV
// and PNG files into o.Out and prints the tables to w; -list and -merge as
// expt.SweepFlags says.
func Run(o Options, w io.Writer) error {
	if o.Out == "" {
		o.Out = "out/decoupled"
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if (o.Width > 0) != (o.Height > 0) {
		return fmt.Errorf("-width %d -height %d: give both or neither", o.Width, o.Height)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = 2
	}
	o.Inputs.ShareWith(workers) // the points running at once share -max-memory
	fig, figs, err := o.figures()
	if err != nil {
		return err
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	s := &study{o: o, fig: fig, log: bar.Writer(o.Log), t0: time.Now()}
	jobs := s.plan()
	var timed []TimedPoint
	if fig["13"] {
		timed = s.timedPlan()
	}
	sw := &expt.Sweep[result]{Study: "decoupled", Out: o.Out, Workers: workers, Bar: bar,
		Fingerprint: expt.Fingerprint{"width": strconv.Itoa(o.Width), "height": strconv.Itoa(o.Height), "quick": strconv.FormatBool(o.Quick),
			"seed": strconv.FormatUint(o.Seed, 10), "timed": strconv.FormatBool(o.Timed), "figures": figs}}
	for _, j := range jobs {
		sw.Points = append(sw.Points, jobName(j))
	}
	for _, t := range timed {
		sw.Points = append(sw.Points, expt.RunName("fig13", t.Scene, t.Name))
	}
	sw.Run = func(i int) (result, error) {
		if i >= len(jobs) {
			t := timed[i-len(jobs)]
			sz := s.size("fig13")
			tp, err := Timed(t.Scene, sz.Width, sz.Height, t.TimedVariant, o.Inputs.Budget())
			return result{Timed: &tp}, err
		}
		j := jobs[i]
		p, err := Render(j.frame, j.models, o.Seed, o.Inputs.Budget())
		if err != nil {
			return result{}, fmt.Errorf("%s frame (%s): %w", j.fig, j.frame, err)
		}
		return result{Point: p}, nil
	}
	sw.Done = func(done, total, i int, r result) {
		if r.Timed != nil {
			p, sz := r.Timed, s.size("fig13")
			s.logf("%3d/%d timed %-9s %-8s %dx%d %d cycles %s", done, total, p.Scene, p.Name, sz.Width, sz.Height, p.Cycles, p.Err)
			return
		}
		j, p := jobs[i], r.Point
		s.logf("%3d/%d %-7s %-9s %dx%d %2d spp blur %-4g frame %2d %-17s %.1fs", done, total, j.fig, p.Scene, p.Width, p.Height,
			p.Samples, p.Blur, p.Index, variantName(p.Frame), p.Seconds)
	}
	sw.Merge = func(w io.Writer, rs []result) error {
		fmt.Fprintf(w, "decoupled-sampling study: figures %s, seed %d, %d functional frames, %d timed, quick %v\n", figs, o.Seed, len(jobs), len(timed), o.Quick)
		for _, f := range []struct {
			fig string
			ran bool
		}{{"sweep", s.fig["10"] || s.fig["11"] || s.fig["12"]}, {"fig09", s.fig["9"]}, {"texture", s.fig["texture"]}, {"fig13", s.fig["13"]}} {
			if f.ran {
				sz := s.size(f.fig)
				fmt.Fprintf(w, "  %-8s %dx%d\n", f.fig, sz.Width, sz.Height)
			}
		}
		if s.fig["10"] || s.fig["11"] || s.fig["12"] {
			sp := s.sweep()
			fmt.Fprintf(w, "  samples %v, blur scales %v, global caches %v, tiled caches %v (shading quads; 0 = unbounded), tile memory %d KB\n",
				sp.spps, sp.blurs, sp.gsizes, sp.tsizes, 128)
		}
		s.pts = map[string][]*Point{}
		for i, j := range jobs {
			s.pts[j.fig] = append(s.pts[j.fig], rs[i].Point)
		}
		for _, f := range []struct {
			fig   string
			write func(io.Writer) error
		}{{"10", s.fig10}, {"10", s.fig10Cache}, {"11", s.fig11}, {"12", s.fig12}, {"9", s.fig09}, {"texture", s.texture}} {
			if !s.fig[f.fig] {
				continue
			}
			if err := f.write(w); err != nil {
				return err
			}
		}
		if !s.fig["13"] {
			return nil
		}
		var pts []TimedPoint
		for _, r := range rs[len(jobs):] {
			pts = append(pts, *r.Timed)
		}
		return s.writeFig13(w, pts)
	}
	if !o.Sweep.List && !o.Sweep.Merge {
		s.logf("shard %s of %d points on %s", o.Sweep.Shard, len(sw.Points), expt.Count(workers, "worker", "workers"))
	}
	if err := sw.Main(o.Sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.Sweep.List, s.t0, o.Out)
	return nil
}

// sortPoints orders points by scene, samples, blur, frame.
func sortPoints(ps []*Point) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Scene != b.Scene {
			return a.Scene < b.Scene
		}
		if a.Samples != b.Samples {
			return a.Samples < b.Samples
		}
		if a.Blur != b.Blur {
			return a.Blur < b.Blur
		}
		return a.Index < b.Index
	})
}
