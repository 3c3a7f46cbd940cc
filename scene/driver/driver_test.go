package driver

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/scene"
)

const twoObjects = `
name: two
resolution: [32, 16]
samples: 2
camera: {position: [0, 0, 5]}
lights:
  - {type: directional, direction: [0, -1, 0], color: [1, 0.5, 0.25]}
meshes:
  box: {procedural: {kind: cube}}
materials:
  red: {shader: blinnphong, params: {diffuse: [1, 0, 0, 1]}}
objects:
  - {mesh: box, material: red, transform: {translate: [-1, 0, 0]}}
  - {mesh: box, material: red, transform: {translate: [1, 0, 0]}}
`

func decode(t *testing.T, f *Frame) []command.Located {
	t.Helper()
	cmds, err := command.DecodeStream(f.Memory, f.Stream, f.StreamBytes)
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

// parseYAML parses scene src (named name); an error ends the test.
func parseYAML(t *testing.T, name, src string) *scene.Scene {
	t.Helper()
	s, err := scene.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// encodeYAML encodes scene src with the default options; an error ends the
// test.
func encodeYAML(t *testing.T, name, src string) *Frame {
	t.Helper()
	f, err := Encode(parseYAML(t, name, src), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestEncodeFiltersRedundantState(t *testing.T) {
	f := encodeYAML(t, "two.yaml", twoObjects)
	count := map[command.Opcode]int{}
	var consts []command.SetConstants
	for _, c := range decode(t, f) {
		count[c.Opcode()]++
		if sc, ok := c.Command.(command.SetConstants); ok {
			consts = append(consts, sc)
		}
	}
	want := map[command.Opcode]int{
		command.OpDrawIndexed: 2, command.OpBindShader: 2, command.OpSetConstants: 4,
		command.OpSetRaster: 1, command.OpSetDepthStencil: 1, command.OpSetBlend: 1,
		command.OpBindVertexBuffer: 1, command.OpSetInputLayout: 1, command.OpClear: 1,
		command.OpSyncToken: 1, command.OpPresent: 1, command.OpEnd: 1,
	}
	for op, n := range want {
		if count[op] != n {
			t.Errorf("%v: %d commands, want %d", op, count[op], n)
		}
	}
	if f.Draws != 2 || f.Triangles != 24 {
		t.Errorf("frame: %d draws, %d triangles", f.Draws, f.Triangles)
	}
	// The second object's vertex constants hold its own model matrix (translation x = +1)
	// and the pixel constants the light direction towards the light (0, 1, 0).
	vsConsts := readVecs(f.Memory, consts[2])
	psConsts := readVecs(f.Memory, consts[1])
	mat, _ := decodePrograms(t, f)
	if b, ok := mat.ConstBlock("model"); !ok || vsConsts[b.Reg][3] != 1 {
		t.Errorf("second object's model matrix row 0 = %v, want translation 1", vsConsts[b.Reg])
	}
	ps := decodePS(t, f)
	if b, ok := ps.ConstBlock("lights"); !ok || psConsts[b.Reg] != (geom.Vec4{0, 1, 0, 0}) || psConsts[b.Reg+1] != (geom.Vec4{1, 0.5, 0.25, 1}) {
		t.Errorf("light 0 = %v %v, want direction (0,1,0,0) towards the light and colour (1,0.5,0.25,1)", psConsts[b.Reg], psConsts[b.Reg+1])
	}
	if b, ok := ps.Param("diffuse"); !ok || psConsts[b.Reg] != (geom.Vec4{1, 0, 0, 1}) {
		t.Errorf("diffuse parameter not set from the material")
	}
}

const texturedScene = `
name: tex
resolution: [16, 16]
camera: {position: [0, 0, 3]}
textures:
  ground:
    procedural: {kind: checker, size: 16, cells: 4}
    format: bc1
    filter: anisotropic
    anisotropy: 8
    address: [mirror, border, clamp]
    border: [0.25, 0.5, 0.75]
    lod_bias: 0.5
    min_lod: 1
    max_lod: 3
  fog: {type: 3d, procedural: {kind: checker3d, size: [8, 8, 4]}, format: r8}
meshes:
  quad: {procedural: {kind: plane}}
materials:
  floor: {shader: textured, textures: {albedo: ground}}
objects:
  - {mesh: quad, material: floor, transform: {rotate: [90, 0, 0]}}
`

func TestEncodeTextures(t *testing.T) {
	f := encodeYAML(t, "tex.yaml", texturedScene)
	if len(f.Textures) != 2 || f.Textures[0].Name != "ground" || f.Textures[1].Name != "fog" {
		t.Fatalf("textures %+v", f.Textures)
	}
	var binds []command.BindTexture
	for _, c := range decode(t, f) {
		if b, ok := c.Command.(command.BindTexture); ok {
			binds = append(binds, b)
		}
	}
	if len(binds) != 1 {
		t.Fatalf("%d BindTexture commands", len(binds))
	}
	want := command.BindTexture{Stage: command.PixelStage, Slot: binds[0].Slot, Desc: f.Textures[0].Desc, Filter: 3,
		AddressU: 2, AddressV: 3, AddressW: 1, LODBias: 0.5, MinLOD: 1, MaxLOD: 3, MaxAnisotropy: 8,
		Border: geom.Vec4{0.25, 0.5, 0.75, 1}}
	if binds[0] != want {
		t.Errorf("bind %+v, want %+v", binds[0], want)
	}
	// Descriptors: a 16x16 BC1 chain in the Tiled layout: 4x4 blocks (128 bytes) at 0,
	// 2x2 (32) at 256, then one 8-byte block at 512, 768 and 1024: 1032 bytes; and an
	// 8x8x4 R8 volume with 4 levels.
	g := command.ReadTextureDescriptor(f.Memory, f.Textures[0].Desc)
	if g.Format != 6 || g.Width != 16 || g.Height != 16 || g.Levels != 5 || g.Layout != 1 || g.Type != 0 || g.Depth != 0 ||
		g.Data != f.Textures[0].Data || uint64(g.Size) != f.Textures[0].Size || g.Size != 1032 {
		t.Errorf("ground descriptor %+v", g)
	}
	v := command.ReadTextureDescriptor(f.Memory, f.Textures[1].Desc)
	if v.Format != 2 || v.Type != 3 || v.Depth != 4 || v.Levels != 4 || v.Width != 8 {
		t.Errorf("fog descriptor %+v", v)
	}
	// The bytes in memory are the compressed checkerboard: a 4x4 block of one cell is uniform.
	var blk [16][4]uint8
	b := make([]byte, 8)
	f.Memory.ReadAt(b, g.Data)
	texture.DecodeBlock(texture.BC1, b, &blk)
	if blk[0] != blk[15] || blk[0][3] != 255 {
		t.Errorf("first block %v", blk)
	}
}
