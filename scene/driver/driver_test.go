package driver

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
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
	b := make([]byte, f.StreamBytes)
	f.Memory.ReadAt(b, f.Stream)
	cmds, err := command.DecodeAll(b, f.Stream)
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

func TestEncodeFiltersRedundantState(t *testing.T) {
	s, err := scene.Parse("two.yaml", []byte(twoObjects))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Encode(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
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
