package hostile

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
	"github.com/gfxsim/gfxsim/scene/teximage"
)

// glb builds a GLB file: the header declaring total bytes (0: the real size),
// a JSON chunk and, when bin is not nil, a BIN chunk declaring binLen bytes
// (-1: the real length).
func glb(js string, total uint32, bin []byte, binLen int64) []byte {
	for len(js)%4 != 0 {
		js += " "
	}
	var b bytes.Buffer
	b.Write([]byte("glTF"))
	binary.Write(&b, binary.LittleEndian, uint32(2))
	binary.Write(&b, binary.LittleEndian, uint32(0)) // total, set below
	binary.Write(&b, binary.LittleEndian, uint32(len(js)))
	b.WriteString("JSON")
	b.WriteString(js)
	if bin != nil {
		if binLen < 0 {
			binLen = int64(len(bin))
		}
		binary.Write(&b, binary.LittleEndian, uint32(binLen))
		b.WriteString("BIN\x00")
		b.Write(bin)
	}
	out := b.Bytes()
	if total == 0 {
		total = uint32(len(out))
	}
	binary.LittleEndian.PutUint32(out[8:], total)
	return out
}

const triJSON = `"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],` +
	`"bufferViews":[{"buffer":0,"byteLength":36}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]`

// TestDeclaredSizes: sizes a file declares are checked against the file
// before anything is allocated (class 2).
func TestDeclaredSizes(t *testing.T) {
	dir := t.TempDir()
	tri := make([]byte, 36)
	binary.LittleEndian.PutUint32(tri[12:], 0x3f800000)
	binary.LittleEndian.PutUint32(tri[28:], 0x3f800000)
	cases := []struct {
		name string
		data []byte
		want []string
	}{
		{"buffer 2^40 bytes", glb(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":1099511627776}],`+triJSON+`,"nodes":[{"mesh":0}]}`, 0, tri, -1),
			[]string{"buffers[0].byteLength", "1099511627776", "BIN chunk of 36 bytes"}},
		{"buffer 2^32 bytes (wraps in uint32)", glb(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":4294967296}],`+triJSON+`,"nodes":[{"mesh":0}]}`, 0, tri, -1),
			[]string{"buffers[0].byteLength", "BIN chunk"}},
		{"header length", glb(`{"asset":{"version":"2.0"}}`, 1<<31, nil, 0), []string{"glb: header length 2147483648 differs"}},
		{"BIN chunk length", glb(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":36}],`+triJSON+`}`, 0, tri, 1<<30),
			[]string{"BIN chunk of 1073741824 bytes exceeds"}},
		{"accessor count without data", []byte(`{"asset":{"version":"2.0"},"accessors":[{"componentType":5126,"count":4000000,"type":"VEC3"}],` +
			`"meshes":[{"primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0},{"mesh":0},{"mesh":0}]}`),
			[]string{"meshes: the scene's mesh instances have", "after merging"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ext := ".glb"
			if tc.data[0] == '{' {
				ext = ".gltf"
			}
			path := write(t, dir, strings.ReplaceAll(tc.name, " ", "_")+ext, tc.data)
			var err error
			bounded(t, 5*time.Second, func() { _, err = mesh.LoadGLTF(path, mesh.LoadOptions{}) })
			wantErr(t, err, append([]string{path}, tc.want...)...)
		})
	}
}

// pngBomb returns a PNG of w x h pixels of depth-bit grey: small on disk, large
// when decoded.
func pngBomb(w, h int, depth byte) []byte { return pngZeros(w, h, depth, 0) }

// pngZeros returns a PNG of w x h zero pixels of the colour type (0 grey, 6
// RGBA) at depth bits per channel.
func pngZeros(w, h int, depth, colorType byte) []byte {
	channels := map[byte]int{0: 1, 6: 4}[colorType]
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, c.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colorType
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, 1+(w*channels*int(depth)+7)/8)
	for y := 0; y < h; y++ {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// jpegHeader returns the start of a JPEG whose frame header declares w x h
// pixels of comps components, progressive or baseline: enough for its
// header to be read.
func jpegHeader(w, h, comps int, progressive bool) []byte {
	sof := byte(0xc0)
	if progressive {
		sof = 0xc2
	}
	b := []byte{0xff, 0xd8}
	if comps == 4 { // Adobe APP14: CMYK
		b = append(b, 0xff, 0xee, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0)
	}
	b = append(b, 0xff, sof, 0, byte(8+3*comps), 8, byte(h>>8), byte(h), byte(w>>8), byte(w), byte(comps))
	for i := 0; i < comps; i++ {
		b = append(b, byte(i+1), 0x11, 0)
	}
	b = append(b, 0xff, 0xda, 0, byte(6+2*comps), byte(comps))
	for i := 0; i < comps; i++ {
		b = append(b, byte(i+1), 0)
	}
	return append(b, 0, 63, 0, 0xff, 0xd9)
}

// TestImageBombs: small images within the 16384-texel cap whose decoding
// needs gigabytes are refused from their headers (class 3), for scene
// textures, MTL maps and glTF images alike.
func TestImageBombs(t *testing.T) {
	dir := t.TempDir()
	budget := func() *inputs.Budget { return inputs.NewBudget(512 << 20) }
	png1 := write(t, dir, "gray1.png", pngBomb(16384, 16384, 1))
	jpg := write(t, dir, "cmyk.jpg", jpegHeader(16384, 16384, 4, true))
	// A stray byte after the start marker, which image/jpeg skips.
	stray := write(t, dir, "stray.jpg", slices.Insert(jpegHeader(16384, 16384, 3, true), 2, 0))
	write(t, dir, "m.mtl", []byte("newmtl m\nmap_Kd gray1.png\n"))
	obj := write(t, dir, "m.obj", []byte("mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl m\nf 1/1 2/1 3/1\n"))
	image := func(path string) func() error {
		return func() error { _, err := (&teximage.Cache{Budget: budget()}).Load(path); return err }
	}
	cases := []loadCase{
		{"png 1-bit", image(png1),
			[]string{png1, "png header", "decoding the 16384x16384 png needs about 1.2 GiB"}},
		{"progressive cmyk jpeg", image(jpg),
			[]string{jpg, "jpeg header", "decoding the 16384x16384 jpeg needs about 6.0 GiB"}},
		{"progressive jpeg behind a stray byte", image(stray),
			[]string{stray, "jpeg header", "decoding the 16384x16384 jpeg needs about 4.8 GiB"}},
		{"scene texture", sceneFile(t, dir, "s.yaml", "textures:\n  a: {file: cmyk.jpg}\n", scene.WithBudget(budget())), []string{"s.yaml:2: textures.a.file", "jpeg header", "more than the memory budget of 512.0 MiB"}},
		{"mtl map", func() error { _, err := mesh.LoadOBJ(obj, mesh.LoadOptions{Budget: budget()}); return err },
			[]string{"m.mtl:2: map_Kd", "png header"}},
		{"gltf image", func() error {
			g := write(t, dir, "g.gltf", []byte(`{"asset":{"version":"2.0"},"images":[{"uri":"gray1.png"}],"textures":[{"source":0}],`+
				`"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],`+
				`"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}],"nodes":[{"mesh":0}]}`))
			_, err := mesh.LoadGLTF(g, mesh.LoadOptions{Budget: budget()})
			return err
		}, []string{"g.gltf", "materials[0].pbrMetallicRoughness.baseColorTexture", "png header"}},
	}
	runBounded(t, 5*time.Second, cases)
}

// TestDecodeTransientCollected: the decoder's own picture of an image is
// collected before the scene keeps its texture's copy, so that the load's
// heap stays within what it reserved. A 4096x4096 RGBA PNG decodes into
// 64 MiB (image/png's NRGBA), is converted into 64 MiB (the image, kept) and
// copied into 64 MiB (the texture): 128 MiB reserved, but the heap held all
// three, 192 MiB (a 16384x16384 PNG under -max-memory 2G reached 3.1 GB).
func TestDecodeTransientCollected(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "rgba.png", pngZeros(4096, 4096, 8, 6))
	path := write(t, dir, "s.yaml", []byte("max_texture_size: 0\ntextures:\n  t: {file: rgba.png}\n"))
	b := inputs.NewBudget(160 << 20)
	// Only explicit collections (and the memory limit, far above): when the
	// collector runs otherwise is a matter of pacing, which a run near its
	// budget does not get to choose.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := watchHeap(2 * time.Millisecond)
	s, err := scene.Load(path, scene.WithBudget(b))
	p := peak()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Used(), int64(128<<20); got != want || len(s.Textures) != 1 {
		t.Fatalf("reserved %d bytes for %d textures, want %d for 1", got, len(s.Textures), want)
	}
	if grew := int64(p) - int64(before.HeapInuse); grew > b.Used()+(16<<20) {
		t.Errorf("the heap grew by %d MiB while loading, more than the %d MiB reserved (and 16 MiB)", grew>>20, b.Used()>>20)
	}
}

// TestMemoryBudget: a scene or a machine whose estimate exceeds the budget
// is refused with the estimate before it is built (class 4).
func TestMemoryBudget(t *testing.T) {
	dir := t.TempDir()
	layers := "textures:\n  a:\n    type: array\n    layers: [&l {procedural: {kind: solid, size: 4096}}" + strings.Repeat(", *l", 63) + "]\n"
	t.Run("aliased array layers", func(t *testing.T) {
		var err error
		bounded(t, 10*time.Second, func() {
			_, err = scene.Load(write(t, dir, "layers.yaml", []byte("max_texture_size: 4096\n"+layers)), scene.WithBudget(inputs.NewBudget(512<<20)))
		})
		wantErr(t, err, "layers.yaml:5: textures.a.layers[8].procedural: the 4096x4096 image needs about 64.0 MiB, and 512.0 MiB is already reserved",
			"more than the memory budget of 512.0 MiB")
	})
	t.Run("float format at full size", func(t *testing.T) {
		b := inputs.NewBudget(1 << 30)
		s, err := scene.Load(write(t, dir, "float.yaml", []byte("max_texture_size: 4096\ntextures:\n  a: {type: array, layers: [&l {procedural: {kind: solid, size: 4096}}, *l, *l, *l], format: rgba32f}\n")),
			scene.WithBudget(b))
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, expt.ReserveFrame(b, s), "float.yaml", "the frame of scene float", "needs about 1.3 GiB", "512.0 MiB is already reserved", "1.0 GiB")
	})
	t.Run("large valid machine", func(t *testing.T) {
		c, err := configs.Parse(filepath.Join(dir, "big.yaml"), []byte("shader_core: {count: 256, warp_slots: 256}\n"+
			"l2: {bank_size_kb: 65536, line_bytes: 16}\nmemory: {channels: 64}\n"))
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, c.ReserveMemory(inputs.NewBudget(4<<30)), "big.yaml: machine sortlast needs about 34.8 GiB",
			"largest: l2.bank_size_kb x memory.channels 32.0 GiB, shader_core.warp_slots x count 2.5 GiB")
	})
	t.Run("default machine and scene fit", func(t *testing.T) {
		b := inputs.NewBudget(1 << 30)
		s, err := scene.Builtin(scene.DefaultName)
		if err != nil {
			t.Fatal(err)
		}
		if err := expt.Reserve(b, configs.Default(), s); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSharedNodes: 63 levels of two shared children (2^64 paths) are counted,
// not walked (class 5).
func TestSharedNodes(t *testing.T) {
	var nodes []string
	for i := 0; i < 63; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"children":[%d,%d]}`, i+1, i+1))
	}
	nodes = append(nodes, `{"mesh":0}`)
	js := `{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[` + strings.Join(nodes, ",") + `],` +
		`"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}`
	var err error
	bounded(t, 2*time.Second, func() { _, err = mesh.DecodeGLTF("shared.gltf", []byte(js), nil, mesh.LoadOptions{}) })
	wantErr(t, err, "shared.gltf: nodes:", fmt.Sprintf("more than %d", mesh.MaxGLTFInstances))
}

// sharedDAG returns levels nodes from first on, each with two children, the
// next node twice; the last, first+levels, draws mesh 0: 2^levels
// instances of it.
func sharedDAG(first, levels int) []string {
	var nodes []string
	for i := first; i < first+levels; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"children":[%d,%d]}`, i+1, i+1))
	}
	return append(nodes, `{"mesh":0}`)
}

// chain returns n nodes from first on, each the parent of the next; the
// last has children last.
func chain(first, n int, last string) []string {
	var nodes []string
	for i := first; i < first+n-1; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"children":[%d]}`, i+1))
	}
	return append(nodes, `{"children":[`+last+`]}`)
}

// TestNodeGraphBeforeWalk: a node graph is checked whole before it is
// expanded: a node bomb (2^20 instances) is never walked because a later
// branch has a missing node, a cycle or too many levels; the bad branch is
// named. Primitives count once per instance, empty ones too (class 5).
func TestNodeGraphBeforeWalk(t *testing.T) {
	const mesh0 = `"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]`
	bomb := sharedDAG(0, 20) // nodes 0-20
	doc := func(roots string, more ...string) string {
		return `{"asset":{"version":"2.0"},"scenes":[{"nodes":` + roots + `}],"nodes":[` +
			strings.Join(append(append([]string(nil), bomb...), more...), ",") + `],` + mesh0 + `}`
	}
	empty := `{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[` + strings.Join(sharedDAG(0, 8), ",") + `],` +
		`"accessors":[{"componentType":5126,"count":0,"type":"VEC3"}],"meshes":[{"primitives":[` +
		strings.Repeat(`{"attributes":{"POSITION":0}},`, 299) + `{"attributes":{"POSITION":0}}]}]}`
	cases := []struct{ name, doc, want string }{
		{"missing node", doc(`[0,21]`, `{"children":[9999]}`), "b.gltf: node 9999 does not exist (22 nodes)"},
		{"cycle", doc(`[0,21]`, `{"children":[22]}`, `{"children":[21]}`), "b.gltf: nodes[21]: cycle in the node hierarchy"},
		{"too deep", doc(`[0,21]`, chain(21, 70, "")...), "b.gltf: nodes[86]: hierarchy deeper than 64 levels"},
		// Nodes 21-80 are reached first at depth 0, then below the 10 nodes
		// 81-90: node 76 is then at depth 65.
		{"too deep on a second path", doc(`[0,21,81]`, append(chain(21, 60, ""), chain(81, 10, "21")...)...),
			"b.gltf: nodes[76]: hierarchy deeper than 64 levels"},
		{"empty primitives", empty, fmt.Sprintf("b.gltf: meshes: the scene's node instances draw 76800 primitives "+
			"(each mesh's primitives once per node instance that uses it), more than %d", mesh.MaxGLTFPrimitives)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			bounded(t, 2*time.Second, func() { _, err = mesh.DecodeGLTF("b.gltf", []byte(tc.doc), nil, mesh.LoadOptions{}) })
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// keyframeDoc returns a glTF file whose one animation has channels channels
// on one sampler of 65,536 keys (2^16 UNSIGNED_SHORT times, zero values).
func keyframeDoc(channels int) string {
	times := make([]byte, 2<<16)
	for i := 0; i < 1<<16; i++ {
		binary.LittleEndian.PutUint16(times[2*i:], uint16(i))
	}
	ch := strings.TrimSuffix(strings.Repeat(`{"sampler":0,"target":{"node":0,"path":"translation"}},`, channels), ",")
	return `{"asset":{"version":"2.0"},"buffers":[{"byteLength":131072,"uri":"data:application/octet-stream;base64,` +
		base64.StdEncoding.EncodeToString(times) + `"}],"bufferViews":[{"buffer":0,"byteLength":131072}],` +
		`"accessors":[{"componentType":5126,"count":3,"type":"VEC3"},{"bufferView":0,"componentType":5123,"count":65536,"type":"SCALAR"},` +
		`{"componentType":5126,"count":65536,"type":"VEC3"}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],` +
		`"animations":[{"samplers":[{"input":1,"output":2}],"channels":[` + ch + `]}]}`
}

// TestAnimationKeys: the keyframes of all channels are counted before they
// are read; 400 channels reusing one sampler of 65,536 keys (26 M keys, 1 GB
// when each channel read its own) are refused (class 5).
func TestAnimationKeys(t *testing.T) {
	doc := keyframeDoc(400)
	var err error
	bounded(t, 5*time.Second, func() { _, err = mesh.DecodeGLTF("a.gltf", []byte(doc), nil, mesh.LoadOptions{}) })
	want := fmt.Sprintf("a.gltf: animations[0].channels[64] (sampler 0).input: the animations have 4259840 keyframes over all channels so far, more than %d", mesh.MaxGLTFAnimationKeys)
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}
