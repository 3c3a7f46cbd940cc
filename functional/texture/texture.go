package texture

import (
	"fmt"
	"math"
	"slices"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Type is the kind of texture.
type Type uint8

// Texture types. The numbering is the one of the command stream's texture
// descriptor.
const (
	Tex2D      Type = iota // one 2D image per level
	Tex2DArray             // Depth layers of 2D images; the layer is coord.z
	TexCube                // six square faces +X, -X, +Y, -Y, +Z, -Z; coord.xyz is a direction
	Tex3D                  // a volume; level n has max(1, Depth>>n) slices
	numTypes
)

var typeNames = enum.Names[Type]{Type: "Type", What: "texture type", Names: []string{"2D", "2DArray", "Cube", "3D"}}

// String returns the type's name.
func (t Type) String() string { return typeNames.String(t) }

// Valid reports whether t is a known type.
func (t Type) Valid() bool { return typeNames.Valid(t) }

// Coords is the number of coordinate components a sample of this type uses:
// 2 for Tex2D, 3 for the others (the layer, the direction's z, or w).
func (t Type) Coords() int {
	if t == Tex2D {
		return 2
	}
	return 3
}

// ParseType parses "2d", "2darray" (or "array"), "cube" or "3d", ignoring
// case, '_' and '-'.
func ParseType(s string) (Type, error) {
	if enum.Equal(s, "array") {
		return Tex2DArray, nil
	}
	return typeNames.Parse(s)
}

// Layout is the texel order inside a level.
type Layout uint8

// Texture layouts.
const (
	Linear Layout = iota // row-major
	Tiled                // TileSize x TileSize tiles, row-major tiles and texels
	numLayouts
)

var layoutNames = enum.Names[Layout]{Type: "Layout", What: "texture layout", Names: []string{"Linear", "Tiled"}}

// String returns the layout's name.
func (l Layout) String() string { return layoutNames.String(l) }

// Valid reports whether l is a known layout.
func (l Layout) Valid() bool { return layoutNames.Valid(l) }

// ParseLayout parses "linear" or "tiled", case-insensitively.
func ParseLayout(s string) (Layout, error) { return layoutNames.Parse(s) }

// Layout constants and limits.
const (
	TileSize     = 4     // edge of a tile of the Tiled layout, in texels
	LevelAlign   = 256   // every level (and every slice of a multi-slice level) starts at a multiple of this many bytes
	MaxDimension = 16384 // largest width or height
	MaxDepth     = 2048  // most array layers, and largest depth of a 3D texture
	CubeFaces    = 6
	// DecodedSpaceShift: the L1 address space of a texture whose data is at
	// address A starts at A << DecodedSpaceShift (see DecodedAddress).
	DecodedSpaceShift = 8
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

// Descriptor is what a texture descriptor in memory holds: enough to interpret
// the texture's bytes.
type Descriptor struct {
	Format        Format
	Width, Height int
	Levels        int // 1..MaxLevels()
	Layout        Layout
	Type          Type
	// Depth is the number of layers of a Tex2DArray and the depth of a Tex3D;
	// it must be 0 or 1 for Tex2D and TexCube (a cube always has 6 faces).
	Depth int
}

// Slices returns the slices of level 0: 1 for Tex2D, the layers of an array,
// 6 for a cube, the depth of a 3D texture.
func (d Descriptor) Slices() int {
	switch d.Type {
	case Tex2DArray, Tex3D:
		return d.Depth
	case TexCube:
		return CubeFaces
	}
	return 1
}

// MaxLevels returns the length of the full mip chain (the depth counts for 3D
// textures).
func (d Descriptor) MaxLevels() int {
	if d.Type == Tex3D {
		return MipLevels(max(d.Width, d.Depth), d.Height)
	}
	return MipLevels(d.Width, d.Height)
}

// Validate checks d, naming the offending field.
func (d Descriptor) Validate() error {
	if err := check.For("").
		That(d.Type.Valid(), "Type: invalid texture type %d", uint8(d.Type)).
		That(d.Format.Valid(), "Format: invalid texture format %d", uint8(d.Format)).
		Within("Width", d.Width, 1, MaxDimension).
		Within("Height", d.Height, 1, MaxDimension).
		Err(); err != nil {
		return err
	}
	switch d.Type {
	case Tex2D, TexCube:
		if d.Depth > 1 || d.Depth < 0 {
			return fmt.Errorf("Depth: %d, want 0 or 1 for a %v texture", d.Depth, d.Type)
		}
		if d.Type == TexCube && d.Width != d.Height {
			return fmt.Errorf("Height: cube faces must be square, got %dx%d", d.Width, d.Height)
		}
	default:
		if d.Depth < 1 || d.Depth > MaxDepth {
			return fmt.Errorf("Depth: %d out of range [1, %d]", d.Depth, MaxDepth)
		}
	}
	if n := d.MaxLevels(); d.Levels < 1 || d.Levels > n {
		return fmt.Errorf("Levels: %d out of range [1, %d] for %dx%d", d.Levels, n, d.Width, d.Height)
	}
	if !d.Layout.Valid() {
		return fmt.Errorf("Layout: invalid texture layout %d", uint8(d.Layout))
	}
	return nil
}

// Level is one mip level. Data is the level's bytes in the texture's layout (a
// sub-slice of the texture's memory image starting at Offset): Depth slices,
// slice z at z*SliceStride.
type Level struct {
	Width, Height int
	Depth         int    // slices in this level (layers, faces, or 3D depth)
	Offset        uint64 // byte offset of the level from the texture base
	SliceStride   uint64 // bytes from one slice to the next
	Data          []byte

	unitsX     int    // storage units (texels, tiles or blocks) per row of tiles/blocks
	sliceBytes uint64 // bytes of one slice
	// The decoded (L1) space: 4x4-texel tiles of decoded texels, row-major.
	decOffset, decSliceStride uint64
	tilesX, tilesY            int
}

// Texture is a mipmapped texture. Its fields are read-only.
type Texture struct {
	Format        Format
	Width, Height int
	Levels        []Level
	Layout        Layout
	Type          Type
	Depth         int // as in Descriptor (0 or 1 for Tex2D and TexCube)

	unit        int // bytes per storage unit
	block       bool
	decBytes    int // bytes per decoded texel
	decodedSize uint64
	data        []byte
}

func roundUp(v, a uint64) uint64 { return (v + a - 1) / a * a }

// levels computes the levels of a valid descriptor (without Data) and the
// total size of the memory image.
func (d Descriptor) levels() ([]Level, uint64, uint64) {
	levels := make([]Level, d.Levels)
	f := d.Format
	unit := uint64(f.UnitBytes())
	db := uint64(f.DecodedBytes())
	var off, dec uint64
	w, h, z := d.Width, d.Height, d.Slices()
	for i := range levels {
		off = roundUp(off, LevelAlign)
		dec = roundUp(dec, LevelAlign)
		l := Level{Width: w, Height: h, Depth: z, Offset: off, decOffset: dec}
		l.tilesX, l.tilesY = (w+TileSize-1)/TileSize, (h+TileSize-1)/TileSize
		switch {
		case f.Compressed():
			l.unitsX = l.tilesX
			l.sliceBytes = uint64(l.tilesX*l.tilesY) * unit
		case d.Layout == Tiled:
			l.unitsX = l.tilesX
			l.sliceBytes = uint64(l.tilesX*l.tilesY*TileSize*TileSize) * unit
		default:
			l.unitsX = w
			l.sliceBytes = uint64(w*h) * unit
		}
		decSlice := uint64(l.tilesX*l.tilesY*TileSize*TileSize) * db
		l.SliceStride, l.decSliceStride = l.sliceBytes, decSlice
		if z > 1 {
			l.SliceStride, l.decSliceStride = roundUp(l.sliceBytes, LevelAlign), roundUp(decSlice, LevelAlign)
		}
		off += l.SliceStride*uint64(z-1) + l.sliceBytes
		dec += l.decSliceStride*uint64(z-1) + decSlice
		levels[i] = l
		w, h = max(1, w/2), max(1, h/2)
		if d.Type == Tex3D {
			z = max(1, z/2)
		}
	}
	return levels, off, dec
}

// SizeBytes returns the size of the memory image of a texture described by d
// (0 when d is invalid).
func (d Descriptor) SizeBytes() uint64 {
	if d.Validate() != nil {
		return 0
	}
	_, size, _ := d.levels()
	return size
}

// LevelOffset returns the byte offset of level i from the texture base (0 when
// d is invalid or i out of range).
func (d Descriptor) LevelOffset(i int) uint64 {
	if d.Validate() != nil || i < 0 || i >= d.Levels {
		return 0
	}
	levels, _, _ := d.levels()
	return levels[i].Offset
}

// wrap lays the levels of a valid descriptor over data (at least SizeBytes).
func wrap(d Descriptor, data []byte) *Texture {
	levels, size, dec := d.levels()
	t := &Texture{Format: d.Format, Width: d.Width, Height: d.Height, Layout: d.Layout, Type: d.Type, Depth: d.Depth,
		Levels: levels, unit: d.Format.UnitBytes(), block: d.Format.Compressed(), decBytes: d.Format.DecodedBytes(),
		decodedSize: dec, data: data[:size:size]}
	for i := range t.Levels {
		l := &t.Levels[i]
		end := l.Offset + l.SliceStride*uint64(l.Depth-1) + l.sliceBytes
		l.Data = t.data[l.Offset:end:end]
	}
	return t
}

// NewFromBytes builds the texture described by d over data (at least
// d.SizeBytes() bytes in the layout of the package comment) without copying:
// the texture reads data directly.
func NewFromBytes(d Descriptor, data []byte) (*Texture, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if n := d.SizeBytes(); uint64(len(data)) < n {
		return nil, fmt.Errorf("data: %d bytes, want at least %d for %dx%d with %d levels", len(data), n, d.Width, d.Height, d.Levels)
	}
	return wrap(d, data), nil
}

// New builds a texture from its level-0 texels: d.Slices() slices of Width x
// Height texels, row-major, one slice after the other, in the bytes of
// d.Format.SourceFormat() (the format itself, or RGBA8/R8/RG8 for the block
// formats, which New compresses level by level). d.Levels levels are generated
// by the box filter of the package comment; d.Levels == 0 means the full chain.
func New(d Descriptor, pix []byte) (*Texture, error) {
	if d.Levels == 0 {
		d.Levels = d.MaxLevels()
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	src := d.Format.SourceFormat()
	n := d.Width * d.Height * d.Slices() * src.UnitBytes()
	if len(pix) < n {
		return nil, fmt.Errorf("pix: %d bytes, want at least %d for %dx%d with %d slices of %v", len(pix), n,
			d.Width, d.Height, d.Slices(), src)
	}
	t := wrap(d, make([]byte, d.SizeBytes()))
	cur := pix[:n]
	for i := range t.Levels {
		if i > 0 {
			prev, l := &t.Levels[i-1], &t.Levels[i]
			cur = downsample(src, cur, prev.Width, prev.Height, prev.Depth, l.Width, l.Height, l.Depth, d.Type == Tex3D)
		}
		t.storeLinear(i, cur)
	}
	return t, nil
}

// FromRGBA8 builds a texture of format d.Format from RGBA8 level-0 texels
// (laid out as for New): R8 keeps R, RG8 keeps R and G, RGBA8_SRGB keeps the
// bytes (they are taken as sRGB-encoded), the float formats take v/255, BC4
// codes R and BC5 R and G.
func FromRGBA8(d Descriptor, rgba []byte) (*Texture, error) {
	src := d.Format.SourceFormat()
	if src == RGBA8 || src == RGBA8SRGB || !d.Format.Valid() {
		return New(d, rgba)
	}
	n := len(rgba) / 4
	out := make([]byte, 0, n*src.UnitBytes())
	for i := 0; i < n; i++ {
		p := rgba[4*i : 4*i+4]
		switch src {
		case R8:
			out = append(out, p[0])
		case RG8:
			out = append(out, p[0], p[1])
		case RGBA16F:
			for _, c := range p {
				h := FloatToHalf(float32(c) / 255)
				out = append(out, byte(h), byte(h>>8))
			}
		case RGBA32F:
			for _, c := range p {
				out = appendF32(out, float32(c)/255)
			}
		}
	}
	return New(d, out)
}

// NewRGBA8 builds a Linear RGBA8 texture from w*h row-major texels, with the
// full box-filtered mip chain when mips is set, else one level.
func NewRGBA8(w, h int, pix []byte, mips bool) (*Texture, error) {
	d := Descriptor{Format: RGBA8, Width: w, Height: h, Levels: 1, Layout: Linear}
	if mips {
		d.Levels = 0
	}
	return New(d, pix)
}

// storeLinear stores row-major level data (in the source format) into level i.
func (t *Texture) storeLinear(i int, pix []byte) {
	l := &t.Levels[i]
	src := t.Format.SourceFormat()
	su := src.UnitBytes()
	if !t.block {
		for z := 0; z < l.Depth; z++ {
			for y := 0; y < l.Height; y++ {
				for x := 0; x < l.Width; x++ {
					a := t.Address(i, x, y, z)
					s := ((z*l.Height+y)*l.Width + x) * su
					copy(t.data[a:a+uint64(su)], pix[s:s+su])
				}
			}
		}
		return
	}
	var px [16][4]uint8
	blk := make([]byte, 0, 16)
	for z := 0; z < l.Depth; z++ {
		for by := 0; by < l.tilesY; by++ {
			for bx := 0; bx < l.tilesX; bx++ {
				for k := range px {
					// Texels beyond the level's edge repeat the edge texel.
					x, y := min(bx*4+k%4, l.Width-1), min(by*4+k/4, l.Height-1)
					s := ((z*l.Height+y)*l.Width + x) * su
					px[k] = [4]uint8{0, 0, 0, 255}
					copy(px[k][:], pix[s:s+su])
				}
				blk = EncodeBlock(t.Format, &px, blk[:0])
				copy(t.data[t.Address(i, bx*4, by*4, z):], blk)
			}
		}
	}
}

// LinearLevel appends the bytes of level i in the Linear layout to dst: for the
// uncompressed formats the texels row-major, slice after slice; for the block
// formats the blocks row-major (their layout does not depend on Layout).
func (t *Texture) LinearLevel(i int, dst []byte) []byte {
	l := &t.Levels[i]
	if t.block {
		for z := 0; z < l.Depth; z++ {
			s := l.Offset + uint64(z)*l.SliceStride
			dst = append(dst, t.data[s:s+l.sliceBytes]...)
		}
		return dst
	}
	for z := 0; z < l.Depth; z++ {
		for y := 0; y < l.Height; y++ {
			for x := 0; x < l.Width; x++ {
				a := t.Address(i, x, y, z)
				dst = append(dst, t.data[a:a+uint64(t.unit)]...)
			}
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
	out := wrap(d, make([]byte, d.SizeBytes()))
	if t.block {
		copy(out.data, t.data)
		return out, nil
	}
	var buf []byte
	for i := range t.Levels {
		buf = t.LinearLevel(i, buf[:0])
		out.storeLinear(i, buf)
	}
	return out, nil
}

// Descriptor returns the descriptor of t.
func (t *Texture) Descriptor() Descriptor {
	return Descriptor{Format: t.Format, Width: t.Width, Height: t.Height, Levels: len(t.Levels), Layout: t.Layout,
		Type: t.Type, Depth: t.Depth}
}

// Slices returns the slices of level 0 (see Descriptor.Slices).
func (t *Texture) Slices() int { return t.Levels[0].Depth }

// Bytes returns the texture's memory image (not a copy).
func (t *Texture) Bytes() []byte { return t.data }

// SizeBytes is the size of the memory image.
func (t *Texture) SizeBytes() uint64 { return uint64(len(t.data)) }

// TexelAddress returns the byte offset from the texture base of the storage
// unit holding texel (x, y) of slice 0 of a level (see Address).
func (t *Texture) TexelAddress(level, x, y int) uint64 { return t.Address(level, x, y, 0) }

// Address is the byte-address function of the hardware: the byte offset from
// the texture base of the storage unit (UnitBytes bytes: a texel, or the 4x4
// block) holding texel (x, y) of slice z of a level, for coordinates inside the
// level (not checked). See the package comment for the layouts.
func (t *Texture) Address(level, x, y, z int) uint64 {
	l := &t.Levels[level]
	base := l.Offset + uint64(z)*l.SliceStride
	switch {
	case t.block:
		return base + uint64((y/TileSize)*l.unitsX+x/TileSize)*uint64(t.unit)
	case t.Layout == Tiled:
		tx, ty := x/TileSize, y/TileSize
		in := (y-ty*TileSize)*TileSize + (x - tx*TileSize)
		return base + uint64(((ty*l.unitsX+tx)*TileSize*TileSize+in)*t.unit)
	}
	return base + uint64((y*l.unitsX+x)*t.unit)
}

// UnitBytes is the size of the storage unit Address points at.
func (t *Texture) UnitBytes() int { return t.unit }

// Texel returns the decoded texel (x, y) of slice 0 of a level, or zeros when
// out of range.
func (t *Texture) Texel(level, x, y int) geom.Vec4 { return t.TexelAt(level, x, y, 0) }

// TexelAt returns the decoded texel (x, y) of slice z of a level, or zeros when
// out of range.
func (t *Texture) TexelAt(level, x, y, z int) geom.Vec4 {
	if level < 0 || level >= len(t.Levels) {
		return geom.Vec4{}
	}
	l := &t.Levels[level]
	if uint(x) >= uint(l.Width) || uint(y) >= uint(l.Height) || uint(z) >= uint(l.Depth) {
		return geom.Vec4{}
	}
	return t.fetch(level, x, y, z)
}

// fetch decodes a texel known to be in range.
func (t *Texture) fetch(level, x, y, z int) geom.Vec4 {
	return decodeUnit(t.Format, t.data[t.Address(level, x, y, z):], x, y)
}

// DecodedBytes is the size of a texel in the L1 (Format.DecodedBytes).
func (t *Texture) DecodedBytes() int { return t.decBytes }

// DecodedSize is the size of the texture's decoded (L1) address space.
func (t *Texture) DecodedSize() uint64 { return t.decodedSize }

// DecodedAddress returns the offset of texel (x, y) of slice z of a level in
// the texture's decoded address space: the space the texture L1 is tagged in,
// where every texel takes DecodedBytes and texels are stored in 4x4 tiles
// (16*DecodedBytes bytes), tiles row-major; slices and levels as in memory
// (each starting at a multiple of LevelAlign when a level has several slices).
// A sampler adds the texture's decoded base, data address << DecodedSpaceShift,
// which keeps the spaces of different textures apart (DecodedSize is at most
// 256 times SizeBytes).
func (t *Texture) DecodedAddress(level, x, y, z int) uint64 {
	l := &t.Levels[level]
	tx, ty := x/TileSize, y/TileSize
	in := (y-ty*TileSize)*TileSize + (x - tx*TileSize)
	return l.decOffset + uint64(z)*l.decSliceStride + uint64(((ty*l.tilesX+tx)*TileSize*TileSize+in)*t.decBytes)
}

// ByteRange is a range of bytes [Addr, Addr+Size) from the texture base.
type ByteRange struct {
	Addr, Size uint64
}

// FillRanges describes the fill path of one decoded L1 line: the line of
// lineSize bytes at decoded offset line (a multiple of lineSize) holds
// decoded texels whose storage units (texels, or blocks) the fill reads from
// memory and converts. It appends to out the byte ranges of those units, sorted
// and with adjacent ranges merged, and returns the number of distinct units
// (the fill-path decodes). Texels outside the level (padding) and offsets
// outside the texture read nothing. It does not allocate when out has room for
// lineSize/DecodedBytes ranges plus the result.
func (t *Texture) FillRanges(line uint64, lineSize int, out []ByteRange) ([]ByteRange, int) {
	start := len(out)
	first, end := line, line+uint64(lineSize)
	for i := range t.Levels {
		l := &t.Levels[i]
		lvlEnd := l.decOffset + l.decSliceStride*uint64(l.Depth-1) + uint64(l.tilesX*l.tilesY*16*t.decBytes)
		if end <= l.decOffset || first >= lvlEnd {
			continue
		}
		tileBytes := uint64(16 * t.decBytes)
		for a := max(first, l.decOffset); a < min(end, lvlEnd); a += uint64(t.decBytes) {
			rel := a - l.decOffset
			z := int(rel / l.decSliceStride)
			in := rel - uint64(z)*l.decSliceStride
			tile := int(in / tileBytes)
			if tile >= l.tilesX*l.tilesY {
				continue // slice padding
			}
			k := int(in%tileBytes) / t.decBytes
			x, y := (tile%l.tilesX)*TileSize+k%TileSize, (tile/l.tilesX)*TileSize+k/TileSize
			if x >= l.Width || y >= l.Height {
				continue
			}
			out = append(out, ByteRange{Addr: t.Address(i, x, y, z), Size: uint64(t.unit)})
		}
	}
	r := out[start:]
	slices.SortFunc(r, func(a, b ByteRange) int {
		switch {
		case a.Addr < b.Addr:
			return -1
		case a.Addr > b.Addr:
			return 1
		}
		return 0
	})
	units, n := 0, 0
	for k := range r {
		if k > 0 && r[k].Addr == r[k-1].Addr {
			continue // the same unit (texels of one block)
		}
		units++
		if n > 0 && r[n-1].Addr+r[n-1].Size == r[k].Addr {
			r[n-1].Size += r[k].Size
			continue
		}
		r[n] = r[k]
		n++
	}
	return out[:start+n], units
}

// downsample box-filters a w x h x d level of format f (row-major, slice after
// slice) into nw x nh x nd texels (see the package comment); vol filters
// across slices too (3D textures), otherwise slice by slice.
func downsample(f Format, src []byte, w, h, d, nw, nh, nd int, vol bool) []byte {
	su := f.UnitBytes()
	dst := make([]byte, 0, nw*nh*nd*su)
	var texels [8][]byte
	for k := 0; k < nd; k++ {
		zs := [2]int{k, k}
		if vol {
			zs = [2]int{min(2*k, d-1), min(2*k+1, d-1)}
		}
		for j := 0; j < nh; j++ {
			y0, y1 := min(2*j, h-1), min(2*j+1, h-1)
			for i := 0; i < nw; i++ {
				x0, x1 := min(2*i, w-1), min(2*i+1, w-1)
				n := 0
				for _, z := range zs[:1+btoi(vol)] {
					for _, y := range [2]int{y0, y1} {
						for _, x := range [2]int{x0, x1} {
							s := ((z*h+y)*w + x) * su
							texels[n] = src[s : s+su]
							n++
						}
					}
				}
				dst = averageTexels(f, texels[:n], dst)
			}
		}
	}
	return dst
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// averageTexels appends the box filter of n = 4 or 8 texels of format f.
func averageTexels(f Format, ts [][]byte, dst []byte) []byte {
	n := len(ts)
	switch f {
	case RGBA16F, RGBA32F:
		for ch := 0; ch < 4; ch++ {
			var sum float32
			for k, p := range ts {
				v := decodeUnit(f, p, 0, 0)[ch]
				if k == 0 {
					sum = v
				} else {
					sum = sum + v
				}
			}
			avg := float32(sum * (1 / float32(n)))
			if f == RGBA16F {
				h := FloatToHalf(avg)
				dst = append(dst, byte(h), byte(h>>8))
			} else {
				dst = appendF32(dst, avg)
			}
		}
		return dst
	case RGBA8SRGB:
		for ch := 0; ch < 4; ch++ {
			if ch == 3 {
				s := 0
				for _, p := range ts {
					s += int(p[3])
				}
				dst = append(dst, uint8((s+n/2)/n))
				continue
			}
			var s float64
			for _, p := range ts {
				s += float64(srgbTable[p[ch]])
			}
			dst = append(dst, LinearToSRGB8(s/float64(n)))
		}
		return dst
	}
	for ch := 0; ch < f.UnitBytes(); ch++ {
		s := 0
		for _, p := range ts {
			s += int(p[ch])
		}
		dst = append(dst, uint8((s+n/2)/n))
	}
	return dst
}

func appendF32(b []byte, v float32) []byte {
	u := math.Float32bits(v)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}
