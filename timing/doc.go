// Package timing holds clock domains and the small timing primitives components
// share: fixed-latency pipelines, credit counters, wake-ups, stall attribution and
// the tag-array model of the hardware's small caches (docs/design-timing.md,
// section 7).
package timing
