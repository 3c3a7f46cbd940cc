// Package shadercore models a unified shader core of gfxsim's timed sort-last
// GPU ("GPU.ShaderCore[c]"): the same core runs vertex batches and pixel warps,
// keeps several warps resident, and switches between them so that texture
// latency is hidden by other work (docs/design-timing.md, section 5; Giesen, "A
// trip through the Graphics Pipeline 2011", parts 3 and 8: shader units fed by
// batches of 16-64 jobs, quads of 2x2 pixels with helper pixels, "switch to a
// different batch after they've issued a texture sample", and register-limited
// occupancy: "if a shader needs a lot of registers, a shader unit can keep less
// warps around").
//
// Every value the core produces comes from the functional model: inputs are
// loaded with pipeline.LoadVertices and pipeline.LoadQuad, instructions run on
// a shader.Warp (Step for ALU, SFU, derivative and kill instructions;
// TexRequests and CompleteTex around a texture fetch), and results are read with
// pipeline.StoreVertices and pipeline.ReadQuad. A frame shaded by the core
// therefore has the same outputs, bit for bit, and the same instruction counts
// as the reference renderer. The core decides only when things happen.
//
// # Ports
//
//   - FromDispatch (in): protocol.VertexBatch from the input assembler and
//     protocol.PixelWarp from the reorder buffer (SAGE: the sample fill), over
//     one connection. The port's buffer is the input queue (InputQueue
//     messages).
//   - ToPrimitiveAssembly (both ways): protocol.ShadedBatch and
//     protocol.ShadedGeometry to PrimitiveAssemblyPort; it receives
//     protocol.GeometryWarp from primitive assembly, its buffer being the GS
//     input queue (InputQueue messages).
//   - ToReorderBuffer (out): protocol.ShadedWarp to the warp's ReturnTo
//     (SAGE: the sample fill), or ReorderBufferPort when it is nil.
//   - Sampler (both ways): protocol.TexRequest to SamplerPort (the core's
//     texture sampler) and protocol.TexResponse back. Its buffer holds
//     WarpSlots responses, one per possible outstanding request, so responses
//     are never refused.
//
// The peer fields PrimitiveAssemblyPort, ReorderBufferPort and SamplerPort are
// set by the platform builder after Build.
//
// # Resources
//
// WarpSlots warp slots and a register file of Registers vec4 registers. A warp
// of n lanes (a pixel warp of q quads has 4q lanes, a vertex batch of n
// vertices n lanes) holds one slot and Temps x WarpSize registers, where Temps
// is the program's Resources().Temps (at least 1); a warp wider than WarpSize
// (up to shader.MaxLanes = 64 lanes) counts as ceil(n/WarpSize) warps' worth of
// registers and issue cycles. Occupancy is therefore min(WarpSlots,
// Registers / (Temps x WarpSize)) warps. A geometry shader warp also holds
// lanes x Program.OutputScalars() x 4 bytes (lanes x .max_vertices x output
// registers x 16) of the core's GS output buffer (GSOutputBuffer bytes) and
// one of MaxGSWarps GS warp places, from admission until its output is sent.
//
// # The life of a pixel warp
//
//  1. The reorder buffer's PixelWarp waits in the input queue. Admission takes
//     the head of the queue, strictly in arrival order, when a slot and its
//     registers are free (a head that does not fit blocks everything behind it;
//     the cycles are counted as admit_blocked_slots_cycles or _registers).
//  2. Admission loads the warp functionally: Warp.Reset(PS, 4*quads,
//     PSConstants) and pipeline.LoadQuad for each quad (interpolated inputs,
//     system values, helper lanes). The input loader (the interpolator) is one
//     shared unit of throughput InterpolationCycles cycles per quad per
//     interpolant: a warp's load takes ceil(quads x interpolants x
//     InterpolationCycles) cycles and starts when the previous load finished.
//     Vertex inputs use the same path, counting four vertices as one quad and
//     every vertex shader input as an interpolant. The warp can issue when its
//     load is done.
//  3. The scheduler issues at most one warp instruction per issue slot, from
//     the oldest resident warp that is ready. The instruction occupies the SIMD
//     for ceil(WarpSize/SIMDWidth) cycles (2 with 32 lanes on 16), a
//     special-function instruction (rcp, rsq, ex2, lg2, pow, sin, cos) for
//     ceil(WarpSize/SFURate) cycles (SFURate 0: the SIMD width), so the next
//     instruction of any warp issues no earlier. Warps are in order with no
//     scoreboard: after issuing, a warp is ready again when the latency of the
//     instruction's class (Latencies: ALU, SFU, derivative, kill) has elapsed.
//     Non-texture instructions execute functionally at issue (Warp.Step).
//  4. A texture instruction (TEX, TEXB, TEXL, TEXD) builds the lanes'
//     requests (Warp.TexRequests) into a protocol.TexRequest naming the warp's
//     slot and the binding (&State.PSTextures[unit], or VSTextures for a vertex
//     warp); the request leaves Latencies.Texture cycles after issue (one per
//     cycle, in issue order). The warp waits; other warps issue meanwhile (warp
//     switching). When the response arrives, Warp.CompleteTex writes the
//     results and the warp may issue from the next cycle on. The cycles from
//     the issue of the fetch to its response are texture_wait_warp_cycles.
//  5. When the last instruction's latency has elapsed, the core reads the
//     results (pipeline.ReadQuad per quad) into a ShadedWarp and sends it on
//     ToReorderBuffer to the warp's ReturnTo port (pixel and shading warps), or to ReorderBufferPort
//     when ReturnTo is nil, at most one message per output port per cycle,
//     oldest warp first. The slot and registers are freed when the send
//     succeeds; a refused send keeps them (the output is retried when the port
//     frees up), which is how a full reorder buffer throttles the core.
//
// A sample quad (WarpQuad.Sample >= 0: SAGE's per-sample shading, a warp from
// a pipe's sample fill) is loaded with pipeline.LoadPerSampleQuad(..., Sample,
// Live, PixelWarp.PixelRate, ...) instead of pipeline.LoadQuad: lane k is
// sample Sample of pixel k, its inputs interpolated at that sample except the
// pixel-rate ones. The sample fill sets ReturnTo to its FromShaderCore port,
// so the shaded warp goes back to it; everything else is the pixel warp's
// path.
//
// A shading warp (protocol.ShadingWarp, a shading-cache miss warp of decoupled
// sampling from the reorder buffer) takes the pixel-warp path: admission loads
// each shading quad with pipeline.LoadShadingQuad (pipeline.LoadSampleQuad in
// supersample mode, helpers included), the warp runs as any pixel warp
// (texturing included; counted in pixel_warps, ps_invocations, helper_pixels),
// and its output is a protocol.ShadedLanes (pipeline.ReadShadingQuad per quad)
// to the reorder buffer.
//
// A vertex batch takes the same path with pipeline.LoadVertices(State, Attrs,
// n) and, at the end, pipeline.StoreVertices into a ShadedBatch for primitive
// assembly. Vertex and pixel warps share the slots, registers and SIMD.
//
// # The life of a geometry shader warp
//
// Primitive assembly sends a protocol.GeometryWarp (primitives [First,
// First+Lanes) of a shaded batch it holds, one per lane) to the core's
// ToPrimitiveAssembly port. Admission takes the head of that GS input queue
// before the dispatch queue's (its primitives are older than any vertex
// batch waiting there, and primitive assembly waits for them in API order),
// strictly in arrival order, when a slot, the registers, the output buffer
// bytes and a GS warp place are free (else the cycles are counted as
// gs_admit_blocked_slots_cycles, _registers_, _output_buffer_ or _warps_);
// one warp is admitted per cycle in all. pipeline.LoadPrimitives loads it
// (the loader counts four primitive vertices as one quad and every GS input
// as an interpolant). It issues as any warp (emit, emitc and cut at the ALU
// latency; texture fetches use State.GSTextures). At the end the core cuts
// each lane's emitted strips into primitives (pipeline.AssembleEmitted, lane
// by lane: the second primitive assembly's strip cutting, as
// pipeline.ShadeGeometry does) into a protocol.ShadedGeometry for primitive
// assembly, which reorders the warps; the slot, registers and output buffer
// bytes are freed when the send succeeds. A warp that needs more than the
// whole output buffer stops the run with an error naming
// shader_core.gs_output_buffer_kb (configs.CheckScene refuses such a machine
// before the run: the buffer must hold a warp of shader.MaxLanes primitives of
// every geometry shader of the scene).
//
// Malformed input (an unknown message, a warp of more than 64 lanes, a program
// that cannot fit the register file, a response that answers nothing) stops
// the simulation through the platform's timing.Halt with an error naming the
// core.
//
// # Timing conventions
//
// The stages run back to front in each tick: outputs, texture request send,
// texture response, issue, admission. A message that arrives in cycle c is seen
// by the core at c+1 (Akita delivers after the sender's tick). A warp admitted
// in cycle c with a load of L cycles issues no earlier than max(c+1, c+L) when
// the loader is free. While no warp can issue, the core sleeps and wakes at the
// next ready time (timing.Waker); messages wake it too. Each issued
// instruction declares the core busy until the SIMD is free and the warp
// ready again (timing.Progress.BusyUntil): with a narrow SIMD one warp's
// program takes thousands of cycles with nothing to send (simd_width 1, a
// 32-lane warp, 43 instructions: 1,376 issue cycles), which the platform's
// watchdog must not take for a hang.
//
// # Parameters (Config)
//
//	WarpSize 32                    lanes per warp (1..64)
//	SIMDWidth 16                   lanes executed per cycle (1..WarpSize)
//	SFURate 0                      special-function lanes per cycle (0: SIMDWidth)
//	WarpSlots 16                   resident warps at most
//	Registers 16384                vec4 registers in the register file
//	Latencies (ALU 4, SFU 16, Derivative 4, Texture 1, Kill 1)
//	InterpolationCycles 0.25       loader cycles per quad per interpolant
//	InputQueue 16                  messages waiting for admission (each queue)
//	GSOutputBuffer 64 KiB          GS output buffer bytes (DefaultGSOutputBufferBytes)
//	MaxGSWarps 0                   resident GS warps at most (0: WarpSlots)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name) builds a core; env
// gives the engine, the clock, the halt and the progress counter.
//
// # Statistics
//
// Named "<core name>.<counter>": vertex_warps, pixel_warps, vs_invocations and
// ps_invocations (lanes), helper_pixels, instructions (warp instructions) and
// instructions_alu, instructions_sfu, instructions_derivative,
// instructions_texture, instructions_kill, lane_instructions,
// vs_instructions, ps_instructions, vs_lane_instructions, ps_lane_instructions
// (equal to the reference renderer's counters for the same work), gs_warps,
// gs_invocations, gs_instructions, gs_lane_instructions, gs_emits,
// gs_emits_dropped (the reference's GS counters, summed over the cores),
// gs_max_output_buffer_bytes, gs_admit_blocked_slots_cycles,
// gs_admit_blocked_registers_cycles, gs_admit_blocked_output_buffer_cycles,
// gs_admit_blocked_warps_cycles,
// texture_requests (messages), texture_lane_requests (lanes, as the reference
// counts them), texture_wait_warp_cycles, avg_resident_warps, occupancy
// (avg_resident_warps / WarpSlots), max_resident_warps,
// admit_blocked_slots_cycles, admit_blocked_registers_cycles, and the activity
// cycles: cycles_busy (the SIMD executes an instruction), cycles_stall_texture
// (every resident warp waits for a texture), cycles_stall_latency (a warp waits
// for its inputs or an instruction latency), cycles_blocked_output (every
// resident warp is finished and its output refused), cycles_starved (no warp
// resident, once the core has received work), cycles_idle (before the first
// work arrived), and utilization (busy over all cycles).
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): a
// vertex warp is a "vertex_warp" task "draw<s>.t<first>.batch<b>@core" below
// the input assembler's batch, a GS warp a "geometry_warp" task
// "draw<s>.t<first>.batch<b>.gs<k>@core" below its draw, a pixel warp a "pixel_warp" task
// "warp<id>@core" below the reorder buffer's "warp<id>@rob" (a SAGE sample
// fill's warp: a "sample_warp" task "pipe<p>.warp<id>@core" below the fill's
// "pipe<p>.warp<id>@fill"), from admission to the output's send; each
// TexRequest is a req_out task below its warp until the response arrives.
package shadercore
