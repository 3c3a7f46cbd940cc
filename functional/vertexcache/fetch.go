package vertexcache

import "fmt"

// FetchOrder renumbers the vertices of the triangle list indices (over
// vertices 0..vertexCount-1) in the order of their first use, so that
// fetching the vertices of the list walks the vertex buffer forward (the
// vertex-fetch step that follows a vertex-cache reordering; a reordering
// alone scatters the fetches of a buffer laid out in the original order).
// It returns the renumbered list and order, where order[i] is the old number
// of new vertex i; the vertices no triangle uses come last, in their old
// order. indices is not modified.
func FetchOrder(indices []uint32, vertexCount int) (remapped, order []uint32, err error) {
	if vertexCount < 0 {
		return nil, nil, fmt.Errorf("vertex count: %d, want at least 0", vertexCount)
	}
	const unset = ^uint32(0)
	newOf := make([]uint32, vertexCount)
	for i := range newOf {
		newOf[i] = unset
	}
	order = make([]uint32, 0, vertexCount)
	remapped = make([]uint32, len(indices))
	for i, v := range indices {
		if uint64(v) >= uint64(vertexCount) {
			return nil, nil, fmt.Errorf("indices[%d]: vertex %d out of range (%d vertices)", i, v, vertexCount)
		}
		if newOf[v] == unset {
			newOf[v] = uint32(len(order))
			order = append(order, v)
		}
		remapped[i] = newOf[v]
	}
	for v, n := range newOf {
		if n == unset {
			order = append(order, uint32(v))
		}
	}
	return remapped, order, nil
}
