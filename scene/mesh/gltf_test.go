package mesh

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// maxFuzzError bounds an error of a fuzzed loader: the name, the field and
// the message with a bounded excerpt of the input, or a file name it gives
// (a glTF URI), quoted whole up to MaxPathExcerpt bytes, each escaped to at
// most 4 bytes.
const maxFuzzError = 600 + 4*inputs.MaxPathExcerpt

// failed reports whether a fuzzed loader failed, and fails the test when its
// error is longer than maxFuzzError.
func failed(t *testing.T, err error) bool {
	t.Helper()
	if err != nil && len(err.Error()) > maxFuzzError {
		t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
	}
	return err != nil
}

// le builds a little-endian buffer from float32, uint16 and uint32 values.
func le(vals ...any) []byte {
	var b bytes.Buffer
	for _, v := range vals {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// triBuffer: 3 float positions (36 bytes) then 3 ushort indices (6 bytes).
var triBuffer = le(
	float32(0), float32(0), float32(0), float32(1), float32(0), float32(0), float32(0), float32(1), float32(0),
	uint16(0), uint16(1), uint16(2),
)

func dataURI(b []byte) string {
	return "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b)
}

// triDoc returns a glTF document with one triangle mesh; nodes and extra
// top-level members are spliced in.
func triDoc(nodes, scenes, extra string) string {
	return fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "buffers": [{"byteLength": %d, "uri": %q}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}
  ],
  "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
  "nodes": %s,
  "scenes": %s%s
}`, len(triBuffer), dataURI(triBuffer), nodes, scenes, extra)
}

func decode(t *testing.T, doc string) *Model {
	t.Helper()
	m, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGLTFNodeHierarchy(t *testing.T) {
	m := decode(t, triDoc(`[{"translation": [1, 0, 0], "children": [1]}, {"scale": [2, 2, 2], "mesh": 0}]`, `[{"nodes": [0]}]`, ""))
	if len(m.Parts) != 1 || m.Parts[0].Material != -1 || m.Parts[0].Mesh.Name != "t" {
		t.Fatalf("parts %+v", m.Parts)
	}
	mesh := m.Parts[0].Mesh
	want := []geom.Vec3{{1, 0, 0}, {3, 0, 0}, {1, 2, 0}}
	for i, w := range want {
		if mesh.Positions[i] != w || mesh.Normals[i] != (geom.Vec3{0, 0, 1}) {
			t.Errorf("vertex %d: %v normal %v, want %v (0,0,1)", i, mesh.Positions[i], mesh.Normals[i], w)
		}
	}
	// Rotation by 90 degrees about Y (quaternion (0, sin45, 0, cos45)) maps +X to -Z.
	s := math.Sqrt(0.5)
	m = decode(t, triDoc(fmt.Sprintf(`[{"rotation": [0, %v, 0, %v], "mesh": 0}]`, s, s), `[{"nodes": [0]}]`, ""))
	p := m.Parts[0].Mesh.Positions[1]
	if !nearVec3(p, geom.Vec3{0, 0, -1}, 1e-6) || !nearVec3(m.Parts[0].Mesh.Normals[0], geom.Vec3{1, 0, 0}, 1e-6) {
		t.Errorf("rotated vertex %v normal %v", p, m.Parts[0].Mesh.Normals[0])
	}
	// A mirroring matrix (x -> -x, column-major) reverses the winding.
	m = decode(t, triDoc(`[{"matrix": [-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,5,1], "mesh": 0}]`, `[{"nodes": [0]}]`, ""))
	mm := m.Parts[0].Mesh
	if mm.Positions[1] != (geom.Vec3{-1, 0, 5}) || mm.Indices[1] != 2 || mm.Normals[0] != (geom.Vec3{0, 0, 1}) {
		t.Errorf("mirrored: positions %v indices %v normal %v", mm.Positions, mm.Indices, mm.Normals[0])
	}
	// Without scenes, every root node; a mesh used twice gives two parts.
	m = decode(t, `{"asset":{"version":"2.0"},`+triDoc(`[{"mesh": 0}, {"mesh": 0, "translation": [0, 0, 1]}]`, `[]`, "")[strings.Index(triDoc("", "", ""), `"buffers"`):])
	if len(m.Parts) != 2 || m.Parts[1].Mesh.Positions[0] != (geom.Vec3{0, 0, 1}) || m.Parts[1].Mesh.Name != "t/tri[0]" {
		t.Errorf("root nodes: %d parts", len(m.Parts))
	}
}

func TestGLTFStripAndFan(t *testing.T) {
	// 4 vertices of a unit square, no indices.
	buf := le(float32(0), float32(0), float32(0), float32(1), float32(0), float32(0),
		float32(0), float32(1), float32(0), float32(1), float32(1), float32(0))
	doc := func(mode int) string {
		return fmt.Sprintf(`{"asset":{"version":"2.0"},
 "buffers":[{"byteLength":48,"uri":%q}],
 "bufferViews":[{"buffer":0,"byteLength":48}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3"}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":%d}]}],
 "nodes":[{"mesh":0}],"scene":0,"scenes":[{"nodes":[0]}]}`, dataURI(buf), mode)
	}
	strip := decode(t, doc(5)).Parts[0].Mesh
	fan := decode(t, doc(6)).Parts[0].Mesh
	if strip.TriangleCount() != 2 || fan.TriangleCount() != 2 {
		t.Fatalf("strip %d fan %d triangles", strip.TriangleCount(), fan.TriangleCount())
	}
	for name, m := range map[string]*Mesh{"strip": strip} {
		for f := 0; f < len(m.Indices); f += 3 {
			if n := faceNormal(m, f); n[2] <= 0 {
				t.Errorf("%s triangle %d faces %v, want +Z (consistent winding)", name, f/3, n)
			}
		}
	}
	if points := doc(0); true {
		if _, err := DecodeGLTF("p.gltf", []byte(points), nil, LoadOptions{}); err == nil || err.Error() != "p.gltf: no triangles in the scene" {
			t.Errorf("points only: %v", err)
		}
	}
}

func TestGLTFMaterialAndEmbeddedImage(t *testing.T) {
	im := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := 0; i < 16; i++ {
		im.SetNRGBA(i%4, i/4, color.NRGBA{10, 20, 30, 40})
	}
	var pb bytes.Buffer
	png.Encode(&pb, im)
	uri := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pb.Bytes())
	// TEXCOORD_0 as normalised unsigned bytes after the triangle data.
	buf := append(append([]byte(nil), triBuffer...), 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0)
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},
 "buffers":[{"byteLength":%d,"uri":%q}],
 "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6},{"buffer":0,"byteOffset":42,"byteLength":12,"byteStride":4}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
   {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"},
   {"bufferView":2,"componentType":5121,"normalized":true,"count":3,"type":"VEC2"}],
 "images":[{"uri":%q}],
 "samplers":[{"wrapS":33071}],
 "textures":[{"source":0,"sampler":0}],
 "materials":[{"name":"m","pbrMetallicRoughness":{"baseColorFactor":[0.5,1,1,1],"baseColorTexture":{"index":0}},
   "normalTexture":{"index":0},"alphaMode":"MASK","alphaCutoff":0.25,"doubleSided":true}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":2},"indices":1,"material":0}]}],
 "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}`, len(buf), dataURI(buf), uri)
	m := decode(t, doc)
	if len(m.Materials) != 1 || m.Parts[0].Material != 0 {
		t.Fatalf("materials %+v", m.Materials)
	}
	mat := m.Materials[0]
	if mat.Name != "m" || mat.Diffuse != (geom.Vec4{0.5, 1, 1, 1}) || mat.AlphaCutoff != 0.25 || !mat.DoubleSided || mat.Blend {
		t.Errorf("material %+v", mat)
	}
	if mat.Albedo == nil || mat.Albedo != mat.Normal || !mat.Albedo.ClampU || mat.Albedo.ClampV || mat.Albedo.Image.RGBA(3, 3) != [4]byte{10, 20, 30, 40} {
		t.Errorf("albedo %+v", mat.Albedo)
	}
	mesh := m.Parts[0].Mesh
	if mesh.TexCoords[1] != (geom.Vec2{1, 0}) || mesh.TexCoords[2] != (geom.Vec2{0, 1}) || len(mesh.Tangents) != 3 {
		t.Errorf("texcoords %v tangents %d", mesh.TexCoords, len(mesh.Tangents))
	}
}

func TestGLB(t *testing.T) {
	// The BIN chunk holds the triangle, then (at byte 44) a PNG image that a
	// material uses through a buffer view.
	im := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	im.SetNRGBA(1, 1, color.NRGBA{1, 2, 3, 4})
	var pb bytes.Buffer
	png.Encode(&pb, im)
	bin := append([]byte(nil), triBuffer...)
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	pngAt := len(bin)
	bin = append(bin, pb.Bytes()...)
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	json := triDoc(`[{"mesh":0}]`, `[{"nodes":[0]}]`, `,
  "images": [{"bufferView": 2, "mimeType": "image/png"}],
  "textures": [{"source": 0}],
  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]`)
	json = strings.Replace(json, fmt.Sprintf(`"byteLength": %d, "uri": %q`, len(triBuffer), dataURI(triBuffer)), fmt.Sprintf(`"byteLength": %d`, len(bin)), 1)
	json = strings.Replace(json, `{"buffer": 0, "byteOffset": 36, "byteLength": 6}]`,
		fmt.Sprintf(`{"buffer": 0, "byteOffset": 36, "byteLength": 6}, {"buffer": 0, "byteOffset": %d, "byteLength": %d}]`, pngAt, pb.Len()), 1)
	json = strings.Replace(json, `"indices": 1}`, `"indices": 1, "material": 0}`, 1)
	for len(json)%4 != 0 {
		json += " "
	}
	var b bytes.Buffer
	total := 12 + 8 + len(json) + 8 + len(bin)
	b.Write(le(uint32(0x46546C67), uint32(2), uint32(total), uint32(len(json)), uint32(0x4E4F534A)))
	b.WriteString(json)
	b.Write(le(uint32(len(bin)), uint32(0x004E4942)))
	b.Write(bin)
	m, err := DecodeGLTF("t.glb", b.Bytes(), nil, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.TriangleCount() != 1 || m.Parts[0].Mesh.Positions[2] != (geom.Vec3{0, 1, 0}) {
		t.Errorf("glb %+v", m.Parts[0].Mesh)
	}
	if len(m.Materials) != 1 || m.Materials[0].Albedo == nil || m.Materials[0].Albedo.Name != "images[0]" ||
		m.Materials[0].Albedo.Image.RGBA(1, 1) != [4]byte{1, 2, 3, 4} {
		t.Errorf("glb material %+v", m.Materials)
	}
}

func TestGLTFErrors(t *testing.T) {
	node := `[{"mesh":0}]`
	scn := `[{"nodes":[0]}]`
	tests := []struct{ doc, want string }{
		{`{"asset": `, "t.gltf:1: byte 10: gltf: the JSON ends inside an unfinished value: the file is cut short"},
		{"{\n  \"asset\": {\"version\": \"2.0\"},\n  \"meshes\": [,]\n}", "t.gltf:3: byte 46: gltf: invalid character ',' looking for beginning of value"},
		{`{"asset": {"version": "1.0"}, "meshes": {"box": {"primitives": []}}}`, `t.gltf: asset.version: "1.0": gfxsim reads glTF 2.0 files (convert it to 2.0, e.g. with gltf-pipeline)`},
		{`{"asset": {"version": "3.0"}}`, `t.gltf: asset.version: "3.0": gfxsim reads glTF 2.0 files (convert it to 2.0, e.g. with gltf-pipeline)`},
		{`{"asset": {"version": 2}}`, "t.gltf:1: byte 13: gltf: field asset.version: json: cannot unmarshal number into Go struct field Document.asset.version of type string"},
		{triDoc(`[{"mesh":3}]`, scn, ""), "t.gltf: mesh 3 does not exist (1 meshes)"},
		{triDoc(node, `[{"nodes":[4]}]`, ""), "t.gltf: node 4 does not exist (1 nodes)"},
		{triDoc(`[{"children":[1]},{"children":[0],"mesh":0}]`, scn, ""), "t.gltf: nodes[0]: cycle in the node hierarchy"},
		// Without scenes every root node is drawn; a cycle has none.
		{triDoc(`[{"mesh":0,"children":[0]}]`, `[]`, ""), "t.gltf: nodes[0]: cycle in the node hierarchy"},
		// A transform whose product overflows float32 names the node and the mesh.
		{triDoc(`[{"children":[1]},{"mesh":0,"matrix":[1e300,0,0,0, 0,1e300,0,0, 0,0,1e300,0, 0,0,0,1]}]`, scn, ""),
			`t.gltf: nodes[1]: meshes[0].primitives[0]: mesh "t/tri[0]": positions[0] = [NaN NaN NaN] is not finite (after the node's world transform)`},
		{triDoc(node, scn, `, "scene": 2`), "t.gltf: scene 2 does not exist (1 scenes)"},
		{strings.Replace(triDoc(node, scn, ""), `"count": 3, "type": "SCALAR"`, `"count": 4, "type": "SCALAR"`, 1),
			"t.gltf: meshes[0].primitives[0].indices: accessors[1]: bytes [0, 8) of bufferView 1 exceed its 6 bytes"},
		{strings.Replace(triDoc(node, scn, ""), `"byteOffset": 36, "byteLength": 6`, `"byteOffset": 40, "byteLength": 6`, 1),
			"t.gltf: meshes[0].primitives[0].indices: accessors[1]: bufferViews[1]: bytes [40, 46) exceed buffer 0 of 42 bytes"},
		// Negative offsets and lengths, and an empty view, say so.
		{strings.Replace(triDoc(node, scn, ""), `"byteOffset": 0, "byteLength": 36`, `"byteOffset": 0, "byteLength": -1`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0]: bufferViews[0].byteLength: -1, want at least 1"},
		{strings.Replace(triDoc(node, scn, ""), `"byteOffset": 0, "byteLength": 36`, `"byteOffset": 0, "byteLength": 0`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0]: bufferViews[0].byteLength: 0, want at least 1"},
		{strings.Replace(triDoc(node, scn, ""), `"byteOffset": 0, "byteLength": 36`, `"byteOffset": -4, "byteLength": 36`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0]: bufferViews[0].byteOffset: -4 is negative"},
		{strings.Replace(triDoc(node, scn, ""), `"count": 3, "type": "VEC3"}`, `"count": 3, "type": "VEC3", "sparse": {"count": 1, `+
			`"indices": {"bufferView": 1, "byteOffset": -2, "componentType": 5123}, "values": {"bufferView": 0}}}`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0].sparse.indices.byteOffset: -2 is negative"},
		// Offsets and lengths near 2^63 do not overflow the range checks.
		{strings.Replace(triDoc(node, scn, ""), `{"bufferView": 0,`, `{"byteOffset": 9223372036854775797, "bufferView": 0,`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0].byteOffset: 9223372036854775797 beyond bufferView 0 of 36 bytes"},
		{strings.Replace(triDoc(node, scn, ""), `"byteOffset": 0, "byteLength": 36`, `"byteOffset": 9223372036854775807, "byteLength": 2`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0]: bufferViews[0].byteOffset: 9223372036854775807 beyond buffer 0 of 42 bytes"},
		{strings.Replace(triDoc(node, scn, ""), `"byteOffset": 0, "byteLength": 36`, `"byteOffset": 40, "byteLength": 9223372036854775807`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0]: bufferViews[0].byteLength: 9223372036854775807 beyond buffer 0 of 42 bytes"},
		{strings.Replace(triDoc(node, scn, ""), `"count": 3, "type": "VEC3"}`, `"count": 3, "type": "VEC3", "sparse": {"count": 1, `+
			`"indices": {"bufferView": 1, "byteOffset": 9223372036854775806, "componentType": 5123}, "values": {"bufferView": 0}}}`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0].sparse.indices.byteOffset: 9223372036854775806 beyond bufferView 1 of 6 bytes"},
		{strings.Replace(triDoc(node, scn, ""), `"count": 3, "type": "VEC3"}`, `"count": 3, "type": "VEC3", "sparse": {"count": 1, `+
			`"indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 0, "byteOffset": 9223372036854775804}}}`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0].sparse.values.byteOffset: 9223372036854775804 beyond bufferView 0 of 36 bytes"},
		{strings.Replace(triDoc(node, scn, ""), `"POSITION": 0`, `"POSITION": 7`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessor 7 does not exist (2 accessors)"},
		{strings.Replace(triDoc(node, scn, ""), `"POSITION": 0`, `"NORMAL": 0`, 1), "t.gltf: meshes[0].primitives[0]: no POSITION attribute"},
		{strings.Replace(triDoc(node, scn, ""), `"VEC3"`, `"VEC2"`, 1),
			"t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0] has 2 components, want 3 to 3"},
		{strings.Replace(triDoc(node, scn, ""), `"indices": 1`, `"indices": 0`, 1),
			"t.gltf: meshes[0].primitives[0].indices: accessors[0] has 3 components, want a scalar"},
		{strings.Replace(triDoc(node, scn, ""), `"indices": 1`, `"material": 0, "indices": 1`, 1), "t.gltf: material 0 does not exist (0 materials)"},
	}
	for _, tc := range tests {
		_, err := DecodeGLTF("t.gltf", []byte(tc.doc), nil, LoadOptions{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("got  %v\nwant %s", err, tc.want)
		}
	}
	// An index out of range.
	bad := le(float32(0), float32(0), float32(0), float32(1), float32(0), float32(0), float32(0), float32(1), float32(0), uint16(0), uint16(1), uint16(9))
	doc := strings.Replace(triDoc(node, scn, ""), dataURI(triBuffer), dataURI(bad), 1)
	_, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{})
	if want := "t.gltf: meshes[0].primitives[0].indices: accessors[1] index 2 = 9 out of range (3 vertices)"; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// Headers: a .glb must start with "glTF" and be version 2; a file that is
	// neither JSON nor binary glTF says what it starts with.
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"b.glb", le(uint32(0x58546c67), uint32(2), uint32(20), uint32(0), uint32(0x4e4f534a)), `b.glb: glb: byte 0: not a binary glTF file (starts with "glTX", want "glTF")`},
		{"b.glb", []byte(`{"asset": {"version": "2.0"}}`), `b.glb: glb: byte 0: not a binary glTF file (starts with "{\"as", want "glTF")`},
		{"v.glb", le(uint32(0x46546c67), uint32(1), uint32(20), uint32(0), uint32(0x4e4f534a)), "v.glb: glb: byte 4: version 1, want 2 (glTF 2.0)"},
		{"s.glb", le(uint32(0x46546c67), uint32(2), uint32(12)), "s.glb: glb: header of 12 bytes, want at least 20"},
		// A .glb's JSON errors give the file's byte (its JSON chunk starts at 20).
		{"j.glb", append(le(uint32(0x46546c67), uint32(2), uint32(28), uint32(8), uint32(0x4e4f534a)), `{"a": ,}`...),
			"j.glb: byte 26: gltf: invalid character ',' looking for beginning of value"},
		{"p.gltf", []byte("\x89PNG\r\n"), `p.gltf: gltf: byte 0: neither glTF JSON (starting with '{') nor binary glTF (starting with "glTF"); starts with "\x89PNG"`},
	} {
		_, err := DecodeGLTF(tc.name, tc.data, nil, LoadOptions{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("got  %v\nwant %s", err, tc.want)
		}
	}
	// External files without a reader.
	doc = strings.Replace(triDoc(node, scn, ""), dataURI(triBuffer), "x.bin", 1)
	if _, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{}); err == nil || err.Error() != `t.gltf: buffers[0].uri: "x.bin": external files are not available` {
		t.Errorf("external buffer without reader: %v", err)
	}
}

func FuzzDecodeGLTF(f *testing.F) {
	f.Add([]byte(triDoc(`[{"mesh":0}]`, `[{"nodes":[0]}]`, "")))
	f.Add([]byte(triDoc(`[{"children":[1]},{"mesh":0,"rotation":[0,1,0,0]}]`, `[{"nodes":[0]}]`, "")))
	// Hostile seeds (issue 19): shared children, a GLB declaring 2^40 bytes.
	f.Add([]byte(triDoc(`[{"children":[1,1]},{"children":[2,2]},{"children":[3,3]},{"mesh":0}]`, `[{"nodes":[0]}]`, "")))
	glb := le(uint32(0x46546c67), uint32(2), uint32(0), uint32(48), uint32(0x4e4f534a))
	glb = append(glb, []byte(`{"buffers":[{"byteLength":1099511627776}]}     `)...)
	glb = append(glb, le(uint32(8), uint32(0x004e4942), uint64(0))...)
	binary.LittleEndian.PutUint32(glb[8:], uint32(len(glb)))
	f.Add(glb)
	f.Add([]byte(animDoc("")))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeGLTF("fuzz.gltf", data, nil, LoadOptions{MaxTextureSize: 16, Budget: inputs.NewBudget(256 << 20)})
		if failed(t, err) {
			return
		}
		for _, p := range m.Parts {
			if err := p.Mesh.Validate(); err != nil {
				t.Fatalf("decoded mesh invalid: %v", err)
			}
		}
		// Animations evaluate without panics at any time.
		for a := range m.Animations {
			for k := range m.Parts {
				if r := m.MovingRoot(a, m.PartNode(k)); r >= 0 {
					for _, tm := range []float64{-1, 0, 0.5, 1e9} {
						m.Motion(a, r, tm)
					}
				}
			}
		}
	})
}

// TestGLTFBuffersAndEnums: buffers are loaded by the loader, which names the
// buffer and its rule; enumerated fields out of glTF's values are refused
// (the library took them for the field's default).
func TestGLTFBuffersAndEnums(t *testing.T) {
	node, scn := `[{"mesh":0}]`, `[{"nodes":[0]}]`
	tri := triDoc(node, scn, "")
	anim := `, "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],` +
		` "samplers": [{"input": 1, "output": 0, "interpolation": "LINEAR"}]}]`
	tests := []struct{ name, doc, want string }{
		{"null buffer", strings.Replace(tri, `"buffers": [{`, `"buffers": [null, {`, 1), "t.gltf: buffers[0]: null buffer"},
		{"no byteLength", strings.Replace(tri, fmt.Sprintf(`"byteLength": %d, `, len(triBuffer)), "", 1), "t.gltf: buffers[0].byteLength: 0, want at least 1"},
		{"second buffer without uri", strings.Replace(tri, "],\n  \"bufferViews\"", ", {\"byteLength\": 4}],\n  \"bufferViews\"", 1),
			"t.gltf: buffers[1]: no uri (only the first buffer of a GLB file, stored in its BIN chunk, has none)"},
		{"image data URI type", strings.Replace(tri, dataURI(triBuffer), "data:text/plain;base64,AAAA", 1),
			`t.gltf: buffers[0].uri: data URI "data:text/plain;base64,AAAA" is not base64 of type application/octet-stream or application/gltf-buffer`},
		{"mode 99", strings.Replace(tri, `"indices": 1}`, `"indices": 1, "mode": 99}`, 1), "t.gltf: meshes[0].primitives[0].mode: 99 is not one of 0, 1, 2, 3, 4, 5, 6"},
		{"mode 4.5", strings.Replace(tri, `"indices": 1}`, `"indices": 1, "mode": 4.5}`, 1), `t.gltf: meshes[0].primitives[0].mode: "4.5" is not one of 0, 1, 2, 3, 4, 5, 6`},
		{"componentType 5130", strings.Replace(tri, `"componentType": 5126`, `"componentType": 5130`, 1),
			"t.gltf: accessors[0].componentType: 5130 is not one of 5120, 5121, 5122, 5123, 5125, 5126"},
		{"sparse index type", strings.Replace(tri, `"count": 3, "type": "VEC3"}`, `"count": 3, "type": "VEC3", "sparse": {"count": 1, `+
			`"indices": {"bufferView": 1, "componentType": 5120}, "values": {"bufferView": 0}}}`, 1),
			"t.gltf: accessors[0].sparse.indices.componentType: 5120 is not one of 5121, 5123, 5125"},
		{"wrapT -5", triDoc(node, scn, `, "samplers": [{"wrapT": -5}]`), "t.gltf: samplers[0].wrapT: -5 is not one of 33071, 33648, 10497"},
		{"alphaMode", triDoc(node, scn, `, "materials": [{"alphaMode": "CLIP"}]`), `t.gltf: materials[0].alphaMode: "CLIP" is not one of OPAQUE, MASK, BLEND`},
		{"interpolation", triDoc(node, scn, strings.Replace(anim, `"LINEAR"`, `"CUBIC"`, 1)),
			`t.gltf: animations[0].samplers[0].interpolation: "CUBIC" is not one of LINEAR, STEP, CUBICSPLINE`},
		{"path", triDoc(node, scn, strings.Replace(anim, `"translation"`, `"position"`, 1)),
			`t.gltf: animations[0].channels[0].target.path: "position" is not one of translation, rotation, scale, weights`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeGLTF("t.gltf", []byte(tc.doc), nil, LoadOptions{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
	// glTF 2.0 gives buffers two media types.
	if m, err := DecodeGLTF("t.gltf", []byte(strings.Replace(tri, "application/octet-stream", "application/gltf-buffer", 1)), nil, LoadOptions{}); err != nil || m.TriangleCount() != 1 {
		t.Errorf("application/gltf-buffer: %v", err)
	}
	// A GLB whose JSON chunk length is not a multiple of 4 is blamed, not
	// the chunk that would be read after it.
	js := `{"asset":{"version":"2.0"}}` + " "
	glb := le(uint32(0x46546c67), uint32(2), uint32(0), uint32(len(js)-1), uint32(0x4e4f534a))
	glb = append(append(glb, js...), le(uint32(4), uint32(0x004e4942), uint32(0))...)
	binary.LittleEndian.PutUint32(glb[8:], uint32(len(glb)))
	if _, err := DecodeGLTF("t.glb", glb, nil, LoadOptions{}); err == nil ||
		err.Error() != "t.glb: glb: byte 12: JSON chunk of 27 bytes, not a multiple of 4 (chunks are padded to 4 bytes)" {
		t.Errorf("JSON chunk length: %v", err)
	}
}

// TestGLTFImagesDecodedOnce: images with the same bytes (here the same data
// URI three times) are decoded and reserved once.
func TestGLTFImagesDecodedOnce(t *testing.T) {
	im := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	var pb bytes.Buffer
	png.Encode(&pb, im)
	uri := fmt.Sprintf("%q", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(pb.Bytes()))
	doc := triDoc(`[{"mesh":0}]`, `[{"nodes":[0]}]`, `, "images": [{"uri": `+uri+`}, {"uri": `+uri+`}, {"uri": `+uri+`}],
  "textures": [{"source": 0}, {"source": 1}, {"source": 2}],
  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}, "normalTexture": {"index": 1}},
    {"pbrMetallicRoughness": {"baseColorTexture": {"index": 2}}}]`)
	doc = strings.Replace(doc, `"indices": 1}]`, `"indices": 1, "material": 0}, {"attributes": {"POSITION": 0}, "indices": 1, "material": 1}]`, 1)
	b := inputs.NewBudget(1 << 30)
	m, err := DecodeGLTF("t.gltf", []byte(doc), nil, LoadOptions{Budget: b})
	if err != nil {
		t.Fatal(err)
	}
	a, n, c := m.Materials[0].Albedo.Image, m.Materials[0].Normal.Image, m.Materials[1].Albedo.Image
	if a != n || a != c {
		t.Errorf("three decodes of one image: %p %p %p", a, n, c)
	}
	if meshes := int64(2 * (64*3 + 8*3)); b.Used() != meshes+int64(len(a.Pix)) {
		t.Errorf("%d bytes reserved, want %d for the meshes and %d for one image", b.Used(), meshes, len(a.Pix))
	}
}

// TestGLTFExtensionsRequired: a file that requires an extension is refused
// with the file, the line and the extensions (the loader implements none); a
// file that only uses one is read without it.
func TestGLTFExtensionsRequired(t *testing.T) {
	node, scn := `[{"mesh":0}]`, `[{"nodes":[0]}]`
	// KHR_draco_mesh_compression: the accessors have no bufferView, so
	// without the extension every position would read as zero.
	draco := `{"asset":{"version":"2.0"},
"extensionsUsed":["KHR_draco_mesh_compression"],
"extensionsRequired":["KHR_draco_mesh_compression"],
"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"extensions":{"KHR_draco_mesh_compression":{"bufferView":0,"attributes":{"POSITION":0}}}}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}`
	many := make([]string, 10)
	for i := range many {
		many[i] = fmt.Sprintf(`"EXT_%d"`, i)
	}
	js := `{"asset":{"version":"2.0"},"extensionsRequired":["EXT_meshopt_compression"]}` // 76 bytes, padded
	glb := le(uint32(0x46546c67), uint32(2), uint32(0), uint32(len(js)), uint32(0x4e4f534a))
	glb = append(glb, js...)
	binary.LittleEndian.PutUint32(glb[8:], uint32(len(glb)))
	tests := []struct{ name, file, doc, want string }{
		{"draco", "t.gltf", draco,
			`t.gltf:3: byte 77: extensionsRequired: the file cannot be read without "KHR_draco_mesh_compression": gfxsim supports no glTF extension (export the file without it)`},
		{"two, one twice", "t.gltf", triDoc(node, scn, `, "extensionsRequired": ["KHR_texture_basisu", "KHR_mesh_quantization", "KHR_texture_basisu"]`),
			`t.gltf:11: byte 610: extensionsRequired: the file cannot be read without "KHR_texture_basisu", "KHR_mesh_quantization": gfxsim supports no glTF extension (export the file without them)`},
		{"ten", "t.gltf", `{"extensionsRequired": [` + strings.Join(many, ", ") + `], "asset": {"version": "2.0"}}`,
			`t.gltf:1: byte 1: extensionsRequired: the file cannot be read without "EXT_0", "EXT_1", "EXT_2", "EXT_3", "EXT_4", "EXT_5", "EXT_6", "EXT_7" and 2 more: gfxsim supports no glTF extension (export the file without them)`},
		{"glb", "t.glb", string(glb),
			`t.glb: byte 47: extensionsRequired: the file cannot be read without "EXT_meshopt_compression": gfxsim supports no glTF extension (export the file without it)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeGLTF(tc.file, []byte(tc.doc), nil, LoadOptions{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
	// Used, not required: the file's own data is read.
	m, err := DecodeGLTF("t.gltf", []byte(triDoc(node, scn, `, "extensionsUsed": ["KHR_materials_emissive_strength"]`)), nil, LoadOptions{})
	if err != nil || m.TriangleCount() != 1 {
		t.Errorf("extensionsUsed only: %v", err)
	}
}

// TestGLTFAccessorWithoutBufferView: an accessor without a bufferView reads
// as zeros with its sparse values substituted (glTF 2.0, 3.6.2.3).
func TestGLTFAccessorWithoutBufferView(t *testing.T) {
	// Sparse: vertices 1 and 2 of three get (1, 0, 0) and (0, 1, 0).
	buf := le(uint16(1), uint16(2), float32(1), float32(0), float32(0), float32(0), float32(1), float32(0))
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},
"buffers":[{"byteLength":%d,"uri":%q}],
"bufferViews":[{"buffer":0,"byteLength":4},{"buffer":0,"byteOffset":4,"byteLength":24}],
"accessors":[{"componentType":5126,"count":3,"type":"VEC3","sparse":{"count":2,
  "indices":{"bufferView":0,"componentType":5123},"values":{"bufferView":1}}}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"mesh":0}]}`, len(buf), dataURI(buf))
	m := decode(t, doc)
	want := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	if got := m.Parts[0].Mesh.Positions; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("sparse positions %v, want %v", got, want)
	}
}

// TestGLTFSkipMaterialsChecks: with SkipMaterials (a scene drawing the file
// in its own material) the materials the primitives use are checked as
// without it: every case gives the same error both ways.
func TestGLTFSkipMaterialsChecks(t *testing.T) {
	dir := t.TempDir()
	node, scn := `[{"mesh":0}]`, `[{"nodes":[0]}]`
	withMaterial := func(extra string) string {
		return strings.Replace(triDoc(node, scn, extra), `"indices": 1}`, `"indices": 1, "material": 0}`, 1)
	}
	textured := func(image string) string {
		return withMaterial(`, "images": [` + image + `], "textures": [{"source": 0}],` +
			` "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]`)
	}
	const base = "materials[0].pbrMetallicRoughness.baseColorTexture: textures[0]"
	tests := []struct{ name, doc, want string }{
		{"missing image file", textured(`{"uri": "missing_texture.png"}`),
			base + `: images[0].uri: "missing_texture.png": no such file`},
		{"image file outside", textured(`{"uri": "../elsewhere/t.png"}`),
			base + `: images[0].uri: "../elsewhere/t.png" is outside the folders inputs may be read from (` + dir + `; add one with -allow-path)`},
		{"image view out of range", textured(`{"bufferView": 7, "mimeType": "image/png"}`),
			base + `: images[0]: bufferView 7 does not exist (2 bufferViews)`},
		{"no image", textured(`{}`), base + `: images[0] has neither uri nor bufferView`},
		{"no material", withMaterial(""), "material 0 does not exist (0 materials)"},
		{"alphaCutoff", withMaterial(`, "materials": [{"alphaMode": "MASK", "alphaCutoff": 2}]`), "materials[0].alphaCutoff: 2 out of range [0, 1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "t.gltf")
			writeFile(t, p, tc.doc)
			for _, skip := range []bool{false, true} {
				_, err := LoadGLTF(p, LoadOptions{SkipMaterials: skip})
				if want := p + ": " + tc.want; err == nil || err.Error() != want {
					t.Errorf("SkipMaterials %v:\ngot  %v\nwant %s", skip, err, want)
				}
			}
		})
	}
	// Images are decoded only for the file's materials: an image file that
	// is not an image fails without SkipMaterials alone.
	writeFile(t, filepath.Join(dir, "text.png"), "not an image")
	p := filepath.Join(dir, "t.gltf")
	writeFile(t, p, textured(`{"uri": "text.png"}`))
	if _, err := LoadGLTF(p, LoadOptions{}); err == nil || !strings.HasPrefix(err.Error(), p+": "+base+`: "text.png": `) {
		t.Errorf("undecodable image: %v", err)
	}
	m, err := LoadGLTF(p, LoadOptions{SkipMaterials: true})
	if err != nil || m.Parts[0].Material != -1 || len(m.Materials) != 0 {
		t.Errorf("undecodable image, SkipMaterials: %v", err)
	}
	// Without a resolver (DecodeGLTF) the file is read to be checked.
	if _, err := DecodeGLTF("t.gltf", []byte(textured(`{"uri": "x.png"}`)), nil, LoadOptions{SkipMaterials: true}); err == nil ||
		err.Error() != `t.gltf: `+base+`: images[0].uri: "x.png": external files are not available` {
		t.Errorf("DecodeGLTF, SkipMaterials: %v", err)
	}
}
