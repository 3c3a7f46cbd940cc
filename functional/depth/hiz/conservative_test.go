package hiz_test

import (
	"bytes"
	"testing"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// studyConfigs are the configurations the conservativeness test runs side by
// side; the Oracle is first. image marks those also rendered with a
// culling filter to compare the images.
var studyConfigs = []struct {
	name  string
	cfg   hiz.Config
	image bool
}{
	{"oracle", hiz.Config{Mode: hiz.Oracle}, false},
	{"forward", hiz.Config{Mode: hiz.Forward}, false},
	{"forward/interval", hiz.Config{Mode: hiz.Forward, Placement: hiz.IntervalOnly}, false},
	{"instant feedback", hiz.Config{Mode: hiz.Forward, Feedback: hiz.IdealFeedback}, true},
	{"feedback delay 64", hiz.Config{Mode: hiz.Forward, Feedback: hiz.IdealFeedback, FeedbackDelay: 64}, false},
	{"zmask", hiz.Config{Mode: hiz.ZMask}, true},
	{"zmask/interval", hiz.Config{Mode: hiz.ZMask, Placement: hiz.IntervalOnly}, false},
	{"zmask 3 layers", hiz.Config{Mode: hiz.ZMask, Layers: 3}, false},
	{"zmask 4 layers 64", hiz.Config{Mode: hiz.ZMask, Layers: 4, TileSamples: 64}, false},
	{"zmask 16", hiz.Config{Mode: hiz.ZMask, TileSamples: 16}, false},
	{"zmask+feedback", hiz.Config{Mode: hiz.ZMask, Feedback: hiz.IdealFeedback, FeedbackDelay: 8}, false},
}

func render(t testing.TB, name string, w, h, samples int, format depth.Format, hooks reference.Hooks) *reference.Result {
	t.Helper()
	o := driver.DefaultOptions()
	o.DepthFormat = format
	_, f := testframe.Encode(t, name, w, h, samples, o)
	ro := reference.DefaultOptions()
	ro.Hooks = hooks
	res, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, ro)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestConservativeOnBuiltinScenes runs every configuration against the Oracle
// and the exact depth test on every built-in scene, sample by sample: no
// configuration may ever cull a sample the exact test passes, nor one the
// Oracle keeps; and a filter that really culls leaves the image unchanged.
func TestConservativeOnBuiltinScenes(t *testing.T) {
	var cfgs []hiz.Config
	for _, c := range studyConfigs {
		cfgs = append(cfgs, c.cfg)
	}
	cases := []struct {
		samples int
		format  depth.Format
	}{{0, depth.D24S8}, {1, depth.D32F}, {27, depth.D24S8}, {64, depth.D32F}}
	for _, name := range scene.BuiltinNames() {
		for _, cs := range cases {
			st, err := hiz.NewStudy(cfgs...)
			if err != nil {
				t.Fatal(err)
			}
			res := render(t, name, 64, 36, cs.samples, cs.format, st)
			if err := st.Err(); err != nil {
				t.Fatal(err)
			}
			if st.ViolationCount != 0 {
				t.Errorf("%s/%dx/%v: %d violations, first %v", name, cs.samples, cs.format, st.ViolationCount, st.Violations)
			}
			for i, c := range studyConfigs {
				if st.BeyondOracle[i] != 0 {
					t.Errorf("%s/%v: %s culled %d samples the oracle kept", name, cs.format, c.name, st.BeyondOracle[i])
				}
				s := st.Stats(i)
				t.Logf("%s/%v %-18s tiles %6d culled %6d (%.3f of 16-sample units) checked %d",
					name, cs.format, c.name, s.Tiles, s.TilesCulled, s.CullingRate(), st.Checked[i])
			}
			if cs.format != depth.D24S8 {
				continue // the images are checked once per scene
			}
			// The table-driven oracle (exact verdicts, shader kills included)
			// culls everything the replica oracle does and never changes the
			// image.
			rec := hiz.NewOracleRecorder()
			render(t, name, 64, 36, cs.samples, cs.format, rec)
			of, err := hiz.NewFilter(hiz.Config{Mode: hiz.Oracle})
			if err != nil {
				t.Fatal(err)
			}
			of.SetOracle(rec.Table)
			if got := render(t, name, 64, 36, cs.samples, cs.format, of); !bytes.Equal(got.Image.Pix, res.Image.Pix) {
				t.Errorf("%s/%v: the table oracle changed the image", name, cs.format)
			}
			if ts, rs := of.Stats(), st.Stats(0); ts.UnitsCulled < rs.UnitsCulled || ts.Units != rs.Units {
				t.Errorf("%s/%v: the table oracle culled %d of %d units, the replica %d of %d",
					name, cs.format, ts.UnitsCulled, ts.Units, rs.UnitsCulled, rs.Units)
			}
			// With the verdicts, the ideal feedback follows the exact depth
			// buffer; still nothing passing the depth test may be culled (the
			// table oracle itself culls discarded samples too, by design).
			tst, err := hiz.NewStudy(hiz.Config{Mode: hiz.Forward, Feedback: hiz.IdealFeedback},
				hiz.Config{Mode: hiz.ZMask, Feedback: hiz.IdealFeedback, FeedbackDelay: 16})
			if err != nil {
				t.Fatal(err)
			}
			tst.SetOracle(rec.Table)
			render(t, name, 64, 36, cs.samples, cs.format, tst)
			if tst.ViolationCount != 0 {
				t.Errorf("%s: with verdicts: %d violations, first %v", name, tst.ViolationCount, tst.Violations)
			}
			for _, c := range studyConfigs {
				if !c.image {
					continue
				}
				f, err := hiz.NewFilter(c.cfg)
				if err != nil {
					t.Fatal(err)
				}
				got := render(t, name, 64, 36, cs.samples, cs.format, f)
				if !bytes.Equal(got.Image.Pix, res.Image.Pix) {
					t.Errorf("%s/%v: %s: culling changed the image", name, cs.format, c.name)
				}
			}
		}
	}
}
