// Package hostinterface models the GPU's host interface: the bridge between the
// host bus, over which the command processor's DMA engine fetches the command
// stream and the resources it refers to, and the GPU's memory crossbar.
//
// Ports:
//   - Host: on the host bus. Memory requests (mem.ReadReq, mem.WriteReq) from the
//     command processor arrive here, and their responses leave here.
//   - ToMemory: on the memory crossbar. Each request is forwarded to the memory
//     channel that holds its address (Memory, a mem.LowModuleFinder); responses
//     come back here.
//
// The life of a DMA read: the command processor sends a ReadReq over the host
// bus (which charges its bandwidth and latency); the bridge takes it from Host,
// builds a new ReadReq for the same address and size with itself as the source,
// and sends it towards the channel; when the DataReadyRsp comes back it sends a
// DataReadyRsp with the same data to the command processor, responding to the
// original request. At most MaxOutstanding requests are in flight; the bridge
// forwards one request and one response per cycle. MakeBuilder's defaults:
// 1 GHz, MaxOutstanding 16 (WithMaxOutstanding), port buffers of 8 messages.
//
// Statistics ("<name>.<counter>"): reads, writes, bytes_read, bytes_written
// (the requests forwarded), and the activity: cycles_busy (a request or a
// response moved), cycles_blocked (nothing moved while requests were in flight
// or a response waited for the host bus), cycles_idle and utilization.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): a
// forwarded request is Akita's req_in task "<ID>@<name>" (below the command
// processor's req_out task) until its response is sent, with the request to
// memory, a req_out task, below it.
package hostinterface
