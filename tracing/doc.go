// Package tracing records what a simulation did, for people and for Akita's Daisen
// viewer: task traces, metrics over time, progress.
//
// Traces. Attach connects an Akita DBTracer to the components of a built platform
// (all of them, or those whose names match a regular expression) and records every
// task they report (docs/design-timing.md, section 10: the task kinds and how they
// are parented: frame, draw, vertex batch, primitive, tile, warp, texture request,
// memory request, ROP write; the SAGE board's chips; the tiled machine's passes,
// binned primitives, screen tiles and draws in a screen tile) in a SQLite database (the default) or a CSV file that
// `go run github.com/sarchlab/akita/v3/daisen` opens. A task of kind "Simulation"
// spans the run so that Daisen's dashboard shows the right time range. Daisen
// requires every parent task to exist in the trace: when a task's parent was not
// recorded (its component was filtered out, or it fell outside the time window),
// Close re-parents it to the Simulation task. A cycle window limits what is
// recorded. Attach checks its options before it creates the file (a pattern
// that matches no component is an error; on the SAGE machine, whose video path
// is built at Run, it is checked against the names that path will have), so a
// refused trace leaves no file; after the run, Instruments.Close warns on its
// log when the trace recorded nothing (a window after the frame's end).
//
// Metrics. NewMetrics samples the platform every N core cycles: per unit the share of
// its own clock's cycles it was busy (timing.Unit.BusyAt: the cycles it slept
// through in its state included, so a share is at most 1; a unit without activity
// states, the SAGE video output, has none) and the occupancy of its buffers (the entries its bounded
// buffers hold, each counted up to its capacity, over their capacities: a share
// from 0 to 1; unbounded buffers, of capacity 0, are left out, and a write queue
// that a flush fills past its soft limit counts as full), and per unit the messages and
// bytes it sent and received (counted by hooks on its ports); per link and per memory
// channel the bytes moved. A sample is dated at the end of the cycles it covers;
// the last, which Finish takes after the run, covers the partial interval up to
// the frame's end (Platform.FrameEnd; on the SAGE machine the video scan-out's
// end) and is dated there, not at the next multiple of N nor at the engine's
// last event. Write saves them as CSV (long
// format: cycle, name, metric, value) and draws utilization and bandwidth over
// the frame as PNG figures.
//
// Progress. NewProgress prints the draws completed and the simulated cycles to a
// log every few seconds of wall time, draws its Bar (a progress.Bar: one part
// per draw and one for the resolve and present; render on a terminal) as draws
// finish, and, with a monitor, updates the run's entry in it. Its estimate of
// the time left goes by the count of draws, or, given each draw's estimated
// work (Progress.Work, from driver.DrawEstimate: render gives it), by the
// share of that work done; the resolve is not estimated.
//
// Monitor (-monitor). StartMonitor serves gfxsim's own web monitor, by default on
// the loopback interface only (DefaultMonitorAddr, 127.0.0.1 and a free port;
// -monitor-addr chooses another address, with a warning when it is not loopback):
// each run's draws done and simulated cycle, the buffers of a process's only
// simulation, and pause and continue (POST), as JSON under /api/ and as a small
// HTML page. It replaces Akita v3.1.0's monitor, which binds every interface and
// whose API also ticks components and reads their fields; it reads only what the
// runs' Progress components sample inside the simulation.
//
// Flags are the instrumentation flags of the binaries that run timed frames
// (render, texcache, zcull, rds, vertexreuse; not sage or decoupled); Check refuses a combination that cannot apply, naming the flag (a
// -trace-format without a trace, -monitor-addr without -monitor,
// -instrument-runs without a trace or metrics, or not a regular expression),
// and Requested names the first instrument asked for, for a binary that must
// refuse instruments in a mode that runs no timed simulation.
//
// Nothing here changes what is simulated: tracers, hooks and samplers only read.
package tracing
