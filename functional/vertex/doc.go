// Package vertex is the functional model of the input assembler and of primitive
// assembly (part 3 and the start of part 5 of "A trip through the Graphics Pipeline
// 2011").
//
// Index fetch: indices come from the bound index buffer (16 or 32 bits); reads past
// the end of the buffer, or with no buffer bound, return 0 (D3D10+ bounds checking).
// A non-indexed draw behaves as if indexed by the identity buffer.
//
// Vertex fetch: attributes are float32 vectors of 1 to 4 components at fixed offsets
// in each vertex of the bound vertex buffer. Missing components read as (0, 0, 0, 1);
// attributes the layout does not provide read as (0, 0, 0, 1); a vertex that lies
// outside the buffer reads as all zeros.
//
// Primitives: a list's primitive i is its positions (k*i .. k*i+k-1) for k vertices a
// primitive; a triangle strip's triangle i is positions (i, i+1, i+2) when i is even and
// (i, i+2, i+1) when i is odd (D3D's order: (v0,v1,v2), (v1,v3,v2), (v2,v3,v4), ...), so
// every triangle keeps the strip's winding and leads with vertex i, the one whose
// attributes flat interpolation takes.
//
// Strip cuts: in an indexed triangle strip the cut index (0xFFFF with 16-bit indices,
// 0xFFFFFFFF with 32-bit ones; the value read, before BaseVertex) ends the strip and the
// next index starts a new one, whose first triangle is even again; a strip of fewer than
// 3 vertices gives no triangle, and the cut is no vertex. Stream.FindCuts finds the
// strips (state.Tracker calls it as it decodes the draw); triangles are numbered across
// strips, so a draw's primitive count, its batches and its primitive IDs count only the
// triangles made. Lists and non-indexed draws have no cuts.
//
// Batching: the hardware keeps no FIFO vertex cache. It fills a batch of at most
// MaxVertices (32 by default) unique vertices, looking each index of each primitive up
// in the batch's tag array (hit: reuse the slot; miss: allocate one), and of at most
// MaxTriangles (DefaultBatchTriangles, 256) triangles. When a primitive no longer
// fits, the batch is dispatched to a shader core and the next one starts from
// an empty tag array, so batches are independent. A primitive is never split across
// batches. Primitive assembly later walks the batch's local index list in API order.
package vertex
