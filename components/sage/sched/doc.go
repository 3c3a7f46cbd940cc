// Package sched models a sched chip of the SAGE machine (Deering & Naegle
// 2002, §3.4; ../shared/docs/sage.md section 3): the sort-last network
// between the render pipes' sample fill and the 3DRAM interleaves. The board
// has two; Sched[k] serves the interleaves i with i / (interleaves/2) == k.
//
// # Hardware
//
// "Samples arrive at a sched chip in an input FIFO per rasterize chip, are
// routed to the appropriate second-stage FIFO based on their destination
// memory interleave; the output of the second-stage FIFOs is controlled by a
// load balancing switch per memory interleave. The switch acts like a traffic
// light at a busy intersection: one source is allowed to flow unimpeded at a
// time while the others are blocked, with programmable hysteresis, so that the
// sample data of different rasterize chips ensures good cache locality within
// the 3DRAMs. A third layer of FIFOs is the pre-write queue in front of each
// interleave, which the sched snoops to perform 3DRAM cache prefetches."
// Synchronization tokens (MarkBarrier) stop an input until every input has
// reached the same token; samples before it drain in any order.
//
// # Ports
//
//   - FromPipes[p] (in, "FromPipe[p]"): protocol.SampleBurst (one draw, one of
//     this sched's interleaves) and protocol.OrderMarker (Interleave -1: every
//     interleave) from pipe p's sample fill, on that rasterize chip's own
//     output bus. A port per pipe: a full input FIFO holds back only its own
//     pipe (with one shared port a pipe waiting at a barrier could block the
//     samples of the pipe the barrier waits for: a deadlock).
//   - ToInterleaves (out, peers Interleaves[j], the FromSched ports of global
//     interleaves First+j): protocol.SampleBurst, protocol.OrderMarker
//     (Interleave = the destination; a barrier has Pipe -1) and
//     protocol.Prefetch.
//
// # The life of a sample
//
//  1. Accept: the port's head message enters its pipe's input FIFO when its
//     samples fit (InputDepth samples; markers take no room; a burst larger
//     than the FIFO enters it empty). A full FIFO leaves the message in the
//     port: nothing behind it is taken (back-pressure, input_stall_cycles
//     from the first refused cycle to the acceptance).
//  2. Route: each input FIFO moves its head per cycle to the second-stage
//     FIFO of the burst's interleave (SecondStageDepth samples, same rule); a
//     marker for every interleave goes to each of the pipe's second-stage
//     FIFOs, and stays in order with the pipe's samples.
//  3. Switch, per interleave, SamplesPerCycle samples per cycle into the
//     pre-write queue (PrewriteDepth samples). The granted source flows until
//     its FIFO is empty (or shows a marker), or until it has sent Hysteresis
//     samples while another source waits; then the grant moves to the next
//     ready source in round-robin order. A grant always sends at least one
//     sample, so Hysteresis 0 moves on after every sample while another
//     source waits. Statistics: switches (the grant changed source),
//     hysteresis_holds (samples a grant sent while another source waited,
//     beyond the grant's first). A MarkDrawEnd at the head of a source passes
//     at once into the pre-write queue (it holds nothing back). A MarkBarrier
//     at the head of a source holds that source until every pipe's FIFO for
//     this interleave shows the same barrier (Seq); then all are popped and
//     one marker enters the pre-write queue, after every earlier sample of
//     every pipe: no later sample is written before them.
//     barrier_wait_cycles sums, per interleave, the cycles from the first
//     source held at a barrier to its release.
//  4. Send, one message per interleave per cycle (round-robin start): a
//     marker, or a SampleBurst of at most OutputBurst samples of one draw (the
//     pre-write queue leaves in bursts so that a sample is not one message;
//     its packet size is the incoming burst's). After a burst the snoop sends a
//     Prefetch for the sample SnoopDistance places behind the new head (0: no
//     snoop), so that the interleave may load that 3DRAM block before the
//     write; a Prefetch the port refused is sent first at the next chance, before
//     the lane's next burst (so none is ever replaced or dropped).
//
// Every FIFO keeps each pipe's samples in order; across pipes there is no
// order except at barriers (../shared/docs/sage.md, the ordering rule).
//
// # Parameters (builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine, the clock (configs: sage.clocks.sched_mhz, 100 MHz, the
// 3DRAM clock of FBRAM 1994), the halt and the progress; Config (DefaultConfig) holds
// Pipes (4), FirstInterleave and Interleaves (first 0, count 4), InputDepth
// (256 samples), SecondStageDepth (64), Hysteresis (16 samples),
// PrewriteDepth (64), SnoopDistance (16 samples), SamplesPerCycle (1 per
// interleave: a 3DRAM interleave writes one sample per bus cycle),
// OutputBurst (16 samples), InputPortQueue (4 messages) and OutputPortQueue
// (8). The paper gives none of these numbers.
//
// # Tasks (traces)
//
// With a tracer attached, each incoming SampleBurst is a sample_burst task
// "burst<message ID>" below its draw, from its acceptance into the input FIFO
// to the send of its last sample (docs/design-timing.md, section 10).
//
// # Statistics (<name>.<counter>)
//
// samples_in, samples_out, interleave<i>_samples (global i), bursts_out,
// input_stall_cycles, switches, hysteresis_holds, barriers (released, one per
// interleave), barrier_wait_cycles, draw_ends (forwarded, per interleave),
// prefetches; cycles_busy, cycles_blocked_output (a full
// pre-write queue or a refused send), cycles_wait_barrier, cycles_idle and
// utilization.
package sched
