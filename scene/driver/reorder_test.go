package driver

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/vertexcache"
	"github.com/gfxsim/gfxsim/scene"
)

func TestOrderIndependent(t *testing.T) {
	def := scene.DefaultState()
	with := func(f func(*scene.State)) scene.State { s := def; f(&s); return s }
	tests := []struct {
		name string
		st   scene.State
		want bool
	}{
		{"default", def, true},
		{"greater-equal", with(func(s *scene.State) { s.DepthFunc = scene.CompareGreaterEqual }), true},
		{"alpha blend", with(func(s *scene.State) { s.Blend = scene.BlendAlpha }), false},
		{"additive", with(func(s *scene.State) { s.Blend = scene.BlendAdditive }), false},
		{"no depth write", with(func(s *scene.State) { s.DepthWrite = false }), false},
		{"no depth test", with(func(s *scene.State) { s.DepthTest = false }), false},
		{"always", with(func(s *scene.State) { s.DepthFunc = scene.CompareAlways }), false},
		{"equal", with(func(s *scene.State) { s.DepthFunc = scene.CompareEqual }), false},
	}
	for _, tc := range tests {
		if got := OrderIndependent(tc.st); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// indexBuffers returns the indices of every index buffer the stream binds,
// in binding order.
func indexBuffers(t *testing.T, f *Frame) [][]uint32 {
	t.Helper()
	var out [][]uint32
	for _, c := range decode(t, f) {
		ib, ok := c.Command.(command.BindIndexBuffer)
		if !ok {
			continue
		}
		b := make([]byte, ib.Size)
		f.Memory.ReadAt(b, ib.Addr)
		var idx []uint32
		for k := 0; k < len(b); k += int(ib.Format / 8) {
			if ib.Format == 16 {
				idx = append(idx, uint32(binary.LittleEndian.Uint16(b[k:])))
			} else {
				idx = append(idx, binary.LittleEndian.Uint32(b[k:]))
			}
		}
		out = append(out, idx)
	}
	return out
}

// TestReorderIndices: with ReorderIndices the driver uploads Tipsify's order
// for the opaque meshes (renumbered in first-use order with
// ReorderVertices) and the own order for the blended ones (overdraw: an
// opaque backdrop, then alpha-blended layers), and the reference image of a
// scene of opaque meshes (room) is the same bit for bit either way.
func TestReorderIndices(t *testing.T) {
	s, err := scene.Builtin("overdraw", scene.WithResolution(64, 36))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Reorderable(s), []bool{false, true}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Reorderable (layer, backdrop): %v, want %v", got, want)
	}
	o := DefaultOptions()
	o.ReorderIndices = 16
	f, err := Encode(s, o)
	if err != nil {
		t.Fatal(err)
	}
	bound := indexBuffers(t, f) // backdrop, then layer
	want, err := vertexcache.Tipsify(s.Meshes[1].Indices, s.Meshes[1].VertexCount(), 16)
	if err != nil {
		t.Fatal(err)
	}
	if len(bound) != 2 || !reflect.DeepEqual(bound[0], want) || !reflect.DeepEqual(bound[1], s.Meshes[0].Indices) {
		t.Errorf("index buffers %v, want the backdrop's Tipsify order %v and the layer's own %v", bound, want, s.Meshes[0].Indices)
	}
	if _, err := MeshOrders(s, Options{ReorderIndices: -1}); err == nil {
		t.Error("ReorderIndices -1: no error")
	}
	o.ReorderVertices = true
	f, err = Encode(s, o)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err = vertexcache.FetchOrder(want, s.Meshes[1].VertexCount())
	if err != nil {
		t.Fatal(err)
	}
	if bound := indexBuffers(t, f); !reflect.DeepEqual(bound[0], want) {
		t.Errorf("with ReorderVertices: backdrop indices %v, want %v", bound[0], want)
	}

	room, err := scene.Builtin("room", scene.WithResolution(64, 36))
	if err != nil {
		t.Fatal(err)
	}
	var images [3][]byte
	changed := false
	for i, k := range []int{0, 16, 16} {
		o := DefaultOptions()
		o.ReorderIndices = k
		o.ReorderVertices = i == 2
		images[i] = referenceImage(t, room, o)
		if k > 0 {
			orders, _ := MeshOrders(room, o)
			for m, ord := range orders {
				changed = changed || !reflect.DeepEqual(ord.Indices, room.Meshes[m].Indices)
			}
		}
	}
	if !changed {
		t.Fatal("room: no mesh was reordered")
	}
	if !reflect.DeepEqual(images[0], images[1]) {
		t.Error("room: the reordered index buffers change the image")
	}
	if !reflect.DeepEqual(images[0], images[2]) {
		t.Error("room: the reordered index and vertex buffers change the image")
	}
}

// TestReorderableGeometryStage: a mesh drawn through a geometry shader that
// reads sv_primitiveid (grass sizes each blade by it) or streamed out
// (particles' sources) keeps its order, a mesh beside it is reordered, and
// grass's reference image is the same with ReorderIndices.
func TestReorderableGeometryStage(t *testing.T) {
	for _, tc := range []struct {
		scene string
		want  []bool
	}{
		{"grass", []bool{false, true}},       // ground, stone
		{"particles", []bool{false, true}},   // sources, floor
		{"silhouette", []bool{false, false}}, // ring, ball: their edges are not depth written
	} {
		s, err := scene.Builtin(tc.scene, scene.WithResolution(64, 36))
		if err != nil {
			t.Fatal(err)
		}
		if got := Reorderable(s); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Reorderable %v, want %v", tc.scene, got, tc.want)
		}
	}
	s, err := scene.Builtin("grass", scene.WithResolution(64, 36))
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.ReorderIndices = 16
	if !reflect.DeepEqual(referenceImage(t, s, DefaultOptions()), referenceImage(t, s, o)) {
		t.Error("grass: ReorderIndices changes the image")
	}
}

// referenceImage encodes s with o and returns the reference renderer's image.
func referenceImage(t *testing.T, s *scene.Scene, o Options) []byte {
	t.Helper()
	f, err := Encode(s, o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, reference.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r.Image.Pix
}
