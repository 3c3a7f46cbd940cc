package vertex

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
)

// DefaultBatchVertices is the default number of unique vertices per batch.
const DefaultBatchVertices = 32

// IndexBuffer is a bound index buffer; Addr 0 means none is bound.
type IndexBuffer struct {
	Addr   uint64
	Format uint32 // bits per index: 16 or 32
	Size   uint32 // bytes
}

// Stream is the vertex-index stream of one draw.
type Stream struct {
	Indexed    bool
	Index      IndexBuffer
	Start      uint32 // first vertex (Draw) or first index (DrawIndexed)
	Count      uint32 // vertices or indices
	BaseVertex int32  // added to every fetched index (DrawIndexed)
	Topology   command.Topology

	// Cuts is set when the stream is an indexed triangle strip with at least
	// one strip-cut index (FindCuts); Strips then lists its strips that hold
	// a triangle, in order. Without cuts the stream is one strip.
	Cuts   bool
	Strips []Strip
}

// Strip is one strip of an indexed triangle strip cut by strip-cut indices.
type Strip struct {
	Pos   uint32 // stream position of its first vertex
	Count uint32 // its vertices: the positions up to the next cut or the stream's end
	First int    // the draw's number of its first triangle
}

// CutIndex returns the strip-cut index of an index format: 0xFFFF for 16-bit
// indices, 0xFFFFFFFF for 32-bit ones.
func CutIndex(format uint32) uint32 {
	if format == 16 {
		return 0xFFFF
	}
	return 0xFFFFFFFF
}

// FindCuts reads the indices of an indexed triangle strip and records its
// strip-cut indices (D3D10+ primitive restart): a cut index (CutIndex, the
// value read, before BaseVertex is added; an out-of-bounds read gives 0, no
// cut) ends the current strip, and the next index starts a new one whose
// first triangle is even again; a strip of fewer than 3 vertices gives no
// triangle, and the cut index is no vertex. Triangles are numbered in the
// draw across strips (the primitive ID). Other streams are left as they are.
func (s *Stream) FindCuts(mem command.Memory) {
	s.Cuts, s.Strips = false, nil
	if !s.Indexed || s.Topology != command.TriangleStrip || s.Index.Addr == 0 {
		return
	}
	cut := CutIndex(s.Index.Format)
	var strips []Strip
	start, first := uint32(0), 0
	end := func(k uint32) {
		if n := k - start; n >= 3 {
			strips = append(strips, Strip{Pos: start, Count: n, First: first})
			first += int(n) - 2
		}
	}
	// Positions past the index buffer read 0, never a cut: only those inside
	// it are read (a draw's count is not bounded by its buffer).
	inside := uint64(0)
	if size := uint64(s.Index.Format / 8); size > 0 && uint64(s.Index.Size)/size > uint64(s.Start) {
		inside = uint64(s.Index.Size)/size - uint64(s.Start)
	}
	for k := uint32(0); uint64(k) < min(uint64(s.Count), inside); k++ {
		if s.rawIndex(mem, k) == cut {
			s.Cuts = true
			end(k)
			start = k + 1
		}
	}
	if s.Cuts {
		end(s.Count)
		s.Strips = strips
	}
}

// NumTriangles returns the number of triangles of the stream (0 for the
// point, line and adjacency topologies: see NumPrimitives).
func (s *Stream) NumTriangles() int {
	switch s.Topology {
	case command.TriangleStrip:
		if s.Cuts {
			// The strips with a triangle inside Count (Truncate may shorten it).
			k := sort.Search(len(s.Strips), func(i int) bool { return uint64(s.Strips[i].Pos)+3 > uint64(s.Count) })
			if k == 0 {
				return 0
			}
			st := s.Strips[k-1]
			return st.First + int(min(st.Pos+st.Count, s.Count)-st.Pos) - 2
		}
		if s.Count < 3 {
			return 0
		}
		return int(s.Count) - 2
	case command.TriangleList:
		return int(s.Count / 3)
	}
	return 0
}

// NumPrimitives returns the number of primitives of the stream, of any
// topology.
func (s *Stream) NumPrimitives() int {
	if s.Topology == command.TriangleList || s.Topology == command.TriangleStrip {
		return s.NumTriangles()
	}
	return int(s.Count) / s.Topology.Vertices()
}

// TrianglePositions returns the positions in the stream (0..Count-1) of the three
// vertices of triangle t, in API order. Strip triangle i is (i, i+1, i+2) when i
// is even and (i, i+2, i+1) when it is odd (D3D's order: the strip keeps its
// winding and every triangle's leading vertex, the one flat attributes take, is
// vertex i).
func (s *Stream) TrianglePositions(t int) [3]uint32 {
	if s.Topology == command.TriangleStrip {
		if s.Cuts && len(s.Strips) > 0 {
			k := max(sort.Search(len(s.Strips), func(i int) bool { return s.Strips[i].First > t })-1, 0)
			i := t - s.Strips[k].First
			return StripTriangle(s.Strips[k].Pos+uint32(i), i&1 == 1)
		}
		return StripTriangle(uint32(t), t&1 == 1)
	}
	k := uint32(3 * t)
	return [3]uint32{k, k + 1, k + 2}
}

// PrimitivePositions returns the positions in the stream of the vertices of
// primitive t, in API order, and their number (the topology's Vertices).
func (s *Stream) PrimitivePositions(t int) (pos [MaxCorners]uint32, n int) {
	if s.Topology == command.TriangleList || s.Topology == command.TriangleStrip {
		p := s.TrianglePositions(t)
		copy(pos[:], p[:])
		return pos, 3
	}
	n = s.Topology.Vertices()
	for i := 0; i < n; i++ {
		pos[i] = uint32(t*n + i)
	}
	return pos, n
}

// StripTriangle returns the positions of the strip triangle whose first vertex
// is at position k: (k, k+1, k+2), or (k, k+2, k+1) when the triangle is odd
// in its strip.
func StripTriangle(k uint32, odd bool) [3]uint32 {
	if odd {
		return [3]uint32{k, k + 2, k + 1}
	}
	return [3]uint32{k, k + 1, k + 2}
}

// MaxCorners is the most vertices of one primitive (a triangle with adjacency).
const MaxCorners = 6

// IndexAddress returns the byte address of stream position k's index and its size
// in bytes, for the timing model's index cache. ok is false when the read is out of
// bounds (and returns 0 without touching memory) or the draw is not indexed.
func (s *Stream) IndexAddress(k uint32) (addr uint64, size uint32, ok bool) {
	if !s.Indexed || s.Index.Addr == 0 {
		return 0, 0, false
	}
	size = s.Index.Format / 8
	off := (uint64(s.Start) + uint64(k)) * uint64(size)
	if off+uint64(size) > uint64(s.Index.Size) {
		return 0, size, false
	}
	return s.Index.Addr + off, size, true
}

// VertexIndex returns the vertex index at stream position k.
func (s *Stream) VertexIndex(mem command.Memory, k uint32) uint32 {
	if !s.Indexed {
		return s.Start + k
	}
	return uint32(int64(s.rawIndex(mem, k)) + int64(s.BaseVertex))
}

// rawIndex returns the index read at stream position k of an indexed stream,
// before BaseVertex is added (0 out of bounds).
func (s *Stream) rawIndex(mem command.Memory, k uint32) uint32 {
	addr, size, ok := s.IndexAddress(k)
	if !ok {
		return 0
	}
	var b [4]byte
	mem.ReadAt(b[:size], addr)
	if size == 2 {
		return uint32(binary.LittleEndian.Uint16(b[:]))
	}
	return binary.LittleEndian.Uint32(b[:])
}

// Layout is the input layout of the bound vertex buffer.
type Layout struct {
	Stride     uint32
	Attributes []command.Attribute
}

// VertexBuffer is a bound vertex buffer.
type VertexBuffer struct {
	Addr uint64
	Size uint32
}

// VertexAddress returns the byte range of vertex v in the buffer; ok is false when
// any of it lies outside the buffer.
func VertexAddress(vb VertexBuffer, l *Layout, v uint32) (addr uint64, size uint32, ok bool) {
	off := uint64(v) * uint64(l.Stride)
	if vb.Addr == 0 || off+uint64(l.Stride) > uint64(vb.Size) {
		return 0, l.Stride, false
	}
	return vb.Addr + off, l.Stride, true
}

// Attributes holds one fetched vertex, indexed by semantic.
type Attributes [command.NumSemantics]geom.Vec4

// Fetcher reads vertices; it owns a scratch buffer so fetching does not allocate.
type Fetcher struct {
	buf []byte
}

// Fetch reads vertex v into out.
func (f *Fetcher) Fetch(mem command.Memory, vb VertexBuffer, l *Layout, v uint32, out *Attributes) {
	addr, size, ok := VertexAddress(vb, l, v)
	if !ok {
		*out = Attributes{}
		return
	}
	for i := range out {
		out[i] = geom.Vec4{0, 0, 0, 1}
	}
	if cap(f.buf) < int(size) {
		f.buf = make([]byte, size)
	}
	b := f.buf[:size]
	mem.ReadAt(b, addr)
	for _, a := range l.Attributes {
		var val = geom.Vec4{0, 0, 0, 1}
		for c := uint32(0); c < a.Components; c++ {
			o := a.Offset + 4*c
			val[c] = math.Float32frombits(binary.LittleEndian.Uint32(b[o:]))
		}
		out[a.Semantic] = val
	}
}

// Batch is a vertex batch: up to MaxVertices unique vertices (the tag array, in
// first-use order) and the primitives that use them, by local slot: Triangles
// for the triangle topologies, Prims (Corners slots each) for the others.
type Batch struct {
	FirstTriangle int
	Vertices      []uint32   // vertex index of each slot
	Triangles     [][3]uint8 // local slots of each triangle, API order
	Prims         [][MaxCorners]uint8
	Corners       int // vertices per primitive of Prims
	Hits, Misses  int // tag-array lookups of this batch
}

// NumPrimitives returns the number of primitives in the batch.
func (b *Batch) NumPrimitives() int { return len(b.Triangles) + len(b.Prims) }

// Primitive returns the local slots of primitive i and their number.
func (b *Batch) Primitive(i int) (slots [MaxCorners]uint8, n int) {
	if len(b.Prims) > 0 {
		return b.Prims[i], b.Corners
	}
	t := b.Triangles[i]
	copy(slots[:], t[:])
	return slots, 3
}

// NumTriangles returns the number of triangles in the batch.
func (b *Batch) NumTriangles() int { return len(b.Triangles) }

// DefaultBatchTriangles is the primitive limit of a vertex batch: a batch also
// closes after this many triangles, however few vertices they share (a draw of
// a million triangles over three vertices is many batches, not one that holds
// every triangle while its indices are read).
const DefaultBatchTriangles = 256

// Batcher cuts a draw's triangles into batches of at most MaxVertices unique
// vertices and MaxTriangles triangles (0: DefaultBatchTriangles).
type Batcher struct {
	MaxVertices  int
	MaxTriangles int
}

// NewBatcher returns a batcher with maxVertices unique vertices per batch (at least 3,
// at most 256).
func NewBatcher(maxVertices int) (*Batcher, error) {
	if maxVertices < 3 || maxVertices > 256 {
		return nil, fmt.Errorf("vertex batch size %d out of range [3, 256]", maxVertices)
	}
	return &Batcher{MaxVertices: maxVertices, MaxTriangles: DefaultBatchTriangles}, nil
}

// Next fills out with the batch that starts at primitive first. It returns false when
// first is past the last primitive. out's slices are reused.
func (bt *Batcher) Next(mem command.Memory, s *Stream, first int, out *Batch) bool {
	n := s.NumPrimitives()
	out.FirstTriangle = first
	out.Vertices = out.Vertices[:0]
	out.Triangles = out.Triangles[:0]
	out.Prims = out.Prims[:0]
	out.Corners = 3
	out.Hits, out.Misses = 0, 0
	if first >= n {
		return false
	}
	maxTris := bt.MaxTriangles
	if maxTris <= 0 {
		maxTris = DefaultBatchTriangles
	}
	for t := first; t < n && out.NumPrimitives() < maxTris; t++ {
		pos, corners := s.PrimitivePositions(t)
		var idx [MaxCorners]uint32
		var slot [MaxCorners]int
		newCount := 0
		for i := 0; i < corners; i++ {
			idx[i] = s.VertexIndex(mem, pos[i])
			slot[i] = -1
			for j := 0; j < i; j++ {
				if idx[j] == idx[i] {
					slot[i] = -2 - j // the same vertex as corner j
					break
				}
			}
			if slot[i] != -1 {
				continue
			}
			for j, v := range out.Vertices {
				if v == idx[i] {
					slot[i] = j
					break
				}
			}
			if slot[i] == -1 {
				newCount++
			}
		}
		if len(out.Vertices)+newCount > bt.MaxVertices && out.NumPrimitives() > 0 {
			break
		}
		var local [MaxCorners]uint8
		for i := 0; i < corners; i++ {
			switch {
			case slot[i] >= 0:
				local[i] = uint8(slot[i])
				out.Hits++
			case slot[i] == -1:
				local[i] = uint8(len(out.Vertices))
				out.Vertices = append(out.Vertices, idx[i])
				out.Misses++
			default:
				local[i] = local[-2-slot[i]]
				out.Hits++
			}
		}
		if corners == 3 && (s.Topology == command.TriangleList || s.Topology == command.TriangleStrip) {
			out.Triangles = append(out.Triangles, [3]uint8{local[0], local[1], local[2]})
		} else {
			out.Corners = corners
			out.Prims = append(out.Prims, local)
		}
	}
	return true
}
