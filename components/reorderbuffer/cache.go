package reorderbuffer

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// missWarpQueue is the number of flushed miss warps that may wait for a shader
// core.
const missWarpQueue = 2

// recSample is one sample of a visibility record: its pixel and sample index,
// its look-up (in the VisibilityQuads message) and the shading-cache entry of
// each tap (-1 while not looked up).
type recSample struct {
	pix, s uint8
	lookup *decouple.Lookup
	entry  [4]int32
}

// heldTag is a distinct tag a record references, and the entry holding it.
type heldTag struct {
	tag   decouple.Tag
	entry int32
}

// visRecord is a visibility record: one visibility quad (or, after a split,
// part of its samples) waiting in the ring for its shading.
type visRecord struct {
	prim    *pipeline.Primitive
	x, y    int32
	live    raster.SampleMask // the record's samples
	more    bool              // a later record holds the rest of the quad's samples
	samples []recSample
	held    []heldTag // one reference each
}

// pendingRecord is the visibility quad under look-up: the quad at the cursor
// of the VisibilityQuads message at the head of the input.
type pendingRecord struct {
	active  bool
	full    raster.SampleMask // the quad's live samples (helper lanes of supersampled shading quads)
	samples []recSample       // the samples not yet split off
	next    int               // next sample to look up
	tap     int               // its next tap
	held    []heldTag
	split   bool // a part of the quad was split off already
}

// cacheStall is why the look-up stage stopped.
type cacheStall uint8

const (
	stallNone cacheStall = iota
	stallAllReferenced
	stallRefOverflow
	stallRing  // no free ring entry for a record
	stallCores // the miss-warp queue is full
	stallInput // the look-up budget is spent or the input holds no visibility quads
)

// Look-up stall states (the stalls activity's indices; the last, not stalled,
// is the initial state).
const (
	stallStateAllReferenced = iota
	stallStateRefOverflow
	stallStateNone
)

// shadingCacheMode is the reorder buffer's shading-cache mode (decoupled
// sampling): the cache, its shaded values, the visibility records and the
// look-up stage's state.
type shadingCacheMode struct {
	tags            *ShadingCache[decouple.Tag]
	values          []pipeline.ShadingLanes // per cache entry
	quadsPerWarp    int
	lookupsPerCycle int

	records []visRecord // per ring index
	pend    pendingRecord
	cursor  int // next quad of the VisibilityQuads at the head of the input

	open       []protocol.ShadingQuad // the open miss warp
	openDraw   *protocol.Draw
	openSS     bool
	warps      []*protocol.ShadingWarp // flushed miss warps waiting for a core
	queued     bool                    // a warp joined warps after this cycle's send: send it next cycle
	nextWarpID uint64

	stallKind cacheStall       // this cycle's look-up stall
	stalls    *timing.Activity // cycles by look-up stall (stallState*)

	st cacheCounters

	// The earlier parts of a split visibility quad, absorbed at the head
	// (their references released) until its last part retires with them as
	// one ShadedVisibilityQuad: the ROPs and the depth units see every
	// visibility quad once.
	split      []splitSample
	splitLive  raster.SampleMask
	splitParts uint64
}

// cacheCounters are the shading cache's statistics (beside its tags' CacheStats).
type cacheCounters struct {
	shadingQuads   uint64 `stat:"shading_quads"`
	shadingWarps   uint64 `stat:"shading_warps"`
	filledWarps    uint64 `stat:"shaded_shading_warps"`
	visQuads       uint64 `stat:"visibility_quads"`
	visRecords     uint64 `stat:"visibility_records"`
	splits         uint64 `stat:"record_splits"`
	retiredRecords uint64 `stat:"retired_records"`
	entriesFlushed uint64 `stat:"cache_entries_flushed"` // shaded entries dropped by FlushCmd
}

// splitSample is a reconstructed sample of an absorbed part of a split quad.
type splitSample struct {
	pix, s uint8
	kept   bool
	color  geom.Vec4
	depth  float32
}

// absorbPart reconstructs the samples of the ready record at the head, an
// earlier part of a split visibility quad (More), into the split buffer, so
// that its cache references can be released before the quad's last part is
// ready.
func (sc *shadingCacheMode) absorbPart(rec *visRecord) {
	for i := range rec.samples {
		smp := &rec.samples[i]
		c, dp, store := sc.reconstruct(smp)
		sc.split = append(sc.split, splitSample{pix: smp.pix, s: smp.s, kept: store, color: c, depth: dp})
	}
	sc.splitLive = sc.splitLive.Or(rec.live)
	sc.splitParts++
}

func newShadingCacheMode(entries, refBits, ringSize, quadsPerWarp, lookupsPerCycle int) (*shadingCacheMode, error) {
	t, err := NewShadingCache[decouple.Tag](entries, refBits)
	if err != nil {
		return nil, err
	}
	return &shadingCacheMode{tags: t, values: make([]pipeline.ShadingLanes, entries), quadsPerWarp: quadsPerWarp,
		stalls:          timing.NewActivity("all_referenced", "ref_overflow", "none"),
		lookupsPerCycle: lookupsPerCycle, records: make([]visRecord, ringSize),
		open: make([]protocol.ShadingQuad, 0, quadsPerWarp)}, nil
}

// lookupVisibility runs the look-up stage on VisibilityQuads m at the head of
// the input, with *budget tag look-ups left this cycle. done reports that every
// quad of m entered the ring (the caller retrieves m).
func (c *Comp) lookupVisibility(cycle uint64, m *protocol.VisibilityQuads, budget *int) (done, progress bool, stall cacheStall) {
	sc := c.cache
	for sc.cursor < len(m.Quads) {
		if !sc.pend.active {
			if sc.openDraw != nil && sc.openDraw != m.Draw && !c.flushMissWarp() {
				return false, progress, stallCores
			}
			sc.start(m, sc.cursor)
		}
		p, st := c.lookupRecord(m, budget)
		progress = progress || p
		switch st {
		case stallNone:
		case stallAllReferenced, stallRefOverflow:
			if c.entries.free() >= 1 && c.splitRecord(cycle, m) {
				progress = true
			}
			return false, progress, st
		default:
			return false, progress, st
		}
		if c.entries.free() < 1 {
			return false, progress, stallRing
		}
		c.commit(cycle, m, &sc.pend.samples, false)
		sc.pend.active = false
		sc.cursor++
		progress = true
	}
	sc.cursor = 0
	return true, progress, stallNone
}

// start makes quad q of m the pending record.
func (sc *shadingCacheMode) start(m *protocol.VisibilityQuads, q int) {
	vq := &m.Quads[q]
	p := &sc.pend
	p.active, p.full, p.next, p.tap, p.split = true, vq.Live, 0, 0, false
	p.samples, p.held = p.samples[:0], p.held[:0]
	k := 0
	for pix := 0; pix < 4; pix++ {
		for bm := vq.Live[pix]; bm != 0; bm &= bm - 1 {
			s := bits.TrailingZeros64(bm)
			p.samples = append(p.samples, recSample{pix: uint8(pix), s: uint8(s), lookup: &vq.Lookups[k],
				entry: [4]int32{-1, -1, -1, -1}})
			k++
		}
	}
	sc.st.visQuads++
}

// lookupRecord looks up the taps of the pending record's samples in order,
// each distinct tag once (one reference per distinct tag per record), until
// every sample is done (stallNone), the budget is spent, or the cache stalls.
func (c *Comp) lookupRecord(m *protocol.VisibilityQuads, budget *int) (progress bool, st cacheStall) {
	sc := c.cache
	p := &sc.pend
	for ; p.next < len(p.samples); p.next, p.tap = p.next+1, 0 {
		smp := &p.samples[p.next]
		for ; p.tap < smp.lookup.N; p.tap++ {
			tag := smp.lookup.Taps[p.tap].Tag
			if e := p.holds(tag); e >= 0 {
				smp.entry[p.tap] = e
				continue
			}
			if *budget == 0 {
				return progress, stallInput
			}
			if len(sc.open) == sc.quadsPerWarp && !c.flushMissWarp() {
				return progress, stallCores
			}
			i, res := sc.tags.Lookup(tag)
			switch res {
			case CacheStallAllReferenced:
				return progress, stallAllReferenced
			case CacheStallRefOverflow:
				return progress, stallRefOverflow
			case CacheMiss:
				sc.open = append(sc.open, protocol.ShadingQuad{Entry: i, Prim: m.Prim, Tag: tag, Live: p.full})
				sc.openDraw = m.Draw
				sc.openSS = m.Prim.Blur.Decoupled != nil && m.Prim.Blur.Decoupled.Supersample
				sc.st.shadingQuads++
				if len(sc.open) == sc.quadsPerWarp {
					c.flushMissWarp() // retried before the next miss when the queue is full
				}
			}
			*budget--
			progress = true
			p.held = append(p.held, heldTag{tag: tag, entry: int32(i)})
			smp.entry[p.tap] = int32(i)
		}
	}
	return progress, stallNone
}

// holds returns the entry of tag if the pending record references it, else -1.
func (p *pendingRecord) holds(tag decouple.Tag) int32 {
	for i := range p.held {
		if p.held[i].tag == tag {
			return p.held[i].entry
		}
	}
	return -1
}

// splitRecord, on a stalled look-up, makes the pending record's samples whose
// taps are all referenced a record of their own (with the references of their
// tags); the rest stays pending and looks its other taps up again (hits).
// It reports whether anything was split off.
func (c *Comp) splitRecord(cycle uint64, m *protocol.VisibilityQuads) bool {
	sc := c.cache
	p := &sc.pend
	var part, rest []recSample
	for k := range p.samples {
		smp := p.samples[k]
		all := true
		for t := 0; t < smp.lookup.N; t++ {
			e := p.holds(smp.lookup.Taps[t].Tag)
			if e < 0 {
				all = false
				break
			}
			smp.entry[t] = e
		}
		if all {
			part = append(part, smp)
		} else {
			smp.entry = [4]int32{-1, -1, -1, -1}
			rest = append(rest, smp)
		}
	}
	if len(part) == 0 {
		return false
	}
	rec := c.commit(cycle, m, &part, true)
	// The references of the part's tags went with it; the rest keeps the others.
	kept := p.held[:0]
	for _, h := range p.held {
		if !rec.uses(h.tag) {
			kept = append(kept, h)
		}
	}
	p.held = kept
	p.samples = append(p.samples[:0], rest...)
	p.next, p.tap, p.split = 0, 0, true
	sc.st.splits++
	return true
}

// uses reports whether the record references tag.
func (r *visRecord) uses(tag decouple.Tag) bool {
	for i := range r.held {
		if r.held[i].tag == tag {
			return true
		}
	}
	return false
}

// commit puts samples of the pending record into the ring as one visibility
// record (more: a later record holds the rest of the quad), with one reference
// on each distinct tag its taps use, taken over from the pending record.
func (c *Comp) commit(cycle uint64, m *protocol.VisibilityQuads, samples *[]recSample, more bool) *visRecord {
	sc := c.cache
	vq := &m.Quads[sc.cursor]
	c.occupancy(cycle)
	idx := c.entries.alloc(1) % c.entries.size()
	rec := &sc.records[idx]
	rec.prim, rec.x, rec.y, rec.more = m.Prim, vq.X, vq.Y, more
	rec.live = raster.SampleMask{}
	rec.samples = append(rec.samples[:0], *samples...)
	rec.held = rec.held[:0]
	for k := range rec.samples {
		smp := &rec.samples[k]
		rec.live[smp.pix] |= 1 << smp.s
		for t := 0; t < smp.lookup.N; t++ {
			tag := smp.lookup.Taps[t].Tag
			if !rec.uses(tag) {
				rec.held = append(rec.held, heldTag{tag: tag, entry: smp.entry[t]})
			}
		}
	}
	*c.entries.at(idx) = Entry{State: EntryShading, Visibility: true, Record: idx, Draw: m.Draw,
		Partition: m.Partition, Prim: m.Prim}
	c.noteMax()
	sc.st.visRecords++
	return rec
}

// recordReady reports whether every cache entry record rec references is shaded.
func (sc *shadingCacheMode) recordReady(rec *visRecord) bool {
	for _, h := range rec.held {
		if !sc.tags.Ready(int(h.entry)) {
			return false
		}
	}
	return true
}

// flushMissWarp moves the open miss warp to the queue of warps waiting for a
// core; false when the queue is full. An empty warp flushes trivially.
func (c *Comp) flushMissWarp() bool {
	sc := c.cache
	if len(sc.open) == 0 {
		sc.openDraw = nil
		return true
	}
	if len(sc.warps) == missWarpQueue {
		return false
	}
	w := protocol.NewShadingWarp(sc.openDraw, sc.nextWarpID, sc.openSS, sc.open)
	w.ReturnTo = c.FromShaderCores
	sc.warps = append(sc.warps, w)
	sc.queued = true
	sc.nextWarpID++
	sc.st.shadingWarps++
	sc.open = make([]protocol.ShadingQuad, 0, sc.quadsPerWarp)
	sc.openDraw = nil
	return true
}

// sendMissWarps dispatches the queued miss warps to the shader cores,
// round-robin, oldest first, while a core accepts.
func (c *Comp) sendMissWarps(now sim.VTimeInSec) (progress bool) {
	sc := c.cache
	sc.queued = false
	for len(sc.warps) > 0 {
		w := sc.warps[0]
		w.Src, w.SendTime = c.ToShaderCores, now
		if !c.sendRoundRobin(w) {
			return progress
		}
		n := copy(sc.warps, sc.warps[1:])
		sc.warps[n] = nil
		sc.warps = sc.warps[:n]
		progress = true
	}
	return progress
}

// fillShading writes a shaded miss warp's lanes into its cache entries and
// marks them ready.
func (c *Comp) fillShading(sl *protocol.ShadedLanes) error {
	sc := c.cache
	w := sl.Warp
	if sc == nil || w == nil || len(sl.Lanes) != len(w.Quads) {
		return fmt.Errorf("unexpected ShadedLanes (no shading cache, no warp, or lanes for the wrong number of quads)")
	}
	for k := range w.Quads {
		q := &w.Quads[k]
		if q.Entry < 0 || q.Entry >= sc.tags.Entries() || sc.tags.State(q.Entry) != EntryShading || sc.tags.Tag(q.Entry) != q.Tag {
			return fmt.Errorf("shading warp %d quad %d: cache entry %d is not waiting for its tag", w.ID, k, q.Entry)
		}
	}
	for k := range w.Quads {
		sc.values[w.Quads[k].Entry] = sl.Lanes[k]
		sc.tags.Filled(w.Quads[k].Entry)
	}
	sc.st.filledWarps++
	return nil
}

// visibilityRun builds the ShadedSamples of the longest run (at most budget)
// of ready visibility records of the same draw and partition at the head.
func (c *Comp) visibilityRun(budget int) retiring {
	sc := c.cache
	h := c.entries.fromHead(0)
	n := 1
	for n < budget && n < c.entries.used {
		e := c.entries.fromHead(n)
		if !e.Visibility || e.Draw != h.Draw || e.Partition != h.Partition || !sc.recordReady(&sc.records[e.Record]) ||
			sc.records[e.Record].more { // an earlier part is absorbed at the head first
			break
		}
		n++
	}
	d := h.Draw.State
	colors := 0
	for k := 0; k < n; k++ {
		colors += len(sc.records[c.entries.fromHead(k).Record].samples)
	}
	colors += len(sc.split)
	col := make([]geom.Vec4, 0, colors)
	var dep []float32
	if d.PSResources.WritesDepth {
		dep = make([]float32, 0, colors)
	}
	quads := make([]protocol.ShadedVisibilityQuad, n)
	for k := range quads {
		rec := &sc.records[c.entries.fromHead(k).Record]
		q := &quads[k]
		q.Prim, q.X, q.Y, q.Live = rec.prim, rec.x, rec.y, rec.live
		c0, d0 := len(col), len(dep)
		if k == 0 && len(sc.split) > 0 {
			// The last part of a split quad: merge the absorbed parts, the
			// colours in pixel and sample order.
			for i := range rec.samples {
				smp := &rec.samples[i]
				color, depth, store := sc.reconstruct(smp)
				sc.split = append(sc.split, splitSample{pix: smp.pix, s: smp.s, kept: store, color: color, depth: depth})
			}
			slices.SortFunc(sc.split, func(a, b splitSample) int {
				return cmp.Or(cmp.Compare(a.pix, b.pix), cmp.Compare(a.s, b.s))
			})
			q.Live = q.Live.Or(sc.splitLive)
			for _, smp := range sc.split {
				if !smp.kept {
					continue
				}
				q.Kept[smp.pix] |= 1 << smp.s
				col = append(col, smp.color)
				if dep != nil {
					dep = append(dep, smp.depth)
				}
			}
			sc.split, sc.splitLive = sc.split[:0], raster.SampleMask{}
		} else {
			for i := range rec.samples {
				color, depth, store := sc.reconstruct(&rec.samples[i])
				if !store {
					continue
				}
				q.Kept[rec.samples[i].pix] |= 1 << rec.samples[i].s
				col = append(col, color)
				if dep != nil {
					dep = append(dep, depth)
				}
			}
		}
		q.Colors = col[c0:len(col):len(col)]
		if dep != nil {
			q.Depths = dep[d0:len(dep):len(dep)]
		}
	}
	m := protocol.NewShadedSamples(h.Draw, quads)
	m.Src, m.Dst = c.ToROPs, c.ROPs[h.Partition]
	return retiring{msg: m, entries: n, visibility: true}
}

// reconstruct returns a sample's colour, its shaded depth (supersampled
// shading) and whether the shader kept it, from the cache entries of its taps.
func (sc *shadingCacheMode) reconstruct(smp *recSample) (geom.Vec4, float32, bool) {
	var lanes [4]*pipeline.ShadingLanes
	for t := 0; t < smp.lookup.N; t++ {
		lanes[t] = &sc.values[smp.entry[t]]
	}
	c, store := pipeline.Reconstruct(smp.lookup, &lanes)
	return c, lanes[0].Depth[smp.lookup.Taps[0].Lane], store
}

// releaseRecords drops the references of the n visibility records at the head.
func (c *Comp) releaseRecords(n int) {
	sc := c.cache
	for k := 0; k < n; k++ {
		rec := &sc.records[c.entries.fromHead(k).Record]
		for _, h := range rec.held {
			if err := sc.tags.Release(int(h.entry)); err != nil {
				c.Fault.Fail(err)
			}
		}
		rec.prim, rec.held, rec.samples = nil, rec.held[:0], rec.samples[:0]
	}
	sc.st.retiredRecords += uint64(n)
}

// checkVisibility verifies a VisibilityQuads message before its look-ups.
func (c *Comp) checkVisibility(m *protocol.VisibilityQuads) error {
	switch {
	case c.cache == nil:
		return fmt.Errorf("VisibilityQuads, but the reorder buffer has no shading cache (ShadingCacheEntries 0)")
	case m.Draw == nil || m.Prim == nil || m.Prim.Blur == nil:
		return fmt.Errorf("VisibilityQuads without its draw or 5D primitive")
	case m.Partition < 0 || m.Partition >= c.Cfg.NumPartitions:
		return fmt.Errorf("VisibilityQuads for partition %d of %d", m.Partition, c.Cfg.NumPartitions)
	}
	for k := range m.Quads {
		q := &m.Quads[k]
		if len(q.Lookups) != q.Live.Count() {
			return fmt.Errorf("visibility quad %d has %d look-ups for %d live samples", k, len(q.Lookups), q.Live.Count())
		}
		for i := range q.Lookups {
			if n := q.Lookups[i].N; n < 1 || n > 4 {
				return fmt.Errorf("visibility quad %d: a sample with %d taps", k, n)
			} else if n > c.cache.tags.Entries() {
				return fmt.Errorf("ShadingCacheEntries (reorder_buffer.shading_cache_entries) %d cannot hold the %d taps of one sample (bilinear reconstruction needs 4)", c.cache.tags.Entries(), n)
			}
		}
	}
	return nil
}

// cacheStats reports the shading cache's counters (cache mode only).
func (c *Comp) cacheStats(n string, add func(string, float64)) {
	sc := c.cache
	if sc == nil {
		return
	}
	timing.AddTagged(n+".", add, &sc.tags.Stats)
	timing.AddTagged(n+".", add, &sc.st)
	add(n+".cache_all_referenced_cycles", float64(sc.stalls.Cycles(stallStateAllReferenced)))
	add(n+".ref_overflow_cycles", float64(sc.stalls.Cycles(stallStateRefOverflow)))
}

// dispatchVisibility runs the look-up stage on the VisibilityQuads at the head
// of the input and retrieves it once all its quads are in the ring. A stalled
// look-up flushes the open miss warp (so that the records it waits for can
// retire) and is counted.
func (c *Comp) dispatchVisibility(now sim.VTimeInSec, cycle uint64, m *protocol.VisibilityQuads, budget *int) (done, progress bool, wait dispatchWait) {
	sc := c.cache
	if sc == nil || (sc.cursor == 0 && !sc.pend.active) {
		if err := c.checkVisibility(m); err != nil {
			c.FromQuadPacker.Retrieve(now)
			c.Fault.Fail(err)
			return false, true, waitNone
		}
	}
	done, progress, st := c.lookupVisibility(cycle, m, budget)
	switch st {
	case stallAllReferenced, stallRefOverflow, stallRing:
		if c.flushMissWarpMoved() {
			progress = true
		}
		sc.stallKind = st
		return done, progress, waitFull
	case stallCores:
		return done, progress, waitCores
	}
	return done, progress, waitNone
}

// cacheIdle ends the cycle of the dispatch stage in cache mode: the stall
// accounting, and the open miss warp leaves when no visibility quad is waiting
// (nothing waits for ever).
func (c *Comp) cacheIdle(cycle uint64, progress *bool, wait *dispatchWait) {
	sc := c.cache
	if _, ok := c.FromQuadPacker.Peek().(*protocol.VisibilityQuads); !ok && c.flushMissWarpMoved() {
		*progress = true
	}
	// A warp that joined the queue after this cycle's send (a flush when the
	// draw changes, or when the open warp filled, before a stalled look-up)
	// goes out next cycle: the buffer must not sleep on it.
	if sc.queued {
		*progress = true
	}
	state := stallStateNone
	switch sc.stallKind {
	case stallAllReferenced:
		state = stallStateAllReferenced
	case stallRefOverflow:
		state = stallStateRefOverflow
	}
	sc.stalls.Set(cycle, state)
	sc.stallKind = stallNone
	if !*progress && *wait == waitNone && len(sc.warps) > 0 {
		*wait = waitCores
	}
}

// flushMissWarpMoved flushes the open miss warp and reports whether a warp
// moved to the queue.
func (c *Comp) flushMissWarpMoved() bool {
	if len(c.cache.open) == 0 {
		return false
	}
	return c.flushMissWarp()
}

// ready reports whether entry e may retire: a quad shaded or a marker, or a
// visibility record whose cache entries are all shaded.
func (c *Comp) ready(e *Entry) bool {
	if e.Visibility {
		return c.cache.recordReady(&c.cache.records[e.Record])
	}
	return e.State == EntryReady
}
