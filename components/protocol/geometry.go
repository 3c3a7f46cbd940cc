package protocol

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/pipeline"
)

// GeometryWarp is a geometry shader warp: invocations [First, First+Lanes) of
// a shaded vertex batch (pipeline.GSInvocations: a primitive per instance of
// the shader), one per lane, sent by primitive assembly to a shader core
// (pipeline.LoadPrimitives loads it; PrimitiveID is the draw-wide ID of the
// batch's first primitive). Warp numbers the batch's GS warps from 0 in API
// order.
type GeometryWarp struct {
	sim.MsgMeta
	Draw        *Draw
	Batch       *ShadedBatch
	Warp        int
	First       int
	Lanes       int
	PrimitiveID int
}

func (m *GeometryWarp) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewGeometryWarp builds a GeometryWarp: a header and, per lane, the local
// slots of its primitive's vertices (the vertices themselves are read from
// primitive assembly's batch buffer, as the shaded vertices are).
func NewGeometryWarp(sb *ShadedBatch, warp, first, lanes, id int) *GeometryWarp {
	corners := 3
	if sb.Batch != nil && len(sb.Batch.Prims) > 0 {
		corners = sb.Batch.Corners
	}
	return &GeometryWarp{MsgMeta: meta(16 + lanes*corners), Draw: sb.Draw, Batch: sb, Warp: warp,
		First: first, Lanes: lanes, PrimitiveID: id}
}

// ShadedGeometry carries a finished geometry shader warp's output back to
// primitive assembly: the vertices its lanes emitted and the primitives the
// strips were cut into (pipeline.AssembleEmitted, lane by lane in API order).
type ShadedGeometry struct {
	sim.MsgMeta
	Warp *GeometryWarp
	Out  *pipeline.GeometryOutput
}

func (m *ShadedGeometry) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadedGeometry builds a ShadedGeometry: 16 bytes per output register of
// every emitted vertex, plus the primitives' vertex numbers.
func NewShadedGeometry(w *GeometryWarp, out *pipeline.GeometryOutput, outputs int) *ShadedGeometry {
	return &ShadedGeometry{MsgMeta: meta(16 + len(out.Verts)*16*outputs + len(out.Prims)*out.Corners), Warp: w, Out: out}
}
