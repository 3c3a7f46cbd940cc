package study

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// TimedVariant is one timed frame of Fig. 13.
type TimedVariant struct {
	Name    string // "1x", "4x MSAA", "SL 8", "T 8", "SS 27", "T 4x MSAA", ...
	Samples int
	Blur    float64
	Dec     scene.Decoupling
	// Machine is the machine the frame renders on: SortLast (the default
	// machine, configs.Default) or SortMiddle (the tiled machine,
	// configs.SortMiddleMachine).
	Machine string
}

// The machines of Fig. 13 (configs.Config.Machine).
const (
	SortLast   = "sortlast"
	SortMiddle = "sortmiddle"
)

// Config returns the machine the variant renders on.
func (v TimedVariant) Config() (*configs.Config, error) {
	switch v.Machine {
	case SortLast:
		return configs.Default(), nil
	case SortMiddle:
		return configs.SortMiddleMachine(), nil
	}
	return nil, fmt.Errorf("timed variant %q: machine %q is neither %s nor %s", v.Name, v.Machine, SortLast, SortMiddle)
}

// TimedVariants are Fig. 13's frames: single-sampled and 4x MSAA without
// blur on the default sort-last machine, 4x MSAA without blur on the tiled
// machine (its own baseline), then at each count with blur: sort-last
// decoupled (SL), tiled decoupled (T: the per-tile shading cache) and
// supersampled on the sort-last machine (SS).
func TimedVariants(spps []int) []TimedVariant {
	off := scene.Decoupling{Mode: scene.DecoupleOff, Rate: 1}
	vs := []TimedVariant{{"1x", 1, 0, off, SortLast}, {"4x MSAA", 4, 0, off, SortLast}, {"T 4x MSAA", 4, 0, off, SortMiddle}}
	for _, n := range spps {
		c := strconv.Itoa(n)
		vs = append(vs, TimedVariant{"SL " + c, n, Moderate, On, SortLast},
			TimedVariant{"T " + c, n, Moderate, On, SortMiddle},
			TimedVariant{"SS " + c, n, Moderate, scene.Decoupling{Mode: scene.DecoupleSupersample, Rate: 1}, SortLast})
	}
	return vs
}

// TimedPoint is a timed frame: cycles, busy cycles per pipeline stage (summed
// over a stage's units) and DRAM bytes, or the error that stopped it (a
// frame that failed is a row of the table, not the end of the study).
type TimedPoint struct {
	TimedVariant
	Scene     string
	Cycles    uint64
	Stages    map[string]float64
	DRAMBytes float64
	// Shades are the timed frame's pixel shader invocations (its shader
	// cores' ps_invocations: 4 per shaded quad, helper lanes included, a
	// shading quad the cache evicted and missed again counted again) and
	// VisibleSamples the samples that passed early Z on decoupled and
	// supersampled draws (the reference renderer's; 0 on the other frames):
	// the paper's idealized supersampler shades once per visible sample,
	// so Shades/VisibleSamples is a frame's shading against it.
	Shades, VisibleSamples int64 `json:",omitempty"`
	// Tiled holds the tiled machine's figures (nil on the other machines).
	Tiled *TiledCounts `json:",omitempty"`
	Err   string       // why the frame is invalid ("": valid)
}

// TiledCounts are a tiled frame's figures: the timed machine's shading cache
// (summed over the tile units' reorder buffers), bin spread and tile, and the
// functional sort-middle model (the study's probe) watching the reference
// render of the same frame: per-tile LRUs of the machine's cache size and
// unbounded ones, decouple.TiledModel's bins and tile.
type TiledCounts struct {
	CacheHits, CacheMisses float64
	// ShadingQuads are the 5D path's shading quads (ReorderBuffer
	// shading_quads), Quads2D the 2D path's quads, one shading quad each
	// (ReorderBuffer quads).
	ShadingQuads, Quads2D float64
	BinSpread             float64 // GPU.Binner.bin_spread: bin entries per binned primitive
	Primitives            float64 // GPU.Binner.primitives
	BinEntries            float64 // GPU.Binner.bin_entries
	TileW, TileH          int     // the machine's tile (configs.Config.TileGrid)
	Entries               int     // reorder_buffer.shading_cache_entries of each tile unit
	// CoveredPixels and VisibleSamples are the reference renderer's
	// (DecoupledCounters; the functional figures' denominators).
	CoveredPixels, VisibleSamples int64
	Functional                    Counts // the probe's: Tiled {Entries, Unbounded}, TileW/TileH, Primitives, BinEntries
}

// Quads is the timed machine's shading quads, both paths.
func (t *TiledCounts) Quads() int64 { return int64(t.ShadingQuads + t.Quads2D) }

// Rate is the timed machine's shading rate: shader invocations (4 per
// shading quad) per covered pixel, as the functional figures count it.
func (t *TiledCounts) Rate() float64 { return decouple.ShadingRate(t.Quads(), t.CoveredPixels) }

// stageOf names a unit's pipeline stage: "GPU.ShaderCore[3]" -> "ShaderCore".
// A tile unit's inner units belong to their kind's stage
// ("GPU.TileUnit[1].Rasterizer" -> "Rasterizer"); the tile unit itself (bin
// reading, tile loads and stores, its units' control) is "TileUnit".
func stageOf(unit string) string {
	unit = strings.TrimPrefix(unit, "GPU.")
	if rest, ok := strings.CutPrefix(unit, "TileUnit["); ok {
		if i := strings.Index(rest, "]."); i >= 0 {
			unit = rest[i+2:]
		}
	}
	if i := strings.IndexAny(unit, ".["); i >= 0 {
		unit = unit[:i]
	}
	return unit
}

// Timed renders variant v of scene name at w x h on its machine, within the
// memory budget b (nil: the default budget). Its error is the refusal of a
// frame and machine larger than b; any other failure is the point's Err.
func Timed(name string, w, h int, v TimedVariant, b *inputs.Budget) (TimedPoint, error) {
	if b == nil {
		b = inputs.NewBudget(0)
	}
	tp := TimedPoint{TimedVariant: v, Scene: name, Stages: map[string]float64{}}
	if err := tp.run(w, h, b); err != nil {
		var r refused
		if errors.As(err, &r) {
			return tp, r.err
		}
		tp.Err = err.Error()
	}
	return tp, nil
}

// refused is a frame the memory budget refused.
type refused struct{ err error }

func (r refused) Error() string { return r.err.Error() }

// run simulates the frame, records its figures and checks its image against
// the reference renderer's: a machine that ignores decoupling (renders
// MSAA) would otherwise give plausible cycles.
func (tp *TimedPoint) run(w, h int, b *inputs.Budget) error {
	v := tp.TimedVariant
	s, err := expt.LoadScene(tp.Scene, w, h, v.Samples, scene.WithBlur(float32(v.Blur)))
	if err != nil {
		return err
	}
	for i := range s.Materials {
		s.Materials[i].Decoupled = v.Dec
	}
	cfg, err := v.Config()
	if err != nil {
		return err
	}
	if err := expt.Reserve(b, cfg, s); err != nil {
		return refused{err}
	}
	p, res, err := configs.RunScene(cfg, s)
	if err != nil {
		return err
	}
	tp.record(p, res)
	g, err := driver.Encode(s, cfg.DriverOptions())
	if err != nil {
		return err
	}
	var pr *probe
	ref, err := cfg.RenderReferenceWith(g, func(o *reference.Options) error {
		if p.SortMiddle == nil {
			return nil
		}
		// The functional sort-middle model watches the reference render of
		// the same frame: per-tile LRUs of the machine's size.
		m := Models{Tiled: []int{cfg.ReorderBuffer.ShadingCacheEntries, Unbounded}}
		var err error
		if pr, err = newProbe(g.Memory, s.Width, s.Height, s.Samples, m); err != nil {
			return err
		}
		o.Observer = pr
		return nil
	})
	if err != nil {
		return err
	}
	tp.VisibleSamples = ref.Counters.Decoupled.VisibleSamples
	if pr != nil {
		tp.Tiled = tiledCounts(p, res.Stats, &ref.Counters.Decoupled, pr.finish())
	}
	if res.Image == nil || ref.Image == nil || !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
		return fmt.Errorf("the timed image differs from the reference renderer's (does the %s machine run decoupled draws, mode %v?)",
			tp.Machine, v.Dec.Mode)
	}
	return nil
}

// record keeps the frame's cycles, busy cycles per stage and DRAM bytes.
func (tp *TimedPoint) record(p *configs.Platform, res *configs.Result) {
	tp.Cycles = res.Cycles
	for _, u := range p.Units {
		tp.Stages[stageOf(u.Name())] += res.Stats[u.Name()+".cycles_busy"]
		if stageOf(u.Name()) == "ShaderCore" {
			tp.Shades += int64(res.Stats[u.Name()+".ps_invocations"])
		}
	}
	for k, v := range res.Stats { // GPU.Memory.Channel[c].bytes_read / bytes_written
		if strings.HasPrefix(k, "GPU.Memory.Channel[") && (strings.HasSuffix(k, "].bytes_read") || strings.HasSuffix(k, "].bytes_written")) {
			tp.DRAMBytes += v
		}
	}
}

// tiledCounts gathers a tiled frame's figures: the tile units' shading
// caches summed, the binner's, the machine's tile, the reference counters
// and the functional model's counts fc.
func tiledCounts(p *configs.Platform, st map[string]float64, ref *reference.DecoupledCounters, fc Counts) *TiledCounts {
	sm := p.SortMiddle
	t := &TiledCounts{TileW: sm.Grid.TileW, TileH: sm.Grid.TileH, Entries: p.Config.ReorderBuffer.ShadingCacheEntries,
		CoveredPixels: ref.CoveredPixels, VisibleSamples: ref.VisibleSamples, Functional: fc}
	for _, tu := range sm.TileUnits {
		n := tu.ReorderBuffer.Name() + "."
		t.CacheHits += st[n+"cache_hits"]
		t.CacheMisses += st[n+"cache_misses"]
		t.ShadingQuads += st[n+"shading_quads"]
		t.Quads2D += st[n+"quads"]
	}
	b := sm.Binner.Name() + "."
	t.BinSpread, t.Primitives, t.BinEntries = st[b+"bin_spread"], st[b+"primitives"], st[b+"bin_entries"]
	return t
}

// timedPlan lists Fig. 13's timed frames: every variant on each sweep scene.
func (s *study) timedPlan() []TimedPoint {
	spps := SampleCounts
	if s.o.Quick {
		spps = spps[:1]
	}
	var todo []TimedPoint
	for _, sk := range SweepScenes {
		for _, v := range TimedVariants(spps) {
			todo = append(todo, TimedPoint{TimedVariant: v, Scene: sk.Scene})
		}
	}
	return todo
}
