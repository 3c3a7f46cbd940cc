package driver

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
)

// FuzzParseEncode: a scene file that parses encodes, and its command stream
// decodes. Every error of a scene file must be the parser's, with its file,
// line and field, before anything runs; a decoupled rate of 1e-7 and a lens
// whose shear overflows a float32 used to parse and then fail here (or, on a
// timed machine, at the first draw), naming neither. Frames are kept small:
// 16x16 pixels, numbers of at most two digits (as scene.FuzzParse), no files,
// scenes of at most 2 kB.
func FuzzParseEncode(f *testing.F) {
	const maxFuzzScene = 2048
	big := regexp.MustCompile(`[0-9]{3,}`)
	// The small built-in scenes only: the fuzzer minimizes every new input
	// by running it again and again, and a frame takes milliseconds to
	// encode (room's 5 kB kept it minimizing for the whole run).
	for _, n := range scene.BuiltinNames() {
		src, err := scene.BuiltinSource(n)
		if err != nil {
			f.Fatal(err)
		}
		if len(src) <= maxFuzzScene {
			f.Add(big.ReplaceAll(src, []byte("64")))
		}
	}
	f.Add([]byte(blurScene))
	f.Add([]byte(twoObjects))
	// Found by hand: they parsed, and the driver or the first draw failed.
	f.Add([]byte("decoupled: {mode: on, rate: 1e-7}\nmeshes: {t: {procedural: {kind: triangle}}}\n" +
		"materials: {u: {shader: unlit}}\nobjects: [{mesh: t, material: u}]\n"))
	f.Add([]byte("camera: {fov_y: 1e-3, aperture: 1e30, focus_distance: 1e-6}\nmeshes: {t: {procedural: {kind: triangle}}}\n" +
		"materials: {u: {shader: unlit}}\nobjects: [{mesh: t, material: u}]\n"))
	f.Add([]byte("meshes: {t: {procedural: {kind: triangle}}}\nmaterials: {u: {shader: unlit}}\n" +
		"objects: [{mesh: t, material: u, repeat: {count: 10, step: [1e38, 0, 0]}}]\n"))
	dir := f.TempDir() // an empty folder: a file the scene names does not exist
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzScene || big.Match(data) {
			return
		}
		s, err := scene.Parse(filepath.Join(dir, "fuzz.yaml"), data, scene.WithResolution(16, 16),
			scene.WithBudget(inputs.NewBudget(256<<20)))
		if err != nil {
			return
		}
		fr, err := Encode(s, DefaultOptions())
		if err != nil {
			t.Fatalf("the scene parses but does not encode: %v", err)
		}
		if _, err := command.DecodeStream(fr.Memory, fr.Stream, fr.StreamBytes); err != nil {
			t.Fatalf("the scene's command stream does not decode: %v", err)
		}
		checkEstimates(t, fr, 16*16)
	})
}
