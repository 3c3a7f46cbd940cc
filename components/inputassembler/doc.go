// Package inputassembler models the input assembler (IA): the first stage of the
// 3D pipeline, which reads each draw's indices, cuts its triangles into batches
// of unique vertices, fetches their attributes and hands each batch to a shader
// core for vertex shading.
//
// # Hardware
//
// Following "A trip through the Graphics Pipeline 2011", part 3: indices are read
// from the index buffer through a small data cache, with D3D10 bounds checks (a
// read past the end of the buffer, or with none bound, returns 0); a
// non-indexed draw behaves as if indexed by 0, 1, 2, .... Vertex reuse is not a
// FIFO post-transform cache but a per-batch tag array: the IA fills a batch of at
// most BatchVertices unique vertices, looking each index of each triangle up in
// the batch's tags, never splitting a triangle, and starts the next batch from
// empty tags, so batches are independent and any free shader core can take one.
// Primitive assembly later restores their order, using the batch's local
// triangle list.
//
// The functional work is the functional model's: vertex.Batcher forms the
// batches, pipeline.FetchBatch reads the attributes, vertex.Stream.IndexAddress
// and vertex.VertexAddress give the addresses the caches see. The component
// decides when each happens and models the traffic; values are read from the
// memory image given to SetMemory.
//
// # Ports
//
//   - FromCommandProcessor: protocol.DrawDispatch, one per draw, in API order. A
//     draw is taken when the index stage is free. A dispatch covers the draw's
//     primitives [First, End) of any topology (End == 0: to the draw's end;
//     SAGE's distributor sends each pipe such chunks): the IA batches a copy
//     of the stream cut after primitive End-1 (so the batcher stops there)
//     from primitive First; primitive numbers (Batch.FirstTriangle) stay the
//     draw's. An empty chunk sends BatchInfo with 0 batches, as a draw without
//     primitives does. A range outside the draw stops the run with an error
//     naming the field. The dispatch's SkipStreamOut is passed on in the
//     draw's BatchInfo.
//   - ToMemory: index and vertex line reads (one cache line each) through a
//     memclient.Client, to the port Memory finds for each address.
//   - ToShaderCores: protocol.VertexBatch to a core of ShaderCores.
//   - PrimitiveAssembly: sends protocol.BatchInfo{draw, batches, SkipStreamOut} after a draw's
//     last batch (also for a draw with no triangle: 0 batches) to
//     PrimitiveAssemblyPort; receives protocol.BatchCredit.
//
// Peer fields set by the platform builder: ShaderCores, PrimitiveAssemblyPort,
// Memory (a mem.LowModuleFinder); and SetMemory(image) before the first draw.
//
// # The life of a batch
//
//  1. Index stage. With no batch in progress, the IA forms the draw's next batch
//     with vertex.Batcher (when it has room in the fetch queue). It then spends
//     IndicesPerCycle batch tag lookups per cycle on it, three per triangle (one
//     per vertex of a primitive of the point, line and adjacency topologies of
//     the geometry stage: vertex.Stream.PrimitivePositions), in API order; a
//     lookup that meets a stream position whose index has not been read yet
//     (every position of a list; the new position of each strip triangle,
//     each position once per draw) reads the indices up to it, in order: also
//     those no primitive uses (a strip's cut indices, a strip too short for a
//     triangle), which the hardware reads to find the cuts, and those of a
//     cut strip after its last triangle, before the draw's end marker; a
//     chunk starts at its first primitive's first position. An index is read through the index
//     cache (a timing.TagArray): a hit on a line still in flight makes the batch
//     wait for that read; a miss allocates the line and reads it from memory (if
//     no read can be issued, the stage stalls). An out-of-bounds position costs
//     no memory access. When every lookup is done the batch joins the fetch
//     queue, and the next batch starts.
//  2. Vertex stage. The oldest batch of the fetch queue waits until its index
//     lines have arrived, then looks up VerticesPerCycle vertices per cycle in
//     the vertex cache (every line a vertex's bytes touch; a vertex outside the
//     vertex buffer costs no access and reads zeros), and joins the dispatch
//     queue.
//  3. Dispatch. The oldest batch waits until its vertex lines have arrived and a
//     credit is held (one per primitive-assembly batch slot, so that every shaded
//     batch has a slot), reads its attributes (pipeline.FetchBatch) and is sent
//     to a shader core: round-robin starting after the last core used; a core
//     that refuses (its link or its input is full) is skipped and the next one
//     tried in the same cycle. One batch is sent per cycle. The credit comes back
//     in a BatchCredit when primitive assembly frees the slot.
//  4. End of draw. When the batcher has no more triangles, an end marker follows
//     the draw's last batch through the queues; at the dispatch stage it sends
//     BatchInfo with the draw's batch count.
//
// Draws flow through back to back: the index stage starts the next draw while
// the previous one's batches are still being fetched or dispatched.
//
// # Parameters (Config)
//
//	BatchVertices         32                 unique vertices per batch (batch tag array)
//	IndexCache            4 KiB, 4-way, 64 B  index cache (LRU)
//	VertexCache           16 KiB, 4-way, 64 B vertex cache (LRU)
//	IndicesPerCycle       3                  batch tag lookups per cycle (one triangle)
//	VerticesPerCycle      1                  vertices fetched per cycle
//	Credits               16                 must equal primitive assembly's BatchSlots
//	MaxOutstandingMemory  8                  line reads in flight
//	BatchQueue            2                  batches in each queue between stages
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name) builds one; env gives
// the engine, the clock, the halt (a peer that breaks the protocol sets it)
// and the progress counter (one unit per batch or BatchInfo sent).
//
// # Statistics
//
// Stats reports, under "<name>.": draws, batches, vertices (vertex shader
// invocations), batch_tag_hits, batch_tag_misses and batch_tag_hit_rate (the
// batch tag arrays: equal to the reference renderer's VertexCacheHits/Misses),
// index_reads, index_cache_hits, index_cache_misses, index_out_of_bounds,
// vertex_cache_hits, vertex_cache_misses, vertex_out_of_bounds, bytes_read,
// credits_available, the activity cycles (cycles_busy, cycles_wait_memory,
// cycles_wait_credit, cycles_wait_core, cycles_wait_send, cycles_idle) and
// utilization, and the memory client's counters under "<name>.memory.". Buffers
// reports the index stage, the fetch and dispatch queues, the reads in flight
// and the credits in use.
//
// A peer that breaks the protocol (a credit nobody took, a message of the wrong
// kind) or a missing peer stops the run through the shared timing.Halt (the
// unit's timing.Fault, so without a Halt it panics); Err returns the error.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// batch is a "vertex_batch" task "draw<s>.t<first>.batch<b>" below its draw, from its
// formation (the start of its index lookups) to its dispatch; its index and
// vertex line reads hang below it.
package inputassembler
