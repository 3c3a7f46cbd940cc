package reference_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
)

// TestBatsFramesDiffer renders frames of the bats animation: the bats fly and
// flap, so every pair of frames gives a different image; the same frame twice
// gives the same image.
func TestBatsFramesDiffer(t *testing.T) {
	var images []*reference.Result
	frames := []int{0, 1, 25, 49, 25}
	for _, f := range frames {
		s, err := scene.LoadFrame("bats", f, scene.WithResolution(96, 54), scene.WithSamples(1))
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, render(t, s, reference.DefaultOptions()))
	}
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			if sameImage(images[i].Image, images[j].Image) {
				t.Errorf("frames %d and %d give the same image", frames[i], frames[j])
			}
		}
	}
	if !sameImage(images[2].Image, images[4].Image) {
		t.Error("frame 25 rendered twice gives two images")
	}
}
