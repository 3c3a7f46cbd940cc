package rtcache

import (
	"bytes"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// Surface is a render target whose lines the cache may move compressed: Size
// bytes at Base. Without a Codec it is a multisampled colour target: Samples
// samples of BytesPerSample bytes per pixel, the samples of a pixel adjacent in
// memory (functional/framebuffer's layouts), pixels starting at Base, and a
// line compresses to LineSize/Samples bytes when every pixel has equal samples.
// With a Codec (the depth unit's Z compression) the codec decides each line's
// compressed size from its bytes, and Samples and BytesPerSample are unused.
type Surface struct {
	Base, Size     uint64
	Samples        int
	BytesPerSample int
	Codec          BlockCodec
}

// BlockCodec decides how many bytes a line moves compressed.
type BlockCodec interface {
	// Size returns the bytes the line at addr holding data moves when written
	// back (and read again later): a multiple of unit (the memory's access
	// unit) below len(data), or len(data) when compression saves nothing.
	Size(addr uint64, data []byte, unit uint64) uint64
}

// LineState is the compression tag of a line of a surface.
type LineState uint8

// Line states.
const (
	// Uncompressed: memory holds the line in full (LineSize bytes); the state
	// of every line never written back compressed.
	Uncompressed LineState = iota
	// Compressed: every pixel of the line had all its samples equal when it was
	// last written back; memory holds one block of LineSize/samples bytes.
	Compressed
	// Cleared: the line holds the fast-clear value (no memory access needed).
	Cleared
)

var lineStateNames = enum.Names[LineState]{Type: "LineState", Names: []string{"Uncompressed", "Compressed", "Cleared"}}

func (s LineState) String() string { return lineStateNames.String(s) }

// surface is a registered surface with its compression tags.
type surface struct {
	Surface
	lo, hi uint64   // the lines wholly inside the surface: [lo, hi)
	usable bool     // compression applies to the surface's lines
	pixel  int      // bytes per pixel (all samples)
	block  uint64   // compressed block size: LineSize/Samples (colour surfaces)
	size   []uint16 // per line of [lo, hi): bytes in memory when compressed, 0 when not
}

// index returns the index of line in s.size; false outside [lo, hi).
func (s *surface) index(line, lineSize uint64) (int, bool) {
	if line < s.lo || line >= s.hi {
		return 0, false
	}
	return int((line - s.lo) / lineSize), true
}

func (s *surface) contains(addr uint64) bool { return addr >= s.Base && addr-s.Base < s.Size }

// SetSurface registers s as a surface whose lines may be compressed and
// reports whether compression applies to it. It applies when Compression is
// on, the surface has at least 2 samples, a line holds whole pixels (LineSize a
// multiple of Samples*BytesPerSample, Base aligned to a pixel), and the
// compressed block LineSize/Samples is at least MinBlock bytes; with a Codec,
// when Compression is on and a line is larger than MinBlock. Only the lines
// wholly inside the surface are ever compressed. Registering the surface that
// is already registered changes nothing; a surface overlapping registered ones
// replaces them (their tags are dropped: their lines read uncompressed). The
// cache keeps at most 8 surfaces, dropping the oldest.
func (c *Cache) SetSurface(s Surface) bool {
	if !c.cfg.Compression {
		return false
	}
	for i := range c.surfs {
		if c.surfs[i].Surface == s {
			return c.surfs[i].usable
		}
	}
	keep := c.surfs[:0]
	for _, o := range c.surfs {
		if o.Base+o.Size <= s.Base || s.Base+s.Size <= o.Base {
			keep = append(keep, o)
		}
	}
	c.surfs = keep
	if len(c.surfs) >= maxSurfaces {
		c.surfs = append(c.surfs[:0], c.surfs[1:]...)
	}
	ns := surface{Surface: s, pixel: s.Samples * s.BytesPerSample}
	ns.lo = (s.Base + c.lines - 1) &^ (c.lines - 1)
	ns.hi = (s.Base + s.Size) &^ (c.lines - 1)
	if ns.hi < ns.lo || s.Base+s.Size < s.Base {
		ns.hi = ns.lo
	}
	switch {
	case s.Codec != nil:
		ns.usable = c.lines > uint64(c.cfg.minBlock())
	case s.Samples >= 2 && ns.pixel > 0:
		ns.block = c.lines / uint64(s.Samples)
		ns.usable = c.lines%uint64(ns.pixel) == 0 && s.Base%uint64(ns.pixel) == 0 &&
			ns.block >= uint64(c.cfg.minBlock()) && c.lines%uint64(s.Samples) == 0
	}
	if ns.usable {
		ns.size = make([]uint16, (ns.hi-ns.lo)/c.lines)
	}
	c.surfs = append(c.surfs, ns)
	return ns.usable
}

const maxSurfaces = 8

// surfaceOf returns the registered surface holding line (nil when none).
func (c *Cache) surfaceOf(line uint64) *surface {
	for i := range c.surfs {
		if c.surfs[i].contains(line) {
			return &c.surfs[i]
		}
	}
	return nil
}

// State returns the compression tag of the line holding addr.
func (c *Cache) State(addr uint64) LineState {
	line := c.Line(addr)
	if c.Cleared(line) {
		return Cleared
	}
	if s := c.surfaceOf(line); s != nil && s.usable {
		if i, ok := s.index(line, c.lines); ok && s.size[i] != 0 {
			return Compressed
		}
	}
	return Uncompressed
}

// CompressedSize returns the bytes the line holding addr occupies in memory:
// its compressed size, or LineSize when it is not compressed (0 when it is
// fast-cleared).
func (c *Cache) CompressedSize(addr uint64) uint64 {
	line := c.Line(addr)
	if c.Cleared(line) {
		return 0
	}
	n, _ := c.readSize(line)
	return n
}

// setCompressed records the size line was last written back with (0: not
// compressed).
func (s *surface) setCompressed(line, lineSize, size uint64) {
	if i, ok := s.index(line, lineSize); ok {
		s.size[i] = uint16(size)
	}
}

// transfer is how a line moves between the cache and memory.
type transfer uint8

const (
	plainLine      transfer = iota // not a line of a registered surface
	unusableLine                   // a line of a surface compression does not apply to
	fullLine                       // an uncompressed line of a compressible surface
	compressedLine                 // a compressed block
)

// usableSurface returns the surface of line when compression applies to it;
// otherwise nil and how the line moves (plainLine or unusableLine).
func (c *Cache) usableSurface(line uint64) (*surface, transfer) {
	s := c.surfaceOf(line)
	switch {
	case s == nil:
		return nil, plainLine
	case !s.usable:
		return nil, unusableLine
	}
	return s, fullLine
}

// readSize returns the bytes a miss on line moves: the compressed block when
// its tag says compressed, else the whole line.
func (c *Cache) readSize(line uint64) (uint64, transfer) {
	s, t := c.usableSurface(line)
	if s == nil {
		return c.lines, t
	}
	if i, ok := s.index(line, c.lines); ok && s.size[i] != 0 {
		return uint64(s.size[i]), compressedLine
	}
	return c.lines, fullLine
}

// writeBackSize decides how a write-back of line carrying the image bytes data
// moves: compressed (the block size) when every pixel of the line has all its
// samples equal, else the whole line; the line's tag follows.
func (c *Cache) writeBackSize(line uint64, data []byte) (uint64, transfer) {
	s, t := c.usableSurface(line)
	if s == nil {
		return c.lines, t
	}
	if _, ok := s.index(line, c.lines); !ok {
		return c.lines, unusableLine // a line only partly inside the surface
	}
	size := c.lines
	switch {
	case s.Codec != nil:
		size = s.Codec.Size(line, data, uint64(c.cfg.minBlock()))
	case uniform(data, s.pixel, s.BytesPerSample):
		size = s.block
	}
	if size < c.lines {
		s.setCompressed(line, c.lines, size)
		return size, compressedLine
	}
	s.setCompressed(line, c.lines, 0)
	return c.lines, fullLine
}

// count records a line transfer of size bytes.
func (c *Cache) count(t transfer, size uint64, write bool) {
	switch t {
	case unusableLine:
		c.st.Unusable++
	case fullLine:
		if write {
			c.st.UncompressedWriteBacks++
		} else {
			c.st.UncompressedReads++
		}
	case compressedLine:
		if write {
			c.st.CompressedWriteBacks++
		} else {
			c.st.CompressedReads++
		}
		c.st.BytesSaved += c.lines - size
	}
}

// uniform reports whether every pixel (pixel bytes, samples of bps bytes) of
// data has all its samples bitwise equal.
func uniform(data []byte, pixel, bps int) bool {
	for p := 0; p+pixel <= len(data); p += pixel {
		first := data[p : p+bps]
		for s := p + bps; s < p+pixel; s += bps {
			if !bytes.Equal(data[s:s+bps], first) {
				return false
			}
		}
	}
	return true
}

// clearCompressed drops the compressed tags of the lines inside [lo, hi).
func (c *Cache) clearCompressed(lo, hi uint64) {
	for i := range c.surfs {
		s := &c.surfs[i]
		if !s.usable {
			continue
		}
		for l := max(lo, s.lo); l < min(hi, s.hi); l += c.lines {
			s.setCompressed(l, c.lines, 0)
		}
	}
}
