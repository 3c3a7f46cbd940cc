// Package video models a SAGE video output (Deering and Naegle, "The SAGE
// Graphics Architecture", SIGGRAPH 2002, sections 3.7 and 7.1): the raster at
// the end of the convolve chips' chain. Its frame is the image.
//
// # Ports
//
//   - FromConvolve: protocol.VideoSpan from the last convolve chip, in raster
//     order (checked).
//   - Control: protocol.PresentCmd (the frame to expect), protocol.Done at once:
//     in the same tick, taken when it arrives (NotifyRecv ticks the output
//     then, off its pixel clock's edges) unless a frame is in progress. The
//     port is the board's command interface, not the raster: the Done never
//     waits for the pixel clock.
//
// # Timing
//
// The component's clock is the pixel clock, hTotal x vTotal x refresh. The
// default is 1280x1024 at 76 Hz (the paper's design point, section 10.3) with
// the totals of VESA 1280x1024 at 75 Hz (1688 x 1066, 135 MHz), scaled to 76 Hz
// by the pixel clock: 136.755 MHz. Other sizes without totals get VESA's
// blanking scaled in proportion (DefaultTotals).
//
// A PresentCmd starts the frame: pixel (x, y)'s slot is at
// start + y*hTotal + x pixel clocks, start being the pixel clock's first edge
// at or after the PresentCmd's arrival plus a vertical blanking (vTotal -
// height lines), the time the convolve chips have to fill their line buffers.
// A span arriving after the slot of its first pixel is late:
//
//   - elastic (default): the pixel clock waits; every later slot moves by the
//     wait (stall_cycles). Nothing is counted as an underrun.
//   - strict: the raster runs on; each of the span's pixels whose slot passed
//     before it arrived is an underrun. The pixel still enters the image, so the
//     image stays exact and the count says how often a real display would have
//     shown a wrong pixel.
//
// The output holds FIFOPixels pixels ahead of the raster; a span leaves the
// FIFO when its last pixel is scanned out, and a span that does not fit waits
// in the port (back-pressure up the chain; a span larger than the FIFO enters
// an empty one).
//
// The pixel clock can be far slower than the core clock the platform's
// watchdog counts (a 16x8 raster at 1 Hz: totals 22 x 9, 198 Hz, a tick
// every 2.5 million cycles of a 500 MHz core; a 1x1 raster at 76 Hz: totals
// 2 x 2, 304 Hz, 1.64 million cycles). The PresentCmd's Done used to go out at
// the second edge after the PresentCmd (taken at one edge, sent at the next):
// the command processor waited up to two pixel clocks (wait_ack), 3.25
// million of a 1x1 frame's 3.29 million cycles, a wait that grew as the raster
// shrank, which no video timing does. The output therefore declares
// itself busy (timing.Progress.BusyUntil) until its next edge whenever a message waits for
// it or it will tick again, and until its oldest span leaves a full FIFO: a
// span waiting for the pixel clock is modelled work, not a hang.
//
// # Channels
//
// A Comp is one video channel. SAGE has two (section 7.1: "two simultaneous,
// potentially asynchronous video rasters ... by partitioning the four convolve
// chips into two subsets"); the platform builds one output per channel, each
// at the end of its own chain of convolve chips (convolve.SplitVertical). An
// output shows part of the frame: Config.OriginX, OriginY give the frame
// pixel at its raster's (0, 0), Width and Height its size, and the VideoSpans
// it takes carry frame coordinates (checked against its columns). Its timing
// is its own: totals and pixel clock of its size. Config.Channel and Channels
// number it; with two channels its scan_line tasks carry
// protocol.ChannelSuffix(Channel).
//
// Not modelled: the channels' independent timings (both start at the same
// PresentCmd and run at the same refresh; asynchronous rasters, sync master or
// slave, genlock to an external source), the swap circuit's choice of stream
// per chip (a chip belongs to one chain), and the second channel's other use,
// reading the antialiased image back to the host over the ring bus.
//
// # Tasks (traces)
//
// With a tracer attached, line y is a scan_line task "<PresentCmd ID>.line<y>"
// below the command processor's req_out task of the PresentCmd, from the
// taking of its first span to the scan-out of its last pixel (ended at that
// known time with protocol.EndTaskAt; docs/design-timing.md, section 10).
//
// # Statistics
//
// <name>.presents, spans, pixels, underruns, stall_cycles, late_spans,
// required_pixel_rate (the pixel clock, Hz), delivered_pixel_rate (the pixel
// clock times the nominal scan time of the active raster, first to last active
// pixel, over the actual one: equal when nothing was late), frame_cycles (start
// to the last pixel scanned out).
package video
