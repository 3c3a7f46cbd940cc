package protocol

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// Messages of decoupled sampling's 5D path on the sort-last machine: the quad
// packer's decoupling stage sends the taps of visibility quads to the reorder
// buffer (VisibilityQuads), whose shading cache sends the missed shading quads
// to the shader cores (ShadingWarp) and gets their lanes back (ShadedLanes);
// the retired visibility quads go to the ROPs as ShadedSamples.

// tapBytes is the size of one tap on a bus: a shading-cache tag reference (the
// tag's quad and sample, 4 bytes), the lane and a 16-bit weight.
const tapBytes = 8

// VisibilityQuad is a visibility quad of a 5D primitive with the decoupling
// map's look-up of every live sample.
type VisibilityQuad struct {
	X, Y int32
	Live raster.SampleMask // the samples that passed early Z
	// Lookups holds one look-up (1 to 4 taps) per sample of Live, pixel 0..3
	// and then sample order (pipeline.MapSamples).
	Lookups []decouple.Lookup
}

// Taps returns the number of taps of the quad's samples.
func (q *VisibilityQuad) Taps() int {
	n := 0
	for i := range q.Lookups {
		n += q.Lookups[i].N
	}
	return n
}

// VisibilityQuads carries the mapped visibility quads of one primitive in one
// raster tile and one partition, in order, from the quad packer's decoupling
// stage to the reorder buffer.
type VisibilityQuads struct {
	sim.MsgMeta
	Draw      *Draw
	Prim      *pipeline.Primitive
	Partition int
	Quads     []VisibilityQuad
}

func (m *VisibilityQuads) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewVisibilityQuads builds a VisibilityQuads: a 16-byte header and, per quad,
// its position (4 bytes) and live mask, and 8 bytes per tap.
func NewVisibilityQuads(d *Draw, p *pipeline.Primitive, partition int, quads []VisibilityQuad) *VisibilityQuads {
	bytes := 16
	for i := range quads {
		bytes += 4 + coverageBytes(&d.Raster) + tapBytes*quads[i].Taps()
	}
	return &VisibilityQuads{MsgMeta: meta(bytes), Draw: d, Prim: p, Partition: partition, Quads: quads}
}

// ShadingQuad is one shading quad of a shading warp: the shading-cache entry
// that waits for it, its primitive and tag, and in supersample mode the live
// samples of its visibility quad (lanes whose pixel lacks sample Tag.Sample
// are helpers).
type ShadingQuad struct {
	Entry int
	Prim  *pipeline.Primitive
	Tag   decouple.Tag
	Live  raster.SampleMask
}

// ShadingWarp is up to QuadsPerWarp shading quads of one decoupled draw,
// missed in the reorder buffer's shading cache, sent to a shader core. Its IDs
// are counted apart from the pixel warps'.
type ShadingWarp struct {
	sim.MsgMeta
	Draw        *Draw
	ID          uint64
	Supersample bool
	Quads       []ShadingQuad
	// ReturnTo is the port the shaded lanes go to (the reorder buffer that
	// sent the warp); nil: the core's ReorderBufferPort.
	ReturnTo sim.Port
}

func (m *ShadingWarp) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadingWarp builds a ShadingWarp: per quad a 12-byte tag (and its live
// mask in supersample mode), and the primitive's setup data as in a PixelWarp
// (48 bytes per interpolant per primitive).
func NewShadingWarp(d *Draw, id uint64, supersample bool, quads []ShadingQuad) *ShadingWarp {
	per := 12
	if supersample {
		per += coverageBytes(&d.Raster)
	}
	bytes := 16 + len(quads)*per
	var last *pipeline.Primitive
	for i := range quads {
		if quads[i].Prim != last {
			bytes += 48 * len(d.State.Link)
			last = quads[i].Prim
		}
	}
	return &ShadingWarp{MsgMeta: meta(bytes), Draw: d, ID: id, Supersample: supersample, Quads: quads}
}

// ShadedLanes returns a shading warp's outputs from a shader core to the
// reorder buffer: one pipeline.ShadingLanes per quad of Warp.Quads.
type ShadedLanes struct {
	sim.MsgMeta
	Warp  *ShadingWarp
	Lanes []pipeline.ShadingLanes
}

func (m *ShadedLanes) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewShadedLanes builds a ShadedLanes: per quad four colours and a store mask
// byte, plus four depths when the shader writes depth.
func NewShadedLanes(w *ShadingWarp, lanes []pipeline.ShadingLanes) *ShadedLanes {
	per := 4*16 + 1
	if w.Draw.State.PSResources.WritesDepth {
		per += 16
	}
	return &ShadedLanes{MsgMeta: meta(16 + len(lanes)*per), Warp: w, Lanes: lanes}
}
