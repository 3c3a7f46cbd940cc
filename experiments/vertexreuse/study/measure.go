package study

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/functional/vertexcache"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// Sizes are the post-transform cache sizes of the study, in vertices.
var Sizes = []int{8, 16, 32, 64}

// Reuse is the vertex shader invocations of a frame's draws under each
// scheme: every draw starts from an empty batch or cache, as the input
// assembler starts each draw's batches afresh.
type Reuse struct {
	Draws, Triangles int
	Batch            int   // invocations of the IA's batches (BatchVertices unique vertices each)
	Batches          int   // the batches
	FIFO, LRU        []int // invocations of a FIFO and an LRU cache of Sizes[i] entries
}

// drawIndices returns the triangle list a draw's stream submits: the vertex
// index of each corner of each triangle, in API order (as vertex.Batcher
// reads them: bounds-checked indices, base vertex added).
func drawIndices(mem command.Memory, s *vertex.Stream) []uint32 {
	n := s.NumTriangles()
	out := make([]uint32, 0, 3*n)
	for t := 0; t < n; t++ {
		for _, p := range s.TrianglePositions(t) {
			out = append(out, s.VertexIndex(mem, p))
		}
	}
	return out
}

// measure walks frame f's command stream and counts every draw's vertex
// shader invocations under the batch scheme (batchVertices per batch) and
// the caches of Sizes.
func measure(f *driver.Frame, batchVertices int) (Reuse, error) {
	r := Reuse{FIFO: make([]int, len(Sizes)), LRU: make([]int, len(Sizes))}
	cmds, err := command.DecodeStream(f.Memory, f.Stream, f.StreamBytes)
	if err != nil {
		return r, err
	}
	tr := state.NewTracker(f.Memory)
	for _, c := range cmds {
		a, err := tr.Apply(c)
		if err != nil {
			return r, err
		}
		if a.Kind != state.ActDraw {
			continue
		}
		if err := r.add(drawIndices(f.Memory, &a.Draw.Stream), batchVertices); err != nil {
			return r, fmt.Errorf("draw %d: %w", a.Draw.Index, err)
		}
	}
	return r, nil
}

// add counts one draw's triangle list.
func (r *Reuse) add(idx []uint32, batchVertices int) error {
	bc, err := vertexcache.Batches(idx, batchVertices)
	if err != nil {
		return err
	}
	r.Draws++
	r.Triangles += bc.Triangles
	r.Batch += bc.Invocations
	r.Batches += bc.Batches
	for i, n := range Sizes {
		fc, err := vertexcache.Cache(idx, vertexcache.FIFO, n)
		if err != nil {
			return err
		}
		lc, err := vertexcache.Cache(idx, vertexcache.LRU, n)
		if err != nil {
			return err
		}
		r.FIFO[i] += fc.Invocations
		r.LRU[i] += lc.Invocations
	}
	return nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// ACMR returns invocations per triangle.
func (r Reuse) ACMR(invocations int) float64 {
	return ratio(float64(invocations), float64(r.Triangles))
}
