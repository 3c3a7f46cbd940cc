package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

func TestQuietRules(t *testing.T) {
	progresstest.Check(t, func(args []string, getenv func(string) string, stderr *os.File) (progresstest.Printed, error) {
		o, err := parseFlags(args, getenv, stderr)
		return progresstest.Printed{Log: o.inputs.Log, Stdout: true, Bar: o.bar, Every: o.instruments.ProgressEvery}, err
	})
}

// TestFlagErrors: flags that cannot apply or hold no usable value are
// refused before anything runs, each naming the flag.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-blur", "NaN"}, "-blur NaN: want a finite scale (0: no blur, 1: as written; negative: the scene's own)"},
		{[]string{"-blur", "+Inf"}, "-blur +Inf: want a finite scale (0: no blur, 1: as written; negative: the scene's own)"},
		{[]string{"-blur", "1e300"}, "-blur 1e+300: at most 3.403e+38 in magnitude (the scene scales in 32-bit floats; 0: no blur, 1: as written)"},
		{[]string{"-mode", "fast"}, `-mode "fast": want timing or functional`},
		{[]string{"-mode", "functional", "-check"}, "-check compares the timed image with the reference renderer's: it has no meaning with -mode functional (which is the reference renderer)"},
		{[]string{"-mode", "functional", "-trace-format", "csv"}, "-trace-format with -mode functional: it has no timed components to trace, sample or monitor: drop -trace-format or use -mode timing"},
		{[]string{"-frames", "-1"}, "-frames -1: want 0 (one frame) or a positive count"},
		{[]string{"-frame", "-2"}, "-frame -2: want a frame number, 0 or more"},
		{[]string{"-frames", "3", "-frame", "1"}, "-frames 3 and -frame 1: -frames renders frames 0..2, -frame one frame; give one"},
		{[]string{"-frames", "2", "-metrics-interval", "1000"}, "-frames 2 with -metrics-interval: traces, metrics and the monitor record one frame; instrument frame K alone with -frame K"},
		{[]string{"-frame", "5", "-trace"}, ""},
		{[]string{"-front", "+x", "-scene", "room"}, "-front +x: applies to a bare mesh file (-scene x.obj, .gltf or .glb); a scene file gives each mesh's front"},
		{[]string{"-front", "up", "-scene", "a.glb"}, `-front: unknown front "up" (want one of +z, -z, +x, -x)`},
		{[]string{"-width", "100000", "-height", "100000"}, "-width 100000: at most 16384 pixels"},
		{[]string{"-width", "64", "-height", "100000"}, "-height 100000: at most 16384 pixels"},
		{[]string{"-samples", "65"}, "-samples 65: at most 64 samples per pixel"},
		{[]string{"-samples", "-1"}, "-samples -1: want 0 (the scene's own) or more"},
		{[]string{"-width", "320"}, "-width 320 -height 0: give both (or neither, for the scene's own size)"},
		{[]string{"-height", "90"}, "-width 0 -height 90: give both (or neither, for the scene's own size)"},
		{[]string{"-width", "-5", "-height", "3"}, "-width -5: want 0 (the scene's own) or more"},
		{[]string{"-o", ""}, "-o: want an output folder"},
		{[]string{"-nosuch"}, "flag provided but not defined: -nosuch (-h lists the flags)"},
		{[]string{"-reorder-vertices"}, "-reorder-vertices renumbers the vertices of reordered meshes: give -reorder-indices too"},
		{[]string{"-width", "320", "-height", "180", "-blur", "0.5"}, ""},
	} {
		_, err := parseFlags(append([]string{"-q"}, tc.args...), func(string) string { return "" }, os.Stderr)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestOutputFolderIsAFile: an -o that cannot be a folder is an error naming
// -o, before anything is loaded or simulated.
func TestOutputFolderIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"timing", "functional"} {
		o, err := parseFlags([]string{"-q", "-mode", mode, "-scene", "triangle", "-o", file}, func(string) string { return "" }, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		err = run(o, &strings.Builder{})
		if want := "-o " + file + ": "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want an error starting %q", mode, err, want)
		}
	}
}

// TestUnknownScene: a -scene that is neither a built-in scene nor a scene
// file is refused with the built-in names and, for a slip of the keyboard
// (case ignored), the one meant.
func TestUnknownScene(t *testing.T) {
	for _, tc := range []struct{ scene, guess string }{
		{"Room", `; did you mean "room"?`},
		{"rooom", `; did you mean "room"?`},
		{"nothing", ""},
	} {
		o, err := parseFlags([]string{"-q", "-mode", "functional", "-scene", tc.scene, "-o", t.TempDir()}, func(string) string { return "" }, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		err = run(o, &strings.Builder{})
		want := `unknown scene "` + tc.scene + `": not a built-in scene (bats, bowlingpin, defocus, depthwrite, egomotion, foliage, grass, motion, ` +
			`occluders, overdraw, particles, room, silhouette, smalltris, texmagnify, texminify, texmodes, texstudy, triangle) nor a .yaml, .yml, .obj, .gltf or .glb file` + tc.guess
		if err == nil || err.Error() != want {
			t.Errorf("-scene %s:\n got  %v\n want %s", tc.scene, err, want)
		}
	}
}

// TestSceneList: -scene list prints the built-in scenes, in any case (List
// was an unknown scene, with no guess).
func TestSceneList(t *testing.T) {
	for _, name := range []string{"list", "List", "LIST"} {
		o, err := parseFlags([]string{"-q", "-scene", name, "-o", t.TempDir()}, func(string) string { return "" }, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := run(o, &out); err != nil || !strings.HasPrefix(out.String(), "bats\nbowlingpin\n") {
			t.Errorf("-scene %s: %v, printed %q", name, err, out.String())
		}
	}
}

// TestFailedRunLeavesNoFolder: a run that fails before writing anything
// removes the output folder it made, and keeps one that was there before.
func TestFailedRunLeavesNoFolder(t *testing.T) {
	made, had := filepath.Join(t.TempDir(), "new"), t.TempDir()
	for _, dir := range []string{made, had} {
		o, err := parseFlags([]string{"-q", "-mode", "functional", "-scene", "nosuch", "-o", dir}, func(string) string { return "" }, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		if err := run(o, &strings.Builder{}); err == nil {
			t.Fatal("an unknown scene ran")
		}
	}
	if _, err := os.Stat(made); !os.IsNotExist(err) {
		t.Errorf("the folder the failed run made is still there: %v", err)
	}
	if _, err := os.Stat(had); err != nil {
		t.Errorf("the folder that was there before is gone: %v", err)
	}
}
