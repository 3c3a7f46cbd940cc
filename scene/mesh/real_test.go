package mesh

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/internal/testscenes"
)

func TestRealModels(t *testing.T) {
	tests := []struct {
		file               string
		opt                LoadOptions
		triangles, verts   int
		uv, albedo, normal bool
	}{
		// The bunny file has 35,947 positions but its faces use only 34,834.
		{"bunny/stanford-bunny.obj", LoadOptions{}, 69451, 34834, false, false, false},
		{"teapot/teapot.obj", LoadOptions{}, 6320, 3644, false, false, false},
		{"suzanne/suzanne.obj", LoadOptions{}, 968, 507, false, false, false},
		{"spot/spot_triangulated.obj", LoadOptions{}, 5856, 3225, true, false, false},
		{"damaged_helmet/DamagedHelmet.gltf", LoadOptions{MaxTextureSize: 256}, 15452, 14359, true, true, true},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			start := time.Now()
			m, err := Load(testscenes.File(t, tc.file), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			merged := m.Merged()
			if err := merged.Validate(); err != nil {
				t.Fatal(err)
			}
			if merged.TriangleCount() != tc.triangles || merged.VertexCount() != tc.verts {
				t.Errorf("%d triangles %d vertices, want %d and %d", merged.TriangleCount(), merged.VertexCount(), tc.triangles, tc.verts)
			}
			if (len(merged.TexCoords) > 0) != tc.uv || (len(merged.Tangents) > 0) != tc.uv {
				t.Errorf("texcoords %d tangents %d, want present = %v", len(merged.TexCoords), len(merged.Tangents), tc.uv)
			}
			var albedo, normal bool
			for _, mat := range m.Materials {
				albedo = albedo || mat.Albedo != nil
				normal = normal || mat.Normal != nil
				for _, tx := range []*Texture{mat.Albedo, mat.Normal} {
					if tx != nil && (tx.Image.Width > 256 || tx.Image.Height > 256) {
						t.Errorf("texture %s is %dx%d, above MaxTextureSize", tx.Name, tx.Image.Width, tx.Image.Height)
					}
				}
			}
			if albedo != tc.albedo || normal != tc.normal {
				t.Errorf("albedo %v normal %v, want %v %v", albedo, normal, tc.albedo, tc.normal)
			}
			// Closed surfaces are mostly outward: the signed volume is positive.
			if v := signedVolume(merged); v <= 0 {
				t.Errorf("signed volume %v, want positive", v)
			}
			t.Logf("%s: %d triangles in %v", tc.file, merged.TriangleCount(), time.Since(start))
		})
	}
}
