package commandprocessor

import (
	"github.com/sarchlab/akita/v3/mem/cache"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/state"
)

// addrRange is the bytes [lo, hi) of a render target or a texture.
type addrRange struct{ lo, hi uint64 }

func (r addrRange) overlaps(o addrRange) bool { return r.lo < o.hi && o.lo < r.hi }

// addRange appends r to rs unless it is already there.
func addRange(rs []addrRange, r addrRange) []addrRange {
	if r.hi <= r.lo {
		return rs
	}
	for _, x := range rs {
		if x == r {
			return rs
		}
	}
	return append(rs, r)
}

// coherence is what the CP remembers between sync tokens to decide which
// caches a sync token must flush or invalidate.
type coherence struct {
	// backEndDirty: a draw was dispatched since the ROPs and depth units last
	// wrote back their caches (at a sync token's flush or a Present).
	backEndDirty bool
	// written: render-target bytes drawn or cleared since the last sync
	// token; sampled: texture bytes bound by any draw of the frame (never
	// forgotten: a texture bound once may be cached until the next
	// invalidate). A sync token invalidates the texture caches when the two
	// overlap: a texture cache may hold lines of those bytes from before they
	// were written. Bytes written but not sampled by then cannot be in a
	// texture cache (no draw had bound them), and the sync token's back-end
	// flush puts them in memory: it forgets them, so a later sync token does
	// not invalidate for them again (their later reads fetch the new bytes).
	written, sampled []addrRange
	sampledDesc      []uint64 // descriptors already looked at

	skipFlush, skipInvalidate bool // test hooks (SkipSyncCoherence)

	flushes     uint64 `stat:"sync_flushes"` // statistics
	invalidates uint64 `stat:"sync_invalidates"`
}

// SkipSyncCoherence is a test hook: it makes the sync tokens skip the
// back-end flush (flush) and the texture-cache invalidate (invalidate), the
// mistakes the coherence checker (components/coherence) must catch. Call it
// before Start.
func (c *CommandProcessor) SkipSyncCoherence(flush, invalidate bool) {
	c.coh.skipFlush, c.coh.skipInvalidate = flush, invalidate
}

// noteDraw records what a dispatched draw writes (its colour target and, when
// bound, its depth target) and which textures it may sample.
func (c *CommandProcessor) noteDraw(d *state.Draw) {
	c.coh.backEndDirty = true
	if d.Color != nil {
		c.coh.written = addRange(c.coh.written, addrRange{d.ColorDesc.Addr, d.ColorDesc.Addr + d.Color.SizeBytes()})
	}
	if d.DepthBound && d.DepthBuf != nil {
		c.coh.written = addRange(c.coh.written, addrRange{d.DepthDesc.Addr, d.DepthDesc.Addr + d.DepthBuf.SizeBytes()})
	}
	if len(c.Samplers) == 0 && len(c.L2Controls) == 0 {
		return
	}
	for _, set := range [2]*[len(d.PSTextures)]state.TextureBinding{&d.VSTextures, &d.PSTextures} {
		for i := range set {
			if b := &set[i]; b.Texture != nil && b.Desc != 0 {
				c.noteTexture(b.Desc)
			}
		}
	}
}

// noteTexture adds the data bytes of the texture described at desc to the
// sampled ranges (once per descriptor).
func (c *CommandProcessor) noteTexture(desc uint64) {
	for _, d := range c.coh.sampledDesc {
		if d == desc {
			return
		}
	}
	c.coh.sampledDesc = append(c.coh.sampledDesc, desc)
	td := command.ReadTextureDescriptor(c.mem, desc)
	c.coh.sampled = addRange(c.coh.sampled, addrRange{td.Data, td.Data + uint64(td.Size)})
}

// noteClear records the bytes a clear wrote.
func (c *CommandProcessor) noteClear(t command.Target, size uint64) {
	c.coh.written = addRange(c.coh.written, addrRange{t.Addr, t.Addr + size})
}

// textureHazard reports whether a texture the frame bound overlaps bytes
// written since the last sync token.
func (c *CommandProcessor) textureHazard() bool {
	for _, w := range c.coh.written {
		for _, s := range c.coh.sampled {
			if w.overlaps(s) {
				return true
			}
		}
	}
	return false
}

// syncCoherence is the sync token's cache work, once every earlier draw is
// complete: the fence observer is told, the ROPs and depth units write back
// their dirty lines (protocol.FlushCmd without invalidate; sort-last machine
// only: the tiled machine's PassEnd has stored every tile) when a draw ran
// since their last write-back, and the texture samplers' L1s
// (protocol.FlushCmd with Invalidate) and the L2 banks (Akita's
// cache.FlushReq, which writes back and drops every line) are invalidated
// when a texture the frame bound overlaps a target written since the last
// invalidate. All are sent at once; it reports whether any was queued (the
// command then waits for every Done and FlushRsp).
func (c *CommandProcessor) syncCoherence(now sim.VTimeInSec) bool {
	if c.FenceObserver != nil {
		c.FenceObserver(now)
	}
	queued := false
	if c.coh.backEndDirty && c.Binner == nil && len(c.DepthUnits) > 0 && !c.coh.skipFlush {
		for _, rop := range c.ROPs {
			c.queue(protocol.NewFlushCmd(false), rop)
		}
		for _, du := range c.DepthUnits {
			c.queue(protocol.NewFlushCmd(false), du)
		}
		c.coh.backEndDirty = false
		c.coh.flushes++
		queued = true
	}
	if (len(c.Samplers) > 0 || len(c.L2Controls) > 0) && c.textureHazard() && !c.coh.skipInvalidate {
		for _, s := range c.Samplers {
			c.queue(protocol.NewFlushCmd(true), s)
		}
		for _, l := range c.L2Controls {
			req := cache.FlushReqBuilder{}.InvalidateAllCacheLines().Build()
			req.TrafficBytes = 8
			c.queue(req, l)
		}
		c.coh.invalidates++
		queued = true
	}
	if !c.coh.skipFlush {
		c.coh.written = c.coh.written[:0]
	}
	return queued
}
