package protocol

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// The SAGE machine's messages (Deering & Naegle 2002; docs in
// ../shared/docs/sage.md): samples from the rasterize chips (sample fill) through
// the sched chips to the 3DRAM interleaves, order markers, and the video path
// from the interleaves through the route chips to the convolve chips.

// SageSample is one sample packet as the rasterize chip emits it: pixel
// (X, Y), sample index S, the sample's colour (12 bits per channel in the
// hardware, dithered to 10 at the write; carried as the shader's float output
// so that the sample buffer stores exactly what the reference stores), its
// depth (the value the depth test uses: interpolated at the sample, or the
// shader's, clamped) and the primitive's facing (for two-sided stencil).
type SageSample struct {
	X, Y       int32
	S          uint8
	BackFacing bool
	Z          float32
	Color      geom.Vec4
}

// SampleBurst is a run of sample packets of one draw bound for one interleave,
// in the order the rasterize chip produced them. PacketBytes is the size of
// one packet on the bus (sage.fill.packet_bytes).
type SampleBurst struct {
	sim.MsgMeta
	Draw       *Draw
	Pipe       int
	Interleave int
	Samples    []SageSample
}

func (m *SampleBurst) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewSampleBurst builds a SampleBurst: an 8-byte header and packetBytes per
// sample.
func NewSampleBurst(d *Draw, pipe, interleave int, samples []SageSample, packetBytes int) *SampleBurst {
	return &SampleBurst{MsgMeta: meta(8 + packetBytes*len(samples)), Draw: d, Pipe: pipe, Interleave: interleave,
		Samples: samples}
}

// OrderMarkerKind says what an OrderMarker marks.
type OrderMarkerKind uint8

// Order marker kinds.
const (
	// MarkDrawEnd follows the last sample of Draw from one pipe. An
	// interleave reports the draw done (DrawDone) once it has the marker of
	// every pipe; the marker does not hold anything back.
	MarkDrawEnd OrderMarkerKind = iota
	// MarkBarrier is the paper's synchronization token (§3.4): a sched stops
	// an input at it until every input has reached it for that interleave, so
	// that no sample after it is written before every sample before it.
	MarkBarrier
)

// OrderMarker travels in the sample streams, in order with the samples: from
// every pipe's sample fill to both scheds (for every interleave) and from a
// sched to each of its interleaves. Seq numbers the barriers of a frame
// (MarkBarrier).
type OrderMarker struct {
	sim.MsgMeta
	Kind       OrderMarkerKind
	Draw       *Draw
	Seq        uint64
	Pipe       int
	Interleave int // the destination interleave (from a sched on); -1 for all
}

func (m *OrderMarker) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewOrderMarker builds an 8-byte OrderMarker.
func NewOrderMarker(kind OrderMarkerKind, d *Draw, seq uint64, pipe, interleave int) *OrderMarker {
	return &OrderMarker{MsgMeta: meta(8), Kind: kind, Draw: d, Seq: seq, Pipe: pipe, Interleave: interleave}
}

// Prefetch is a sched's snoop of its pre-write queue: the interleave may
// bring the 3DRAM cache block of pixel (X, Y) in ahead of the write.
type Prefetch struct {
	sim.MsgMeta
	X, Y int32
	S    uint8
}

func (m *Prefetch) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewPrefetch builds an 8-byte Prefetch.
func NewPrefetch(x, y int32, s uint8) *Prefetch {
	return &Prefetch{MsgMeta: meta(8), X: x, Y: y, S: s}
}

// LineRequest asks the interleaves for the samples of pixels [X0, X1) of scan
// line Y of the displayed buffer (a video refresh burst), on behalf of
// convolve chip Convolve.
type LineRequest struct {
	sim.MsgMeta
	Y, X0, X1 int
	Convolve  int
}

func (m *LineRequest) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewLineRequest builds an 8-byte LineRequest.
func NewLineRequest(y, x0, x1, convolve int) *LineRequest {
	return &LineRequest{MsgMeta: meta(8), Y: y, X0: x0, X1: x1, Convolve: convolve}
}

// SampleSpan carries the samples of pixels [X0, X1) of scan line Y, n per
// pixel, as 10-bit RGBA (40 bits on the 3DRAM video pins: 5 bytes a sample),
// pixel-major: Samples[(x-X0)*n + s]. From the interleaves' video pins through
// a route chip to a convolve chip.
type SampleSpan struct {
	sim.MsgMeta
	Y, X0, X1 int
	N         int
	Convolve  int
	Samples   [][4]uint16
}

func (m *SampleSpan) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewSampleSpan builds a SampleSpan: 8 bytes of header and 5 bytes a sample.
func NewSampleSpan(y, x0, x1, n, convolve int, samples [][4]uint16) *SampleSpan {
	return &SampleSpan{MsgMeta: meta(8 + 5*len(samples)), Y: y, X0: x0, X1: x1, N: n, Convolve: convolve, Samples: samples}
}

// VideoSpan carries finished pixels [X0, X1) of output line Y (RGBA8, 4
// bytes each) down the convolve chips' video chain to the video output.
type VideoSpan struct {
	sim.MsgMeta
	Y, X0, X1 int
	Pixels    []byte
}

func (m *VideoSpan) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewVideoSpan builds a VideoSpan: 8 bytes of header and 4 bytes a pixel.
func NewVideoSpan(y, x0, x1 int, pixels []byte) *VideoSpan {
	return &VideoSpan{MsgMeta: meta(8 + 4*(x1-x0)), Y: y, X0: x0, X1: x1, Pixels: pixels}
}

// DrawPlan is the distributor's sideband to every pipe's sample fill, one per
// draw in draw order: whether the draw's samples must wait behind a barrier
// (Barrier: the sample fill puts a MarkBarrier with BarrierSeq into both of
// its sched streams before the draw's first sample).
type DrawPlan struct {
	sim.MsgMeta
	Draw       *Draw
	Barrier    bool
	BarrierSeq uint64
}

func (m *DrawPlan) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewDrawPlan builds an 8-byte DrawPlan.
func NewDrawPlan(d *Draw, barrier bool, seq uint64) *DrawPlan {
	return &DrawPlan{MsgMeta: meta(8), Draw: d, Barrier: barrier, BarrierSeq: seq}
}
