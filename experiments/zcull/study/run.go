package study

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/tracing"
)

// Machine is a named variant of the default machine (a YAML override).
type Machine struct {
	Name string
	YAML string
	// Verdicts: the HiZ units get the frame's exact verdicts (which samples
	// are visible), recorded by a reference render first: the ORACLE culls by
	// them, the ideal feedback's replica follows them (the exact depth buffer).
	Verdicts bool
}

// Case is one run: a machine on a scene at a sample count.
type Case struct {
	Machine Machine
	Scene   string
	Samples int
}

// Result is what a run measured (sums over the partitions' units).
type Result struct {
	Case
	Cycles                                   float64
	Units, UnitsCulled                       float64 // 16-sample units tested and culled
	Tests, TilesCulled, Accepted, Ambiguous  float64 // coarse tests (primitive x HiZ tile)
	SamplesTested                            float64 // per-sample depth tests executed (early and late)
	DepthRead, DepthWritten                  float64 // bytes
	HiZRead, HiZWritten                      float64 // bytes
	HiZHits, HiZMisses, DepthHits, DepthMiss float64
	FeedbackTiles, FeedbackApplied           float64
	FeedbackStale, FeedbackAge               float64 // age: mean cycles, averaged over the units that applied some
	PSInvocations, QuadsCulled               float64
}

// CullingRate is UnitsCulled/Units: the culling rate normalized to 16-sample tiles.
func (r *Result) CullingRate() float64 { return ratio(r.UnitsCulled, r.Units) }

// DepthTraffic returns the depth unit's bytes read and written.
func (r *Result) DepthTraffic() float64 { return r.DepthRead + r.DepthWritten }

// HiZTraffic returns the HiZ units' bytes read and written.
func (r *Result) HiZTraffic() float64 { return r.HiZRead + r.HiZWritten }

// Traffic is the depth-related traffic: depth plus HiZ.
func (r *Result) Traffic() float64 { return r.DepthTraffic() + r.HiZTraffic() }

// HiZHitRate is the HiZ caches' hit rate.
func (r *Result) HiZHitRate() float64 { return ratio(r.HiZHits, r.HiZHits+r.HiZMisses) }

// DepthHitRate is the depth caches' hit rate.
func (r *Result) DepthHitRate() float64 { return ratio(r.DepthHits, r.DepthHits+r.DepthMiss) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// base is what every machine of the study shares: 16-pixel raster tiles, so
// that PACKED ZMASK's 128-sample tiles (16x8 pixels at 1x) fit a raster tile
// and every configuration rasterizes alike (HiZ decisions do not depend on the
// raster tile size).
const base = "raster: {tile_size: 16}\n"

// parse returns machine m's configuration.
func parse(m Machine) (*configs.Config, error) {
	return configs.Parse("zcull-"+strings.ReplaceAll(strings.ToLower(m.Name), " ", "-")+".yaml", []byte(base+m.YAML))
}

// Name is the case's run name (its folder under OUT/runs when instrumented).
func (c Case) Name() string {
	return expt.RunName(c.Machine.Name, c.Scene, strconv.Itoa(c.Samples)+"x")
}

// studyScenes are the study's own scenes, beside the built-in ones: variants
// of a built-in scene that isolate what the paper measures.
//
//go:embed scenes/*.yaml
var studyScenes embed.FS

// loadScene loads scene name: one of the study's own scenes (scenes/), else
// the built-in scene of that name.
func loadScene(name string, opts ...scene.Option) (*scene.Scene, error) {
	if data, err := studyScenes.ReadFile("scenes/" + name + ".yaml"); err == nil {
		return scene.Parse("experiments/zcull/study/scenes/"+name+".yaml", data, opts...)
	}
	return scene.Builtin(name, opts...)
}

// runCase simulates one case at w x h, instrumented by sess when not nil.
func runCase(c Case, w, h int, sess *tracing.Session, inputs *expt.Inputs) (Result, error) {
	r := Result{Case: c}
	cfg, err := parse(c.Machine)
	if err != nil {
		return r, err
	}
	// Every scene is rendered sharp (blur 0: motion at shutter open, a pinhole
	// lens), as the masked-depth-culling paper's frames are: the HiZ unit lets
	// the 5D primitives of blurred decoupled draws pass untested, so a blurred
	// frame would measure something else.
	encode := func() (*driver.Frame, error) {
		s, err := loadScene(c.Scene, scene.WithBlur(0))
		if err != nil {
			return nil, err
		}
		if err := s.SetResolution(w, h, c.Samples); err != nil {
			return nil, err
		}
		return driver.Encode(s, driver.DefaultOptions())
	}
	var table *fhiz.OracleTable
	if c.Machine.Verdicts {
		f, err := encode()
		if err != nil {
			return r, err
		}
		rec := fhiz.NewOracleRecorder()
		o := reference.DefaultOptions()
		o.Raster = cfg.RasterOptions()
		o.BatchVertices = cfg.InputAssembler.BatchVertices
		o.WarpQuads = cfg.QuadPacker.QuadsPerWarp
		o.Hooks = rec
		if _, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, o); err != nil {
			return r, err
		}
		table = rec.Table
	}
	s, err := loadScene(c.Scene, scene.WithBlur(0))
	if err != nil {
		return r, err
	}
	if err := s.SetResolution(w, h, c.Samples); err != nil {
		return r, err
	}
	if err := expt.Reserve(inputs.Budget(), cfg, s); err != nil {
		return r, err
	}
	f, err := encode()
	if err != nil {
		return r, err
	}
	p, err := configs.Build(cfg)
	if err != nil {
		return r, err
	}
	for _, u := range p.HiZ {
		u.SetOracle(table)
	}
	var in *tracing.Instruments
	if sess != nil {
		if in, err = sess.Attach(p, f.Draws, c.Name()); err != nil {
			return r, err
		}
	}
	res, err := expt.RunFrame(p, f, in)
	if err != nil {
		return r, fmt.Errorf("%s on %s at %dx: %w", c.Machine.Name, c.Scene, c.Samples, err)
	}
	st := res.Stats
	sum := func(unit, counter string) float64 {
		t := 0.0
		for i := 0; i < cfg.ROP.Count; i++ {
			t += st[fmt.Sprintf("GPU.%s[%d].%s", unit, i, counter)]
		}
		return t
	}
	r.Cycles = float64(res.Cycles)
	r.Units, r.UnitsCulled = sum("HiZ", "units_tested"), sum("HiZ", "units_culled")
	r.Tests, r.TilesCulled = sum("HiZ", "coarse_tests"), sum("HiZ", "tiles_culled")
	r.Accepted, r.Ambiguous = sum("HiZ", "tiles_accepted"), sum("HiZ", "tiles_ambiguous")
	r.SamplesTested = sum("DepthUnit", "samples_tested_early") + sum("DepthUnit", "samples_tested_late")
	r.DepthRead, r.DepthWritten = sum("DepthUnit", "bytes_read"), sum("DepthUnit", "bytes_written")
	r.HiZRead, r.HiZWritten = sum("HiZ", "bytes_read"), sum("HiZ", "bytes_written")
	r.HiZHits, r.HiZMisses = sum("HiZ", "cache_hits"), sum("HiZ", "cache_misses")
	r.DepthHits, r.DepthMiss = sum("DepthUnit", "cache_hits"), sum("DepthUnit", "cache_misses")
	r.FeedbackTiles, r.FeedbackApplied = sum("HiZ", "feedback_tiles"), sum("HiZ", "feedback_applied")
	r.FeedbackStale = sum("HiZ", "feedback_stale")
	n := 0.0
	for i := 0; i < cfg.ROP.Count; i++ {
		if a := st[fmt.Sprintf("GPU.HiZ[%d].feedback_age_cycles", i)]; a > 0 {
			r.FeedbackAge += a
			n++
		}
	}
	r.FeedbackAge = ratio(r.FeedbackAge, n)
	r.QuadsCulled = sum("HiZ", "quads_culled")
	for k, v := range st {
		if strings.HasPrefix(k, "GPU.ShaderCore[") && strings.HasSuffix(k, ".ps_invocations") {
			r.PSInvocations += v
		}
	}
	return r, nil
}
