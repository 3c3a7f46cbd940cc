package main

import (
	"io"
	"os"
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
				"(the image and its 5 copies in the machine's memories) needs about 236.8 MiB, and 269.8 MiB is already reserved: " +
				"more than the memory budget of 450.0 MiB (-max-memory)"},
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
	o, err := parseFlags([]string{"-q", "-mode", "functional", "-width", "64", "-height", "36", "-max-memory", "200M", "-o", t.TempDir()},
		func(string) string { return "" }, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(o, io.Discard); err != nil {
		t.Fatal(err)
	}
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
		o, err := parseFlags([]string{"-q", "-mode", mode, "-config", "../../configs/sage.yaml", "-width", "64", "-height", "36", "-o", t.TempDir()},
			func(string) string { return "" }, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := run(o, &out); err != nil {
			t.Fatal(err)
		}
		if want := "\nvideo: mitchell filter (its own radius, gamma 1) on 4 convolve chips, 64x36 output\n"; !strings.Contains(out.String(), want) {
			t.Errorf("%s: no line %q in\n%s", mode, want, out.String())
		}
	}
}
