// Package tracing records what a simulation did, for people and for Akita's Daisen
// viewer: task traces, metrics over time, progress.
//
// Traces. Attach connects an Akita DBTracer to the components of a built platform
// (all of them, or those whose names match a regular expression) and records every
// task they report (docs/design-timing.md, section 10: the task kinds and how they
// are parented: frame, draw, vertex batch, primitive, tile, warp, texture request,
// memory request, ROP write) in a SQLite database (the default) or a CSV file that
// `go run github.com/sarchlab/akita/v3/daisen` opens. A task of kind "Simulation"
// spans the run so that Daisen's dashboard shows the right time range. Daisen
// requires every parent task to exist in the trace: when a task's parent was not
// recorded (its component was filtered out, or it fell outside the time window),
// Close re-parents it to the Simulation task. A cycle window limits what is
// recorded.
//
// Metrics. NewMetrics samples the platform every N core cycles: per unit the share of
// cycles it was busy and the occupancy of its buffers, and per unit the messages and
// bytes it sent and received (counted by hooks on its ports); per link and per memory
// channel the bytes moved. Write saves them as CSV (long format: cycle, name, metric,
// value) and draws utilization and bandwidth over the frame as PNG figures.
//
// Progress. NewProgress prints the draws completed and the simulated cycles to a
// terminal every few seconds of wall time, and, with a monitor, updates the progress
// bar of Akita's web monitor.
//
// Nothing here changes what is simulated: tracers, hooks and samplers only read.
package tracing
