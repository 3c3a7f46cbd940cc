package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// TestTimedMultipassEqualsReference renders the bowling-pin scene split into
// passes through the timed pipeline and compares it with the single-pass
// reference render, byte for byte.
func TestTimedMultipassEqualsReference(t *testing.T) {
	s, err := pinScene(48, 36)
	if err != nil {
		t.Fatal(err)
	}
	single, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ref, err := reference.Render(single.Memory, single.Stream, single.StreamBytes, reference.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, lim := range frameMachines() {
		if lim.Name != "PC1" && lim.Name != "PC3" && lim.Name != "R8500" {
			continue
		}
		o := driver.DefaultOptions()
		o.Multipass.Limits = lim
		f, err := driver.Encode(s, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Multipass) != 2 {
			t.Fatalf("%s: %d split draws, want the two pins", lim.Name, len(f.Multipass))
		}
		p, err := configs.Build(configs.Default())
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
			t.Errorf("%s: the timed multipass image differs from the single-pass reference", lim.Name)
		}
		if res.Stats["GPU.CommandProcessor.draws"] != float64(f.Draws) {
			t.Errorf("%s: %v draws simulated, %d encoded", lim.Name, res.Stats["GPU.CommandProcessor.draws"], f.Draws)
		}
		st := res.Stats
		passes := 0
		for _, m := range f.Multipass {
			passes += m.Passes
		}
		if st["GPU.Multipass.split_draws"] != 2 || st["GPU.Multipass.passes"] != float64(passes) ||
			st["GPU.Multipass.save_bytes_written"] == 0 || st["GPU.Multipass.restore_l2_bytes"] == 0 ||
			st["GPU.Multipass.restore_l2_bytes"] != sumStats(st, "GPU.TextureTraffic.multipass_intermediate", ".l2_bytes") {
			t.Errorf("%s: multipass statistics %v %v %v %v", lim.Name, st["GPU.Multipass.split_draws"], st["GPU.Multipass.passes"],
				st["GPU.Multipass.save_bytes_written"], st["GPU.Multipass.restore_l2_bytes"])
		}
	}
}

func TestLineFit(t *testing.T) {
	a, b, r2 := lineFit([]float64{1, 2, 3}, []float64{3, 5, 7})
	if a != 1 || b != 2 || r2 != 1 {
		t.Errorf("fit %v %v %v, want 1 2 1", a, b, r2)
	}
	// (0,0), (1,1), (2,0): slope 0, mean 1/3, r^2 0.
	a, b, r2 = lineFit([]float64{0, 1, 2}, []float64{0, 1, 0})
	if b != 0 || r2 != 0 || a < 0.333 || a > 0.334 {
		t.Errorf("fit %v %v %v", a, b, r2)
	}
}

// TestStudy runs the study on one shader with a small search budget and
// checks its outputs.
func TestStudy(t *testing.T) {
	dir := t.TempDir()
	if err := run(options{out: dir, steps: 2000, shaders: "bumppin"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "efficiency.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1+len(multipass.CostModels())*len(multipass.PipelineConfigs()) {
		t.Errorf("%d lines in efficiency.csv", len(lines))
	}
	// bumppin on PC8: one pass, 15 + 5*4 + 58 = 93, optimal.
	want := "bumppin,PC8,info/infr/inft/infv,15p+5t+i,93,1,true,"
	found := false
	for _, l := range lines {
		found = found || strings.HasPrefix(l, want)
	}
	if !found {
		t.Errorf("no line starting %q", want)
	}
	for _, f := range []string{"table1_shaders.csv", "efficiency.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, parseFlags) }
