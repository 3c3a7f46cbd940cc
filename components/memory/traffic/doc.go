// Package traffic is a memory traffic generator: an Akita component that
// drives a memory system (components/memory.Memory, or any set of Top ports
// behind a mem.LowModuleFinder) with a synthetic stream of reads or writes
// and records what each request cost. Studies of a memory system's
// bandwidth and latency against offered load (experiments/memory) and tests
// use it.
//
// # Traffic
//
// A Generator issues Config.Requests requests of Config.RequestBytes bytes,
// all reads or all writes, at the addresses of its Pattern:
//
//   - Sequential: Base, Base+RequestBytes, Base+2*RequestBytes, ...;
//   - Strided: Base, Base+StrideBytes, Base+2*StrideBytes, ...;
//   - Random: Base plus a RequestBytes-aligned offset drawn uniformly from
//     [0, SpanBytes) by a PCG generator seeded with Seed.
//
// The offered load is the number of requests in flight: the generator keeps
// up to MaxOutstanding requests outstanding (a memclient.Client with that
// many entries) and issues a new one as soon as an entry frees, as many per
// cycle as the memory's ports take. It models no compute between requests, so
// with enough requests in flight it finds the memory's peak.
//
// # Ports
//
// Mem (the generator's only port, Generator.Port) sends mem.ReadReq and
// mem.WriteReq to the port the finder gives for each address and receives
// the responses; the caller connects it to the memory's Top ports.
//
// # Life of a request
//
//  1. In its Tick the generator first takes every response that arrived and
//     records the request's latency (generator cycles from the cycle it was
//     issued to the cycle its response was received) and the cycle of its
//     completion;
//  2. then it issues the next requests of the pattern while the client
//     accepts them (an entry is free and the destination port has room);
//  3. when a request is refused it waits: Akita ticks it again when a
//     response arrives or the port frees.
//
// Result holds the counts, the cycle of the first issue and of the last
// completion, and every latency in completion order (for exact percentiles).
// Measure builds a memory from a components/memory.Config, connects one
// generator to it on a direct connection, runs it to the end and returns the
// Result with the memory's statistics.
package traffic
