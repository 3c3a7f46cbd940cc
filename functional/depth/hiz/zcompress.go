package hiz

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// DepthCodec is the lossless depth-buffer compression of the depth unit
// (Giesen, part 7, "Memory bandwidth and Z compression": store a tile as a
// plane equation when one or two triangles cover it, or "infer them from the Z
// data and use some integer delta-coding scheme"). A block is one depth-cache
// line of the depth target. The codec infers the plane from the data (a
// least-squares fit over the samples' positions), stores it with the first
// sample's value, and codes every other sample as its signed difference from
// the plane's prediction with the fewest bits that hold all of them:
//
//	header 8 bits (mode and residual width k), anchor 32 bits (the first
//	sample's depth key), two gradients of 32 bits (fixed point, 16 fractional
//	bits, per 1/16 pixel), 8 bits of stencil (D24S8: the block's stencil must
//	be uniform), and k bits for each of the other N-1 samples
//
// A D24S8 block thus costs 112 + k(N-1) bits (104 of header, anchor and
// gradients, 8 of stencil; a D32F block 104 + k(N-1)). Over one plane k is 0
// for exact integer depths and mostly 1 or 2 for rounded ones (residuals of
// -1..1), rarely 3: a 256-byte line of 64 samples fits in 64 bytes; a block with
// an edge between two surfaces leaves large residuals and does not compress. A
// D32F stencil-plane line compresses when all its bytes are equal (16 bits: the
// header and the byte). Compression models traffic: the memory image keeps
// the uncompressed values; Size says how many bytes a transfer of the line
// moves (see components/rop/rtcache).
type DepthCodec struct {
	format  depth.Format
	surf    framebuffer.Surface
	base    uint64
	stencil uint64 // D32F: offset of the stencil plane (0 for D24S8)
	pattern [raster.MaxSamples][2]int16
	tilesX  int
	morton  uint
	pos     []int64 // scratch: sample positions (x, y pairs)
	val     []int64 // scratch: depth keys
}

// NewDepthCodec returns the codec of the depth target t (command.Target
// fields) at address base.
func NewDepthCodec(g framebuffer.Geometry, f depth.Format, base uint64) (*DepthCodec, error) {
	s, err := framebuffer.NewSurface(g)
	if err != nil {
		return nil, err
	}
	pat, err := raster.PatternFor(g.Samples)
	if err != nil {
		return nil, err
	}
	c := &DepthCodec{format: f, surf: s, base: base, pattern: pat.Offsets}
	if f == depth.D32F {
		c.stencil = (4*uint64(s.Elements()) + framebuffer.StencilPlaneAlign - 1) &^ (framebuffer.StencilPlaneAlign - 1)
	}
	if g.Layout == framebuffer.Tiled {
		c.tilesX = s.PaddedWidth() / s.TileW
	}
	if g.Layout == framebuffer.ZOrder {
		c.morton = uint(min(bits.TrailingZeros(uint(s.PaddedWidth())), bits.TrailingZeros(uint(s.PaddedHeight()))))
	}
	return c, nil
}

// pixel returns the pixel at memory position pi of the surface (the inverse of
// framebuffer.Surface.PixelIndex).
func (c *DepthCodec) pixel(pi int) (x, y int) {
	s := &c.surf
	switch s.Layout {
	case framebuffer.Tiled:
		tp := s.TileW * s.TileH
		t, r := pi/tp, pi%tp
		return (t%c.tilesX)*s.TileW + r%s.TileW, (t/c.tilesX)*s.TileH + r/s.TileW
	case framebuffer.ZOrder:
		m := c.morton
		low := uint(pi) & (1<<(2*m) - 1)
		x, y = int(raster.MortonCompact(low)), int(raster.MortonCompact(low>>1))
		high := pi >> (2 * m)
		if s.PaddedWidth() > s.PaddedHeight() {
			return x | high<<m, y
		}
		return x, y | high<<m
	}
	return pi % s.Width, pi / s.Width
}

// Sample returns the pixel and sample whose depth word (or D32F stencil
// byte) is at address addr, and false outside the target's visible samples.
func (c *DepthCodec) Sample(addr uint64) (x, y, s int, ok bool) {
	if addr < c.base {
		return 0, 0, 0, false
	}
	e := int(addr-c.base) / 4
	if c.stencil != 0 && addr-c.base >= c.stencil {
		e = int(addr - c.base - c.stencil)
	}
	if e >= c.surf.Elements() {
		return 0, 0, 0, false
	}
	spp := c.surf.Samples
	x, y = c.pixel(e / spp)
	return x, y, e % spp, x < c.surf.Width && y < c.surf.Height
}

// DepthPlane reports whether addr holds depth words (not the D32F stencil
// plane) of the target.
func (c *DepthCodec) DepthPlane(addr uint64) bool {
	return addr >= c.base && (c.stencil == 0 || addr-c.base < c.stencil)
}

// CodecHeaderBits is the fixed part of a plane-coded block: header, anchor,
// two gradients.
const CodecHeaderBits = 8 + 32 + 2*32

// gradientFraction is the fixed-point precision of the gradients: 20 fraction
// bits per 1/256 pixel, the same numbers as 16 bits per 1/16 pixel (positions
// and gradients scale by powers of two, exactly).
const gradientFraction = 20

// Bits returns the encoded size in bits of the block at address addr whose
// bytes are data (a whole cache line inside the target), or -1 when it cannot
// be coded (non-uniform stencil, or a residual wider than 32 bits).
func (c *DepthCodec) Bits(addr uint64, data []byte) int {
	off := addr - c.base
	if c.stencil != 0 && off >= c.stencil {
		for _, v := range data {
			if v != data[0] {
				return -1
			}
		}
		return 8 + 8
	}
	n := len(data) / 4
	if n == 0 || off%4 != 0 {
		return -1
	}
	c.pos, c.val = c.pos[:0], c.val[:0]
	spp := c.surf.Samples
	stencil := -1
	for i := 0; i < n; i++ {
		w := binary.LittleEndian.Uint32(data[4*i:])
		if c.format == depth.D24S8 {
			st := int(w >> 24)
			if stencil >= 0 && st != stencil {
				return -1
			}
			stencil = st
			w &= depth.MaxD24
		}
		e := int(off/4) + i
		x, y := c.pixel(e / spp)
		s := e % spp
		c.pos = append(c.pos, int64(x)*256+128+int64(c.pattern[s][0]), int64(y)*256+128+int64(c.pattern[s][1]))
		c.val = append(c.val, int64(w))
	}
	gx, gy := c.fit()
	x0, y0, d0 := c.pos[0], c.pos[1], c.val[0]
	width := 0
	for i := 1; i < n; i++ {
		p := d0 + roundShift(gx*(c.pos[2*i]-x0)+gy*(c.pos[2*i+1]-y0), gradientFraction)
		r := c.val[i] - p
		z := uint64(r<<1) ^ uint64(r>>63) // zigzag
		width = max(width, bits.Len64(z))
	}
	if width > 32 {
		return -1
	}
	b := CodecHeaderBits + (n-1)*width
	if c.format == depth.D24S8 {
		b += 8
	}
	return b
}

// Size returns the bytes a transfer of the line moves: the encoded size
// rounded up to whole access units of unit bytes, or len(data) when that saves
// nothing. It implements the block codec of components/rop/rtcache.
func (c *DepthCodec) Size(addr uint64, data []byte, unit uint64) uint64 {
	b := c.Bits(addr, data)
	if b < 0 {
		return uint64(len(data))
	}
	sz := (uint64(b)+7)/8 + unit - 1
	sz -= sz % unit
	return min(sz, uint64(len(data)))
}

// fit returns the least-squares gradients of the block's depth over its
// sample positions (1/256 pixel), as fixed point with gradientFraction
// fractional bits per 1/256 pixel, clamped to 32-bit range. Sums are exact integers; the division is
// done in float64 with explicit rounding (the result only changes the size).
func (c *DepthCodec) fit() (gx, gy int64) {
	n := len(c.val)
	var sx, sy, sd float64
	for i := 0; i < n; i++ {
		sx += float64(c.pos[2*i])
		sy += float64(c.pos[2*i+1])
		sd += float64(c.val[i])
	}
	fn := float64(n)
	mx, my, md := sx/fn, sy/fn, sd/fn
	var sxx, syy, sxy, sxd, syd float64
	for i := 0; i < n; i++ {
		x, y, d := float64(c.pos[2*i])-mx, float64(c.pos[2*i+1])-my, float64(c.val[i])-md
		sxx += float64(x * x)
		syy += float64(y * y)
		sxy += float64(x * y)
		sxd += float64(x * d)
		syd += float64(y * d)
	}
	var fx, fy float64
	if det := float64(sxx*syy) - float64(sxy*sxy); det > 1e-9*float64(sxx*syy) && det > 0 {
		fx = (float64(sxd*syy) - float64(syd*sxy)) / det
		fy = (float64(syd*sxx) - float64(sxd*sxy)) / det
	} else if sxx > 0 {
		fx = sxd / sxx
	} else if syy > 0 {
		fy = syd / syy
	}
	return fixed(fx), fixed(fy)
}

func fixed(v float64) int64 {
	v = math.Round(v * (1 << gradientFraction))
	if !(v > math.MinInt32) { // NaN too
		return math.MinInt32
	}
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return int64(v)
}

// roundShift returns v / 2^s rounded to the nearest integer (ties away from
// zero), exactly.
func roundShift(v int64, s uint) int64 {
	h := int64(1) << (s - 1)
	if v >= 0 {
		return (v + h) >> s
	}
	return -((-v + h) >> s)
}

// String describes the codec.
func (c *DepthCodec) String() string {
	return fmt.Sprintf("depth codec %v %dx%d %dx at 0x%x", c.format, c.surf.Width, c.surf.Height, c.surf.Samples, c.base)
}
