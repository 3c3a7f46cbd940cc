package rop

import (
	"fmt"
	mbits "math/bits"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/state"
)

// resolver walks the tiles a partition owns at Present, one row of tiles (a
// band) at a time: every sample line of the band's tiles is read through the
// colour cache; when the band's quads have gone through the resolve pipeline,
// its display lines are written.
type resolver struct {
	cmd            *protocol.PresentCmd
	target         *framebuffer.ColorTarget
	w, h           int
	tilesX, tilesY int
	next           int     // next band to start
	bands          []*band // started bands, oldest first
	lastLine       uint64  // the last display line written
	wrote          bool
	seenBase       uint64   // the colour line holding the target's first byte
	seen           []uint64 // one bit per colour line the resolve read
}

// see records that the resolve read colour line l (of lineSize bytes).
func (r *resolver) see(l, lineSize uint64) {
	if l < r.seenBase {
		return
	}
	i := (l - r.seenBase) / lineSize
	if i/64 < uint64(len(r.seen)) {
		r.seen[i/64] |= 1 << (i % 64)
	}
}

// countPresentLines counts the compression tags of the colour lines the
// resolve read, once the flush has written every dirty line back.
func (c *Comp) countPresentLines() {
	r := &c.res
	line := c.cache.LineSize()
	for w, bits := range r.seen {
		for ; bits != 0; bits &= bits - 1 {
			l := r.seenBase + (uint64(w)*64+uint64(mbits.TrailingZeros64(bits)))*line
			c.st.presentLines++
			switch c.cache.State(l) {
			case rtcache.Compressed:
				c.st.presentCompressed++
			case rtcache.Cleared:
				c.st.presentCleared++
			}
		}
	}
}

func (r *resolver) finished() bool { return r.next >= r.tilesY && len(r.bands) == 0 }

// startResolve prepares the resolve of the colour target of m.
func (c *Comp) startResolve(m *protocol.PresentCmd) error {
	t := m.Target
	if c.Image == nil {
		return fmt.Errorf("PresentCmd %s: the ROP has no memory image to resolve", m.ID)
	}
	ct, err := state.ColorTargetView(c.Image, t)
	if err != nil {
		return fmt.Errorf("PresentCmd %s: %w", m.ID, err)
	}
	f, size := ct.Format, ct.SizeBytes()
	ts := c.Cfg.TileSize
	line := c.cache.LineSize()
	lo := t.Addr &^ (line - 1)
	nl := (t.Addr + size - lo + line - 1) / line
	c.res = resolver{cmd: m, target: ct, w: ct.Width, h: ct.Height,
		tilesX: (ct.Width + ts - 1) / ts, tilesY: (ct.Height + ts - 1) / ts,
		seenBase: lo, seen: make([]uint64, (nl+63)/64)}
	c.cache.SetSurface(rtcache.Surface{Base: t.Addr, Size: size, Samples: ct.Samples, BytesPerSample: f.BytesPerSample()})
	return nil
}

func (c *Comp) owns(tx, ty int) bool {
	return protocol.TileOwner(tx, ty, c.Cfg.PartitionStride, c.Cfg.NumPartitions) == c.Cfg.Index
}

// position returns the pixel position of the band's next quad; false when the
// band has none left.
func (c *Comp) position(b *band) (int, int, bool) {
	r, ts := &c.res, c.Cfg.TileSize
	for b.lookTX < r.tilesX {
		if c.owns(b.lookTX, b.ty) && b.lookQY < ts {
			x, y := b.lookTX*ts+b.lookQX, b.ty*ts+b.lookQY
			if y < r.h {
				return x, y, true
			}
		}
		b.lookTX++
		b.lookQX, b.lookQY = 0, 0
	}
	return 0, 0, false
}

// advance moves the band's cursor to the next quad of its tile.
func (c *Comp) advance(b *band) {
	b.lookQX += 2
	if b.lookQX >= c.Cfg.TileSize || b.lookTX*c.Cfg.TileSize+b.lookQX >= c.res.w {
		b.lookQX = 0
		b.lookQY += 2
	}
}

// lookupResolve looks up the sample lines of the next quads of the resolve.
func (c *Comp) lookupResolve(now sim.VTimeInSec) bool {
	progress := false
	r := &c.res
	for {
		var b *band
		if n := len(r.bands); n > 0 && !r.bands[n-1].all {
			b = r.bands[n-1]
		} else {
			if r.next >= r.tilesY {
				break
			}
			b = &band{ty: r.next}
			r.next++
			r.bands = append(r.bands, b)
			progress = true
		}
		x, y, ok := c.position(b)
		if !ok {
			b.all = true
			progress = true
			continue
		}
		slot, q, resumed, ok := c.claimRec()
		if !ok {
			break
		}
		if !resumed {
			q.b, q.x, q.y = b, x, y
		}
		ok, changed := c.lookRec(now, slot, q)
		progress = progress || changed
		if !ok {
			break
		}
		b.n++
		c.advance(b)
	}
	return progress
}

// finishBands writes the display lines of the bands whose quads are resolved.
func (c *Comp) finishBands() bool {
	progress := false
	r := &c.res
	for len(r.bands) > 0 {
		b := r.bands[0]
		if !b.all || b.done < b.n {
			break
		}
		c.writeBand(b)
		r.bands = r.bands[1:]
		progress = true
	}
	return progress
}

// writeBand queues the display lines that hold pixels of the band's tiles,
// each once, as whole lines carrying the resolved pixels (pixels of other
// partitions' tiles in a shared line are resolved too: every draw is complete,
// so they are final) and, outside the display buffer, the image's bytes.
func (c *Comp) writeBand(b *band) {
	r, ts := &c.res, c.Cfg.TileSize
	line := c.displayLine
	d := r.cmd.Display
	for y := b.ty * ts; y < min(r.h, (b.ty+1)*ts); y++ {
		for tx := 0; tx < r.tilesX; tx++ {
			if !c.owns(tx, b.ty) {
				continue
			}
			x0, x1 := tx*ts, min(r.w, (tx+1)*ts)
			start := d + uint64(y*r.w+x0)*4
			end := d + uint64(y*r.w+x1)*4
			for l := start &^ (line - 1); l < end; l += line {
				if r.wrote && l <= r.lastLine {
					continue
				}
				c.writeDisplayLine(l)
				r.lastLine, r.wrote = l, true
			}
		}
	}
}

// writeDisplayLine builds display line l (the resolved pixels, and the image's
// bytes outside the display buffer), stores the resolved pixels of this
// partition's tiles in the image when the display buffer is mapped there (other
// partitions store theirs), and queues the line's write.
func (c *Comp) writeDisplayLine(l uint64) {
	r := &c.res
	size := c.displayLine
	data := make([]byte, size)
	c.Image.ReadAt(data, l)
	d := r.cmd.Display
	start := max(l, d)
	end := min(l+size, d+uint64(r.w*r.h)*4)
	var img []byte
	if start < end {
		img, _ = c.Image.Slice(start, end-start)
	}
	for a := start; a < end; {
		k := (a - d) / 4
		off := (a - d) % 4
		x, y := int(k)%r.w, int(k)/r.w
		px := r.target.ResolvePixel(x, y)
		n := min(4-off, end-a)
		copy(data[a-l:], px[off:off+n])
		if img != nil && c.owns(x/c.Cfg.TileSize, y/c.Cfg.TileSize) {
			copy(img[a-start:], px[off:off+n])
		}
		a += n
	}
	c.cache.QueueWrite(l, data)
	c.st.resolveLines++
	c.st.resolveBytes += size
}
