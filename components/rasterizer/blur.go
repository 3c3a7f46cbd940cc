package rasterizer

import (
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
)

// The 5D primitives of decoupled draws (pipeline.Primitive.Blur != nil) are
// rasterized stochastically (functional/raster5d) in 32x32-pixel tiles, in
// Morton order, with the quads of a tile in Morton order. This rasterizer
// walks the tiles of raster5d.Triangle.Tiles it has a share of
// (protocol.BlurTileOwned: it owns one of the raster tiles the 32x32 tile
// overlaps), fine-rasterizes each (raster5d.Triangle.TileQuads, which tests
// the samples of the tile's (u, v, t) buckets) in
// max(1, ceil(sample tests / SampleTestsPerCycle)) cycles, and sends the
// quads of its own raster tiles, split by partition into one TileQuads per
// partition (Live = coverage, quads in Z order).

// rasterTileSize is the draw's raster tile edge.
func rasterTileSize(d *protocol.Draw) int {
	if d.Raster.TileSize > 0 {
		return d.Raster.TileSize
	}
	return raster.DefaultTileSize
}

// startBlur starts the walk of 5D primitive m's tiles.
func (c *Comp) startBlur(m *protocol.PrimitiveMsg) {
	t := &m.Prim.Blur.Tri
	ts := rasterTileSize(m.Draw)
	if tx0, ty0, tx1, ty1 := t.TileRange(); tx0 < tx1 && ty0 < ty1 &&
		protocol.BlurTilePrimary(tx0, ty0, ts, c.Cfg.RasterStride, c.Cfg.NumRasterizers) == c.Cfg.Index {
		c.cnt.Triangles5D[t.Case]++
	}
	c.blurTiles = t.Tiles(c.blurTiles[:0])
	c.blurNext = 0
	c.skipUnowned()
}

// skipUnowned moves the walk past the tiles this rasterizer has no share of
// and, when the primitive has a window, the tiles outside it.
func (c *Comp) skipUnowned() {
	ts := rasterTileSize(c.prim.Draw)
	w := c.prim.Window
	for c.blurNext < len(c.blurTiles) {
		tp := c.blurTiles[c.blurNext]
		if protocol.BlurTileOwned(tp.X, tp.Y, ts, c.Cfg.RasterStride, c.Cfg.NumRasterizers, c.Cfg.Index) &&
			(w.Empty() || tileMeetsWindow(tp.X, tp.Y, raster5d.TileSize, w)) {
			return
		}
		c.blurNext++
	}
}

// coarseBlur queues the next TilesPerCycle tiles of the current 5D primitive
// for fine raster; the primitive leaves the coarse stage after its last tile.
func (c *Comp) coarseBlur() bool {
	progress := false
	for budget := c.Cfg.TilesPerCycle; budget > 0 && c.blurNext < len(c.blurTiles); budget-- {
		if c.tileQ.Len() >= c.Cfg.TileQueue {
			return progress
		}
		tp := c.blurTiles[c.blurNext]
		c.blurNext++
		c.skipUnowned()
		c.tileQ.Push(fineItem{prim: c.prim, tx: tp.X, ty: tp.Y, class: tp.Class, blur: true})
		if c.traced() {
			c.trPrims[len(c.trPrims)-1].tiles++
		}
		progress = true
	}
	if c.blurNext >= len(c.blurTiles) {
		if c.traced() {
			c.primWalked()
		}
		c.prim = nil
		clear(c.blurTiles)
		c.blurTiles = c.blurTiles[:0]
		progress = true
	}
	return progress
}

// rasterize5D fine-rasterizes one 32x32 tile of a 5D primitive and returns its
// messages (one per partition with quads of this rasterizer's raster tiles, in
// partition order) and its cost in cycles.
func (c *Comp) rasterize5D(f *fineItem) ([]*protocol.TileQuads, uint64) {
	d, p := f.prim.Draw, f.prim.Prim
	var st raster5d.Stats
	// With a window only its pixels are tested (and paid for).
	c.q5 = p.Blur.Tri.TileQuadsIn(f.tx, f.ty, f.prim.Window, c.q5[:0], &st)
	tests := st.Tests()
	cost := max(1, (tests+uint64(c.Cfg.SampleTestsPerCycle)-1)/uint64(c.Cfg.SampleTestsPerCycle))
	c.cnt.Tiles5D++
	ts := rasterTileSize(d)
	covered := st.SamplesCovered
	if protocol.BlurTilePrimary(f.tx, f.ty, ts, c.Cfg.RasterStride, c.Cfg.NumRasterizers) == c.Cfg.Index {
		c.cnt.SampleTests += tests
		c.cnt.SamplesCovered += covered
	}
	if len(c.partCount) != c.Cfg.NumPartitions {
		c.partCount = make([]int, c.Cfg.NumPartitions)
	}
	clear(c.partCount)
	for i := range c.q5 {
		q := &c.q5[i]
		rx, ry := int(q.X)/ts, int(q.Y)/ts
		if protocol.TileOwner(rx, ry, c.Cfg.RasterStride, c.Cfg.NumRasterizers) != c.Cfg.Index {
			continue
		}
		c.partCount[c.partitionOf(rx, ry)]++
	}
	var msgs []*protocol.TileQuads
	unit := min(ts, raster5d.TileSize)
	for part, n := range c.partCount {
		if n == 0 {
			continue
		}
		quads := make([]protocol.QuadLive, 0, n)
		for i := range c.q5 {
			q := &c.q5[i]
			rx, ry := int(q.X)/ts, int(q.Y)/ts
			if protocol.TileOwner(rx, ry, c.Cfg.RasterStride, c.Cfg.NumRasterizers) != c.Cfg.Index || c.partitionOf(rx, ry) != part {
				continue
			}
			quads = append(quads, protocol.QuadLive{Quad: raster.Quad{X: q.X, Y: q.Y, Coverage: q.Coverage}, Live: q.Coverage})
			c.cnt.CoveredSamples += uint64(q.Coverage.Count())
		}
		c.cnt.Quads += uint64(n)
		// The message is named by the tile of its first quad in units of
		// min(raster tile, 32) pixels: unique per primitive and partition.
		first := quads[0].Quad
		m := protocol.NewTileQuads(d, p, int(first.X)/unit, int(first.Y)/unit, part, quads)
		m.Window = f.prim.Window
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 {
		c.cnt.TilesEmpty++
	}
	return msgs, cost
}

// partitionOf returns the depth unit owning raster tile (rx, ry).
func (c *Comp) partitionOf(rx, ry int) int {
	return protocol.TileOwner(rx/c.Cfg.PartitionTileRatio, ry/c.Cfg.PartitionTileRatio, c.Cfg.PartitionStride, c.Cfg.NumPartitions)
}
