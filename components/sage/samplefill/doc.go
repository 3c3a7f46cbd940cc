// Package samplefill models the per-sample stage of a SAGE rasterize chip
// ("GPU.Pipe[p].SampleFill"; Deering & Naegle 2002, §3.3: the chip
// "interpolates color, z and alpha channel data at each sample point" and
// outputs "a stream of sample RGBAZ packets, with screen pixel x,y address and
// sample index" on "two external output buses"; ../shared/docs/sage.md
// section 3). It sits after the pipe's rasterizer (whose ToDepthUnits is wired
// to FromRasterizer), shades every covered sample on the pipe's shader core
// and sends the samples to the two sched chips.
//
// # Ports
//
//   - FromRasterizer (in): protocol.TileQuads and protocol.DrawEnd from the
//     pipe's one rasterizer, in draw order; InputQueue messages.
//   - FromDistributor (in): one protocol.DrawPlan per draw, in draw order.
//   - ToShaderCore (out): protocol.PixelWarp of sample quads (WarpQuad.Sample
//     >= 0, PixelRate, ReturnTo = FromShaderCore) to ShaderCore.
//   - FromShaderCore (in): protocol.ShadedWarp, in any order; WarpsInFlight
//     messages, so an answer is never refused.
//   - ToScheds[k] (out, k = 0, 1): protocol.SampleBurst and
//     protocol.OrderMarker to Scheds[k], on sched bus k. Interleave i is
//     served by sched i / InterleavesPerSched.
//   - ToDistributor (out): protocol.DrawEnd{Draw, From: pipe} to Distributor
//     (the distributor's load report; none when Distributor is nil).
//
// # The life of a draw
//
//  1. Plan. The first message of a draw from the rasterizer (TileQuads or
//     DrawEnd) waits until the draw's DrawPlan has arrived (stall wait_plan;
//     a plan for another draw is a protocol error). With Barrier, a barrier
//     entry joins the reorder buffer first.
//  2. Warps. Each quad of a TileQuads becomes sample quads: sample s of its
//     four pixels for every s live in some pixel, ascending, exactly as the
//     reference's per-sample path (functional/reference/sage.go,
//     flushPerSample) orders them. Sample quads of one draw fill a warp of
//     QuadsPerWarp; a full warp is closed (at most one per cycle) into the
//     reorder buffer if fewer than WarpsInFlight warps are in it (else stall
//     full), and sent to the shader core, oldest first (stall blocked_core
//     when refused). DrawEnd closes the partial warp and adds a DrawEnd
//     entry.
//  3. Shading. The shader core loads each sample quad with
//     pipeline.LoadPerSampleQuad (inputs at the sample, the PixelRate inputs,
//     pipeline.PixelRateLinks of Config.PixelRate, at the pixel centre) and sends
//     the ShadedWarp back here; answers may come in any order.
//  4. Retire. The reorder buffer retires in order (stall wait_shader while
//     its head is not shaded). A warp's sample quads, in order: the killed
//     lanes are dropped (pipeline.Survivors over the quad's samples s), and
//     each surviving sample, pixel by pixel, becomes a protocol.SageSample
//     {X, Y, S, BackFacing, Z: pipeline.SampleZ, Color} in the open burst of
//     its interleave (samplebuffer.Geometry.Interleave), SamplesPerCycle
//     samples per cycle. A burst is queued toward its sched when it holds
//     BurstSamples samples (before the next sample is added) and at the
//     draw's end; a full sched queue (OutputQueue messages) stops retiring
//     without losing anything (stall blocked_sched). A barrier entry queues a
//     MarkBarrier(BarrierSeq) into both sched streams; a DrawEnd entry queues
//     the draw's open bursts, then a MarkDrawEnd (Interleave -1) into both
//     streams, then reports the draw to the distributor.
//  5. Send. Each sched queue sends its head message on its bus, one per bus
//     per cycle; a burst is 8 + PacketBytes x samples bytes, a marker 8.
//
// Within the pipe every sample keeps its order through the queues, so each
// interleave receives this pipe's samples in the reference's order.
//
// Texture requests are the shader core's (it sends them to its sampler as for
// any warp). texture_requests_merged counts what a per-pixel texturing unit
// (the paper's: texturing per pixel, the texture coordinates at pixel rate)
// would save, without comparing requests: per warp, (sample quads - distinct
// pixel quads) x 4 lanes x the pixel shader's texture fetches
// (PSResources.TexFetches). The shader core still issues every request.
//
// # Parameters (Config, DefaultConfig)
//
//	Pipe: 0                       the pipe index (bursts, markers, reports)
//	QuadsPerWarp: 8               sample quads per warp (1..16; 32 lanes)
//	WarpsInFlight: 8              reorder-buffer warps
//	SamplesPerCycle: 8            samples packed into bursts per cycle (assumed)
//	PacketBytes: 16               bytes per sample packet (assumed, ../shared/docs/sage.md)
//	BurstSamples: 16              samples per SampleBurst at most (assumed)
//	Geometry: 1280x1024x8, 8 interleaves of 4 chips   the sample buffer map
//	InterleavesPerSched: 4        interleaves per sched (the board's 8 over 2)
//	PixelRate: ["texcoord"]       pixel-rate input semantics
//	InputQueue: 8                 FromRasterizer and FromDistributor, messages
//	OutputQueue: 4                messages queued per sched bus
//
// The builder takes the engine, clock (the core clock), halt and progress in
// one timing.Env (WithEnv) and the Config (WithConfig).
//
// # Tasks (traces)
//
// With a tracer attached, each warp is a sample_warp task
// "pipe<p>.warp<id>@fill" below its draw, from its closing into the reorder
// buffer to the retirement of its last sample; the shader core's task for it
// ("...@core") hangs below it (docs/design-timing.md, section 10).
//
// # Statistics
//
// Named "<name>.<counter>": samples_out (samples sent), sample_quads, warps,
// texture_requests_merged, killed_samples, bursts, markers, draws, and the
// activity cycles cycles_busy, cycles_blocked_sched, cycles_wait_shader,
// cycles_blocked_core, cycles_wait_plan, cycles_full, cycles_idle and
// utilization.
package samplefill
