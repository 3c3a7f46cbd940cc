// Package timing holds clock domains and the small timing primitives components
// share: fixed-latency pipelines, credit counters, wake-ups, stall attribution and
// the tag-array model of the hardware's small caches (docs/design-timing.md,
// section 7); and the environment (Env) and generic Builder from which every
// component is built: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name).
//
// It also holds what the machines run on: SerialEngine (Akita's serial
// engine's exact event order, faster), ParallelEngine (Akita's parallel
// engine's rounds, the events of one time on every core, with persistent
// workers instead of a goroutine per event) and TickingComponent (Akita's ticking
// component with tick events that carry no ID string and are reused), with
// which every gfxsim unit ticks at exactly the times Akita's would (a unit's
// wake-up ticks it within its own event, earlier among the primary events of
// its time, which no unit can tell); Unit (what a unit is built from: its
// TickingComponent, Config, Env, Fault, Activity and Waker, with Err and
// Finish); Fault (a unit's protocol error,
// stopping the run through its Halt;
// TakeAs and PeekAs take a port's message of the one type it carries);
// Activity and WaitReason (the state of each cycle);
// AddPort and PeekState (a unit's ports and their buffer states); Ring (a
// growable FIFO) and NewBuffer (Akita's sim.Buffer on a Ring: a port's
// incoming messages pass through it without reallocation); Sender (a
// unit's sends, counted as progress, a refusal remembered as a blocked
// output); Task (the trace task of a unit's control command); AddTagged (a
// unit's statistics: each counter named by a `stat:"name"` tag beside its
// field), AddCounters (counts read from functional structs, named by the unit)
// and Ratio; LateFinder (a memory finder set after building);
// Compact (dropping the consumed head of a queue read from its front).
package timing
