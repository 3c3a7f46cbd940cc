package reference_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
)

// A ground plane of two huge triangles passes behind the camera, so both triangles
// cross the near plane (and the guard band) and are clipped. The plane fills the lower
// part of the frame: every pixel there must be drawn exactly once (no crack along the
// shared diagonal, no sample lost by clipping).
const groundYAML = `
name: ground
resolution: [64, 48]
samples: 4
clear: {color: [0, 0, 0, 1]}
camera: {position: [0, 0, 0], target: [0, -0.2, -1], near: 0.1, far: 1000}
meshes:
  ground: {procedural: {kind: plane, size: [2000, 2000], segments: 1}}
materials:
  white: {shader: unlit, params: {color: [1, 1, 1, 1]}}
objects:
  - {mesh: ground, material: white, transform: {translate: [0, -1, 0]}}
`

func TestClippedGroundPlaneHasNoHoles(t *testing.T) {
	s, err := scene.Parse("ground.yaml", []byte(groundYAML))
	if err != nil {
		t.Fatal(err)
	}
	r := render(t, s, reference.DefaultOptions())
	c := r.Counters
	if c.Clipped != 2 || c.ClipOutput < 2 {
		t.Fatalf("%d triangles clipped into %d; want both ground triangles clipped", c.Clipped, c.ClipOutput)
	}
	checkConservation(t, "ground", &c)
	// Below the horizon every sample is covered exactly once: no depth test fails
	// (each pixel drawn once), and the lower rows are white.
	if c.DepthTestsFailed != 0 {
		t.Errorf("%d samples drawn twice (failed the depth test against the other triangle)", c.DepthTestsFailed)
	}
	for y := 40; y < 48; y++ {
		for x := 0; x < 64; x++ {
			o := r.Image.PixOffset(x, y)
			if r.Image.Pix[o] != 255 || r.Image.Pix[o+1] != 255 || r.Image.Pix[o+2] != 255 {
				t.Fatalf("pixel (%d,%d) = %v, want white", x, y, r.Image.Pix[o:o+4])
			}
		}
	}
}
