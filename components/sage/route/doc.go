// Package route models SAGE's route network (Deering and Naegle, "The SAGE
// Graphics Architecture", SIGGRAPH 2002, section 3.6): the 10 route chips, each
// a 2-bit slice of the 640 video wires of the 32 3DRAM chips, which carry the
// displayed samples to the four convolve chips. The chips work in lock step,
// so they are one component here.
//
// # Ports
//
//   - FromConvolves: protocol.LineRequest from the convolve chips (a burst: the
//     samples of pixels [X0, X1) of source line Y for chip Convolve).
//   - ToConvolves: protocol.SampleSpan to the convolve chips' FromRoute ports
//     (peers Convolves, by chip index).
//   - Control: protocol.PresentCmd in, protocol.Done out at once. The command's
//     Target (RGBA10, in the memory image set in the Image field, viewed as
//     components/rop views its target) is the displayed buffer the following
//     bursts read. A LineRequest waits in its port until a frame was presented.
//
// # The life of a burst
//
// Requests are served one at a time, in arrival order. A burst is read off the
// video pins of the 32 chips, each chip reading its own samples, SamplesPerChip
// a video-read clock (1: 40-bit samples on 20 double-pumped pins per chip,
// section 3.5), all in lock step; it leaves in spans of at most SpanPixels
// pixels. The burst's pixels [X0, x) are in after ceil(b / SamplesPerChip)
// clocks, b being the most of their samples any one chip holds
// (samplebuffer.Geometry.BusiestChip, under the configuration's
// sage.sample_buffer.map), so a burst of P pixels costs that with x = X0 + P
// when its FIFO never fills. Under the sample map (the default) the chips
// share every burst evenly: ceil(P*n / 32) clocks at n samples per pixel, the
// paper's 32 samples a clock. Under the pixel and line maps a line's pixels
// lie in 4 and 8 interleaves, and a pixel's list in chip s mod 4 of its
// interleave: a burst draws on 4 x min(n, 4) and 8 x min(n, 4) chips, 4 and 8
// samples a clock at 1 spp. Each span goes into the
// FIFO of its convolve chip (FIFOSamples deep): a span starts only when the
// FIFO has room for it (else the pins wait: cycles_fifo_full, and the burst's
// schedule slips by the wait). A finished span leaves the FIFO as soon as the
// route -> convolve link accepts it, so the FIFO absorbs the burst and the
// link's width and clock set the drain rate ("dribble back", section 3.6).
// The samples are read functionally when the span completes, with
// ColorTarget.Sample.
//
// The overlap (paper silent). A convolve chip's swath is a quarter of the scan
// line; the 5x5 filter also needs 2 columns on each side. Here the convolve
// chip asks for its swath and the overlap columns in one request, so the
// overlap travels in the same burst as the swath, and the 3DRAMs read the
// columns shared by two neighbouring swaths twice (once per burst). The cost
// is 4 extra columns per swath per line (1280 + 12 columns at 1280 pixels).
//
// # Not modelled
//
// The 3DRAM's internal video transfers (a row of the array copied into the
// video buffer, which takes array cycles from rendering) are not modelled in
// this version: the route reads the displayed samples from the memory image
// directly. For a single frame this changes nothing: the command processor
// drains all rendering before it sends PresentCmd, so no rendering competes
// with the scan-out. With several frames in flight it would delay rendering.
//
// # Statistics
//
// <name>.presents, line_requests, bursts, spans, samples_read, pixels_read,
// bytes_out (SampleSpan bytes to the convolve chips), send_refused (sends the
// link refused), and the activity of the video pins: cycles_busy (reading),
// cycles_fifo_full (the next span had no room), cycles_idle, utilization.
package route
