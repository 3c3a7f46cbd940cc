package hiz

import (
	"fmt"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// Stats counts a coarse depth buffer's work. A "tile" here is one coarse test:
// one primitive on one HiZ tile it covers.
type Stats struct {
	Tiles          uint64 // coarse tests (primitive x HiZ tile with coverage)
	TilesCulled    uint64 // every covered sample culled
	TilesAccepted  uint64 // every covered sample surely passes
	TilesAmbiguous uint64 // the rest: per-sample tests needed
	// Units and UnitsCulled normalize the counts to 16-sample tiles (the
	// paper's Fig. 6): the 16-sample blocks of tested tiles with coverage, and
	// those whose covered samples were all culled.
	Units, UnitsCulled uint64
	Samples            uint64 // covered samples tested
	SamplesCulled      uint64
	SamplesAccept      uint64 // covered samples of accepted tiles
	QuadsCulled        uint64 // quads left with no live sample
	PassThrough        uint64 // tiles of draws HiZ does not apply to
	Conversions        uint64 // tiles converted between the less and greater forms
	// Feedback.
	FeedbackApplied, FeedbackStale uint64
	// PACKED ZMASK.
	Packs, BlocksForced uint64
	// Forgotten counts the tiles a 5D primitive's write made unknown (Forget).
	Forgotten uint64
}

// Add accumulates o.
func (s *Stats) Add(o Stats) {
	s.Tiles += o.Tiles
	s.TilesCulled += o.TilesCulled
	s.TilesAccepted += o.TilesAccepted
	s.TilesAmbiguous += o.TilesAmbiguous
	s.Units += o.Units
	s.UnitsCulled += o.UnitsCulled
	s.Samples += o.Samples
	s.SamplesCulled += o.SamplesCulled
	s.SamplesAccept += o.SamplesAccept
	s.QuadsCulled += o.QuadsCulled
	s.PassThrough += o.PassThrough
	s.Conversions += o.Conversions
	s.FeedbackApplied += o.FeedbackApplied
	s.FeedbackStale += o.FeedbackStale
	s.Packs += o.Packs
	s.BlocksForced += o.BlocksForced
	s.Forgotten += o.Forgotten
}

// CullingRate returns UnitsCulled/Units: the culling rate normalized to
// 16-sample tiles.
func (s *Stats) CullingRate() float64 {
	if s.Units == 0 {
		return 0
	}
	return float64(s.UnitsCulled) / float64(s.Units)
}

// piece is the coverage of the primitive being processed on one HiZ tile.
type piece struct {
	tile  int
	cover Mask
	fail  Mask
}

type feedbackEntry struct {
	tile   int
	lo, hi uint32
	pos    Pos
	at     uint64 // pieces processed when it was produced
}

// Buffer is the coarse depth buffer of one depth target: every HiZ tile's
// state, and for the Oracle mode and the ideal feedback the per-sample
// replica. It is the functional model the timed HiZ unit and the reference
// renderer's HiZ filter share; it does not allocate per tile once its scratch
// buffers have grown.
type Buffer struct {
	cfg   Config
	geo   Geometry
	tiles []TileState
	full  Mask
	rep   *replica
	fifo  []feedbackEntry
	fHead int
	count uint64 // coarse tests so far (the feedback delay's clock)
	st    Stats

	pieces []piece
	hidden []Mask
	table  *OracleTable
}

// NewBuffer returns the coarse depth buffer of target t under configuration
// cfg (after WithDefaults; cfg.Mode must not be Off). Every tile starts
// unknown until the first Clear.
func NewBuffer(cfg Config, t Target) (*Buffer, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Mode == Off {
		return nil, fmt.Errorf("hiz: NewBuffer: Mode is off")
	}
	g, err := NewGeometry(t, cfg.TileSamples)
	if err != nil {
		return nil, err
	}
	if g.TileSamples != cfg.TileSamples {
		// More or fewer samples than configured: only at sample counts that are
		// not a power of two up to 16 (see TileDims).
		if cfg.Packed {
			return nil, fmt.Errorf("hiz: packed tiles of %d samples hold no whole number of %d-sample pixels (tiles of %d samples): use an unpacked mode at this sample count",
				cfg.TileSamples, t.Samples, g.TileSamples)
		}
		if g.TileSamples > cfg.TileSamples {
			cfg.TileSamples = 1 << bits.Len(uint(g.TileSamples-1)) // one pixel: its memory format
		}
	}
	b := &Buffer{cfg: cfg, geo: g, tiles: make([]TileState, g.Tiles()), full: Range(0, g.TileSamples)}
	if cfg.Mode == Oracle || cfg.Feedback == IdealFeedback {
		b.rep = newReplica(&b.geo)
	}
	return b, nil
}

// Config returns the buffer's configuration (with defaults filled in).
func (b *Buffer) Config() Config { return b.cfg }

// Geometry returns the tiling.
func (b *Buffer) Geometry() *Geometry { return &b.geo }

// Stats returns the counters.
func (b *Buffer) Stats() Stats { return b.st }

// Tile returns a copy of tile ti's state.
func (b *Buffer) Tile(ti int) TileState { return b.tiles[ti] }

// SetTile replaces tile ti's state (for tests and tools).
func (b *Buffer) SetTile(ti int, t TileState) { b.tiles[ti] = t }

func (b *Buffer) valid(ti int) Mask {
	tx, ty := ti%b.geo.TilesX, ti/b.geo.TilesX
	if (tx+1)*b.geo.TileW <= b.geo.Width && (ty+1)*b.geo.TileH <= b.geo.Height {
		return b.full
	}
	return b.geo.Valid(ti)
}

// Clear is a fast clear of the target to depth key k at position pos (the
// position of the first primitive that may follow it): every tile holds
// exactly k in one layer. Pending feedback becomes stale.
func (b *Buffer) Clear(k uint32, pos Pos) {
	for i := range b.tiles {
		t := &b.tiles[i]
		*t = TileState{Known: true, Lo: k, Barrier: pos}
		t.Hi[0], t.Layer[0] = k, b.valid(i)
	}
	if b.rep != nil {
		b.rep.clear(k)
	}
}

// Piece runs the coarse test and update of one primitive on tile ti: the
// primitive's depth keys lie in [tmin, tmax] (depth domain) and its covered
// samples are cover. It converts the tile to the form the depth function needs
// first, then tests, then updates with the samples that were not culled. It
// returns the outcome (Fail is empty when the stencil forbids culling). Oracle
// buffers use ProcessQuads instead.
func (b *Buffer) Piece(dc *DrawContext, backFacing bool, ti int, tmin, tmax uint32, cover Mask, pos Pos) Outcome {
	t := &b.tiles[ti]
	if g, need := formOf(dc.Func); need && g != t.Greater {
		b.convert(t, b.valid(ti), pos)
		b.st.Conversions++
	}
	lo, hi := tmin, tmax
	if t.Greater {
		lo, hi = ^tmax, ^tmin
	}
	k := kindOf(dc.Func)
	o := b.test(t, k, lo, hi, cover)
	if !dc.CanCull(backFacing) {
		o.Fail = Mask{}
	}
	if dc.Write {
		b.update(t, k, lo, hi, cover.AndNot(o.Fail), dc.Guaranteed(backFacing), pos)
	}
	return o
}

// ApplyFeedback applies feedback for tile ti: the tile's stored keys lay in
// [lo, hi] at position pos. Stale feedback (an event after pos could have
// moved values away from the viewer) is dropped; it reports whether it was
// applied.
func (b *Buffer) ApplyFeedback(ti int, lo, hi uint32, pos Pos) bool {
	if applyFeedback(&b.tiles[ti], b.layers(), lo, hi, pos) {
		b.st.FeedbackApplied++
		return true
	}
	b.st.FeedbackStale++
	return false
}

// Forget records that the samples in live of the quad at (qx, qy), of a 5D
// primitive of a decoupled draw (stochastic rasterization, which HiZ does not
// test: it has no plane to bound its depths by), may be written with depths
// HiZ does not know. Every tile they touch becomes unknown (no culling, no
// trivial accept, feedback dropped) until the next Clear, and their samples
// unknown in the per-sample replica, so that no later primitive is culled on
// a stale bound. A draw that cannot write depth (dc.Write false, or HiZ not
// active) changes nothing.
func (b *Buffer) Forget(dc *DrawContext, qx, qy int32, live raster.SampleMask, pos Pos) {
	if !dc.Active || !dc.Write {
		return
	}
	for pix := 0; pix < 4; pix++ {
		if live[pix] == 0 {
			continue
		}
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		if x < 0 || y < 0 || x >= b.geo.Width || y >= b.geo.Height {
			continue
		}
		ti, bit0 := b.geo.TileOf(x, y)
		if t := &b.tiles[ti]; t.Known {
			*t = TileState{Barrier: pos}
			b.st.Forgotten++
		}
		if b.rep != nil {
			lo, hi := b.rep.tile(ti)
			for m := live[pix]; m != 0; m &= m - 1 {
				if bit := bit0 + bits.TrailingZeros64(m); bit < len(lo) {
					lo[bit], hi[bit] = 1, 0
				}
			}
		}
	}
}

// Touched appends to out the tiles that the live samples of quads cover, in
// order of first appearance (the lines the HiZ unit must hold before
// ProcessQuads).
func (b *Buffer) Touched(quads []raster.Quad, live []raster.SampleMask, out []int) []int {
	for i, q := range quads {
		for pix := 0; pix < 4; pix++ {
			if live[i][pix] == 0 {
				continue
			}
			x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
			if x < 0 || y < 0 || x >= b.geo.Width || y >= b.geo.Height {
				continue
			}
			ti, _ := b.geo.TileOf(x, y)
			if len(out) == 0 || !containsInt(out, ti) {
				out = append(out, ti)
			}
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == v {
			return true
		}
	}
	return false
}

// ProcessQuads runs HiZ for the quads of primitive p in one raster tile (the
// quads in order, with their live samples): for every HiZ tile they cover, in
// order of first appearance, the coarse test and update; the samples culled
// are cleared from live. cfg is the draw's raster configuration (for the
// primitive's depths). It returns how many quads lost every live sample.
// Samples outside the target are left alone.
func (b *Buffer) ProcessQuads(dc *DrawContext, cfg *raster.Config, p *pipeline.Primitive, quads []raster.Quad,
	live []raster.SampleMask, pos Pos) (quadsCulled int) {
	if !dc.Active {
		b.st.PassThrough++
		return 0
	}
	b.gather(quads, live)
	if b.cfg.Mode == Oracle && b.table != nil {
		b.tablePieces(dc, p, quads, live, pos)
		return b.scatter(quads, live)
	}
	back := p.Triangle.BackFacing
	for i := range b.pieces {
		pc := &b.pieces[i]
		b.deliverFeedback()
		if b.cfg.Mode == Oracle {
			pc.fail = b.oraclePiece(dc, cfg, p, pc.tile, pc.cover, back)
		} else {
			x0, y0, x1, y1 := b.geo.TileRect(pc.tile)
			bb := p.Triangle.BBox
			x0, y0, x1, y1 = max(x0, bb.X0), max(y0, bb.Y0), min(x1, bb.X1), min(y1, bb.Y1)
			tmin, tmax := dc.ZRange[0], dc.ZRange[1]
			if !dc.ShaderDepth {
				tmin, tmax = PrimitiveBounds(&p.Triangle, cfg, dc.Target.Format, x0, y0, x1, y1)
			}
			o := b.Piece(dc, back, pc.tile, tmin, tmax, pc.cover, pos)
			pc.fail = o.Fail
			b.count1(pc.cover, o)
			if b.rep != nil {
				b.replicaUpdate(dc, cfg, p, pc.tile, pc.cover.AndNot(o.Fail), back, pos)
				b.produceFeedback(pc.tile, pos)
			}
		}
		b.count++
	}
	return b.scatter(quads, live)
}

// gather collects the pieces of the quads' live samples.
func (b *Buffer) gather(quads []raster.Quad, live []raster.SampleMask) {
	b.pieces = b.pieces[:0]
	n := b.geo.Samples
	last := -1
	for i, q := range quads {
		for pix := 0; pix < 4; pix++ {
			pm := live[i][pix]
			x, y, ok := b.pixelAt(q, pix, pm)
			if !ok {
				continue
			}
			ti, bit0 := b.geo.TileOf(x, y)
			if last < 0 || b.pieces[last].tile != ti {
				last = b.pieceOf(ti)
				if last < 0 {
					b.pieces = append(b.pieces, piece{tile: ti})
					last = len(b.pieces) - 1
				}
			}
			b.pieces[last].cover.OrBits(bit0, pm, n)
		}
	}
}

// pixelAt returns pixel pix of quad q; ok is false when the pixel has no
// samples in pm or lies off the buffer.
func (b *Buffer) pixelAt(q raster.Quad, pix int, pm uint64) (x, y int, ok bool) {
	x, y = int(q.X)+pix&1, int(q.Y)+pix>>1
	return x, y, pm != 0 && x >= 0 && y >= 0 && x < b.geo.Width && y < b.geo.Height
}

// pieceOf returns the index of tile ti's piece, or -1 when it has none.
func (b *Buffer) pieceOf(ti int) int {
	for k := range b.pieces {
		if b.pieces[k].tile == ti {
			return k
		}
	}
	return -1
}

// scatter removes the failed samples from the live masks; it returns the
// quads left without live samples.
func (b *Buffer) scatter(quads []raster.Quad, live []raster.SampleMask) int {
	any := false
	for i := range b.pieces {
		if !b.pieces[i].fail.Empty() {
			any = true
			break
		}
	}
	if !any {
		return 0
	}
	n := b.geo.Samples
	culled := 0
	last := -1
	for i, q := range quads {
		if live[i].Empty() {
			continue
		}
		for pix := 0; pix < 4; pix++ {
			x, y, ok := b.pixelAt(q, pix, live[i][pix])
			if !ok {
				continue
			}
			ti, bit0 := b.geo.TileOf(x, y)
			if last < 0 || b.pieces[last].tile != ti {
				if k := b.pieceOf(ti); k >= 0 {
					last = k
				}
			}
			live[i][pix] &^= b.pieces[last].fail.BitsAt(bit0, n)
		}
		if live[i].Empty() {
			culled++
		}
	}
	b.st.QuadsCulled += uint64(culled)
	return culled
}

// count1 records one coarse test.
func (b *Buffer) count1(cover Mask, o Outcome) {
	b.st.Tiles++
	nc := cover.Count()
	nf := o.Fail.Count()
	b.st.Samples += uint64(nc)
	b.st.SamplesCulled += uint64(nf)
	switch {
	case nf == nc:
		b.st.TilesCulled++
	case o.Accept:
		b.st.TilesAccepted++
		b.st.SamplesAccept += uint64(nc)
	default:
		b.st.TilesAmbiguous++
	}
	left := cover.AndNot(o.Fail)
	for u := 0; u < b.geo.TileSamples; u += 16 {
		w, sh := u>>6, uint(u&63)
		c := (cover[w] >> sh) & 0xFFFF
		if c == 0 {
			continue
		}
		b.st.Units++
		if (left[w]>>sh)&0xFFFF == 0 {
			b.st.UnitsCulled++
		}
	}
}

// fragment returns the key interval of the fragment of p at sample bit of tile ti.
func (b *Buffer) fragment(dc *DrawContext, cfg *raster.Config, p *pipeline.Primitive, ti, bit int) (uint32, uint32) {
	if dc.ShaderDepth {
		return dc.ZRange[0], dc.ZRange[1]
	}
	x, y, s := b.geo.PixelOf(ti, bit)
	k := depth.Quantize(p.Triangle.SampleDepth(cfg, x, y, s), dc.Target.Format)
	return k, k
}

// oraclePiece is the Oracle's coarse test and update: every covered sample is
// tested exactly against the replica.
func (b *Buffer) oraclePiece(dc *DrawContext, cfg *raster.Config, p *pipeline.Primitive, ti int, cover Mask, back bool) Mask {
	lo, hi := b.rep.tile(ti)
	var fail Mask
	accept := true
	canCull := dc.CanCull(back)
	for w := range cover {
		for m := cover[w]; m != 0; m &= m - 1 {
			bit := w*64 + bits.TrailingZeros64(m)
			fa, fb := b.fragment(dc, cfg, p, ti, bit)
			if canCull && sampleFails(dc.Func, fa, fb, lo[bit], hi[bit]) {
				fail.Set(bit)
				accept = false
				continue
			}
			if !samplePasses(dc.Func, fa, fb, lo[bit], hi[bit]) {
				accept = false
			}
			if dc.Write {
				lo[bit], hi[bit] = sampleWrite(dc.Func, fa, fb, lo[bit], hi[bit], dc.Guaranteed(back))
			}
		}
	}
	b.count1(cover, Outcome{Fail: fail, Accept: accept})
	return fail
}

// replicaUpdate writes the surviving samples into the replica (ideal
// feedback). With an OracleTable the replica knows which samples were really
// written (the visible ones): it then holds the exact depth buffer.
func (b *Buffer) replicaUpdate(dc *DrawContext, cfg *raster.Config, p *pipeline.Primitive, ti int, surv Mask, back bool, pos Pos) {
	if !dc.Write {
		return
	}
	lo, hi := b.rep.tile(ti)
	var qk OracleKey
	var vis raster.SampleMask
	looked, inTable := false, false
	for w := range surv {
		for m := surv[w]; m != 0; m &= m - 1 {
			bit := w*64 + bits.TrailingZeros64(m)
			fa, fb := b.fragment(dc, cfg, p, ti, bit)
			if b.table == nil {
				lo[bit], hi[bit] = sampleWrite(dc.Func, fa, fb, lo[bit], hi[bit], dc.Guaranteed(back))
				continue
			}
			x, y, s := b.geo.PixelOf(ti, bit)
			k := OracleKey{Draw: pos.Draw, Prim: pos.Prim, X: int32(x &^ 1), Y: int32(y &^ 1)}
			if !looked || k != qk {
				qk, looked = k, true
				vis, inTable = b.table.Visible(k)
			}
			switch {
			case !inTable: // a quad the table does not know: as without it
				lo[bit], hi[bit] = sampleWrite(dc.Func, fa, fb, lo[bit], hi[bit], dc.Guaranteed(back))
			case vis.Has((y&1)*2+(x&1), s): // visible: written
				lo[bit], hi[bit] = sampleWrite(dc.Func, fa, fb, lo[bit], hi[bit], true)
			}
		}
	}
}

// produceFeedback queues the ideal feedback of tile ti (its true bounds now).
func (b *Buffer) produceFeedback(ti int, pos Pos) {
	if b.cfg.Feedback != IdealFeedback {
		return
	}
	lo, hi, ok := b.rep.bounds(ti, b.valid(ti))
	if !ok {
		return
	}
	b.fifo = append(b.fifo, feedbackEntry{tile: ti, lo: lo, hi: hi, pos: pos, at: b.count + 1})
}

// deliverFeedback applies the queued ideal feedback whose delay is over: an
// entry produced by the n-th coarse test is applied before the test number
// n + FeedbackDelay + 1 (delay 0: before the very next test).
func (b *Buffer) deliverFeedback() {
	for b.fHead < len(b.fifo) && b.fifo[b.fHead].at+uint64(b.cfg.FeedbackDelay) <= b.count {
		e := &b.fifo[b.fHead]
		b.ApplyFeedback(e.tile, e.lo, e.hi, e.pos)
		b.fHead++
	}
	if b.fHead == len(b.fifo) {
		b.fifo, b.fHead = b.fifo[:0], 0
	} else if b.fHead > 1024 && 2*b.fHead > len(b.fifo) {
		n := copy(b.fifo, b.fifo[b.fHead:])
		b.fifo, b.fHead = b.fifo[:n], 0
	}
}

// QueuedFeedback returns the ideal feedback entries waiting for their delay.
func (b *Buffer) QueuedFeedback() int { return len(b.fifo) - b.fHead }

// Count returns the coarse tests processed so far.
func (b *Buffer) Count() uint64 { return b.count }
