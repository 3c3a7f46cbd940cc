package mesh

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/testscenes"
)

// animBuffer holds, after the triangle of triBuffer: key times 0, 1, 2
// (offset 44), translations (0,0,0), (2,0,0), (2,4,0) (56), rotations
// identity, 90 and 180 degrees about Z (92), and cubic-spline translation
// keys (in-tangent, value, out-tangent) with out-tangent (1,0,0) at key 0
// (140).
var animBuffer = func() []byte {
	s := float32(math.Sqrt(0.5))
	b := append([]byte(nil), triBuffer...)
	b = append(b, 0, 0) // align to 4
	b = append(b, le(float32(0), float32(1), float32(2))...)
	b = append(b, le(float32(0), float32(0), float32(0), float32(2), float32(0), float32(0), float32(2), float32(4), float32(0))...)
	b = append(b, le(float32(0), float32(0), float32(0), float32(1), float32(0), float32(0), s, s, float32(0), float32(0), float32(1), float32(0))...)
	var cubic []any
	for _, v := range [9][3]float32{{}, {}, {1, 0, 0}, {}, {2, 0, 0}, {}, {}, {2, 4, 0}, {}} {
		cubic = append(cubic, v[0], v[1], v[2])
	}
	return append(b, le(cubic...)...)
}()

// animDoc: node 0 (parent) -> node 1 (child, mesh, rest translation (1,0,0)),
// node 2 (static, mesh); animations "linear", "step" (translation of the
// parent, rotation of the child) and "cubic" (translation of the parent);
// channels are spliced into the last animation when extra is not empty.
func animDoc(extra string) string {
	if extra == "" {
		extra = `{"name": "cubic", "samplers": [{"input": 2, "output": 5, "interpolation": "CUBICSPLINE"}],
      "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}`
	}
	return fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "buffers": [{"byteLength": %d, "uri": %q}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6},
                  {"buffer": 0, "byteOffset": 44, "byteLength": 204}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
    {"bufferView": 2, "byteOffset": 0, "componentType": 5126, "count": 3, "type": "SCALAR"},
    {"bufferView": 2, "byteOffset": 12, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 2, "byteOffset": 48, "componentType": 5126, "count": 3, "type": "VEC4"},
    {"bufferView": 2, "byteOffset": 96, "componentType": 5126, "count": 9, "type": "VEC3"}
  ],
  "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
  "nodes": [{"name": "parent", "children": [1]}, {"name": "child", "translation": [1, 0, 0], "mesh": 0}, {"name": "fixed", "mesh": 0}],
  "scenes": [{"nodes": [0, 2]}],
  "animations": [
    {"name": "linear", "samplers": [{"input": 2, "output": 3}, {"input": 2, "output": 4, "interpolation": "LINEAR"}],
     "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}, {"sampler": 1, "target": {"node": 1, "path": "rotation"}}]},
    {"name": "step", "samplers": [{"input": 2, "output": 3, "interpolation": "STEP"}, {"input": 2, "output": 4, "interpolation": "STEP"}],
     "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}, {"sampler": 1, "target": {"node": 1, "path": "rotation"}}]},
    %s
  ]
}`, len(animBuffer), dataURI(animBuffer), extra)
}

func nearMat(a, b geom.Mat4, tol float64) bool {
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			if math.Abs(float64(a[r][c]-b[r][c])) > tol {
				return false
			}
		}
	}
	return true
}

func TestGLTFAnimation(t *testing.T) {
	m := decode(t, animDoc(""))
	if len(m.Animations) != 3 || len(m.Parts) != 2 || m.PartNode(0) != 1 || m.PartNode(1) != 2 || m.Nodes[1].Parent != 0 {
		t.Fatalf("%d animations, %d parts on nodes %v, nodes %+v", len(m.Animations), len(m.Parts), m.PartNodes, m.Nodes)
	}
	if a := m.Animations[0]; a.Name != "linear" || a.Start != 0 || a.End != 2 || m.AnimationIndex("cubic") != 2 || m.AnimationIndex("x") != -1 {
		t.Errorf("animation 0 %q over [%v, %v]", a.Name, a.Start, a.End)
	}
	tr := func(x, y float32) geom.Mat4 { return geom.Translate(geom.Vec3{x, y, 0}) }
	rz := func(deg float32) geom.Mat4 { return geom.RotateEulerDegrees(geom.Vec3{0, 0, deg}) }
	tests := []struct {
		anim   int
		t      float64
		parent geom.Mat4 // world of node 0
		child  geom.Mat4 // world of node 1
	}{
		{0, -1, tr(0, 0), tr(1, 0)}, // before the first key: the first key
		{0, 0.5, tr(1, 0), tr(1, 0).Mul(tr(1, 0)).Mul(rz(45))},
		{0, 1.5, tr(2, 2), tr(2, 2).Mul(tr(1, 0)).Mul(rz(135))},
		{0, 9, tr(2, 4), tr(2, 4).Mul(tr(1, 0)).Mul(rz(180))}, // after the last key: the last key
		{1, 0.5, tr(0, 0), tr(1, 0)},
		{1, 1.5, tr(2, 0), tr(2, 0).Mul(tr(1, 0)).Mul(rz(90))},
		{1, 2, tr(2, 4), tr(2, 4).Mul(tr(1, 0)).Mul(rz(180))},
		// Hermite: (2u^3-3u^2+1)*0 + (u^3-2u^2+u)*1*1 + (-2u^3+3u^2)*2 at u = 0.5: 0.125 + 1.
		{2, 0.5, tr(1.125, 0), tr(1.125, 0).Mul(tr(1, 0))},
		{2, 1.5, tr(2, 2), tr(2, 2).Mul(tr(1, 0))},
	}
	for _, tc := range tests {
		if got := m.NodeWorld(tc.anim, 0, tc.t); !nearMat(got, tc.parent, 1e-6) {
			t.Errorf("%s at %v: parent %v, want %v", m.Animations[tc.anim].Name, tc.t, got, tc.parent)
		}
		if got := m.NodeWorld(tc.anim, 1, tc.t); !nearMat(got, tc.child, 1e-6) {
			t.Errorf("%s at %v: child %v, want %v", m.Animations[tc.anim].Name, tc.t, got, tc.child)
		}
		// The motion moves the rest pose (translation (1,0,0)) to the animated one.
		want := tc.child.Mul(tr(-1, 0))
		if got := m.Motion(tc.anim, 1, tc.t); !nearMat(got, want, 1e-6) {
			t.Errorf("%s at %v: motion %v, want %v", m.Animations[tc.anim].Name, tc.t, got, want)
		}
	}
	if m.NodeWorld(-1, 1, 5) != tr(1, 0) || m.Motion(0, 2, 1) != geom.Identity() {
		t.Error("rest pose or static node motion")
	}
	if m.MovingRoot(0, 1) != 1 || m.MovingRoot(2, 1) != 0 || m.MovingRoot(0, 2) != -1 || m.MovingRoot(-1, 1) != -1 {
		t.Errorf("moving roots %d %d %d", m.MovingRoot(0, 1), m.MovingRoot(2, 1), m.MovingRoot(0, 2))
	}
}

func TestGLTFAnimationErrors(t *testing.T) {
	tests := []struct{ extra, want string }{
		{`{"samplers": [{"input": 2, "output": 3}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}]}`,
			"animations[2].channels[0].target.path: weights (morph target animation) is not supported; only translation, rotation and scale"},
		{`{"samplers": [{"input": 2, "output": 3}], "channels": [{"sampler": 1, "target": {"node": 0, "path": "scale"}}]}`,
			"animations[2].channels[0].sampler: sampler 1 does not exist (1 samplers)"},
		{`{"samplers": [{"input": 2, "output": 3}], "channels": [{"sampler": 0, "target": {"node": 7, "path": "scale"}}]}`,
			"animations[2].channels[0].target.node: node 7 does not exist (3 nodes)"},
		{`{"samplers": [{"input": 2, "output": 4}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "scale"}}]}`,
			"animations[2].channels[0] (sampler 0).output: accessors[4] has 4 components, want 3 to 3"},
		{`{"samplers": [{"input": 2, "output": 3, "interpolation": "CUBICSPLINE"}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}`,
			"animations[2].channels[0] (sampler 0).output: 3 values for 3 keys of CUBICSPLINE interpolation, want 9"},
		{`{"samplers": [{"input": 3, "output": 3}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}`,
			"animations[2].channels[0] (sampler 0).input: accessors[3] has 3 components, want 1 to 1"},
	}
	for _, tc := range tests {
		_, err := DecodeGLTF("t.gltf", []byte(animDoc(tc.extra)), nil, LoadOptions{})
		if err == nil || err.Error() != "t.gltf: "+tc.want {
			t.Errorf("%s:\n got  %v\n want t.gltf: %s", tc.extra, err, tc.want)
		}
	}
	// An animated node given as a matrix.
	doc := strings.Replace(animDoc(""), `{"name": "parent", "children": [1]}`,
		`{"name": "parent", "children": [1], "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,0,0,1]}`, 1)
	if _, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{}); err == nil ||
		err.Error() != "t.gltf: animations[0].channels[0].target.node: node 0 has a matrix; animated nodes must use translation, rotation and scale" {
		t.Errorf("matrix node: %v", err)
	}
	// Key times must increase.
	bad := append([]byte(nil), animBuffer...)
	copy(bad[48:52], le(float32(0)))
	doc = strings.Replace(animDoc(""), dataURI(animBuffer), dataURI(bad), 1)
	if _, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{}); err == nil ||
		err.Error() != "t.gltf: animations[0].channels[0] (sampler 0).input: key times must be finite and strictly increasing (key 1: 0)" {
		t.Errorf("times: %v", err)
	}
}

// TestRealAnimatedModels loads the two animated Khronos samples: their
// animations and which nodes move.
func TestRealAnimatedModels(t *testing.T) {
	tests := []struct {
		file         string
		channels     int
		end          float64
		movingParts  int
		staticParts  int
		interpolated Interpolation
	}{
		// BoxAnimated: the inner box's rotation (1.25-2.5 s) under its parent's translation (0-3.708 s); the outer box is static.
		{"box_animated/BoxAnimated.gltf", 2, 3.708, 1, 1, InterpLinear},
		// CesiumMilkTruck: the two wheel nodes spin (0-1.25 s); the body (three primitives) is static.
		{"cesium_milk_truck/CesiumMilkTruck.gltf", 2, 1.25, 2, 3, InterpLinear},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			m, err := Load(animatedFile(t, tc.file), LoadOptions{SkipMaterials: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Animations) != 1 || len(m.Animations[0].Channels) != tc.channels || math.Abs(m.Animations[0].End-tc.end) > 1e-3 {
				t.Fatalf("animations %+v", m.Animations)
			}
			for _, c := range m.Animations[0].Channels {
				if c.Interp != tc.interpolated || c.Path != PathRotation && c.Path != PathTranslation {
					t.Errorf("channel on node %d: %v %v", c.Node, c.Path, c.Interp)
				}
			}
			moving, static := 0, 0
			for k := range m.Parts {
				if r := m.MovingRoot(0, m.PartNode(k)); r >= 0 {
					moving++
					if nearMat(m.Motion(0, r, 0.3), m.Motion(0, r, 0.9), 1e-4) {
						t.Errorf("part %d does not move between 0.3 s and 0.9 s", k)
					}
				} else {
					static++
				}
			}
			if moving != tc.movingParts || static != tc.staticParts {
				t.Errorf("%d moving and %d static parts, want %d and %d", moving, static, tc.movingParts, tc.staticParts)
			}
		})
	}
}

// animatedFile returns a file of the shared scenes (testscenes.File).
func animatedFile(t *testing.T, rel string) string { return testscenes.File(t, rel) }

// TestGLTFAnimationSharedSampler: channels on one sampler share its keys,
// read once.
func TestGLTFAnimationSharedSampler(t *testing.T) {
	doc := strings.Replace(animDoc(""), `"channels": [`, `"channels": [{"sampler": 0, "target": {"node": 2, "path": "translation"}}, `, 1)
	m, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Animations[0].Channels
	if len(c) < 2 || &c[0].Times[0] != &c[1].Times[0] || &c[0].Values[0] != &c[1].Values[0] {
		t.Errorf("channels 0 and 1 on sampler 0 read its keys twice")
	}
}
