package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFrameReservations: a timed frame reserves the driver's image and every
// copy the machine loads (one into the GPU's memory; on SAGE one more into
// each of the 4 pipes' texture memories), and -check also the reference
// renderer's frame; a budget that does not hold them refuses the run before
// anything is built. Room at 1280x720, 4 samples: its frame is 39.5 MiB.
func TestFrameReservations(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"check", []string{"-check", "-max-memory", "370M"},
			"-check: builtin:room: the frame of scene room (1280x720, 4 samples, 6 textures) needs about 39.5 MiB, " +
				"and 347.7 MiB is already reserved: more than the memory budget of 370.0 MiB (-max-memory)"},
		{"sage pipes", []string{"-config", "../../configs/sage.yaml", "-max-memory", "450M"},
			"builtin:room: the frame of scene room (1280x720, 4 samples, 6 textures) on a timed machine " +
				"(the image and its 5 copies in the machine's memories) needs about 236.8 MiB, and 268.8 MiB is already reserved: " +
				"more than the memory budget of 450.0 MiB (-max-memory)"},
		{"tiled primitives", []string{"-config", "../../configs/sortmiddle.yaml", "-max-memory", "350M"},
			"builtin:room: the frame of scene room (1280x720, 4 samples, 6 textures) on a timed machine " +
				"(the image, its copy in the machine's memory and 82.8 MiB of binned primitives) needs about 161.7 MiB, " +
				"and 269.2 MiB is already reserved: more than the memory budget of 350.0 MiB (-max-memory)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-q", "-width", "1280", "-height", "720", "-o", t.TempDir()}, c.args...)
			o, err := parseFlags(args, func(string) string { return "" }, os.Stderr)
			if err != nil {
				t.Fatal(err)
			}
			err = run(o, io.Discard)
			if err == nil || !strings.HasSuffix(err.Error(), c.want) {
				t.Fatalf("got %v\nwant an error ending %q", err, c.want)
			}
		})
	}
}

// TestFunctionalReservesNoMachine: the reference renderer builds no machine,
// so a budget below the default machine's estimate (about 262 MiB) still
// renders in functional mode.
func TestFunctionalReservesNoMachine(t *testing.T) {
	runOutput(t, "-mode", "functional", "-width", "64", "-height", "36", "-max-memory", "200M")
}

// TestFunctionalProgress: a functional render that takes long prints progress
// lines, as a timed one does.
func TestFunctionalProgress(t *testing.T) {
	o, err := parseFlags([]string{"-mode", "functional", "-width", "64", "-height", "36", "-o", t.TempDir()},
		func(string) string { return "" }, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	o.inputs.Log, o.inputs.ProgressEvery = &log, time.Millisecond
	if err := run(o, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "  rendering the frame of scene room on the reference renderer: ") {
		t.Errorf("no progress line of the reference render:\n%s", log.String())
	}
}

// TestSageVideoLine: on SAGE both modes say which filter the convolve chips
// applied and the video output's size.
func TestSageVideoLine(t *testing.T) {
	for _, mode := range []string{"functional", "timing"} {
		out := runOutput(t, "-mode", mode, "-config", "../../configs/sage.yaml", "-width", "64", "-height", "36")
		if want := "\nvideo: mitchell filter (its own radius, gamma 1) on 4 convolve chips, 64x36 output\n"; !strings.Contains(out, want) {
			t.Errorf("%s: no line %q in\n%s", mode, want, out)
		}
	}
}

// TestSageBlurLine: a blurred scene on SAGE says that its blur is not
// modelled; a sharp one, or the same scene at -blur 0, says nothing; nor does
// the sort-last machine, which models it.
func TestSageBlurLine(t *testing.T) {
	const line = "\nblur: not modelled on SAGE"
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-config", "../../configs/sage.yaml", "-scene", "defocus"}, true},
		{[]string{"-config", "../../configs/sage.yaml", "-scene", "motion"}, true},
		{[]string{"-config", "../../configs/sage.yaml", "-scene", "defocus", "-blur", "0"}, false},
		{[]string{"-config", "../../configs/sage.yaml", "-scene", "room"}, false},
		{[]string{"-scene", "defocus"}, false},
	} {
		out := runOutput(t, append([]string{"-mode", "functional", "-width", "32", "-height", "18"}, tc.args...)...)
		if strings.Contains(out, line) != tc.want {
			t.Errorf("%q: the line %q is there: %v, want %v:\n%s", tc.args, line, !tc.want, tc.want, out)
		}
	}
}

// TestMultipassLine: a run on a machine with multipass limits lists every
// split draw with its object, pixel shader and passes.
func TestMultipassLine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "regs4.yaml")
	if err := os.WriteFile(cfg, []byte("multipass: {registers: 4}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runOutput(t, "-mode", "functional", "-config", cfg, "-scene", "bowlingpin", "-width", "64", "-height", "48")
	if want := "\nmultipass: 2 draws split: front_pin (bowlingpin.ps.gsa) 4 passes, back_pin (bowlingpin.ps.gsa) 4 passes\n"; !strings.Contains(out, want) {
		t.Errorf("no line %q in\n%s", want, out)
	}
}

// runOutput runs render quietly with args and an output folder of its own,
// and returns what it printed; an error ends the test.
func runOutput(t *testing.T, args ...string) string {
	t.Helper()
	return runIn(t, t.TempDir(), args...)
}

// runIn is runOutput with the output folder dir.
func runIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	o, err := parseFlags(append([]string{"-q", "-o", dir}, args...), func(string) string { return "" }, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(o, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
