package protocol

import (
	"strconv"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// Tasks for traces (docs/design-timing.md, section 10). Every component reports
// what it works on through Akita's tracing API when a tracer is attached. A task's
// ID is derived from the work itself, so a unit downstream knows the ID of its
// parent without a message field: a draw is "draw<seq>", a primitive
// "draw<seq>.prim<API triangle>.<clip part>", a raster tile of it
// "<primitive>.tile<tx>.<ty>", a pixel warp "warp<packer ID>". On the tiled
// machine a primitive is rasterized once per screen tile it was binned to
// (PrimitiveMsg.Window): its draw in that window is "draw<seq>.win<x0>.<y0>"
// and the primitive's and its raster tiles' IDs start with it; its tile
// units' warps are numbered from TileUnitWarpBase(k) and named
// "tu<k>.warp<n>". A request between
// two units that is answered (TexRequest, LateZReq, ClearCmd, PresentCmd,
// HiZControl) is recorded by its sender as Akita's req_out task
// ("<message ID>_req_out", parent the sender's task, ended by the answer) and the
// receiver's task names it as parent.
//
// The builders below allocate the ID: call them only when the component has
// hooks (NumHooks() > 0), so untraced runs pay nothing.

// SimulationTaskID is the ID of the task that spans the run (the tracing
// package records it); tasks without a better parent hang below it.
const SimulationTaskID = "simulation"

// The task kinds of gfxsim's components. Akita's memory components and the
// memory clients report "req_out" and "req_in" tasks.
const (
	KindCommand           = "command"
	KindDraw              = "draw"
	KindVertexBatch       = "vertex_batch"
	KindVertexWarp        = "vertex_warp"
	KindGeometryWarp      = "geometry_warp"
	KindPrimitiveAssembly = "primitive_assembly"
	KindRasterize         = "rasterize"
	KindTile              = "tile"
	KindPixelWarp         = "pixel_warp"
	KindTextureRequest    = "texture_request"
	KindLateZ             = "late_z"
	KindROPWrite          = "rop_write"
	KindResolve           = "resolve"
	KindClear             = "clear"
	KindFlush             = "flush"

	// The SAGE machine's own chips (docs/design-timing.md, section 10).
	KindDrawChunk   = "draw_chunk"   // Distributor: a draw's chunk on one pipe
	KindSampleWarp  = "sample_warp"  // SampleFill and the pipe's ShaderCore: a warp of sample quads
	KindSampleBurst = "sample_burst" // Sched: a SampleBurst from a pipe, through the FIFOs
	KindSampleWrite = "sample_write" // Interleave: a SampleBurst written into the 3DRAMs
	KindSwathLine   = "swath_line"   // Convolve: the chip's swath of one output line
	KindScanLine    = "scan_line"    // Video: one line of the raster scanned out

	// The tiled sort-middle machine's own units (docs/design-timing.md,
	// section 10).
	KindPass       = "pass"        // Binner: a render pass, from its first draw to its Done
	KindBin        = "bin"         // Binner: a primitive's entries appended to its tiles' bins
	KindScreenTile = "screen_tile" // TileUnit: a screen tile, from its job's arrival to its Done
	KindTileDraw   = "tile_draw"   // TileUnit: a draw's primitives in one screen tile, sent - retired by the ROP
)

// Suffixes of the tasks several units report for the same work.
const (
	AtCore = "@core" // a shader core's warp
	AtPA   = "@pa"   // primitive assembly's batch
	AtROB  = "@rob"  // the reorder buffer's warp
	AtHiZ  = "@hiz"  // a HiZ unit's tile
	AtDU   = "@du"   // a depth unit's tile
	AtFill = "@fill" // a SAGE sample fill's warp
	AtBin  = "@bin"  // the tiled machine's binner's primitive
)

// idBuf is the scratch an ID is built in (on the stack).
type idBuf [112]byte

func appendDraw(b []byte, draw uint64) []byte {
	b = append(b, "draw"...)
	return strconv.AppendUint(b, draw, 10)
}

// appendWindow appends ".win<x0>.<y0>", the screen tile w of the tiled
// machine, unless w is empty (the other machines).
func appendWindow(b []byte, w raster.Rect) []byte {
	if w.Empty() {
		return b
	}
	b = append(b, ".win"...)
	b = strconv.AppendInt(b, int64(w.X0), 10)
	b = append(b, '.')
	return strconv.AppendInt(b, int64(w.Y0), 10)
}

func appendPrim(b []byte, draw uint64, w raster.Rect, p *pipeline.Primitive) []byte {
	b = appendDraw(b, draw)
	b = appendWindow(b, w)
	b = append(b, ".prim"...)
	if p == nil { // an empty TileQuads may have no primitive
		return b
	}
	b = strconv.AppendInt(b, int64(p.Source), 10)
	b = append(b, '.')
	return strconv.AppendInt(b, int64(p.Part), 10)
}

// CommandTaskID is the ID of the command at addr in the command stream:
// "cmd@0x<addr hex>".
func CommandTaskID(addr uint64) string {
	var a idBuf
	b := append(a[:0], "cmd@0x"...)
	return string(strconv.AppendUint(b, addr, 16))
}

// DrawTaskID is the ID of draw seq: "draw<seq>".
func DrawTaskID(seq uint64) string {
	var a idBuf
	return string(appendDraw(a[:0], seq))
}

// BatchTaskID is the ID of vertex batch batch of draw draw, whose first
// triangle is first (vertex.Batch.FirstTriangle), followed by suffix ("" for
// the input assembler's task, AtCore, AtPA): "draw<s>.t<first>.batch<b><suffix>".
// The first triangle tells apart the batches that the SAGE machine's pipes
// number alike from 0 for their chunks of one draw.
func BatchTaskID(draw, batch uint64, first int, suffix string) string {
	var a idBuf
	b := appendDraw(a[:0], draw)
	b = append(b, ".t"...)
	b = strconv.AppendInt(b, int64(first), 10)
	b = append(b, ".batch"...)
	b = strconv.AppendUint(b, batch, 10)
	return string(append(b, suffix...))
}

// WindowDrawTaskID is the ID of draw draw's task in screen tile w of the tiled
// machine (the tile unit's tile_draw task): "draw<s>.win<x0>.<y0>"; with w
// empty (the other machines), the draw's own task, DrawTaskID(draw). The
// rasterizer's and the quad packer's tasks of a primitive with a window hang
// below it.
func WindowDrawTaskID(draw uint64, w raster.Rect) string {
	var a idBuf
	return string(appendWindow(appendDraw(a[:0], draw), w))
}

// RasterizeTaskID is the ID of rasterizer r's task for primitive p of draw draw
// in window w (PrimitiveMsg.Window): "draw<s>.prim<source>.<part>@r<r>", or
// "draw<s>.win<x0>.<y0>.prim<source>.<part>@r<r>" with a window.
func RasterizeTaskID(draw uint64, w raster.Rect, p *pipeline.Primitive, r int) string {
	var a idBuf
	b := appendPrim(a[:0], draw, w, p)
	b = append(b, "@r"...)
	return string(strconv.AppendInt(b, int64(r), 10))
}

// TileTaskID is the ID of a unit's task for raster tile (tx, ty) of primitive p
// of draw draw in window w (TileQuads.Window), followed by suffix ("" for the
// rasterizer owning the tile, AtHiZ, AtDU):
// "draw<s>.prim<source>.<part>.tile<tx>.<ty><suffix>", with ".win<x0>.<y0>"
// after the draw when w is not empty (a raster tile larger than the screen
// tile is rasterized once per window it meets).
func TileTaskID(draw uint64, w raster.Rect, p *pipeline.Primitive, tx, ty int, suffix string) string {
	var a idBuf
	b := appendPrim(a[:0], draw, w, p)
	b = append(b, ".tile"...)
	b = strconv.AppendInt(b, int64(tx), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(ty), 10)
	return string(append(b, suffix...))
}

// PrimTaskID is the ID of a unit's task for primitive p of draw draw, which
// only that unit reports, followed by suffix (AtBin for the tiled machine's
// binner): "draw<s>.prim<source>.<part><suffix>".
func PrimTaskID(draw uint64, p *pipeline.Primitive, suffix string) string {
	var a idBuf
	return string(append(appendPrim(a[:0], draw, raster.Rect{}, p), suffix...))
}

// warpUnitShift places a tile unit's number above its warps' numbers
// (TileUnitWarpBase).
const warpUnitShift = 40

// TileUnitWarpBase is the first warp ID of tile unit k of the tiled machine:
// its quad packer numbers its pixel warps, and its reorder buffer its shading
// warps, from there, so that the warps of the tile units, which share the
// shader cores, have distinct IDs. WarpTaskID and ShadingWarpTaskID name
// those warps "tu<k>.warp<n>" and "tu<k>.shade<n>" (n counted from 0 in each
// unit). The other machines number their warps from 0.
func TileUnitWarpBase(k int) uint64 { return uint64(k+1) << warpUnitShift }

// appendWarp appends "<label><id>", or "tu<k>.<label><n>" for warp n of tile
// unit k (id = TileUnitWarpBase(k) + n).
func appendWarp(b []byte, label string, id uint64) []byte {
	if unit := id >> warpUnitShift; unit > 0 {
		b = append(b, "tu"...)
		b = strconv.AppendUint(b, unit-1, 10)
		b = append(b, '.')
		id &= 1<<warpUnitShift - 1
	}
	b = append(b, label...)
	return strconv.AppendUint(b, id, 10)
}

// WarpTaskID is the ID of pixel warp id (the quad packer's numbering) followed by
// suffix ("" for the packer, AtROB, AtCore): "warp<id><suffix>", or
// "tu<k>.warp<n><suffix>" for a warp of tile unit k (TileUnitWarpBase).
func WarpTaskID(id uint64, suffix string) string {
	var a idBuf
	b := appendWarp(a[:0], "warp", id)
	return string(append(b, suffix...))
}

// ReqOutTaskID is the ID of Akita's req_out task of message msgID (recorded by
// its sender with tracing.TraceReqInitiate): "<msgID>_req_out".
func ReqOutTaskID(msgID string) string { return msgID + "_req_out" }

// TaskWhat is a task's short label: label, a space and n ("draw 12", "8 quads"
// is Count(8, "quads")).
func TaskWhat(label string, n uint64) string {
	var a idBuf
	b := append(a[:0], label...)
	b = append(b, ' ')
	return string(strconv.AppendUint(b, n, 10))
}

// Count is the label "<n> <unit>" ("8 quads").
func Count(n int, unit string) string {
	var a idBuf
	b := strconv.AppendInt(a[:0], int64(n), 10)
	b = append(b, ' ')
	return string(append(b, unit...))
}

// ShadingWarpTaskID is the ID of a shading-cache miss warp's task at the shader
// core: "shade<id>@core" (below its draw; shading warps are numbered apart from
// pixel warps), or "tu<k>.shade<n>@core" for a warp of tile unit k's reorder
// buffer (TileUnitWarpBase).
func ShadingWarpTaskID(id uint64) string {
	var a idBuf
	b := appendWarp(a[:0], "shade", id)
	return string(append(b, AtCore...))
}

// PassTaskID is the ID of the tiled machine's binner's task for render pass
// pass (BinnedPass.Seq): "pass<p>".
func PassTaskID(pass uint64) string {
	var a idBuf
	b := append(a[:0], "pass"...)
	return string(strconv.AppendUint(b, pass, 10))
}

// ScreenTileTaskID is the ID of a tile unit's task for screen tile tile
// (row-major in the pass's grid) of render pass pass: "pass<p>.tile<k>".
func ScreenTileTaskID(pass uint64, tile int) string {
	var a idBuf
	b := append(a[:0], "pass"...)
	b = strconv.AppendUint(b, pass, 10)
	b = append(b, ".tile"...)
	return string(strconv.AppendInt(b, int64(tile), 10))
}

// ScreenTileWhat is a screen tile task's label: "tile <k> of pass <p>".
func ScreenTileWhat(pass uint64, tile int) string {
	var a idBuf
	b := append(a[:0], "tile "...)
	b = strconv.AppendInt(b, int64(tile), 10)
	b = append(b, " of pass "...)
	return string(strconv.AppendUint(b, pass, 10))
}

// DrawChunkTaskID is the ID of the distributor's task for draw draw's chunk on
// pipe pipe: "draw<s>@pipe<p>".
func DrawChunkTaskID(draw uint64, pipe int) string {
	var a idBuf
	b := appendDraw(a[:0], draw)
	b = append(b, "@pipe"...)
	return string(strconv.AppendInt(b, int64(pipe), 10))
}

// SampleWarpTaskID is the ID of a unit's task for warp id of pipe pipe's sample
// fill (numbered per pipe) followed by suffix (AtFill for the sample fill,
// AtCore for the shader core): "pipe<p>.warp<id><suffix>". The shader core
// knows the pipe from the warp's quads (WarpQuad.Partition).
func SampleWarpTaskID(pipe int, id uint64, suffix string) string {
	var a idBuf
	b := append(a[:0], "pipe"...)
	b = strconv.AppendInt(b, int64(pipe), 10)
	b = append(b, ".warp"...)
	b = strconv.AppendUint(b, id, 10)
	return string(append(b, suffix...))
}

// MessageTaskID is the ID of a unit's task for the message msgID, which only
// that unit reports: prefix and the message ID ("burst<msgID>" for a sched's
// SampleBurst, "write<msgID>" for an interleave's, "clear<msgID>",
// "flush<msgID>").
func MessageTaskID(prefix, msgID string) string { return prefix + msgID }

// LineTaskID is the ID of a unit's task for output line y of the frame that
// the PresentCmd present started, at the unit named by suffix:
// "<present>.line<y><suffix>" (a convolve chip's swath line: suffix
// ".swath<k>", SwathSuffix; the video output's scan line: "" on one channel,
// ".channel<c>", ChannelSuffix, on two).
func LineTaskID(present string, y int, suffix string) string {
	var a idBuf
	b := append(a[:0], present...)
	b = append(b, ".line"...)
	b = strconv.AppendInt(b, int64(y), 10)
	return string(append(b, suffix...))
}

// SwathSuffix is the LineTaskID suffix of convolve chip k's swath: ".swath<k>".
func SwathSuffix(k int) string {
	var a idBuf
	b := append(a[:0], ".swath"...)
	return string(strconv.AppendInt(b, int64(k), 10))
}

// ChannelSuffix is the LineTaskID suffix of video channel c's scan lines on a
// two-channel machine: ".channel<c>".
func ChannelSuffix(c int) string {
	var a idBuf
	b := append(a[:0], ".channel"...)
	return string(strconv.AppendInt(b, int64(c), 10))
}

// EndTaskAt ends task id of domain at time at, a time the unit already knows
// when it finishes the work (an interleave schedules a burst's writes, the
// video output a line's scan-out, ahead of the simulated time), so that no
// event is added for the trace: the end is reported as a task whose EndTime is
// set, which the tracing package's recorder honours (Akita's tracers take
// their own clock). Call it only when domain has hooks.
func EndTaskAt(id string, domain tracing.NamedHookable, at sim.VTimeInSec) {
	domain.InvokeHook(sim.HookCtx{Domain: domain, Pos: tracing.HookPosTaskEnd,
		Item: tracing.Task{ID: id, EndTime: at}})
}
