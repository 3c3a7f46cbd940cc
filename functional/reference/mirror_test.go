package reference_test

import (
	"fmt"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
)

// mirrorScene is a lit, normal-mapped crate seen from camera x: the mirror
// image of the scene (x -> -x) is the same scene with sign = -1: the camera,
// the light and the rotation mirrored, and the crate drawn through a scale of
// -1 in x.
func mirrorScene(sign float64) string {
	return fmt.Sprintf(`
resolution: [128, 96]
samples: 4
camera: {position: [%[1]g, 0.9, 1.4], target: [0, 0, 0]}
lights: [{type: directional, direction: [%[2]g, -1, -0.4]}]
textures:
  crate: {procedural: {kind: noise, size: 64, frequency: 4, octaves: 2, colors: [[0.3, 0.42, 0.5], [0.5, 0.62, 0.66]], seed: 11}}
  bumps: {procedural: {kind: bumps_normal, size: 64, count: 4, radius: 0.35, strength: 1.5, seed: 5}}
meshes: {crate: {procedural: {kind: cube, size: 1}}}
materials: {crate: {shader: normalmap, params: {specular: [0.3, 0.3, 0.3, 24]}, textures: {albedo: crate, normal: bumps}}}
objects: [{mesh: crate, material: crate, transform: {rotate: [0, %[3]g, 0], scale: [%[4]g, 1, 1]}}]
`, 0.8*sign, -0.6*sign, 25*sign, sign)
}

// TestMirroredObject: an object drawn through a transform that mirrors keeps
// its front faces (the driver flips the winding) and its normal map's
// handedness (the tangent's w follows the model's): the mirrored scene's
// image is the plain one's mirror image but for the rasterizer's fill rule
// and sample pattern at edges.
func TestMirroredObject(t *testing.T) {
	var imgs [2]*reference.Result
	for i, sign := range []float64{1, -1} {
		s, err := scene.Parse(fmt.Sprintf("mirror%d.yaml", i), []byte(mirrorScene(sign)))
		if err != nil {
			t.Fatal(err)
		}
		imgs[i] = render(t, s, reference.Options{})
	}
	a, b := imgs[0].Image, imgs[1].Image
	w, h := a.Bounds().Dx(), a.Bounds().Dy()
	covered, differ := 0, 0
	for y := range h {
		for x := range w {
			p, q := a.RGBAAt(x, y), b.RGBAAt(w-1-x, y)
			if p != a.RGBAAt(0, 0) {
				covered++
			}
			d := max(absDiff(p.R, q.R), absDiff(p.G, q.G), absDiff(p.B, q.B))
			if d > 8 {
				differ++
			}
		}
	}
	if covered < w*h/8 {
		t.Fatalf("the crate covers %d of %d pixels: the test scene does not show it", covered, w*h)
	}
	if differ*100 > covered*2 {
		t.Errorf("%d of the crate's %d pixels differ by more than 8 LSBs from the plain image's mirror image (at most 2%%)", differ, covered)
	}
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}
