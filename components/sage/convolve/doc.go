// Package convolve models SAGE's convolve chips (Deering and Naegle, "The SAGE
// Graphics Architecture", SIGGRAPH 2002, sections 3.7, 7 and 9): four chips on
// the board, each filtering a vertical swath of the video raster with the 5x5
// reconstruction filter, chained so that the last chip delivers the video
// stream. The arithmetic is functional/filter's Convolver.Pixel, called per
// output pixel; this package decides when.
//
// # Ports
//
//   - Control: protocol.PresentCmd in (the frame; its Target must match the
//     source size and samples the chip was built for), protocol.Done out at
//     once: the scan-out continues after the acknowledgement.
//   - ToRoute: protocol.LineRequest to the route network (peer Route).
//   - FromRoute: protocol.SampleSpan from the route network.
//   - FromPrev: protocol.VideoSpan from the previous chip (unused on chip 0).
//   - ToNext: protocol.VideoSpan to the next chip's FromPrev or, on the last
//     chip, the video output (peer Next).
//
// # The swath
//
// Chip k of C filters output columns [k*W/C, (k+1)*W/C) on a one-channel
// machine. With two video channels (section 7.1) the chips form two chains
// (Stream, SplitVertical): chips [0, C/2) build the left half of the frame,
// columns [0, W/2), for channel 0's video output, chips [C/2, C) the right
// half for channel 1's, and the chips of a chain split its columns evenly
// (Stream.Swath). The chain's inner edge is no screen border: the first chip
// of the right half reads the 2 overlap columns to its left like any other. Output pixel (i, j)
// is centred at filter.Centre(i, step), filter.Centre(j, step) with step =
// source width / output width (section 7.2: resizing, e.g. 960x768 shown at
// 1280x1024 is step 0.75; the step must be the same on both axes), exactly as
// filter.Display places it. The chip reads source columns from 2 left of the
// pixel holding its first centre to 2 right of the pixel holding its last,
// clipped to the screen: its swath and the 2 overlap columns on each side
// (section 3.7), which come in the same burst as the swath (package route).
//
// # The life of a frame
//
// On PresentCmd the chip lists the source rows its output lines' windows
// cover (rows py-2..py+2 of each line, clipped at the top and bottom: border
// renormalisation, section 9; nothing off screen is fetched) and requests
// them in order, one LineRequest per row, up to RequestAhead rows below the
// window of the output line it is filtering. A row's samples land in one of
// the Lines swath lines of its buffer (6: the 5 of the window and one
// filling); a span of a row with no free line waits in the FromRoute port
// (back-pressure to the route's FIFO). A line is freed when the output line
// being filtered no longer needs its row.
//
// The filter takes an output line's swath in spans of SpanPixels pixels. A
// span starts when the window rows of its line are all complete (else
// cycles_starved) and the output queue has room (else cycles_blocked). Its
// pixels are computed at once by Convolver.Pixel over the line buffer; the span
// is ready when the processor array would have finished. Section 7: the chip
// has 25 filter processors, each responsible for the samples of one pixel of
// the 5x5 window, and their partial results are summed; so a pixel costs
// the busiest processor's cycles, not the window's samples shared out over
// 25. Window pixel k (row-major) is processor k mod Processors's
// (Processors 1 to 25; one pixel each with the default 25), a processor
// weighs SamplesPerCycle samples a cycle, and a pixel costs the most
// ceil(samples read from its window pixels / SamplesPerCycle) of any
// processor, at least 1 (filter.Stats.WindowRead gives the samples read per
// window pixel). With the default 25 processors at one sample per cycle a
// pixel of n samples costs exactly n cycles, whether the filter reads the
// full 5x5 window, prunes its corners (Mitchell, radius 2: 21 pixels) or is
// clipped at the screen's border: the centre pixel's processor always weighs
// n samples. A sample the filter reads that the buffer does not hold stops
// the run with an error (it would change the image silently).
//
// The video chain (section 3.7: "each chip inserts its portion of the scan
// line into the aggregate stream"): for each output line in order, the chip
// first passes on the previous chips' spans of the line (pixels [X0, x0), X0
// the first column of its chain's stream), then sends its own ([x0, x1)). Spans are checked to arrive in raster order. The
// output queue holds OutputLines of the chip's swath lines, so a chip filters
// line y+1 while its line y waits for the stream to reach its columns.
//
// # Clock
//
// The paper gives one clock figure, 250 MHz, its peak video output rate
// (section 10.3); the default chip clock is 250 MHz. At 8 samples per pixel a
// chip then filters 31 M pixels/s; a quarter of a 1280x1024 raster at 76 Hz
// (VESA totals) needs 26 M/s on average, so the default board keeps up at 8
// samples and not at 16.
//
// # Tasks (traces)
//
// With a tracer attached, the chip's swath of output line y is a swath_line
// task "<PresentCmd ID>.line<y>.swath<k>" below the command processor's
// req_out task of the PresentCmd, from the start of its first span's filtering
// to the send of its last span (docs/design-timing.md, section 10).
//
// # Statistics
//
// <name>.presents, line_requests, spans_in, samples_in (from the route),
// spans_out (own), spans_forwarded (the previous chips'), filter_cycles, and
// the filter's counts: pixels, samples_read, macs, negative_clamps,
// negative_histogram.<i> (bin i: clamped magnitudes in [2^i, 2^(i+1)) 10-bit
// LSBs, the last bin everything above; section 8.1), overflow_clamps, nearest
// (pixels with no positive coefficient sum: the nearest sample, section 9);
// and the processor array's activity: cycles_busy, cycles_starved (waiting for
// samples), cycles_blocked (the chain has not taken its output), cycles_idle,
// utilization.
package convolve
