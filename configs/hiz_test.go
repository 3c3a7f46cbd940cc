package configs

import (
	"bytes"
	"fmt"
	"testing"

	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/reference"
)

// hizMachines are HiZ variants of the default machine; deterministic ones also
// match the reference renderer's counters.
// Each runs the occluders scene (depth complexity) and one of foliage
// (alpha-tested) or depthwrite (shader depth).
var hizMachines = []struct{ name, yaml, scene string }{
	{"off", "hiz: {mode: off}\n", ""},
	{"oracle", "hiz: {mode: oracle}\n", "depthwrite"},
	{"forward", "hiz: {mode: forward}\n", ""},
	{"instant-feedback", "hiz: {mode: forward, feedback: ideal}\n", "foliage"},
	{"feedback-update", "hiz: {mode: forward, feedback: update, feedback_delay: 16}\n", "foliage"},
	{"feedback-evict-refetch", "depth_unit: {cache: {size_kb: 4, ways: 4, line_bytes: 64}}\nhiz: {mode: forward, feedback: evict, feedback_miss: refetch, cache: {size_kb: 1, ways: 2, line_bytes: 64}}\n", "depthwrite"},
	{"zmask-3-interval", "hiz: {mode: zmask, layers: 3, placement: interval}\n", "depthwrite"},
	{"packed", "raster: {tile_size: 16}\nhiz: {mode: zmask, packed: true, cache: {size_kb: 1, ways: 2, line_bytes: 64}}\n", "foliage"},
	{"zmask-feedback-zcompress", "depth_unit: {cache: {size_kb: 32, ways: 4, line_bytes: 256}}\nhiz: {mode: zmask, feedback: update}\n", ""},
}

// TestHiZVariantsEqualReference renders the HiZ-heavy built-in scenes on every
// HiZ variant: the image always equals the reference renderer's, and the
// counters too when the variant's decisions do not depend on timing.
func TestHiZVariantsEqualReference(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	for _, m := range hizMachines {
		cfg := machine(t, m.name, m.yaml)
		for _, name := range []string{"occluders", m.scene} {
			if name == "" {
				continue
			}
			t.Run(m.name+"/"+name, func(t *testing.T) {
				_, f := frame(t, name, 64, 36, 0)
				res := timed(t, cfg, f)
				_, g := frame(t, name, 64, 36, 0)
				ref := referenceRender(t, cfg, g)
				if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
					t.Errorf("the timed image differs from the reference image")
				}
				if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
					t.Errorf("the memory images differ after the frame")
				}
				tc := timedCounters(res.Stats)
				if cfg.HiZDeterministic() {
					for k, v := range referenceCounters(&ref.Counters) {
						if tc[k] != v {
							t.Errorf("counter %s = %v timed, %v reference", k, tc[k], v)
						}
					}
				}
				if q := tc["hiz_quads_culled"] + tc["early_z_quads_culled"] + tc["quads_discarded"] + tc["quads_late_z_culled"] + tc["quads_written"]; q != tc["quads"] {
					t.Errorf("%v quads left the rasterizers, %v accounted for", tc["quads"], q)
				}
				sum := func(c string) float64 {
					s := 0.0
					for i := 0; i < cfg.ROP.Count; i++ {
						s += res.Stats[hizName(i)+"."+c]
					}
					return s
				}
				t.Logf("culled %v of %v units, HiZ bytes %v read %v written, feedback %v applied %v stale",
					sum("units_culled"), sum("units_tested"), sum("bytes_read"), sum("bytes_written"),
					sum("feedback_applied"), sum("feedback_stale"))
			})
		}
	}
}

func hizName(i int) string { return fmt.Sprintf("GPU.HiZ[%d]", i) }

// TestHiZOracleTable: the exact oracle (verdicts recorded by a reference render,
// shader kills included) culls in the timed machine exactly what the reference
// renderer with the same table culls, and keeps the image.
func TestHiZOracleTable(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	cfg := machine(t, "oracle", "hiz: {mode: oracle}\n")
	for _, name := range []string{"occluders", "foliage"} {
		_, r := frame(t, name, 64, 36, 0)
		rec := fhiz.NewOracleRecorder()
		o := referenceOptions(t, cfg)
		o.Hooks = rec
		if _, err := reference.Render(r.Memory, r.Stream, r.StreamBytes, o); err != nil {
			t.Fatal(err)
		}
		p, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range p.HiZ {
			h.SetOracle(rec.Table)
		}
		_, f := frame(t, name, 64, 36, 0)
		res, err := p.Run(f)
		if err != nil {
			t.Fatal(err)
		}
		flt, err := fhiz.NewFilter(cfg.HiZConfig())
		if err != nil {
			t.Fatal(err)
		}
		flt.SetOracle(rec.Table)
		o.Hooks = flt
		_, g := frame(t, name, 64, 36, 0)
		ref, err := reference.Render(g.Memory, g.Stream, g.StreamBytes, o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
			t.Errorf("%s: the timed image differs from the reference image", name)
		}
		tc := timedCounters(res.Stats)
		for k, v := range referenceCounters(&ref.Counters) {
			if tc[k] != v {
				t.Errorf("%s: counter %s = %v timed, %v reference", name, k, tc[k], v)
			}
		}
		if tc["hiz_quads_culled"] == 0 {
			t.Errorf("%s: the oracle culled nothing", name)
		}
	}
}
