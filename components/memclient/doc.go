// Package memclient is the memory interface that timed components embed to
// read and write memory over one Akita port: the request side of a unit's
// memory pipeline (the miss path of an index, vertex, depth, colour or texture
// cache, a DMA engine). It models a bounded number of outstanding requests, like
// a cache's miss status holding registers, optional merging of reads to bytes
// already being fetched, and per-client traffic statistics.
//
// # Life of a request
//
//  1. In its Tick, the owning component calls Read(now, addr, size, tag) or
//     Write(now, addr, data, tag). With MergeReads, a read whose bytes lie
//     inside an outstanding read (the same line, for line-sized requests) that
//     has a free merge slot (MaxMerged per read) attaches to it: nothing is
//     sent and the call returns true. Otherwise, if all MaxOutstanding entries
//     are in flight or the port cannot send, the call returns false and sends
//     nothing (the component retries later: Akita ticks it again when a
//     response arrives or the connection frees up). Else the client builds a
//     mem.ReadReq or mem.WriteReq (Src the client's port, Dst the port the
//     finder gives for addr, SendTime now), sends it and records an entry with
//     the request's ID, address, size, tag and issue time. A write also closes
//     every outstanding read it overlaps to further merging, so a read issued
//     after a write never takes data fetched before it.
//  2. The memory side (components/memory: a DRAM or ideal channel, or an L2
//     bank) answers with mem.DataReadyRsp or mem.WriteDoneRsp, whose RespondTo
//     is the request's ID; it arrives in the client's port and Akita wakes the
//     component.
//  3. The component calls Receive(now) until it returns false. Each call takes
//     at most one response from the port, finds its entry by RespondTo and
//     returns a Completion (tag, address, size, read data, latency in cycles of
//     the client's clock). A response with merged reads yields the original
//     read first and then one completion per merged read, in merge order, each
//     with its own bytes sliced from the response (no copy). The entry is freed
//     when its last completion has been returned. ReceiveAll is that loop for
//     a component that handles its completions without issuing requests in
//     between: it returns them all in a slice the client reuses.
//
// The client does not order requests: responses come back in the memory's
// order. A component that needs a read to see an earlier write waits for the
// write's completion. The port must carry only this client's responses;
// anything else is a wiring error and panics, as does a finder with no
// destination for an address.
//
// # Cost
//
// The client allocates nothing per request beyond the Akita message builders
// (the request struct and its ID string): entries, merge slots and the
// in-flight list are preallocated. Matching a response scans the in-flight
// list (at most MaxOutstanding entries); so does merging a read. Tracing
// (TraceAs) records Akita req_out tasks only when the owning component has
// hooks attached.
//
// # Statistics
//
// Stats(prefix, add) reports prefix.<counter>: reads (including merged),
// reads_merged, writes, bytes_read and bytes_written (bytes requested from
// memory; merged reads add none), latency_avg, read_latency_avg,
// write_latency_avg and latency_max (cycles from the Read/Write call to the
// Receive that returned the completion), cycles_blocked (from the first refused
// call to the next accepted one; an interval still open counts up to the last
// refused call), refused_full (refused because all entries were in flight),
// refused_port (refused because the port could not send) and outstanding.
package memclient
