// Package tracing records what a simulation did: Akita tracers attached to a built
// platform for Daisen, and metrics over time.
package tracing
