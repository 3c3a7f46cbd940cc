package protocol

import (
	"errors"
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/timing"
)

// Unit is what the platform needs from every component.
type Unit interface {
	sim.Component
	timing.StatsReporter
	timing.Buffered
	// Finish closes the statistics at the end of the simulation (time now).
	Finish(now sim.VTimeInSec)
}

// Draw is a draw in flight: its sequence number in the frame (from 0), its
// resolved state and the rasterizer configuration every unit shares. It is created
// by the command processor and never modified afterwards.
type Draw struct {
	Seq    uint64
	State  *state.Draw
	Raster raster.Config
}

func newID() string { return sim.GetIDGenerator().Generate() }

func meta(bytes int) sim.MsgMeta {
	return sim.MsgMeta{ID: newID(), TrafficBytes: bytes}
}

// coverageBytes is the size of one quad's coverage mask on a bus: 4 pixels x
// samples bits, rounded up to bytes (8 bytes at 16 samples, 14 at 27, 32 at
// 64), whatever the width of raster.SampleMask in the simulator.
func coverageBytes(r *raster.Config) int { return (4*r.Samples.Count + 7) / 8 }

// DrawDispatch hands a draw from the command processor to the input assembler,
// or a chunk of it (SAGE's distributor to one pipe): the triangles [First, End)
// of the draw, End == 0 meaning up to the draw's end, so that First = End = 0 is
// the whole draw. An empty chunk (First == End > 0, or a draw without
// triangles) still flows through the pipe as a draw, so that its end markers
// reach the end of the pipe. Triangles are primitives of any topology here
// (vertex.Stream.NumPrimitives).
//
// SkipStreamOut marks a chunk of a draw that streams out whose stream-out
// another pipe does (SAGE: the pipe that takes the whole draw): primitive
// assembly neither reads nor writes the draw's buffers and counters.
type DrawDispatch struct {
	sim.MsgMeta
	Draw          *Draw
	First, End    int
	SkipStreamOut bool
}

func (m *DrawDispatch) Meta() *sim.MsgMeta { return &m.MsgMeta }

// PeekDrawDispatch returns the DrawDispatch waiting at port, for a unit that
// takes draws from the command processor: ok is false when none waits, and
// when the message is of another type or carries no draw (f's unit then
// fails).
func PeekDrawDispatch(f *timing.Fault, port sim.Port) (dd *DrawDispatch, ok bool) {
	dd, ok = timing.PeekAs[*DrawDispatch](f, port)
	if ok && (dd.Draw == nil || dd.Draw.State == nil) {
		f.Fail(errors.New("DrawDispatch without a draw"))
		return nil, false
	}
	return dd, ok
}

// Triangles returns the range [first, end) of triangles the dispatch covers in
// its draw of n triangles, and an error naming the field when the range is not
// inside [0, n].
func (m *DrawDispatch) Triangles(n int) (first, end int, err error) {
	first, end = m.First, m.End
	if end == 0 {
		end = n
	}
	switch {
	case first < 0 || first > end:
		return 0, 0, fmt.Errorf("DrawDispatch.First: %d outside [0, %d]", m.First, end)
	case end > n:
		return 0, 0, fmt.Errorf("DrawDispatch.End: %d past the draw's %d triangles", m.End, n)
	}
	return first, end, nil
}

// NewDrawDispatch builds a DrawDispatch of the whole draw (a 64-byte draw packet).
func NewDrawDispatch(d *Draw) *DrawDispatch { return &DrawDispatch{MsgMeta: meta(64), Draw: d} }

// NewDrawChunk builds a DrawDispatch of triangles [first, end) of d (a 64-byte
// draw packet; end == 0: to the draw's end).
func NewDrawChunk(d *Draw, first, end int) *DrawDispatch {
	return &DrawDispatch{MsgMeta: meta(64), Draw: d, First: first, End: end}
}

// VertexBatch is a batch of up to 32 unique vertices with the fetched attributes
// of each, sent by the input assembler to a shader core.
type VertexBatch struct {
	sim.MsgMeta
	Draw  *Draw
	Seq   uint64 // batch number within the draw, from 0
	Batch vertex.Batch
	Attrs []vertex.Attributes // one per vertex of Batch.Vertices
}

func (m *VertexBatch) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewVertexBatch builds a VertexBatch; it charges the fetched vertex bytes and the
// local index list.
func NewVertexBatch(d *Draw, seq uint64, b vertex.Batch, attrs []vertex.Attributes) *VertexBatch {
	bytes := 16 + len(b.Vertices)*int(d.State.Layout.Stride) + 3*len(b.Triangles) + b.Corners*len(b.Prims)
	return &VertexBatch{MsgMeta: meta(bytes), Draw: d, Seq: seq, Batch: b, Attrs: attrs}
}

// BatchInfo tells primitive assembly how many batches a draw was cut into; the
// input assembler sends it after the draw's last batch.
type BatchInfo struct {
	sim.MsgMeta
	Draw    *Draw
	Batches int
	// SkipStreamOut: the draw's DrawDispatch.SkipStreamOut (this pipe does
	// not stream the draw out).
	SkipStreamOut bool
}

func (m *BatchInfo) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewBatchInfo builds a BatchInfo.
func NewBatchInfo(d *Draw, batches int) *BatchInfo {
	return &BatchInfo{MsgMeta: meta(16), Draw: d, Batches: batches}
}

// ShadedBatch carries a shaded vertex batch from a shader core to primitive assembly.
type ShadedBatch struct {
	sim.MsgMeta
	Draw    *Draw
	Seq     uint64
	Batch   *vertex.Batch        // the batch's tag array and local triangles
	Outputs []pipeline.VertexOut // one per vertex of Batch.Vertices
}

func (m *ShadedBatch) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadedBatch builds a ShadedBatch; it charges 16 bytes per written output
// register per vertex.
func NewShadedBatch(d *Draw, seq uint64, b *vertex.Batch, out []pipeline.VertexOut) *ShadedBatch {
	outs := len(d.State.VS.Outputs)
	return &ShadedBatch{MsgMeta: meta(16 + len(out)*16*outs), Draw: d, Seq: seq, Batch: b, Outputs: out}
}

// BatchCredit returns batch slots of primitive assembly to the input assembler.
type BatchCredit struct {
	sim.MsgMeta
	Slots int
}

func (m *BatchCredit) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewBatchCredit builds a BatchCredit.
func NewBatchCredit(n int) *BatchCredit { return &BatchCredit{MsgMeta: meta(8), Slots: n} }

// PrimitiveMsg carries one set-up primitive to a rasterizer.
type PrimitiveMsg struct {
	sim.MsgMeta
	Draw  *Draw
	Prim  *pipeline.Primitive
	Index uint64 // primitive number within the draw
	// Window, when not empty, is the screen tile of the tiled machine that
	// the primitive is rasterized for: the rasterizer emits only the quads
	// inside it (its corners are even, so quads are never split).
	Window raster.Rect
}

func (m *PrimitiveMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewPrimitiveMsg builds a PrimitiveMsg: edge equations and planes (64 bytes) and
// three vertices of every interpolant the pixel shader reads.
func NewPrimitiveMsg(d *Draw, p *pipeline.Primitive, index uint64) *PrimitiveMsg {
	return &PrimitiveMsg{MsgMeta: meta(64 + 48*len(d.State.Link)), Draw: d, Prim: p, Index: index}
}

// DrawEnd marks the end of a draw's work on one path; From is the unit it comes
// from (rasterizer or partition index, by context).
type DrawEnd struct {
	sim.MsgMeta
	Draw *Draw
	From int
}

func (m *DrawEnd) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewDrawEnd builds a DrawEnd.
func NewDrawEnd(d *Draw, from int) *DrawEnd { return &DrawEnd{MsgMeta: meta(8), Draw: d, From: from} }

// QuadLive is a quad with the samples still alive (covered, and passed early Z).
type QuadLive struct {
	Quad raster.Quad
	Live raster.SampleMask
}

// TileQuads carries the quads of one primitive in one raster tile: from a
// rasterizer to a depth unit (Live = coverage), and from a depth unit to the quad
// packer (Live = samples that passed early Z; quads with none are dropped).
type TileQuads struct {
	sim.MsgMeta
	Draw         *Draw
	Prim         *pipeline.Primitive
	TileX, TileY int
	Partition    int
	Quads        []QuadLive
	// Window is the screen tile of the tiled machine the quads were
	// rasterized for (the primitive's PrimitiveMsg.Window; empty on the
	// other machines). It names the units' tasks (TileTaskID), a raster tile
	// larger than the screen tile being rasterized once per window; the back
	// end knows its tile, so it costs no bytes.
	Window raster.Rect
}

func (m *TileQuads) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewTileQuads builds a TileQuads: a header and, per quad, its position and mask.
func NewTileQuads(d *Draw, p *pipeline.Primitive, tx, ty, partition int, quads []QuadLive) *TileQuads {
	return &TileQuads{MsgMeta: meta(16 + len(quads)*(4+coverageBytes(&d.Raster))), Draw: d, Prim: p,
		TileX: tx, TileY: ty, Partition: partition, Quads: quads}
}

// PerPixel is WarpQuad.Sample for a quad shaded once per pixel.
const PerPixel int8 = -1

// WarpQuad is one quad of a pixel warp. Sample is PerPixel (-1) for a quad
// shaded per pixel (pipeline.LoadQuad), or the sample s of a sample quad
// (SAGE's per-sample shading, pipeline.LoadPerSampleQuad: lane k is sample s
// of pixel k). Note that the zero value is sample 0: every producer of pixel
// quads sets PerPixel.
type WarpQuad struct {
	Prim      *pipeline.Primitive
	Quad      raster.Quad
	Live      raster.SampleMask
	Partition int
	Sample    int8
}

// PixelWarp is up to QuadsPerWarp quads of one draw to shade. The reorder buffer
// sets Entry (its first entry, the quads occupying consecutive entries) before
// dispatching it to a shader core. PixelRate is the draw's pipeline.PixelRateLinks
// mask for the sample quads (Sample >= 0) of the warp. ReturnTo is the port
// the shader core sends the ShadedWarp to; nil: the core's ReorderBufferPort
// (the sort-last machine).
type PixelWarp struct {
	sim.MsgMeta
	Draw      *Draw
	ID        uint64
	Entry     uint64
	Quads     []WarpQuad
	PixelRate uint64
	ReturnTo  sim.Port
}

func (m *PixelWarp) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewPixelWarp builds a PixelWarp: per quad its position, coverage and a
// primitive reference (the interpolation planes are fetched by the core from the
// primitive's setup data: 48 bytes per interpolant per primitive).
func NewPixelWarp(d *Draw, id uint64, quads []WarpQuad) *PixelWarp {
	bytes := 16 + len(quads)*(8+coverageBytes(&d.Raster))
	prims := 0
	var last *pipeline.Primitive
	for _, q := range quads {
		if q.Prim != last {
			prims++
			last = q.Prim
		}
	}
	bytes += prims * 48 * len(d.State.Link)
	return &PixelWarp{MsgMeta: meta(bytes), Draw: d, ID: id, Quads: quads}
}

// ShadedWarp returns a shaded pixel warp from a shader core to the reorder buffer.
type ShadedWarp struct {
	sim.MsgMeta
	Warp    *PixelWarp
	Outputs []pipeline.QuadOutput // one per quad of Warp.Quads
}

func (m *ShadedWarp) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadedWarp builds a ShadedWarp: a colour per lane, plus a depth per lane when
// the shader writes depth.
func NewShadedWarp(w *PixelWarp, out []pipeline.QuadOutput) *ShadedWarp {
	per := 16
	if w.Draw.State.PSResources.WritesDepth {
		per += 4
	}
	return &ShadedWarp{MsgMeta: meta(16 + 4*len(out)*per), Warp: w, Outputs: out}
}

// ShadedQuad is a shaded quad retiring from the reorder buffer.
type ShadedQuad struct {
	Prim *pipeline.Primitive
	Quad raster.Quad
	Live raster.SampleMask
	Out  pipeline.QuadOutput
}

// ShadedQuads carries retired quads of one draw and one partition, in API order,
// from the reorder buffer to that partition's ROP.
type ShadedQuads struct {
	sim.MsgMeta
	Draw  *Draw
	Quads []ShadedQuad
}

func (m *ShadedQuads) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadedQuads builds a ShadedQuads: per quad four colours, its mask and position
// (and four depths when the shader writes depth).
func NewShadedQuads(d *Draw, quads []ShadedQuad) *ShadedQuads {
	per := 4*16 + 4 + coverageBytes(&d.Raster)
	if d.State.PSResources.WritesDepth {
		per += 16
	}
	return &ShadedQuads{MsgMeta: meta(16 + len(quads)*per), Draw: d, Quads: quads}
}

// ShadedVisibilityQuad is a visibility quad of a 5D primitive of a decoupled
// draw (Prim.Blur != nil) retiring from the reorder buffer: the samples that
// reached shading, those the shader kept, and each kept sample's reconstructed
// colour (pipeline.Reconstruct over its taps, read from the shading cache).
type ShadedVisibilityQuad struct {
	Prim *pipeline.Primitive
	X, Y int32
	// Live: the samples that passed early Z (every covered sample of a late-Z
	// draw); Kept: of those, the ones the shader did not discard.
	Live, Kept raster.SampleMask
	// Colors holds one colour per sample of Kept, pixel 0..3 and then sample
	// order; Depths the shader's depth output per sample of Kept when the
	// pixel shader writes depth (supersampled shading), else nil.
	Colors []geom.Vec4
	Depths []float32
	// A visibility quad whose record the reorder buffer split (its shading
	// cache stalled) still leaves as one ShadedVisibilityQuad: the earlier
	// parts wait, reconstructed, until the last part retires.
}

// ShadedSamples carries retired visibility quads of one draw and one
// partition, in API order, from the reorder buffer to that partition's ROP.
type ShadedSamples struct {
	sim.MsgMeta
	Draw  *Draw
	Quads []ShadedVisibilityQuad
}

func (m *ShadedSamples) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadedSamples builds a ShadedSamples: per quad its position and two masks,
// per kept sample a colour (16 bytes) and a depth when the shader writes one.
func NewShadedSamples(d *Draw, quads []ShadedVisibilityQuad) *ShadedSamples {
	bytes := 16
	for i := range quads {
		per := 16
		if d.State.PSResources.WritesDepth {
			per += 4
		}
		bytes += 4 + 2*coverageBytes(&d.Raster) + per*quads[i].Kept.Count()
	}
	return &ShadedSamples{MsgMeta: meta(bytes), Draw: d, Quads: quads}
}

// LateZQuad is one quad to test after shading. For a visibility quad of a
// decoupled draw's 5D primitive (Prim.Blur != nil) the samples are tested one
// by one at their own depth (raster5d.Triangle.SampleDepth), or, when the pixel
// shader writes depth, at Depths: one shader depth per sample of Live, pixel
// 0..3 and then sample order (Out is nil then).
type LateZQuad struct {
	Prim   *pipeline.Primitive
	Quad   raster.Quad
	Live   raster.SampleMask
	Out    *pipeline.QuadOutput // the shader's depth output, when it writes one
	Depths []float32
}

// LateZReq asks a depth unit to run the depth/stencil test of shaded quads.
type LateZReq struct {
	sim.MsgMeta
	Draw  *Draw
	Quads []LateZQuad
}

func (m *LateZReq) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewLateZReq builds a LateZReq: per quad its position and mask, and the
// shader's depths when it writes depth (four per pixel quad, one per sample of
// a visibility quad's Depths).
func NewLateZReq(d *Draw, quads []LateZQuad) *LateZReq {
	bytes := 16
	for i := range quads {
		bytes += 4 + coverageBytes(&d.Raster)
		switch {
		case quads[i].Depths != nil:
			bytes += 4 * len(quads[i].Depths)
		case d.State.PSResources.WritesDepth:
			bytes += 16
		}
	}
	return &LateZReq{MsgMeta: meta(bytes), Draw: d, Quads: quads}
}

// LateZRsp returns the samples that passed, one mask per quad of the request.
type LateZRsp struct {
	sim.MsgMeta
	RspTo string
	Pass  []raster.SampleMask
}

func (m *LateZRsp) Meta() *sim.MsgMeta { return &m.MsgMeta }

// GetRspTo implements sim.Rsp.
func (m *LateZRsp) GetRspTo() string { return m.RspTo }

// NewLateZRsp builds a LateZRsp for req.
func NewLateZRsp(req *LateZReq, pass []raster.SampleMask) *LateZRsp {
	return &LateZRsp{MsgMeta: meta(16 + len(pass)*coverageBytes(&req.Draw.Raster)), RspTo: req.ID, Pass: pass}
}

// TexRequest carries one texture instruction's lane requests from a shader core to
// its texture sampler.
type TexRequest struct {
	sim.MsgMeta
	Draw    *Draw
	Warp    uint64 // the core's warp slot
	Binding *state.TextureBinding
	Lanes   []shader.TexRequest
}

func (m *TexRequest) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewTexRequest builds a TexRequest: per lane a coordinate and two gradients.
func NewTexRequest(d *Draw, warp uint64, b *state.TextureBinding, lanes []shader.TexRequest) *TexRequest {
	return &TexRequest{MsgMeta: meta(16 + len(lanes)*48), Draw: d, Warp: warp, Binding: b, Lanes: lanes}
}

// TexResponse returns the filtered values, one per lane of the request.
type TexResponse struct {
	sim.MsgMeta
	RspTo   string
	Warp    uint64
	Results []geom.Vec4
}

func (m *TexResponse) Meta() *sim.MsgMeta { return &m.MsgMeta }

// GetRspTo implements sim.Rsp.
func (m *TexResponse) GetRspTo() string { return m.RspTo }

// NewTexResponse builds a TexResponse for req.
func NewTexResponse(req *TexRequest, results []geom.Vec4) *TexResponse {
	return &TexResponse{MsgMeta: meta(16 + len(results)*16), RspTo: req.ID, Warp: req.Warp, Results: results}
}

// ClearCmd asks a ROP (colour) or a depth unit (depth/stencil) to fast-clear its
// part of a target: the functional clear has been applied to memory already; the
// unit drops the target's lines from its cache and marks them cleared.
type ClearCmd struct {
	sim.MsgMeta
	Flags  uint32 // command.ClearColor, ClearDepth, ClearStencil
	Target command.Target
	Size   uint64 // bytes the target occupies
}

func (m *ClearCmd) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewClearCmd builds a ClearCmd.
func NewClearCmd(flags uint32, t command.Target, size uint64) *ClearCmd {
	return &ClearCmd{MsgMeta: meta(32), Flags: flags, Target: t, Size: size}
}

// PresentCmd asks a ROP to resolve its partition of the colour target into the
// display buffer (RGBA8, Width*4 bytes per row, linear) at Display.
type PresentCmd struct {
	sim.MsgMeta
	Target  command.Target
	Display uint64
}

func (m *PresentCmd) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewPresentCmd builds a PresentCmd.
func NewPresentCmd(t command.Target, display uint64) *PresentCmd {
	return &PresentCmd{MsgMeta: meta(32), Target: t, Display: display}
}

// Done acknowledges a ClearCmd or PresentCmd.
type Done struct {
	sim.MsgMeta
	RspTo string
	From  int // partition
}

func (m *Done) Meta() *sim.MsgMeta { return &m.MsgMeta }

// GetRspTo implements sim.Rsp.
func (m *Done) GetRspTo() string { return m.RspTo }

// NewDone acknowledges the command with ID rspTo.
func NewDone(rspTo string, from int) *Done { return &Done{MsgMeta: meta(8), RspTo: rspTo, From: from} }

// DrawDone tells the command processor that a partition finished a draw.
type DrawDone struct {
	sim.MsgMeta
	Draw      *Draw
	Partition int
}

func (m *DrawDone) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewDrawDone builds a DrawDone.
func NewDrawDone(d *Draw, partition int) *DrawDone {
	return &DrawDone{MsgMeta: meta(8), Draw: d, Partition: partition}
}
