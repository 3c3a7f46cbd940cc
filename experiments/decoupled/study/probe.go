package study

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/timing"
)

// Unbounded is the cache size of unbounded memoization (the paper's infinite
// cache, the dotted lines of Fig. 10).
const Unbounded = 0

// ROPCache is one configuration of the colour and depth ROP caches (Fig. 12):
// write-back, allocate on write, 16 ways, LRU.
type ROPCache struct {
	ColorBytes, DepthBytes, LineBytes int
}

// ROPWays is the associativity of the modelled ROP caches.
const ROPWays = 16

// Texture L1 of section 5.3.2: 32 KB, 16 ways, 64-byte lines.
const (
	TextureCacheBytes = 32 << 10
	TextureCacheWays  = 16
	TextureLineBytes  = 64
)

// Models says what a probe measures during one functional frame.
type Models struct {
	Global []int // LRU sizes of the global (sort-last) shading cache in shading quads; Unbounded: memoization
	Tiled  []int // sizes of each tile's cache (sort-middle)
	ROP    []ROPCache
	// Texture replays the pixel shaders' texel fetches through the 5.3.2 L1.
	Texture bool
}

// CacheCount is the shading of one cache model: shading quads shaded.
type CacheCount struct {
	Entries      int // Unbounded (0) or the size in shading quads
	ShadingQuads int64
}

// ROPCount is the framebuffer traffic of one ROP cache configuration: line
// fills and write-backs (dirty evictions and the final flush), in bytes.
type ROPCount struct {
	ROPCache
	Bytes int64
}

// Counts is what a probe measured.
type Counts struct {
	CoveredPixels  int64 // primitive-pixel pairs with a visible sample
	VisibleSamples int64
	Quads2D        int64 // 2D-path quads shaded (one shading quad each)
	Pixels2D       int64 // their covered pixels: shading samples read by one pixel each
	Global, Tiled  []CacheCount
	TileW, TileH   int
	Primitives     int64
	BinEntries     int64 // tiles of the primitives' union boxes, summed
	ROP            []ROPCount
	Texels         int64 // texel reads looked up in the texture L1 (border texels excluded)
	TexelHits      int64
}

// probe implements reference.Observer: it feeds the decoupling taps to the
// shading cache models, the framebuffer accesses to the ROP caches and the
// texel fetches to the texture L1.
type probe struct {
	mem    state.Memory
	models Models
	c      Counts

	global     []*decouple.LRU // Models.Global order; nil for Unbounded
	globalMemo decouple.Memo

	// Sort-middle: tiles of TileW x TileH; per tile and size an LRU, from a
	// pool, for the current primitive only (tags of different primitives
	// never match, so an LRU's hits depend on the current primitive's
	// look-ups alone and an empty cache per primitive is exact).
	tilesX, tilesY int
	tileSlot       []int32 // tile -> pool slot for the current primitive, -1: none
	touched        []int32
	pools          [][]*decouple.LRU // per size (nil row for Unbounded), per slot
	used           int
	tiledMemo      decouple.Memo // unbounded per-tile caches: the tile is the tag's Prim
	bins           *decouple.TiledModel

	color, depth []*timing.TagArray
	ropBytes     []int64
	dirty        []uint64

	tex     *timing.TagArray
	texTaps []texture.Tap
	descs   map[uint64]uint64 // texture descriptor -> data address
}

func newProbe(mem state.Memory, width, height, samples int, m Models) (*probe, error) {
	p := &probe{mem: mem, models: m}
	for _, n := range m.Global {
		var c *decouple.LRU
		if n != Unbounded {
			var err error
			if c, err = decouple.NewLRU(n); err != nil {
				return nil, err
			}
		}
		p.global = append(p.global, c)
	}
	bins, err := decouple.NewTiledModel(samples, decouple.DefaultTileMemory, &decouple.Memo{})
	if err != nil {
		return nil, err
	}
	p.bins = bins
	p.c.TileW, p.c.TileH = bins.W, bins.H
	p.tilesX, p.tilesY = (width+bins.W-1)/bins.W, (height+bins.H-1)/bins.H
	p.tileSlot = make([]int32, p.tilesX*p.tilesY)
	for i := range p.tileSlot {
		p.tileSlot[i] = -1
	}
	p.pools = make([][]*decouple.LRU, len(m.Tiled))
	for _, r := range m.ROP {
		col, err := timing.NewTagArray(r.ColorBytes, ROPWays, r.LineBytes)
		if err != nil {
			return nil, fmt.Errorf("colour ROP cache %d B, %d B lines: %w", r.ColorBytes, r.LineBytes, err)
		}
		dep, err := timing.NewTagArray(r.DepthBytes, ROPWays, r.LineBytes)
		if err != nil {
			return nil, fmt.Errorf("depth ROP cache %d B, %d B lines: %w", r.DepthBytes, r.LineBytes, err)
		}
		p.color, p.depth = append(p.color, col), append(p.depth, dep)
	}
	p.ropBytes = make([]int64, len(m.ROP))
	if m.Texture {
		if p.tex, err = timing.NewTagArray(TextureCacheBytes, TextureCacheWays, TextureLineBytes); err != nil {
			return nil, err
		}
		p.descs = map[uint64]uint64{}
	}
	return p, nil
}

// Primitive implements reference.Observer: bin the primitive and start its
// per-tile caches empty.
func (p *probe) Primitive(d *state.Draw, prim *pipeline.Primitive) {
	box := prim.Triangle.BBox
	if prim.Blur != nil {
		box = prim.Blur.Tri.BBox
	}
	p.bins.Bin(box)
	p.c.Primitives++
	p.globalMemo.Clear() // a primitive's tags never match another's
	for _, t := range p.touched {
		p.tileSlot[t] = -1
	}
	p.touched = p.touched[:0]
	p.used = 0
	p.tiledMemo.Clear()
}

// Quad implements reference.Observer.
func (p *probe) Quad(prim *pipeline.Primitive, qx, qy int32, live raster.SampleMask) {
	pix := int64(popcount4(live.Pixels()))
	p.c.CoveredPixels += pix
	p.c.VisibleSamples += int64(live.Count())
	if prim.Blur == nil {
		p.c.Quads2D++
		p.c.Pixels2D += pix
	}
}

func popcount4(m uint8) int { return int(m&1 + m>>1&1 + m>>2&1 + m>>3&1) }

// Tap implements reference.Observer: one look-up in every cache model.
func (p *probe) Tap(t *decouple.Tap, x, y int) {
	for _, c := range p.global {
		if c != nil {
			c.Lookup(t.Tag)
		}
	}
	if len(p.global) > 0 {
		p.globalMemo.Lookup(t.Tag)
	}
	if len(p.models.Tiled) == 0 {
		return
	}
	tx, ty := min(max(x/p.c.TileW, 0), p.tilesX-1), min(max(y/p.c.TileH, 0), p.tilesY-1)
	tile := int32(ty*p.tilesX + tx)
	slot := p.tileSlot[tile]
	if slot < 0 {
		slot = p.newSlot(tile)
	}
	for i, row := range p.pools {
		if p.models.Tiled[i] != Unbounded {
			row[slot].Lookup(t.Tag)
		}
	}
	p.tiledMemo.Lookup(decouple.Tag{Prim: uint32(tile), QuadX: t.Tag.QuadX, QuadY: t.Tag.QuadY, Sample: t.Tag.Sample})
}

// newSlot gives tile empty caches from the pools.
func (p *probe) newSlot(tile int32) int32 {
	slot := int32(p.used)
	p.used++
	for i, n := range p.models.Tiled {
		if n == Unbounded {
			continue
		}
		if int(slot) < len(p.pools[i]) {
			p.pools[i][slot].Clear()
			continue
		}
		c, err := decouple.NewLRU(n)
		if err != nil { // sizes are checked by Models.validate
			panic(err)
		}
		p.pools[i] = append(p.pools[i], c)
	}
	p.tileSlot[tile] = slot
	p.touched = append(p.touched, tile)
	return slot
}

// Framebuffer implements reference.Observer.
func (p *probe) Framebuffer(a reference.Access) {
	arrays := p.color
	if a.Depth {
		arrays = p.depth
	}
	for i, t := range arrays {
		if t.Lookup(a.Addr) {
			if a.Write {
				t.MarkDirty(a.Addr)
			}
			continue
		}
		line := int64(t.LineSize())
		p.ropBytes[i] += line // the line fill
		if v, evicted := t.Fill(a.Addr); evicted && v.Dirty {
			p.ropBytes[i] += line
		}
		if a.Write {
			t.MarkDirty(a.Addr)
		}
	}
}

// Texture implements reference.Observer: the request's texels, one look-up
// each in the texture L1.
func (p *probe) Texture(b *state.TextureBinding, req *shader.TexRequest) {
	if p.tex == nil || b.Texture == nil {
		return
	}
	data, ok := p.descs[b.Desc]
	if !ok {
		data = command.ReadTextureDescriptor(p.mem, b.Desc).Data
		p.descs[b.Desc] = data
	}
	base := data << texture.DecodedSpaceShift
	p.texTaps = p.texTaps[:0]
	pipeline.SampleBinding(b, req, &p.texTaps)
	for _, t := range p.texTaps {
		if t.Border {
			continue
		}
		addr := base + b.Texture.DecodedAddress(t.Level, t.X, t.Y, t.Z)
		p.c.Texels++
		if p.tex.Lookup(addr) {
			p.c.TexelHits++
		} else {
			p.tex.Fill(addr)
		}
	}
}

// finish flushes the ROP caches and returns the counts.
func (p *probe) finish() Counts {
	c := p.c
	for i, n := range p.models.Global {
		cc := CacheCount{Entries: n, ShadingQuads: c.Quads2D}
		if n == Unbounded {
			cc.ShadingQuads += p.globalMemo.Stats().Misses
		} else {
			cc.ShadingQuads += p.global[i].Stats().Misses
		}
		c.Global = append(c.Global, cc)
	}
	for i, n := range p.models.Tiled {
		cc := CacheCount{Entries: n, ShadingQuads: c.Quads2D}
		if n == Unbounded {
			cc.ShadingQuads += p.tiledMemo.Stats().Misses
		} else {
			for _, l := range p.pools[i] {
				cc.ShadingQuads += l.Stats().Misses
			}
		}
		c.Tiled = append(c.Tiled, cc)
	}
	c.BinEntries = p.bins.BinEntries()
	for i, r := range p.models.ROP {
		for _, t := range []*timing.TagArray{p.color[i], p.depth[i]} {
			p.dirty = t.Flush(p.dirty[:0])
			p.ropBytes[i] += int64(len(p.dirty)) * int64(t.LineSize())
		}
		c.ROP = append(c.ROP, ROPCount{ROPCache: r, Bytes: p.ropBytes[i]})
	}
	return c
}
