package depthunit

import (
	"encoding/binary"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/state"
)

// target is a depth target the unit has seen: its compression codec (and
// address inverse) and its HiZ tiling.
type target struct {
	addr   uint64
	db     *framebuffer.DepthTarget
	codec  *fhiz.DepthCodec
	geo    fhiz.Geometry
	hasGeo bool
}

// target returns the unit's record of draw d's depth target, registering the
// target for Z compression the first time (nil without a depth target).
func (c *Comp) target(d *state.Draw) *target {
	if d.DepthBuf == nil {
		return nil
	}
	for _, t := range c.targets {
		if t.addr == d.DepthDesc.Addr {
			return t
		}
	}
	db := d.DepthBuf
	t := &target{addr: d.DepthDesc.Addr, db: db}
	if c.Cfg.Cache.Compression || c.hizCfg.Feedback == fhiz.EvictFeedback {
		if codec, err := fhiz.NewDepthCodec(db.Geometry, db.Format, t.addr); err == nil {
			t.codec = codec
		}
	}
	if c.Cfg.Cache.Compression && t.codec != nil {
		if size, err := state.DepthTargetSize(db.Geometry, db.Format); err == nil {
			c.cache.SetSurface(rtcache.Surface{Base: t.addr, Size: size, Codec: t.codec})
		}
	}
	if c.hizCfg.Mode != fhiz.Off {
		g, err := fhiz.NewGeometry(fhiz.Target{Width: db.Width, Height: db.Height, Samples: db.Samples, Format: db.Format},
			c.hizCfg.TileSamples)
		t.geo, t.hasGeo = g, err == nil
	}
	c.targets = append(c.targets, t)
	return t
}

// clearKey returns the depth key a cleared target holds (its first word,
// which the clear wrote like every other).
func (c *Comp) clearKey(t command.Target) uint32 {
	var b [4]byte
	if c.Image != nil {
		c.Image.ReadAt(b[:], t.Addr)
	}
	k, _ := fhiz.StoredKey(binary.LittleEndian.Uint32(b[:]), fhizFormat(t.Format))
	return k
}

// queueHiZ queues a feedback message for the HiZ unit, dropping it when the
// queue is full (feedback is a hint).
func (c *Comp) queueHiZ(m *protocol.HiZFeedback) {
	if len(m.Tiles) == 0 {
		return
	}
	if len(c.toHiZ) >= c.Cfg.FeedbackQueue {
		c.st.fbDropped++
		return
	}
	c.toHiZ = append(c.toHiZ, m)
	c.st.fbMessages++
	c.st.fbTiles += uint64(len(m.Tiles))
}

// tileBounds measures HiZ tile ti of target t in the memory image: the
// smallest and largest stored key of its samples (false when a sample holds a
// value HiZ does not track).
func tileBounds(t *target, ti int) (lo, hi uint32, ok bool) {
	valid := t.geo.Valid(ti)
	lo, hi = fhiz.KeyUnknown, 0
	for b := 0; b < t.geo.TileSamples; b++ {
		if !valid.Has(b) {
			continue
		}
		x, y, s := t.geo.PixelOf(ti, b)
		v, _ := t.db.Load(x, y, s)
		k, ok := fhiz.StoredKey(v, t.db.Format)
		if !ok {
			return 0, 0, false
		}
		lo, hi = min(lo, k), max(hi, k)
	}
	return lo, hi, lo <= hi
}

// addTile records HiZ tile ti once in c.fbSeen.
func (c *Comp) addTile(ti int) {
	for _, v := range c.fbSeen {
		if v == ti {
			return
		}
	}
	c.fbSeen = append(c.fbSeen, ti)
}

// updateFeedback sends the bounds of the HiZ tiles a message's quads touched,
// right after its last quad was tested (UpdateFeedback): the depth buffer then
// holds every primitive up to that quad's, in API order.
func (c *Comp) updateFeedback(w *work, now sim.VTimeInSec) {
	d := w.draw.State
	if c.HiZ == nil || !testApplies(d) || !d.Depth.WritesDepth() {
		return
	}
	t := c.target(d)
	if t == nil || !t.hasGeo {
		return
	}
	c.fbSeen = c.fbSeen[:0]
	var last *pipeline.Primitive
	for i := 0; i < w.n; i++ {
		prim, q, live := w.quad(i)
		if prim != nil {
			last = prim
		}
		for pix := 0; pix < 4; pix++ {
			if live[pix] == 0 {
				continue
			}
			x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
			if x < 0 || y < 0 || x >= t.db.Width || y >= t.db.Height {
				continue
			}
			ti, _ := t.geo.TileOf(x, y)
			c.addTile(ti)
		}
	}
	if last == nil {
		return
	}
	tiles := make([]protocol.HiZTileBounds, 0, len(c.fbSeen))
	for _, ti := range c.fbSeen {
		if lo, hi, ok := tileBounds(t, ti); ok {
			tiles = append(tiles, protocol.HiZTileBounds{Tile: ti, Lo: lo, Hi: hi})
		}
	}
	c.queueHiZ(protocol.NewHiZFeedback(t.addr, w.draw.Seq, fhiz.PrimOrder(last.Source, last.Part), now, tiles))
}

// onEvict sends, when a dirty depth line leaves the cache (EvictFeedback), the
// bounds of the HiZ tiles it holds samples of whose every line was in the
// cache (the max-reduction needs the whole tile on chip).
func (c *Comp) onEvict(line uint64, dirty bool) {
	if !dirty || c.HiZ == nil {
		return
	}
	ls := c.cache.LineSize()
	for _, t := range c.targets {
		if !t.hasGeo || t.codec == nil || !t.codec.DepthPlane(line) {
			continue
		}
		c.fbSeen = c.fbSeen[:0]
		for off := uint64(0); off < ls; off += 4 {
			x, y, _, ok := t.codec.Sample(line + off)
			if !ok {
				continue
			}
			ti, _ := t.geo.TileOf(x, y)
			c.addTile(ti)
		}
		if len(c.fbSeen) == 0 {
			continue
		}
		var tiles []protocol.HiZTileBounds
		for _, ti := range c.fbSeen {
			if !c.tileOnChip(t, ti, line) {
				continue
			}
			if lo, hi, ok := tileBounds(t, ti); ok {
				tiles = append(tiles, protocol.HiZTileBounds{Tile: ti, Lo: lo, Hi: hi})
			}
		}
		c.queueHiZ(protocol.NewHiZFeedback(t.addr, c.maxPos.Draw, c.maxPos.Prim, c.Engine.CurrentTime(), tiles))
		return
	}
}

// tileOnChip reports whether every depth line of HiZ tile ti is in the cache
// (the line being evicted counts as present).
func (c *Comp) tileOnChip(t *target, ti int, evicted uint64) bool {
	valid := t.geo.Valid(ti)
	for b := 0; b < t.geo.TileSamples; b++ {
		if !valid.Has(b) {
			continue
		}
		x, y, s := t.geo.PixelOf(ti, b)
		l := c.cache.Line(t.addr + t.db.Address(x, y, s))
		if l != evicted && !c.cache.Present(l) {
			return false
		}
	}
	return true
}

func fhizFormat(f uint32) depth.Format { return depth.Format(f) }
