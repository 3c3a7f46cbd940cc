// Package study is the texture-cache study of experiments/texcache: timed
// frames of the study scenes on the sort-last machine, and replays of the
// texture requests they recorded through samplers, an L2 and memory of other
// geometries (see the README in the folder above).
package study

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/tracing"
)

// Options are the study's settings.
type Options struct {
	Out           string // output folder
	Width, Height int    // frame size (0: the scenes' own, 320x180)
	// Quick runs a reduced sweep (for tests): fewer points, no ordering runs.
	Quick bool
	// Log receives progress lines (nil: none).
	Log io.Writer
	// Instruments, when not nil, traces, samples and monitors the timed
	// frames (one folder per frame under Out/runs; replays are not platforms and
	// are not instrumented).
	Instruments *tracing.Flags
	// Inputs, when not nil, sets each run's memory budget (-max-memory).
	Inputs *expt.Inputs
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
	rows []Row
	log  io.Writer
	t0   time.Time
	sess *tracing.Session
}

func (s *study) logf(format string, a ...any) {
	if s.log != nil {
		fmt.Fprintf(s.log, "[%5.1fs] %s\n", time.Since(s.t0).Seconds(), fmt.Sprintf(format, a...))
	}
}

func (s *study) scene(name string, samples int) (*scene.Scene, error) {
	return expt.LoadScene(name, s.o.Width, s.o.Height, samples)
}

// timed runs a frame and records a row for it.
func (s *study) timed(sweep, setting string, x float64, sc *scene.Scene, cfg *configs.Config) (*Frame, error) {
	if err := expt.Reserve(s.o.Inputs.Budget(), cfg, sc); err != nil {
		return nil, err
	}
	r, err := TimedRun(sc, cfg, s.sess, expt.RunName(sweep, sc.Name, setting))
	if err != nil {
		return nil, err
	}
	s.rows = append(s.rows, Row{Sweep: sweep, Scene: sc.Name, Setting: setting, X: x, Timed: true, M: MetricsOf(r.Stats)})
	s.logf("timed %-13s %-10s %-12s %d cycles", sweep, sc.Name, setting, r.Cycles)
	return r, nil
}

// replay replays run on cfg and records a row.
func (s *study) replay(sweep, setting string, x float64, run *Frame, cfg *configs.Config, rebind func(*state.TextureBinding) *state.TextureBinding) error {
	st, err := Replay(run, cfg, rebind)
	if err != nil {
		return fmt.Errorf("%s %s: %w", sweep, setting, err)
	}
	s.rows = append(s.rows, Row{Sweep: sweep, Scene: run.Scene.Name, Setting: setting, X: x, M: MetricsOf(st)})
	s.logf("replay %-12s %-10s %-12s", sweep, run.Scene.Name, setting)
	return nil
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

// Run runs the study, writes results.csv and the figures into o.Out and
// prints the summary table to w.
func Run(o Options, w io.Writer) error {
	if o.Out == "" {
		o.Out = "out/texcache"
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	s := &study{o: o, base: configs.Default(), log: o.Log, t0: time.Now()}
	if o.Instruments != nil {
		s.sess = o.Instruments.NewSession(o.Out, 0, o.Log)
	}
	if err := s.sweeps(); err != nil {
		return err
	}
	if err := writeCSV(filepath.Join(o.Out, "results.csv"), s.rows); err != nil {
		return err
	}
	if err := figures(o.Out, s.rows); err != nil {
		return err
	}
	report(w, s.rows, s.base)
	fmt.Fprintf(w, "\nwrote %s (results.csv and the figures) in %.0f s\n", o.Out, time.Since(s.t0).Seconds())
	return nil
}

func (s *study) sweeps() error {
	sizes := []int{1, 2, 4, 8, 16, 32, 64}
	ways := []int{1, 2, 4, 8, 16}
	lines := []int{16, 32, 64, 128, 256}
	l2s := []int{4, 8, 16, 32, 64, 128, 256, 512}
	if s.o.Quick {
		sizes, ways, lines, l2s = []int{1, 8, 64}, []int{1, 4}, []int{32, 64}, []int{16, 128}
	}
	base := s.base
	def := base.TextureSampler.L1
	// Baselines: one timed frame per scene on the default machine.
	runs := map[string]*Frame{}
	for _, name := range Scenes {
		sc, err := s.scene(name, 0)
		if err != nil {
			return err
		}
		r, err := s.timed("baseline", "default", 0, sc, base)
		if err != nil {
			return err
		}
		runs[name] = r
	}
	study := runs["texstudy"]
	// L1 size, bilinear filtering (Giesen's misses per bilinear request).
	bil := texture.Bilinear
	for _, name := range Scenes {
		for _, kb := range sizes {
			if err := s.replay("l1_size", strconv.Itoa(kb)+" KB", float64(kb), runs[name], withL1(base, kb, def.Ways, def.LineBytes),
				withFilter(bil, 1)); err != nil {
				return err
			}
			miss, fp, err := TexelMisses(runs[name], kb, def.Ways, withFilter(bil, 1))
			if err != nil {
				return err
			}
			s.rows[len(s.rows)-1].TexelCache = ratio(miss, fp)
		}
	}
	// Associativity and line size at the default size, filtering as authored.
	for _, n := range ways {
		if err := s.replay("associativity", strconv.Itoa(n)+"-way", float64(n), study, withL1(base, def.SizeKB, n, def.LineBytes), nil); err != nil {
			return err
		}
	}
	for _, b := range lines {
		if err := s.replay("line_size", strconv.Itoa(b)+" B", float64(b), study, withL1(base, def.SizeKB, def.Ways, b), nil); err != nil {
			return err
		}
	}
	// L2 size per bank.
	for _, kb := range l2s {
		c := *base
		c.L2.BankSizeKB = kb
		if err := s.replay("l2_size", strconv.Itoa(kb)+" KB", float64(kb), study, &c, nil); err != nil {
			return err
		}
	}
	// Filter modes.
	for _, f := range []struct {
		name string
		f    texture.Filter
		n    int
	}{{"bilinear", texture.Bilinear, 1}, {"trilinear", texture.Trilinear, 1}, {"aniso 4x", texture.Anisotropic, 4},
		{"aniso 16x", texture.Anisotropic, 16}} {
		if err := s.replay("filter", f.name, 0, study, base, withFilter(f.f, f.n)); err != nil {
			return err
		}
	}
	// Storage formats (timed: the frame changes): RGBA8, sRGB (fat texels), BC1.
	for _, f := range []scene.TextureFormat{scene.FormatRGBA8SRGB, scene.FormatBC1} {
		sc, err := s.scene("texstudy", 0)
		if err != nil {
			return err
		}
		for i := range sc.Textures {
			sc.Textures[i].Format = f
		}
		if _, err := s.timed("format", f.String(), 0, sc, base); err != nil {
			return err
		}
	}
	// Traversal order of the rasterizer's tiles and quads (timed).
	if !s.o.Quick {
		for _, ord := range [][2]string{{"rowmajor", "zorder"}, {"zorder", "rowmajor"}, {"zorder", "zorder"}} {
			c := *base
			c.Raster.TileOrder, c.Raster.QuadOrder = ord[0], ord[1]
			sc, err := s.scene("texstudy", 0)
			if err != nil {
				return err
			}
			if _, err := s.timed("order", "tiles "+ord[0]+", quads "+ord[1], 0, sc, &c); err != nil {
				return err
			}
		}
	}
	// 8x MSAA: timed on the default machine, then the 32 KB 16-way 64-byte L1 of
	// the decoupled-sampling paper.
	sc, err := s.scene("texstudy", 8)
	if err != nil {
		return err
	}
	msaa, err := s.timed("msaa", "8x, default L1", 8, sc, base)
	if err != nil {
		return err
	}
	return s.replay("msaa", "8x, 32 KB 16-way 64 B", 8, msaa, withL1(base, 32, 16, 64), nil)
}
