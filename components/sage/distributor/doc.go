// Package distributor models the distribution unit of the SAGE master chip
// ("GPU.Distributor"; Deering & Naegle 2002, §3.2: "geometric primitives
// streams of vertex data [are] distributed in a load-balanced way to the four
// parallel render pipelines"; ../shared/docs/sage.md section 3). It takes the
// command processor's draws in API order and sends every draw to every pipe,
// as one chunk per pipe (a triangle range of the draw, possibly empty), and a
// protocol.DrawPlan sideband to every pipe's sample fill saying whether the
// draw's samples wait behind a barrier.
//
// # Classes, chunks and barriers
//
// A draw is order-independent when pipeline.OrderIndependent says so (depth
// test Less or Greater with writes on, no stencil, no blending, full colour
// mask: its samples give the same sample buffer in any order), else
// order-dependent; mode ordered treats every draw as order-dependent, and so
// does every mode a draw that streams out (statistic streaming_draws): the
// stream-out buffers are global and written in API order, so one pipe's
// primitive assembly streams the whole draw out, and the other pipes' empty
// chunks carry DrawDispatch.SkipStreamOut (their primitive assembly leaves
// the buffers and counters alone, also for a draw without primitives). A
// draw with a geometry shader is classed as any other: an order-independent
// one is split by input primitives, and the pipes' output primitives meet in
// the sample buffer in any order, which cannot change it. Triangles below
// are primitives of any topology (vertex.Stream.NumPrimitives: points,
// lines, adjacency primitives).
//
//   - An order-independent draw of n triangles is cut into chunks of
//     ChunkTriangles; each chunk in turn goes to the least-loaded pipe (load:
//     outstanding triangles, below, plus the chunks of this draw given so far;
//     ties to the lowest pipe). A pipe takes one dispatch per draw (primitive
//     assembly knows a draw by its identity, and the sample fill sends one
//     MarkDrawEnd per draw), so a pipe's chunks of one draw are merged into one
//     contiguous range and the ranges are laid out in pipe order: pipe 0 takes
//     the first triangles, pipe 1 the next, and so on. The triangles per pipe
//     are those of the chunk-by-chunk assignment; which triangles a pipe draws
//     does not matter, as the draw is order-independent.
//   - An order-dependent draw goes whole to the least-loaded pipe (among
//     equals the previous order-dependent draw's pipe, which saves a barrier,
//     else the lowest); the other pipes get empty chunks.
//   - A barrier is asked for (DrawPlan.Barrier, numbered by BarrierSeq from 0
//     in the frame) when the class changes from the previous draw, and when an
//     order-dependent draw goes to another pipe than the previous
//     order-dependent draw; never before the frame's first draw. Mode
//     barrier_per_draw puts one before every draw (the first included).
//
// An empty chunk is the range [n, n) (End == 0 would mean the whole draw), or
// [0, 0) for a draw without triangles. It still flows through its pipe as a
// draw, so that the pipe's end-of-draw markers reach the scheds.
//
// # Load
//
// The load of a pipe is its outstanding triangles: those of the chunks sent to
// it whose end its sample fill has not reported. Each pipe's sample fill sends
// a protocol.DrawEnd{Draw, From: pipe} to FromSampleFills once it has emitted
// the draw's MarkDrawEnd markers (the pipe's whole chunk is then rasterized
// and shaded); the distributor keeps per pipe the FIFO of its chunks and pops
// the head on each report (a report for another draw is a protocol error).
// Without reports (no sample fill wired back) the load is the cumulative
// triangles per pipe. The load is read when a draw is planned, so a large draw
// is balanced against the earlier draws still in the pipes.
//
// # Ports
//
//   - FromCommandProcessor (in): protocol.DrawDispatch of whole draws (First =
//     End = 0), in API order; InputQueue messages.
//   - ToPipes (out): one protocol.DrawDispatch chunk (NewDrawChunk) per pipe
//     per draw to Pipes[p], the pipe's input assembler.
//   - ToSampleFills (out): one protocol.DrawPlan per pipe per draw to
//     SampleFills[p].
//   - FromSampleFills (in): protocol.DrawEnd load reports; ReturnQueue
//     messages.
//
// # The life of a draw
//
//  1. The take stage peeks the next DrawDispatch when no draw is being sent,
//     classifies it, plans its ranges and barrier (the load counters and the
//     statistics change now) and retrieves it.
//  2. DispatchLatency cycles later the send stage sends, pipe by pipe, the
//     chunk and the plan of every pipe that accepts them; a refused message is
//     retried when the port frees (stall blocked_pipe or blocked_sample_fill).
//     The next draw is taken once all 2 x Pipes messages are sent, so every
//     pipe sees the draws in order.
//
// # Parameters (Config, DefaultConfig)
//
//	Pipes: 4                     render pipes (the board's 4)
//	ChunkTriangles: 256          triangles per chunk (assumed)
//	Mode: Document               document, ordered, barrier_per_draw (ParseMode)
//	DispatchLatency: 1           cycles from taking a draw to sending it (assumed)
//	InputQueue: 4                FromCommandProcessor capacity, messages
//	ReturnQueue: 8               FromSampleFills capacity, messages
//
// The builder takes the engine, clock (the core clock), halt and progress in
// one timing.Env (WithEnv) and the Config (WithConfig).
//
// # Tasks (traces)
//
// With a tracer attached, each pipe's chunk of a draw is a draw_chunk task
// "draw<s>@pipe<p>" below the draw's task, from the draw's planning to the
// pipe's DrawEnd report (docs/design-timing.md, section 10).
//
// # Statistics
//
// Named "<name>.<counter>": draws, ordered_draws, streaming_draws, chunks (chunks of
// ChunkTriangles and whole order-dependent draws), empty_chunks, barriers,
// returns, triangles_p<p>, chunks_p<p>, load_p<p> (outstanding at the end),
// cycles_busy, cycles_latency, cycles_blocked_pipe, cycles_blocked_sample_fill,
// cycles_idle and utilization.
package distributor
