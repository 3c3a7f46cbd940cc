package driver

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/vertexcache"
	"github.com/gfxsim/gfxsim/scene"
)

// OrderIndependent reports whether drawing with state st gives the same
// image whatever the order of the draw's triangles, except where two of them
// meet a sample at exactly the same depth: opaque (no blending), depth
// tested with an ordering comparison (less, less-equal, greater,
// greater-equal) and depth written, so that each sample keeps the nearest
// fragment. Blending, a test that passes regardless of depth (always, equal,
// not-equal) or a test without depth writes all depend on the order.
func OrderIndependent(st scene.State) bool {
	switch st.DepthFunc {
	case scene.CompareLess, scene.CompareLessEqual, scene.CompareGreater, scene.CompareGreaterEqual:
	default:
		return false
	}
	return st.Blend == scene.BlendOpaque && st.DepthTest && st.DepthWrite
}

// Reorderable returns, per mesh of s, whether the driver may reorder its
// triangles (Options.ReorderIndices): every object that draws it has an
// OrderIndependent material state, streams nothing out (the stream-out
// buffer keeps the primitives' order) and no geometry shader that reads
// sv_primitiveid (a triangle's index in its draw, which reordering changes:
// the grass shader sizes each blade by it). A mesh no object draws is left
// alone.
func Reorderable(s *scene.Scene) []bool {
	ok := make([]bool, len(s.Meshes))
	drawn := make([]bool, len(s.Meshes))
	for i := range ok {
		ok[i] = true
	}
	for _, o := range s.Objects {
		if o.Mesh < 0 || o.Mesh >= len(s.Meshes) || o.Material < 0 || o.Material >= len(s.Materials) {
			continue // Validate reports it
		}
		drawn[o.Mesh] = true
		mat := &s.Materials[o.Material]
		if !OrderIndependent(mat.State) || o.StreamOut != nil || readsPrimitiveID(mat) {
			ok[o.Mesh] = false
		}
	}
	for i := range ok {
		ok[i] = ok[i] && drawn[i]
	}
	return ok
}

// readsPrimitiveID reports whether the material's geometry shader reads
// sv_primitiveid (a material the library does not know is not reorderable).
func readsPrimitiveID(m *scene.Material) bool {
	if m.GeometryShader() == "" {
		return false
	}
	lm, err := library.Get(m.Shader)
	if err != nil || lm.GS == nil {
		return true
	}
	for _, in := range lm.GS.Inputs {
		if in.Semantic == shader.SemanticPrimitiveID {
			return true
		}
	}
	return false
}

// MeshOrder is the order in which the driver uploads a mesh: its index list
// and, when renumbered, the mesh vertex stored at each place of the vertex
// buffer.
type MeshOrder struct {
	Indices  []uint32
	Vertices []uint32 // nil: the mesh's own order; else Vertices[i] is the mesh vertex stored at i
}

// MeshOrders returns the order the driver uploads each mesh of s in with
// options o: the mesh's own, or, with o.ReorderIndices > 0 and a Reorderable
// mesh, its triangles reordered by vertexcache.Tipsify for a FIFO of
// o.ReorderIndices entries, and with o.ReorderVertices its vertices
// renumbered in first-use order (vertexcache.FetchOrder). Unchanged index
// lists are the meshes' own slices.
func MeshOrders(s *scene.Scene, o Options) ([]MeshOrder, error) {
	out := make([]MeshOrder, len(s.Meshes))
	if o.ReorderIndices < 0 {
		return nil, fmt.Errorf("driver: reorder indices: %d, want 0 (off) or a FIFO size", o.ReorderIndices)
	}
	var ok []bool
	if o.ReorderIndices > 0 {
		ok = Reorderable(s)
	}
	for i, m := range s.Meshes {
		out[i].Indices = m.Indices
		if ok == nil || !ok[i] {
			continue
		}
		r, err := vertexcache.Tipsify(m.Indices, len(m.Positions), o.ReorderIndices)
		if err == nil && o.ReorderVertices {
			out[i].Indices, out[i].Vertices, err = vertexcache.FetchOrder(r, len(m.Positions))
		} else {
			out[i].Indices = r
		}
		if err != nil {
			return nil, fmt.Errorf("driver: meshes[%d] %q: %w", i, m.Name, err)
		}
	}
	return out, nil
}
