// Package study is the texture-cache study of experiments/texcache: timed
// frames of the study scenes on the sort-last machine, and replays of the
// texture requests they recorded through samplers, an L2 and memory of other
// geometries (see the README in the folder above).
package study

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/tracing"
)

// Options are the study's settings.
type Options struct {
	// Common: Quick runs a reduced sweep (fewer points, no ordering runs);
	// the instruments record the timed frames only (replays are not
	// platforms); Workers is not used.
	expt.Common
	Width, Height int // frame size (0: the scenes' own, 320x180)
}

// ParseFlags reads a command line's args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func ParseFlags(args []string, getenv func(string) string, stderr *os.File) (o Options, err error) {
	o.Instruments, o.Inputs = &tracing.Flags{}, &expt.Inputs{BuiltinOnly: true} // its cases are built-in scenes
	err = o.Common.Parse("texcache", expt.Help{Quick: "a reduced sweep (fewer points, no traversal-order runs)"}, func(fs *flag.FlagSet) {
		expt.SizeFlags(fs, &o.Width, &o.Height, "frame", "the scenes' 320", "the scenes' 180")
	}, args, getenv, stderr)
	return o, err
}

// Row is one measured point of a sweep.
type Row struct {
	Sweep   string  // l1_size, associativity, line_size, l2_size, filter, format, order, msaa
	Scene   string  // the study scene
	Setting string  // the varied setting, as text
	X       float64 // the varied setting, as a number (0 for categories)
	Timed   bool    // a timed frame (else a replay of a timed frame's requests)
	M       Metrics
	// TexelCache is the misses per bilinear request of a texel-granular LRU
	// cache of the same size and ways on the same requests (l1_size rows).
	TexelCache float64
}

// Scenes of the study: about 1:1 texels per pixel, magnified, minified.
var Scenes = []string{"texstudy", "texmagnify", "texminify"}

// Reference values from the two documents the study compares with.
const (
	GiesenMissesPerRequest = 1.25  // "around 1.25 misses/request" with bilinear filtering (part 4)
	DecoupledHitRate       = 0.996 // "per-textel hit rates around 99.6%" at 8x MSAA, 32 KB 16-way 64-byte lines (5.3.2)
)

type study struct {
	o    Options
	base *configs.Config
	log  io.Writer
	t0   time.Time
	sess *tracing.Session

	mu     sync.Mutex
	frames map[string]*memoFrame // timed frames that replays read, by name
}

// memoFrame is a timed frame rendered at most once per process.
type memoFrame struct {
	once sync.Once
	f    *Frame
	err  error
}

func (s *study) logf(format string, a ...any) {
	if s.log != nil {
		s.mu.Lock()
		fmt.Fprintf(s.log, "[%5.1fs] %s\n", time.Since(s.t0).Seconds(), fmt.Sprintf(format, a...))
		s.mu.Unlock()
	}
}

func (s *study) scene(name string, samples int) (*scene.Scene, error) {
	return expt.LoadScene(name, s.o.Width, s.o.Height, samples)
}

// frame returns the timed frame of scene name at samples (0: the scene's)
// on cfg, named sweep and setting, rendering it on first use: a replay point
// renders the frame it replays in the process that runs it, so that any
// shard can run any point.
func (s *study) frame(sweep, setting, name string, samples int, cfg *configs.Config) (*Frame, error) {
	key := expt.RunName(sweep, name, setting)
	s.mu.Lock()
	m := s.frames[key]
	if m == nil {
		m = &memoFrame{}
		s.frames[key] = m
	}
	s.mu.Unlock()
	m.once.Do(func() {
		sc, err := s.scene(name, samples)
		if err != nil {
			m.err = err
			return
		}
		m.f, m.err = s.timedFrame(sweep, setting, sc, cfg)
	})
	return m.f, m.err
}

// timedFrame runs a frame within the memory budget.
func (s *study) timedFrame(sweep, setting string, sc *scene.Scene, cfg *configs.Config) (*Frame, error) {
	if err := expt.Reserve(s.o.Inputs.Budget(), cfg, sc); err != nil {
		return nil, err
	}
	r, err := TimedRun(sc, cfg, s.sess, expt.RunName(sweep, sc.Name, setting))
	if err != nil {
		return nil, err
	}
	s.logf("timed %-13s %-10s %-12s %d cycles", sweep, sc.Name, setting, r.Cycles)
	return r, nil
}

// timedRow is the row of a timed frame.
func timedRow(sweep, setting string, x float64, r *Frame) Row {
	return Row{Sweep: sweep, Scene: r.Scene.Name, Setting: setting, X: x, Timed: true, M: MetricsOf(r.Stats)}
}

// replay replays run on cfg and returns its row.
func (s *study) replay(sweep, setting string, x float64, run *Frame, cfg *configs.Config, rebind func(*state.TextureBinding) *state.TextureBinding) (Row, error) {
	st, err := Replay(run, cfg, rebind)
	if err != nil {
		return Row{}, fmt.Errorf("%s %s: %w", sweep, setting, err)
	}
	s.logf("replay %-12s %-10s %-12s", sweep, run.Scene.Name, setting)
	return Row{Sweep: sweep, Scene: run.Scene.Name, Setting: setting, X: x, M: MetricsOf(st)}, nil
}

// withFilter returns a rebinding that samples with filter f (and max
// anisotropy n), one copy per binding, in first-use order.
func withFilter(f texture.Filter, n int) func(*state.TextureBinding) *state.TextureBinding {
	var from, to []*state.TextureBinding
	return func(b *state.TextureBinding) *state.TextureBinding {
		for i, x := range from {
			if x == b {
				return to[i]
			}
		}
		c := *b
		c.Sampler.Filter, c.Sampler.MaxAnisotropy = f, n
		from, to = append(from, b), append(to, &c)
		return &c
	}
}

func withL1(base *configs.Config, kb, ways, line int) *configs.Config {
	c := *base
	c.TextureSampler.L1 = configs.Cache{SizeKB: kb, Ways: ways, LineBytes: line}
	return &c
}

// Run runs the study's points (all, or the shard o.Sweep names), writes
// each point's row under o.Out/points and, unless sharded, writes
// results.csv and the figures into o.Out and prints the summary table to w;
// -list and -merge as expt.SweepFlags says.
func Run(o Options, w io.Writer) error {
	if o.Out == "" {
		o.Out = "out/texcache"
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	s := &study{o: o, base: configs.Default(), log: bar.Writer(o.Log), t0: time.Now(), frames: map[string]*memoFrame{}}
	if o.Instruments != nil {
		s.sess = o.Instruments.NewSession(o.Out, 0, s.log)
		defer s.sess.Close()
	}
	pts := s.plan()
	sw := &expt.Sweep[Row]{Study: "texcache", Out: o.Out, Workers: 1, Bar: bar,
		Fingerprint: expt.Fingerprint{"width": strconv.Itoa(o.Width), "height": strconv.Itoa(o.Height), "quick": strconv.FormatBool(o.Quick)},
		Run:         func(i int) (Row, error) { return pts[i].run() },
		Merge: func(w io.Writer, rows []Row) error {
			if err := writeCSV(filepath.Join(o.Out, "results.csv"), rows); err != nil {
				return err
			}
			if err := figures(o.Out, rows, s.base.Memory.Channels); err != nil {
				return err
			}
			report(w, rows, s.base)
			return nil
		}}
	for _, p := range pts {
		sw.Points = append(sw.Points, p.name)
	}
	if err := sw.Main(o.Sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.Sweep.List, s.t0, o.Out)
	return nil
}

// point is one row of the study: its name and how to measure it.
type point struct {
	name string
	run  func() (Row, error)
}

// plan lists the study's points in the order of its table.
func (s *study) plan() []point {
	sizes := []int{1, 2, 4, 8, 16, 32, 64}
	ways := []int{1, 2, 4, 8, 16}
	lines := []int{16, 32, 64, 128, 256}
	l2s := []int{4, 8, 16, 32, 64, 128, 256, 512}
	if s.o.Quick {
		sizes, ways, lines, l2s = []int{1, 8, 64}, []int{1, 4}, []int{32, 64}, []int{16, 128}
	}
	base := s.base
	def := base.TextureSampler.L1
	var pts []point
	add := func(sweep, sc, setting string, run func() (Row, error)) {
		pts = append(pts, point{expt.RunName(sweep, sc, setting), run})
	}
	// Baselines: one timed frame per scene on the default machine.
	baseline := func(name string) (*Frame, error) { return s.frame("baseline", "default", name, 0, base) }
	for _, name := range Scenes {
		add("baseline", name, "default", func() (Row, error) {
			r, err := baseline(name)
			if err != nil {
				return Row{}, err
			}
			return timedRow("baseline", "default", 0, r), nil
		})
	}
	// replay adds a point replaying the frame of from on cfg.
	replay := func(sweep, setting string, x float64, name string, from func(string) (*Frame, error), cfg *configs.Config,
		rebind func() func(*state.TextureBinding) *state.TextureBinding, extra func(*Frame, *Row) error) {
		add(sweep, name, setting, func() (Row, error) {
			run, err := from(name)
			if err != nil {
				return Row{}, err
			}
			var rb func(*state.TextureBinding) *state.TextureBinding
			if rebind != nil {
				rb = rebind()
			}
			row, err := s.replay(sweep, setting, x, run, cfg, rb)
			if err == nil && extra != nil {
				err = extra(run, &row)
			}
			return row, err
		})
	}
	// L1 size, bilinear filtering (Giesen's misses per bilinear request).
	bilinear := func() func(*state.TextureBinding) *state.TextureBinding { return withFilter(texture.Bilinear, 1) }
	for _, name := range Scenes {
		for _, kb := range sizes {
			replay("l1_size", strconv.Itoa(kb)+" KB", float64(kb), name, baseline, withL1(base, kb, def.Ways, def.LineBytes), bilinear,
				func(run *Frame, row *Row) error {
					miss, fp, err := TexelMisses(run, kb, def.Ways, withFilter(texture.Bilinear, 1))
					row.TexelCache = ratio(miss, fp)
					return err
				})
		}
	}
	// Associativity and line size at the default size, filtering as authored.
	for _, n := range ways {
		replay("associativity", strconv.Itoa(n)+"-way", float64(n), "texstudy", baseline, withL1(base, def.SizeKB, n, def.LineBytes), nil, nil)
	}
	for _, b := range lines {
		replay("line_size", strconv.Itoa(b)+" B", float64(b), "texstudy", baseline, withL1(base, def.SizeKB, def.Ways, b), nil, nil)
	}
	// L2 size per bank.
	for _, kb := range l2s {
		c := *base
		c.L2.BankSizeKB = kb
		replay("l2_size", strconv.Itoa(kb)+" KB", float64(kb), "texstudy", baseline, &c, nil, nil)
	}
	// Filter modes.
	for _, f := range []struct {
		name string
		f    texture.Filter
		n    int
	}{{"bilinear", texture.Bilinear, 1}, {"trilinear", texture.Trilinear, 1}, {"aniso 4x", texture.Anisotropic, 4},
		{"aniso 16x", texture.Anisotropic, 16}} {
		replay("filter", f.name, 0, "texstudy", baseline, base,
			func() func(*state.TextureBinding) *state.TextureBinding { return withFilter(f.f, f.n) }, nil)
	}
	// timed adds a timed frame of texstudy at samples on cfg, its textures
	// stored as format (0, FormatRGBA8: as authored).
	timed := func(sweep, setting string, x float64, samples int, format scene.TextureFormat, cfg *configs.Config) {
		add(sweep, "texstudy", setting, func() (Row, error) {
			sc, err := s.scene("texstudy", samples)
			if err != nil {
				return Row{}, err
			}
			if format != 0 {
				for i := range sc.Textures {
					sc.Textures[i].Format = format
				}
			}
			r, err := s.timedFrame(sweep, setting, sc, cfg)
			if err != nil {
				return Row{}, err
			}
			return timedRow(sweep, setting, x, r), nil
		})
	}
	// Storage formats (timed: the frame changes): sRGB (fat texels), BC1.
	for _, f := range []scene.TextureFormat{scene.FormatRGBA8SRGB, scene.FormatBC1} {
		timed("format", f.String(), 0, 0, f, base)
	}
	// Traversal order of the rasterizer's tiles and quads (timed).
	if !s.o.Quick {
		for _, ord := range [][2]string{{"rowmajor", "zorder"}, {"zorder", "rowmajor"}, {"zorder", "zorder"}} {
			c := *base
			c.Raster.TileOrder, c.Raster.QuadOrder = ord[0], ord[1]
			timed("order", "tiles "+ord[0]+", quads "+ord[1], 0, 0, 0, &c)
		}
	}
	// 8x MSAA: timed on the default machine, then the 32 KB 16-way 64-byte L1 of
	// the decoupled-sampling paper.
	msaa := func(name string) (*Frame, error) { return s.frame("msaa", "8x, default L1", name, 8, base) }
	add("msaa", "texstudy", "8x, default L1", func() (Row, error) {
		r, err := msaa("texstudy")
		if err != nil {
			return Row{}, err
		}
		return timedRow("msaa", "8x, default L1", 8, r), nil
	})
	replay("msaa", "8x, 32 KB 16-way 64 B", 8, "texstudy", msaa, withL1(base, 32, 16, 64), nil, nil)
	return pts
}
