package hiz

import (
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
)

// OracleKey names one quad of one primitive of one draw.
type OracleKey struct {
	Draw, Prim uint64 // draw sequence number, PrimOrder
	X, Y       int32  // the quad's position
}

// OracleTable holds, for every quad of a frame, the samples that are visible:
// those that pass the exact depth/stencil test when they are tested and that
// the pixel shader does not discard. It is the paper's ORACLE ("the HiZ unit
// replicates the exact depth buffer and performs per-sample depth tests"; its
// culling "includes tiles whose coverage is modified by the fragment
// shader"), recorded by an OracleRecorder during a reference render of the
// same frame. A Buffer in Oracle mode with a table culls every covered sample
// that is not visible; quads it does not know keep all their samples.
type OracleTable struct {
	visible map[OracleKey]raster.SampleMask
}

// NewOracleTable returns an empty table.
func NewOracleTable() *OracleTable { return &OracleTable{visible: map[OracleKey]raster.SampleMask{}} }

// Visible returns the visible samples of a quad.
func (t *OracleTable) Visible(k OracleKey) (raster.SampleMask, bool) {
	v, ok := t.visible[k]
	return v, ok
}

// Len returns the number of quads recorded.
func (t *OracleTable) Len() int { return len(t.visible) }

// OracleRecorder fills an OracleTable from a reference render: it implements
// reference.Hooks and records, at every quad's depth test, the samples that
// pass it and (late Z) survive the shader.
type OracleRecorder struct {
	Table *OracleTable
	d     *state.Draw
	cfg   *raster.Config
}

// NewOracleRecorder returns a recorder with an empty table.
func NewOracleRecorder() *OracleRecorder { return &OracleRecorder{Table: NewOracleTable()} }

// BeginDraw implements reference.Hooks.
func (r *OracleRecorder) BeginDraw(d *state.Draw, cfg *raster.Config) { r.d, r.cfg = d, cfg }

// Tile implements reference.Hooks (nothing is culled while recording).
func (r *OracleRecorder) Tile(p *pipeline.Primitive, tx, ty int, quads []raster.Quad, live []raster.SampleMask) {
}

// DepthTest implements reference.Hooks.
func (r *OracleRecorder) DepthTest(p *pipeline.Primitive, q raster.Quad, live raster.SampleMask, out *pipeline.QuadOutput) {
	vis := ExactPass(r.d, r.cfg, p, q, live, out)
	if out != nil {
		vis = vis.And(raster.FullPixels(out.Store, raster.MaxSamples))
	}
	r.Table.visible[OracleKey{Draw: uint64(r.d.Index), Prim: PrimOrder(p.Source, p.Part), X: q.X, Y: q.Y}] = vis
}

// Clear implements reference.Hooks.
func (r *OracleRecorder) Clear(a state.Action) {}

// SetOracle makes an Oracle-mode buffer use table (nil: its per-sample
// replica, which knows depths but not what shaders discard), and the ideal
// feedback's replica follow the table's verdicts (a visible sample was
// written, the others were not), so that it holds the exact depth buffer.
func (b *Buffer) SetOracle(t *OracleTable) { b.table = t }

// tablePieces is the Oracle's coarse test from the table: the covered samples
// of each piece that are not visible fail (when the stencil allows culling).
func (b *Buffer) tablePieces(dc *DrawContext, p *pipeline.Primitive, quads []raster.Quad, live []raster.SampleMask, pos Pos) {
	canCull := dc.CanCull(p.Triangle.BackFacing)
	n := b.geo.Samples
	np := len(b.pieces)
	if cap(b.hidden) < np {
		b.hidden = make([]Mask, np)
	}
	notVisible := b.hidden[:np] // per piece: covered samples that are not visible
	clear(notVisible)
	for i, q := range quads {
		vis, ok := b.table.Visible(OracleKey{Draw: pos.Draw, Prim: pos.Prim, X: q.X, Y: q.Y})
		if !ok {
			continue
		}
		hidden := live[i].AndNot(vis)
		for pix := 0; pix < 4; pix++ {
			pm := hidden[pix]
			x, y, ok := b.pixelAt(q, pix, pm)
			if !ok {
				continue
			}
			ti, bit0 := b.geo.TileOf(x, y)
			for k := 0; k < np; k++ {
				if b.pieces[k].tile == ti {
					notVisible[k].OrBits(bit0, pm, n)
					break
				}
			}
		}
	}
	for k := range b.pieces {
		pc := &b.pieces[k]
		hidden := notVisible[k]
		o := Outcome{Accept: hidden.Empty()}
		if canCull {
			o.Fail = hidden
		}
		pc.fail = o.Fail
		b.count1(pc.cover, o)
		b.count++
	}
}
