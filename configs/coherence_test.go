package configs

import (
	"errors"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/coherence"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// pinFrame encodes the bowling-pin scene at 48x36, one sample, with the
// floor unlit, its pins split into passes under the R8500's limits (16
// operations, 6 registers, 6 texture units, 6 interpolants, dependent-fetch
// depth 2), as experiments/rds renders it.
func pinFrame(t *testing.T) *driver.Frame {
	t.Helper()
	s := testframe.Scene(t, "bowlingpin", 48, 36, 1)
	m := &s.Materials[s.MaterialIndex("floor")]
	m.Shader, m.Textures = "unlit", nil
	m.Params = []scene.Param{{Name: "color", Value: [4]float32{0.45, 0.36, 0.27, 1}}}
	o := driver.DefaultOptions()
	o.Multipass.Limits = multipass.Limits{Name: "R8500", Ops: 16, Registers: 6, TexUnits: 6, Interpolants: 6, TexDepth: 2}
	f, err := driver.Encode(s, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Multipass) != 2 {
		t.Fatalf("%d split draws, want the two pins", len(f.Multipass))
	}
	return f
}

// TestCoherenceChecker renders a multipass frame with the coherence checker
// on: with the sync tokens' flushes and invalidates it passes; without the
// back-end flush an L2 fill reads an intermediate the ROP still holds dirty,
// and without the texture invalidate a sampler reads the previous pin's
// version of an intermediate; both end the run with a Violation.
func TestCoherenceChecker(t *testing.T) {
	cases := []struct {
		name             string
		noFlush, noInval bool
		wantErr          bool
		readerIsL2Fill   bool
	}{
		{"flush and invalidate", false, false, false, false},
		{"no flush", true, false, true, true},
		{"no invalidate", false, true, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Default()
			cfg.Memory.CoherenceCheck = true
			p, err := Build(cfg)
			if err != nil {
				t.Fatal(err)
			}
			p.CommandProcessor.SkipSyncCoherence(tc.noFlush, tc.noInval)
			f := pinFrame(t)
			res, err := p.Run(f)
			if !tc.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				st := res.Stats
				if st["GPU.Coherence.violations"] != 0 || st["GPU.Coherence.reads_checked"] == 0 ||
					st["GPU.Coherence.write_backs"] == 0 || st["GPU.Coherence.fences"] != st["GPU.CommandProcessor.sync_tokens"] {
					t.Errorf("coherence statistics: violations %v reads_checked %v write_backs %v fences %v (sync tokens %v)",
						st["GPU.Coherence.violations"], st["GPU.Coherence.reads_checked"], st["GPU.Coherence.write_backs"],
						st["GPU.Coherence.fences"], st["GPU.CommandProcessor.sync_tokens"])
				}
				return
			}
			var v *coherence.Violation
			if !errors.As(err, &v) {
				t.Fatalf("error %v, want a coherence violation", err)
			}
			if v.Got >= v.Want {
				t.Errorf("violation %v: got version %d, want less than %d", v, v.Got, v.Want)
			}
			inter := false
			for _, ti := range f.Textures {
				if strings.HasPrefix(ti.Name, "multipass/") && v.Line >= ti.Data && v.Line < ti.Data+ti.Size {
					inter = true
				}
			}
			if !inter {
				t.Errorf("violation on line 0x%x, outside the intermediate targets", v.Line)
			}
			if isFill := strings.Contains(v.Reader, "fill from memory"); isFill != tc.readerIsL2Fill {
				t.Errorf("violation by %q", v.Reader)
			}
			t.Log(err)
		})
	}
}
