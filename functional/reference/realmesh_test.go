package reference_test

import (
	"path/filepath"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/testscenes"
	"github.com/gfxsim/gfxsim/scene"
)

// TestRealMeshes renders each of the real meshes of ../shared/scenes framed by the
// default mesh scene, and checks that the mesh covers a plausible part of the frame,
// that its textures were sampled when it has some, and that the counters balance.
func TestRealMeshes(t *testing.T) {
	root := testscenes.Dir(t)
	tests := []struct {
		file      string
		triangles int
		textured  bool
	}{
		{"bunny/stanford-bunny.obj", 69451, false},
		{"teapot/teapot.obj", 6320, false},
		{"suzanne/suzanne.obj", 968, false},
		{"spot/spot_triangulated.obj", 5856, true},
		{"damaged_helmet/DamagedHelmet.gltf", 15452, true},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			s, err := scene.FromMeshFile(filepath.Join(root, tc.file), scene.WithResolution(160, 90), scene.WithSamples(4))
			if err != nil {
				t.Fatal(err)
			}
			r := render(t, s, reference.DefaultOptions())
			c := r.Counters
			if c.Triangles != tc.triangles {
				t.Errorf("%d triangles assembled, want %d", c.Triangles, tc.triangles)
			}
			checkConservation(t, tc.file, &c)
			frame := 160 * 90 * 4
			if c.SamplesWritten < frame/20 || c.SamplesWritten > frame {
				t.Errorf("%d samples written of %d: the mesh should fill a visible part of the frame", c.SamplesWritten, frame)
			}
			if tc.textured != (c.TexRequests > 0) {
				t.Errorf("%d texture requests, textured = %v", c.TexRequests, tc.textured)
			}
			// A closed mesh seen from outside: about half its triangles face away.
			if c.Culled == 0 {
				t.Errorf("no triangle culled: back-face culling is not working")
			}
		})
	}
}
