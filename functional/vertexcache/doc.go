// Package vertexcache measures vertex reuse: how many vertex shader
// invocations an index buffer costs per triangle (the average cache miss
// ratio, ACMR) under three schemes, and reorders an index buffer so that it
// costs fewer.
//
// # The schemes
//
// Following "A trip through the Graphics Pipeline 2011", part 3 (the
// document 004 in ../shared/seeds): the GPUs of the shader-model-3 era kept a
// post-transform vertex cache, "usually just a FIFO for a small number (think
// one or two dozen) of vertices ... using the vertex index as a tag"; unified
// shader cores want batches of 16 to 64 vertices instead, so the input
// assembler fills a batch of at most 32 unique vertices from empty tags and
// starts the next one from empty tags again.
//
//   - Batches: the input assembler's own rule, computed by vertex.Batcher
//     (the functional model that components/inputassembler and the reference
//     renderer call), so its count equals the timed IA's "vertices" counter
//     for the same draw: at most BatchVertices unique vertices and
//     vertex.DefaultBatchTriangles triangles per batch, a triangle never
//     split, a repeated index inside a triangle shaded once.
//   - FIFO: a post-transform cache of N entries tagged by vertex index; each
//     of a triangle's three indices, in order, is looked up; a miss shades the
//     vertex and inserts it, evicting the oldest insertion; a hit changes
//     nothing. A larger FIFO is not always better (Belady's anomaly).
//   - LRU: the same, but a hit makes the entry the most recently used and a
//     miss evicts the least recently used. LRU is a stack algorithm: an LRU of
//     2N entries always holds what one of N holds, so it never misses more.
//
// ACMR is invocations over triangles: 3 when nothing is reused, about 0.5 at
// best on a large regular mesh (each vertex shared by six triangles).
//
// # Reordering
//
// Tipsify reorders the triangles of an indexed triangle list for a FIFO of
// the given size, after Sander, Nehab and Barczak, "Fast Triangle Reordering
// for Vertex Locality and Reduced Overdraw" (ACM TOG 26(3), SIGGRAPH 2007),
// section 3, figures 2 and 3 (the vertex-locality part only; the overdraw
// clustering of section 4 is not done). It fans around one vertex at a time:
// it emits every not yet emitted triangle around the fanning vertex, then
// picks the next fanning vertex among the vertices those triangles touched:
// the one that entered the cache earliest among those that will still be in
// the cache after their own remaining triangles are emitted, else the most
// recent vertex of the dead-end stack with triangles left, else the next
// vertex in index order with triangles left. It runs in time linear in the
// number of triangles, is deterministic (ties go to the first candidate in
// the order the triangles touched them), emits every triangle exactly once
// and keeps each triangle's corners in their order (its winding).
//
// FetchOrder then renumbers the vertices in the order the new list first
// uses them, so that the input assembler's vertex fetch walks the vertex
// buffer forward again: Tipsify's fans jump around a buffer laid out in the
// original order, and the IA's vertex cache (cache lines of vertex data,
// not shaded vertices) sees the scatter. Renumbering changes no ACMR.
package vertexcache
