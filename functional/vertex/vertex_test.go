package vertex

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
)

func putIndices16(m *command.Image, idx []uint16) IndexBuffer {
	b := make([]byte, 0, 2*len(idx))
	for _, v := range idx {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return IndexBuffer{Addr: m.Put(b, 16), Format: 16, Size: uint32(len(b))}
}

func putIndices32(m *command.Image, idx []uint32) IndexBuffer {
	b := make([]byte, 0, 4*len(idx))
	for _, v := range idx {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return IndexBuffer{Addr: m.Put(b, 16), Format: 32, Size: uint32(len(b))}
}

func TestVertexIndexBoundsChecked(t *testing.T) {
	m := command.NewImage()
	ib := putIndices16(m, []uint16{7, 8, 9, 10, 11})
	s := Stream{Indexed: true, Index: ib, Start: 1, Count: 6, BaseVertex: 100}
	want := []uint32{108, 109, 110, 111, 100, 100} // positions 4 and 5 read past the 5-index buffer: index 0
	for k, w := range want {
		if got := s.VertexIndex(m, uint32(k)); got != w {
			t.Errorf("position %d: index %d, want %d", k, got, w)
		}
	}
	none := Stream{Indexed: true, Count: 3}
	if got := none.VertexIndex(m, 2); got != 0 {
		t.Errorf("no index buffer: index %d, want 0", got)
	}
	plain := Stream{Start: 5, Count: 3}
	if got := plain.VertexIndex(m, 2); got != 7 {
		t.Errorf("non-indexed: index %d, want 7", got)
	}
	ib32 := putIndices32(m, []uint32{1 << 20, 3})
	s32 := Stream{Indexed: true, Index: ib32, Count: 2}
	if got := s32.VertexIndex(m, 0); got != 1<<20 {
		t.Errorf("32-bit index %d, want %d", got, 1<<20)
	}
}

func TestTrianglePositions(t *testing.T) {
	tests := []struct {
		topo command.Topology
		tri  int
		want [3]uint32
	}{
		{command.TriangleList, 0, [3]uint32{0, 1, 2}},
		{command.TriangleList, 2, [3]uint32{6, 7, 8}},
		{command.TriangleStrip, 0, [3]uint32{0, 1, 2}},
		// D3D's strip order: (0,1,2), (1,3,2), (2,3,4), (3,5,4), ...: triangle
		// i leads with vertex i (its flat attributes), odd ones swap the last two.
		{command.TriangleStrip, 1, [3]uint32{1, 3, 2}},
		{command.TriangleStrip, 2, [3]uint32{2, 3, 4}},
		{command.TriangleStrip, 3, [3]uint32{3, 5, 4}},
		{command.TriangleStrip, 4, [3]uint32{4, 5, 6}},
		{command.TriangleStrip, 6, [3]uint32{6, 7, 8}},
	}
	for _, tc := range tests {
		s := Stream{Topology: tc.topo, Count: 9}
		if got := s.TrianglePositions(tc.tri); got != tc.want {
			t.Errorf("%v triangle %d: %v, want %v", tc.topo, tc.tri, got, tc.want)
		}
	}
	counts := []struct {
		topo  command.Topology
		count uint32
		want  int
	}{{command.TriangleList, 8, 2}, {command.TriangleStrip, 2, 0}, {command.TriangleStrip, 7, 5}}
	for _, tc := range counts {
		s := Stream{Topology: tc.topo, Count: tc.count}
		if got := s.NumTriangles(); got != tc.want {
			t.Errorf("%v with %d vertices: %d triangles, want %d", tc.topo, tc.count, got, tc.want)
		}
	}
}

func TestFetchDefaultsAndBounds(t *testing.T) {
	m := command.NewImage()
	// Two vertices of stride 20: position (3 floats) at 0, texcoord (2 floats) at 12.
	var b []byte
	for _, f := range []float32{1, 2, 3, 0.5, 0.25, 4, 5, 6, 0.75, 1} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	vb := VertexBuffer{Addr: m.Put(b, 16), Size: uint32(len(b))}
	l := &Layout{Stride: 20, Attributes: []command.Attribute{
		{Semantic: command.SemPosition, Offset: 0, Components: 3},
		{Semantic: command.SemTexcoord, Offset: 12, Components: 2},
	}}
	var f Fetcher
	var a Attributes
	f.Fetch(m, vb, l, 1, &a)
	if a[command.SemPosition] != (geom.Vec4{4, 5, 6, 1}) {
		t.Errorf("position %v", a[command.SemPosition])
	}
	if a[command.SemTexcoord] != (geom.Vec4{0.75, 1, 0, 1}) {
		t.Errorf("texcoord %v", a[command.SemTexcoord])
	}
	if a[command.SemNormal] != (geom.Vec4{0, 0, 0, 1}) {
		t.Errorf("absent normal %v, want (0,0,0,1)", a[command.SemNormal])
	}
	f.Fetch(m, vb, l, 2, &a)
	if a != (Attributes{}) {
		t.Errorf("out-of-bounds vertex %v, want zeros", a)
	}
}

// gridIndices returns a w x h grid of quads (two triangles each) over (w+1)(h+1) vertices.
func gridIndices(w, h int) []uint32 {
	var idx []uint32
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := uint32(y*(w+1) + x)
			idx = append(idx, v, v+uint32(w+1), v+1, v+1, v+uint32(w+1), v+uint32(w+2))
		}
	}
	return idx
}

func TestBatcherInvariants(t *testing.T) {
	m := command.NewImage()
	idx := gridIndices(16, 16)
	s := Stream{Indexed: true, Index: putIndices32(m, idx), Count: uint32(len(idx))}
	for _, maxV := range []int{3, 4, 16, 32, 64} {
		bt, err := NewBatcher(maxV)
		if err != nil {
			t.Fatal(err)
		}
		var b Batch
		next, batches, shaded := 0, 0, 0
		for bt.Next(m, &s, next, &b) {
			if b.FirstTriangle != next {
				t.Fatalf("max %d: batch starts at %d, want %d", maxV, b.FirstTriangle, next)
			}
			if len(b.Vertices) > maxV || len(b.Triangles) == 0 {
				t.Fatalf("max %d: batch with %d vertices, %d triangles", maxV, len(b.Vertices), len(b.Triangles))
			}
			if b.Hits+b.Misses != 3*len(b.Triangles) || b.Misses != len(b.Vertices) {
				t.Fatalf("max %d: hits %d misses %d for %d triangles and %d vertices", maxV, b.Hits, b.Misses, len(b.Triangles), len(b.Vertices))
			}
			for i, tri := range b.Triangles {
				pos := s.TrianglePositions(next + i)
				for c := 0; c < 3; c++ {
					if got, want := b.Vertices[tri[c]], s.VertexIndex(m, pos[c]); got != want {
						t.Fatalf("max %d: triangle %d corner %d: vertex %d, want %d", maxV, next+i, c, got, want)
					}
				}
			}
			next += len(b.Triangles)
			shaded += len(b.Vertices)
			batches++
		}
		if next != s.NumTriangles() {
			t.Fatalf("max %d: batches cover %d triangles, want %d", maxV, next, s.NumTriangles())
		}
		t.Logf("max %d: %d batches, %d vertex shader invocations for %d triangles", maxV, batches, shaded, next)
	}
}

func TestBatcherExactCut(t *testing.T) {
	// A strip of quads in a row: each quad adds 2 new vertices after the first (4).
	// With 8 slots: quads 0..2 use 4+2+2 = 8 vertices (6 triangles); quad 3 starts a new batch.
	m := command.NewImage()
	s := Stream{Indexed: true, Index: putIndices32(m, gridIndices(5, 1)), Count: 30}
	bt, _ := NewBatcher(8)
	var b Batch
	bt.Next(m, &s, 0, &b)
	if len(b.Triangles) != 6 || len(b.Vertices) != 8 || b.Hits != 10 || b.Misses != 8 {
		t.Fatalf("first batch: %d triangles %d vertices %d hits %d misses, want 6 8 10 8",
			len(b.Triangles), len(b.Vertices), b.Hits, b.Misses)
	}
	bt.Next(m, &s, 6, &b)
	if len(b.Triangles) != 4 || len(b.Vertices) != 6 {
		t.Fatalf("second batch: %d triangles %d vertices, want 4 6", len(b.Triangles), len(b.Vertices))
	}
	// A degenerate triangle repeating one index uses one slot.
	ib := putIndices16(m, []uint16{5, 5, 6})
	d := Stream{Indexed: true, Index: ib, Count: 3}
	bt.Next(m, &d, 0, &b)
	if len(b.Vertices) != 2 || b.Triangles[0] != [3]uint8{0, 0, 1} || b.Hits != 1 {
		t.Fatalf("degenerate: vertices %v triangles %v hits %d", b.Vertices, b.Triangles, b.Hits)
	}
	if _, err := NewBatcher(2); err == nil {
		t.Fatal("batch size 2 accepted")
	}
}

// TestBatcherTriangleLimit: 1000 triangles over the same three vertices make
// batches of DefaultBatchTriangles triangles (the primitive limit), not one.
func TestBatcherTriangleLimit(t *testing.T) {
	m := command.NewImage()
	idx := make([]uint16, 3*1000)
	for i := range idx {
		idx[i] = uint16(i % 3)
	}
	s := Stream{Indexed: true, Index: putIndices16(m, idx), Count: uint32(len(idx))}
	bt, _ := NewBatcher(DefaultBatchVertices)
	var b Batch
	var sizes []int
	for first := 0; bt.Next(m, &s, first, &b); first += len(b.Triangles) {
		sizes = append(sizes, len(b.Triangles))
		if len(b.Vertices) != 3 {
			t.Fatalf("batch at %d has %d vertices, want 3", first, len(b.Vertices))
		}
	}
	if want := []int{256, 256, 256, 232}; !reflect.DeepEqual(sizes, want) {
		t.Fatalf("batch sizes %v, want %v", sizes, want)
	}
}

// stripTriangles returns the vertex indices of every triangle of s, in order.
func stripTriangles(m command.Memory, s *Stream) [][3]uint32 {
	var out [][3]uint32
	for t := 0; t < s.NumTriangles(); t++ {
		pos := s.TrianglePositions(t)
		out = append(out, [3]uint32{s.VertexIndex(m, pos[0]), s.VertexIndex(m, pos[1]), s.VertexIndex(m, pos[2])})
	}
	return out
}

// TestStripCuts: in an indexed triangle strip, the cut index (0xFFFF for
// 16-bit indices, 0xFFFFFFFF for 32-bit ones) ends the strip; the next
// index starts a new one whose first triangle is even; a strip of fewer
// than 3 vertices gives nothing; the cut is never a vertex. Triangles are
// numbered across strips.
func TestStripCuts(t *testing.T) {
	const X = 0xFFFFFFFF // a cut, in either format
	for _, tc := range []struct {
		name    string
		idx     []uint32
		base    int32
		want    [][3]uint32
		strips  []Strip
		noCuts  bool
		indexed bool
	}{
		{name: "cut after 4", idx: []uint32{0, 1, 2, 3, X, 4, 5, 6},
			want:   [][3]uint32{{0, 1, 2}, {1, 3, 2}, {4, 5, 6}},
			strips: []Strip{{Pos: 0, Count: 4, First: 0}, {Pos: 5, Count: 3, First: 2}}},
		{name: "parity restarts", idx: []uint32{0, 1, 2, X, 3, 4, 5, 6, 7},
			want: [][3]uint32{{0, 1, 2}, {3, 4, 5}, {4, 6, 5}, {5, 6, 7}}},
		{name: "cut after 1 and after 2", idx: []uint32{9, X, 8, 7, X, 0, 1, 2, 3},
			want:   [][3]uint32{{0, 1, 2}, {1, 3, 2}},
			strips: []Strip{{Pos: 5, Count: 4, First: 0}}},
		{name: "consecutive and leading and trailing cuts", idx: []uint32{X, X, 0, 1, 2, X, X, X, 3, 4, 5, 6, X, 7, 8, X},
			want: [][3]uint32{{0, 1, 2}, {3, 4, 5}, {4, 6, 5}}},
		{name: "only cuts", idx: []uint32{X, X, X}, strips: []Strip{}},
		{name: "cuts before base vertex", idx: []uint32{0, 1, 2, X, 3, 4, 5}, base: 10,
			want: [][3]uint32{{10, 11, 12}, {13, 14, 15}}},
		{name: "no cut", idx: []uint32{0, 1, 2, 3, 4}, noCuts: true,
			want: [][3]uint32{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}}},
	} {
		for _, format := range []uint32{16, 32} {
			m := command.NewImage()
			var ib IndexBuffer
			if format == 16 {
				idx := make([]uint16, len(tc.idx))
				for i, v := range tc.idx {
					idx[i] = uint16(v)
				}
				ib = putIndices16(m, idx)
			} else {
				ib = putIndices32(m, tc.idx)
			}
			s := Stream{Indexed: true, Index: ib, Count: uint32(len(tc.idx)), BaseVertex: tc.base, Topology: command.TriangleStrip}
			s.FindCuts(m)
			if s.Cuts == tc.noCuts {
				t.Errorf("%s, %d-bit: Cuts %v", tc.name, format, s.Cuts)
			}
			if tc.strips != nil && !reflect.DeepEqual(s.Strips, tc.strips) && !(len(tc.strips) == 0 && len(s.Strips) == 0) {
				t.Errorf("%s, %d-bit: strips %+v, want %+v", tc.name, format, s.Strips, tc.strips)
			}
			if got := stripTriangles(m, &s); !reflect.DeepEqual(got, tc.want) || s.NumPrimitives() != len(tc.want) {
				t.Errorf("%s, %d-bit: %d triangles %v, want %v", tc.name, format, s.NumPrimitives(), got, tc.want)
			}
		}
	}
}

// TestCutsPastTheBuffer: a draw may count more indices than its buffer holds
// (those past it read 0, never a cut); FindCuts reads only the buffer's, and
// the last strip runs to the draw's end.
func TestCutsPastTheBuffer(t *testing.T) {
	m := command.NewImage()
	s := Stream{Indexed: true, Index: putIndices16(m, []uint16{0, 1, 2, 0xFFFF, 3, 4}), Start: 1, Count: 0xFFFFFFFF,
		Topology: command.TriangleStrip}
	s.FindCuts(m)
	want := []Strip{{Pos: 3, Count: 0xFFFFFFFF - 3, First: 0}} // 1 2 | 3 4 0 0 ...: the first strip is too short
	if !s.Cuts || !reflect.DeepEqual(s.Strips, want) || s.NumTriangles() != 0xFFFFFFFF-5 {
		t.Errorf("cuts %v, strips %+v, %d triangles; want %+v, %d", s.Cuts, s.Strips, s.NumTriangles(), want, 0xFFFFFFFF-5)
	}
}

// TestCutIndexIsFormatWide: 0xFFFF is a cut in a 16-bit buffer only, and
// only strips have cuts (a list's 0xFFFF is a vertex; a non-indexed strip
// has none).
func TestCutIndexIsFormatWide(t *testing.T) {
	m := command.NewImage()
	s := Stream{Indexed: true, Index: putIndices32(m, []uint32{0, 1, 2, 0xFFFF, 3}), Count: 5, Topology: command.TriangleStrip}
	s.FindCuts(m)
	if s.Cuts || s.NumTriangles() != 3 || s.VertexIndex(m, 3) != 0xFFFF {
		t.Errorf("32-bit 0xFFFF: cuts %v, %d triangles", s.Cuts, s.NumTriangles())
	}
	list := Stream{Indexed: true, Index: putIndices16(m, []uint16{0, 1, 0xFFFF}), Count: 3, Topology: command.TriangleList}
	list.FindCuts(m)
	if list.Cuts || list.NumTriangles() != 1 {
		t.Errorf("list: cuts %v, %d triangles", list.Cuts, list.NumTriangles())
	}
	plain := Stream{Start: 0xFFFD, Count: 5, Topology: command.TriangleStrip}
	plain.FindCuts(m)
	if plain.Cuts || plain.NumTriangles() != 3 {
		t.Errorf("non-indexed: cuts %v, %d triangles", plain.Cuts, plain.NumTriangles())
	}
}

// TestBatcherAcrossCuts: batches of a cut strip hold exactly the strip's
// triangles, numbered across strips, with no cut index among their vertices.
func TestBatcherAcrossCuts(t *testing.T) {
	m := command.NewImage()
	var idx []uint16
	for k := uint16(0); k < 40; k++ {
		idx = append(idx, k)
		if k%7 == 6 {
			idx = append(idx, 0xFFFF)
		}
	}
	s := Stream{Indexed: true, Index: putIndices16(m, idx), Count: uint32(len(idx)), Topology: command.TriangleStrip}
	s.FindCuts(m)
	want := stripTriangles(m, &s)
	if len(want) != 5*5+3 { // five strips of 7 vertices and one of 5
		t.Fatalf("%d triangles, want 28", len(want))
	}
	bt, _ := NewBatcher(8)
	var b Batch
	var got [][3]uint32
	for first := 0; bt.Next(m, &s, first, &b); first += b.NumTriangles() {
		if b.FirstTriangle != len(got) {
			t.Fatalf("batch starts at %d, want %d", b.FirstTriangle, len(got))
		}
		for _, tri := range b.Triangles {
			got = append(got, [3]uint32{b.Vertices[tri[0]], b.Vertices[tri[1]], b.Vertices[tri[2]]})
		}
		for _, v := range b.Vertices {
			if v == 0xFFFF {
				t.Fatal("the cut index was fetched as a vertex")
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("batched %v\nwant %v", got, want)
	}
}
