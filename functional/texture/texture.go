package texture

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// Format is a texel format.
type Format uint8

// Texel formats.
const (
	RGBA8 Format = iota // 4 bytes R, G, B, A, UNORM
	numFormats
)

var formatNames = [numFormats]string{"RGBA8"}

// String returns the format's name.
func (f Format) String() string {
	if f < numFormats {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Valid reports whether f is a known format.
func (f Format) Valid() bool { return f < numFormats }

// BytesPerTexel is the size of one texel.
func (f Format) BytesPerTexel() int { return 4 }

// Layout is the texel order inside a level.
type Layout uint8

// Texture layouts.
const (
	Linear Layout = iota // row-major
	Tiled                // TileSize x TileSize tiles, row-major tiles and texels
	numLayouts
)

var layoutNames = [numLayouts]string{"Linear", "Tiled"}

// String returns the layout's name.
func (l Layout) String() string {
	if l < numLayouts {
		return layoutNames[l]
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// Valid reports whether l is a known layout.
func (l Layout) Valid() bool { return l < numLayouts }

// ParseLayout parses "linear" or "tiled", case-insensitively.
func ParseLayout(s string) (Layout, error) {
	for i, n := range layoutNames {
		if equalName(s, n) {
			return Layout(i), nil
		}
	}
	return 0, fmt.Errorf("unknown texture layout %q (want Linear or Tiled)", s)
}

// Layout constants and limits.
const (
	TileSize     = 4     // edge of a tile of the Tiled layout, in texels
	LevelAlign   = 256   // every level starts at a multiple of this many bytes
	MaxDimension = 16384 // largest width or height
)

// MipLevels returns the length of a full mip chain for a w x h texture:
// floor(log2(max(w, h))) + 1 (0 for an empty size).
func MipLevels(w, h int) int {
	m := max(w, h)
	n := 0
	for m > 0 {
		n++
		m >>= 1
	}
	return n
}

// Descriptor is what a texture descriptor in memory holds: enough to interpret the
// texture's bytes.
type Descriptor struct {
	Format        Format
	Width, Height int
	Levels        int // 1..MipLevels(Width, Height)
	Layout        Layout
}

// Validate checks d, naming the offending field.
func (d Descriptor) Validate() error {
	if !d.Format.Valid() {
		return fmt.Errorf("Format: invalid texture format %d", uint8(d.Format))
	}
	if d.Width < 1 || d.Width > MaxDimension {
		return fmt.Errorf("Width: %d out of range [1, %d]", d.Width, MaxDimension)
	}
	if d.Height < 1 || d.Height > MaxDimension {
		return fmt.Errorf("Height: %d out of range [1, %d]", d.Height, MaxDimension)
	}
	if n := MipLevels(d.Width, d.Height); d.Levels < 1 || d.Levels > n {
		return fmt.Errorf("Levels: %d out of range [1, %d] for %dx%d", d.Levels, n, d.Width, d.Height)
	}
	if !d.Layout.Valid() {
		return fmt.Errorf("Layout: invalid texture layout %d", uint8(d.Layout))
	}
	return nil
}

// Level is one mip level. Data is the level's bytes in the texture's layout (a
// sub-slice of the texture's memory image starting at Offset).
type Level struct {
	Width, Height int
	Offset        uint64 // byte offset of the level from the texture base
	Data          []byte
	tilesX        int
}

// Texture is a mipmapped 2D texture. Its fields are read-only.
type Texture struct {
	Format        Format
	Width, Height int
	Levels        []Level
	Layout        Layout
	bpt           int
	data          []byte
}

// levelSize returns the byte size of a w x h level in layout l, and tilesX.
func levelSize(l Layout, bpt, w, h int) (int, int) {
	if l == Tiled {
		tx := (w + TileSize - 1) / TileSize
		ty := (h + TileSize - 1) / TileSize
		return tx * ty * TileSize * TileSize * bpt, tx
	}
	return w * h * bpt, 0
}

// SizeBytes returns the size of the memory image of a texture described by d
// (0 when d is invalid).
func (d Descriptor) SizeBytes() uint64 {
	if d.Validate() != nil {
		return 0
	}
	_, size := d.levels(false)
	return uint64(size)
}

// LevelOffset returns the byte offset of level i from the texture base (0 when d is
// invalid or i out of range).
func (d Descriptor) LevelOffset(i int) uint64 {
	if d.Validate() != nil || i < 0 || i >= d.Levels {
		return 0
	}
	levels, _ := d.levels(true)
	return levels[i].Offset
}

// levels computes the level sizes and offsets of a valid descriptor and the total
// size; with list false it only computes the size.
func (d Descriptor) levels(list bool) ([]Level, int) {
	var levels []Level
	if list {
		levels = make([]Level, d.Levels)
	}
	bpt := d.Format.BytesPerTexel()
	off := 0
	w, h := d.Width, d.Height
	for i := 0; i < d.Levels; i++ {
		off = (off + LevelAlign - 1) / LevelAlign * LevelAlign
		size, tx := levelSize(d.Layout, bpt, w, h)
		if list {
			levels[i] = Level{Width: w, Height: h, Offset: uint64(off), tilesX: tx}
		}
		off += size
		w, h = max(1, w/2), max(1, h/2)
	}
	return levels, off
}

// newTexture lays out the levels of a valid descriptor over a zeroed buffer.
func newTexture(d Descriptor) *Texture {
	levels, size := d.levels(true)
	t := &Texture{Format: d.Format, Width: d.Width, Height: d.Height, Layout: d.Layout,
		bpt: d.Format.BytesPerTexel(), Levels: levels, data: make([]byte, size)}
	t.setLevelData()
	return t
}

func (t *Texture) setLevelData() {
	for i := range t.Levels {
		l := &t.Levels[i]
		size, _ := levelSize(t.Layout, t.bpt, l.Width, l.Height)
		l.Data = t.data[l.Offset : l.Offset+uint64(size) : l.Offset+uint64(size)]
	}
}

// NewFromBytes builds the texture described by d over data (at least
// d.SizeBytes() bytes in the layout of the package comment) without copying: the
// texture reads data directly.
func NewFromBytes(d Descriptor, data []byte) (*Texture, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	levels, n := d.levels(true)
	if len(data) < n {
		return nil, fmt.Errorf("data: %d bytes, want at least %d for %dx%d with %d levels", len(data), n, d.Width, d.Height, d.Levels)
	}
	t := &Texture{Format: d.Format, Width: d.Width, Height: d.Height, Layout: d.Layout,
		bpt: d.Format.BytesPerTexel(), Levels: levels, data: data[:n:n]}
	t.setLevelData()
	return t, nil
}

// New builds a texture from level-0 texels given row-major in pix (w*h texels of the
// format, at least w*h*BytesPerTexel bytes), laid out as d.Layout, with d.Levels
// levels generated by the box filter; d.Levels == 0 means the full chain.
func New(d Descriptor, pix []byte) (*Texture, error) {
	if d.Levels == 0 {
		d.Levels = MipLevels(d.Width, d.Height)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if need := d.Width * d.Height * d.Format.BytesPerTexel(); len(pix) < need {
		return nil, fmt.Errorf("pix: %d bytes, want at least %d for %dx%d", len(pix), need, d.Width, d.Height)
	}
	t := newTexture(d)
	cur := pix[:d.Width*d.Height*t.bpt]
	for i := range t.Levels {
		if i > 0 {
			prev, l := &t.Levels[i-1], &t.Levels[i]
			cur = downsample(cur, prev.Width, prev.Height, l.Width, l.Height, nil)
		}
		t.storeLinear(i, cur)
	}
	return t, nil
}

// NewRGBA8 builds a Linear RGBA8 texture from w*h row-major texels, with the full
// box-filtered mip chain when mips is set, else one level.
func NewRGBA8(w, h int, pix []byte, mips bool) (*Texture, error) {
	d := Descriptor{Format: RGBA8, Width: w, Height: h, Levels: 1, Layout: Linear}
	if mips {
		d.Levels = 0
	}
	return New(d, pix)
}

// storeLinear copies row-major texels into level i.
func (t *Texture) storeLinear(i int, pix []byte) {
	l := &t.Levels[i]
	for y := 0; y < l.Height; y++ {
		for x := 0; x < l.Width; x++ {
			a := t.TexelAddress(i, x, y)
			s := (y*l.Width + x) * t.bpt
			copy(t.data[a:a+uint64(t.bpt)], pix[s:s+t.bpt])
		}
	}
}

// LinearLevel appends the texels of level i to dst in row-major order.
func (t *Texture) LinearLevel(i int, dst []byte) []byte {
	l := &t.Levels[i]
	for y := 0; y < l.Height; y++ {
		for x := 0; x < l.Width; x++ {
			a := t.TexelAddress(i, x, y)
			dst = append(dst, t.data[a:a+uint64(t.bpt)]...)
		}
	}
	return dst
}

// WithLayout returns a copy of t in layout l (same texels, same levels).
func (t *Texture) WithLayout(l Layout) (*Texture, error) {
	d := t.Descriptor()
	d.Layout = l
	if err := d.Validate(); err != nil {
		return nil, err
	}
	out := newTexture(d)
	var buf []byte
	for i := range t.Levels {
		buf = t.LinearLevel(i, buf[:0])
		out.storeLinear(i, buf)
	}
	return out, nil
}

// Descriptor returns the descriptor of t.
func (t *Texture) Descriptor() Descriptor {
	return Descriptor{Format: t.Format, Width: t.Width, Height: t.Height, Levels: len(t.Levels), Layout: t.Layout}
}

// Bytes returns the texture's memory image (not a copy).
func (t *Texture) Bytes() []byte { return t.data }

// SizeBytes is the size of the memory image.
func (t *Texture) SizeBytes() uint64 { return uint64(len(t.data)) }

// TexelAddress returns the byte offset of texel (x, y) of a level from the texture
// base, for 0 <= x < level width, 0 <= y < level height (not checked).
func (t *Texture) TexelAddress(level, x, y int) uint64 {
	l := &t.Levels[level]
	if t.Layout == Tiled {
		tx, ty := x/TileSize, y/TileSize
		in := (y-ty*TileSize)*TileSize + (x - tx*TileSize)
		return l.Offset + uint64(((ty*l.tilesX+tx)*TileSize*TileSize+in)*t.bpt)
	}
	return l.Offset + uint64((y*l.Width+x)*t.bpt)
}

// Texel returns the decoded texel (x, y) of a level, or zeros when out of range.
func (t *Texture) Texel(level, x, y int) geom.Vec4 {
	if level < 0 || level >= len(t.Levels) {
		return geom.Vec4{}
	}
	l := &t.Levels[level]
	if uint(x) >= uint(l.Width) || uint(y) >= uint(l.Height) {
		return geom.Vec4{}
	}
	return t.fetch(level, x, y)
}

// fetch decodes a texel known to be in range.
func (t *Texture) fetch(level, x, y int) geom.Vec4 {
	p := t.data[t.TexelAddress(level, x, y):]
	return geom.Vec4{float32(p[0]) / 255, float32(p[1]) / 255, float32(p[2]) / 255, float32(p[3]) / 255}
}

// downsample box-filters a w x h RGBA8 level into nw x nh texels appended to dst.
func downsample(src []byte, w, h, nw, nh int, dst []byte) []byte {
	for j := 0; j < nh; j++ {
		y0, y1 := min(2*j, h-1), min(2*j+1, h-1)
		for i := 0; i < nw; i++ {
			x0, x1 := min(2*i, w-1), min(2*i+1, w-1)
			a, b := src[(y0*w+x0)*4:], src[(y0*w+x1)*4:]
			c, d := src[(y1*w+x0)*4:], src[(y1*w+x1)*4:]
			for ch := 0; ch < 4; ch++ {
				dst = append(dst, uint8((int(a[ch])+int(b[ch])+int(c[ch])+int(d[ch])+2)/4))
			}
		}
	}
	return dst
}

// equalName compares s with a canonical name, ignoring case, '_' and '-'.
func equalName(s, name string) bool {
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' {
			continue
		}
		if j >= len(name) || lower(c) != lower(name[j]) {
			return false
		}
		j++
	}
	return j == len(name)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
