// Package timing holds clock domains and the small timing primitives components
// share: fixed-latency pipelines, credit counters, wake-ups, stall attribution and
// the tag-array model of the hardware's small caches (docs/design-timing.md,
// section 7); and the environment (Env) and generic Builder from which every
// component is built: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name).
package timing
