package framebuffer

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// ColorFormat is a render target colour format.
type ColorFormat uint8

// Colour formats.
const (
	RGBA8   ColorFormat = iota // 8-bit UNORM per channel
	RGBA32F                    // 32-bit float per channel
	// RGBA10 is the SAGE sample buffer's format: 10-bit UNORM per channel,
	// 40 bits (5 bytes) per sample, R in the low bits. A store dithers the
	// colour from 12 bits (see Dither10).
	RGBA10
	numColorFormats
)

var colorFormatNames = enum.Names[ColorFormat]{Type: "ColorFormat", What: "color format", Names: []string{"RGBA8", "RGBA32F", "RGBA10"}}

// String returns the format's name.
func (f ColorFormat) String() string { return colorFormatNames.String(f) }

// Valid reports whether f is a known format.
func (f ColorFormat) Valid() bool { return colorFormatNames.Valid(f) }

// ParseColorFormat parses a colour format name ("rgba8", "RGBA32F").
func ParseColorFormat(s string) (ColorFormat, error) { return colorFormatNames.Parse(s) }

// BytesPerSample is the size of one sample in memory.
func (f ColorFormat) BytesPerSample() int {
	switch f {
	case RGBA32F:
		return 16
	case RGBA10:
		return 5
	}
	return 4
}

// UNORM reports whether the format stores normalized integers (values clamp to [0, 1]).
func (f ColorFormat) UNORM() bool { return f == RGBA8 || f == RGBA10 }

// ColorTarget is a multisampled colour render target. The embedded Surface's fields
// (Width, Height, Samples, Layout, TileW, TileH) and Format are read-only.
type ColorTarget struct {
	Surface
	Format ColorFormat
	bps    int
	data   []byte
}

// NewColorTarget allocates a zeroed colour target.
func NewColorTarget(g Geometry, f ColorFormat) (*ColorTarget, error) {
	t, err := newColorTarget(g, f)
	if err != nil {
		return nil, err
	}
	t.data = make([]byte, t.SizeBytes())
	return t, nil
}

// ColorTargetSize returns the SizeBytes of a colour target of geometry g and
// format f, without allocating one.
func ColorTargetSize(g Geometry, f ColorFormat) (uint64, error) {
	t, err := newColorTarget(g, f)
	if err != nil {
		return 0, err
	}
	return t.SizeBytes(), nil
}

// NewColorTargetFromBytes wraps data, which must hold at least SizeBytes bytes laid out
// as described by g and f, without copying: the target reads and writes data directly.
func NewColorTargetFromBytes(g Geometry, f ColorFormat, data []byte) (*ColorTarget, error) {
	t, err := newColorTarget(g, f)
	if err != nil {
		return nil, err
	}
	n := t.SizeBytes()
	if uint64(len(data)) < n {
		return nil, fmt.Errorf("data: %d bytes, want at least %d", len(data), n)
	}
	t.data = data[:n:n]
	return t, nil
}

func newColorTarget(g Geometry, f ColorFormat) (*ColorTarget, error) {
	if !f.Valid() {
		return nil, fmt.Errorf("Format: invalid color format %d", uint8(f))
	}
	s, err := NewSurface(g)
	if err != nil {
		return nil, err
	}
	if err := checkSize(s.Elements(), f.BytesPerSample()); err != nil {
		return nil, err
	}
	return &ColorTarget{Surface: s, Format: f, bps: f.BytesPerSample()}, nil
}

// SizeBytes is the size of the allocation in bytes, padding included.
func (t *ColorTarget) SizeBytes() uint64 { return uint64(t.Elements()) * uint64(t.bps) }

// Bytes returns the target's memory image (not a copy).
func (t *ColorTarget) Bytes() []byte { return t.data }

// Address returns the byte offset of sample s of pixel (x, y) from the target base.
func (t *ColorTarget) Address(x, y, sample int) uint64 {
	return uint64(t.Index(x, y, sample)) * uint64(t.bps)
}

// Load returns the colour of a sample, or zeros outside the surface.
func (t *ColorTarget) Load(x, y, sample int) geom.Vec4 {
	if !t.inside(x, y, sample) {
		return geom.Vec4{}
	}
	a := t.Index(x, y, sample) * t.bps
	return decodeColor(t.Format, t.data[a:a+t.bps])
}

// Store writes the channels of c selected by writeMask (R=1, G=2, B=4, A=8) to a
// sample, converting to the format (RGBA8: clamp, floor(c*255+0.5); RGBA10:
// Dither10 at the sample's threshold). Samples outside the surface are ignored.
func (t *ColorTarget) Store(x, y, sample int, c geom.Vec4, writeMask uint8) {
	if !t.inside(x, y, sample) {
		return
	}
	a := t.Index(x, y, sample) * t.bps
	encodeColor(t.Format, t.data[a:a+t.bps], c, writeMask, DitherThreshold(x, y, sample))
}

// Sample returns sample s of pixel (x, y) of an RGBA10 target as four 10-bit
// values (R, G, B, A), and false outside the surface or for another format.
func (t *ColorTarget) Sample(x, y, s int) ([4]uint16, bool) {
	if t.Format != RGBA10 || !t.inside(x, y, s) {
		return [4]uint16{}, false
	}
	a := t.Index(x, y, s) * 5
	return unpack10(t.data[a : a+5]), true
}

// BlendStore runs the output-merger colour path for one sample: it loads the
// destination, blends src with bt (BlendUNORM for UNORM formats, Blend otherwise) and
// stores the result with bt.WriteMask.
func (t *ColorTarget) BlendStore(x, y, sample int, src geom.Vec4, bt *blend.Target, constant geom.Vec4) {
	if !t.inside(x, y, sample) {
		return
	}
	a := t.Index(x, y, sample) * t.bps
	p := t.data[a : a+t.bps]
	if bt.Enable {
		dst := decodeColor(t.Format, p)
		if t.Format.UNORM() {
			src = bt.BlendUNORM(src, dst, constant)
		} else {
			src = bt.Blend(src, dst, constant)
		}
	}
	encodeColor(t.Format, p, src, bt.WriteMask, DitherThreshold(x, y, sample))
}

// Clear sets every sample, padding included, to c (converted like Store, all
// channels; RGBA10 rounds to nearest instead of dithering: a fast clear writes
// one value everywhere).
func (t *ColorTarget) Clear(c geom.Vec4) {
	if len(t.data) == 0 {
		return
	}
	encodeColor(t.Format, t.data[:t.bps], c, blend.WriteAll, clearThreshold)
	fillPattern(t.data, t.bps)
}

// EncodeColor returns the bytes a Store of c (all channels) writes, in a buffer of
// BytesPerSample bytes appended to dst.
func EncodeColor(f ColorFormat, c geom.Vec4, dst []byte) []byte {
	n := len(dst)
	var zeros [16]byte
	dst = append(dst, zeros[:f.BytesPerSample()]...)
	encodeColor(f, dst[n:], c, blend.WriteAll, clearThreshold)
	return dst
}

// ToUNORM8 converts a float to an 8-bit UNORM value: clamp to [0, 1] (NaN is 0), then
// floor(c*255 + 0.5) in float32.
func ToUNORM8(c float32) uint8 {
	if !(c > 0) {
		return 0
	}
	if c >= 1 {
		return 255
	}
	return uint8(float32(c*255) + 0.5) // truncation of a non-negative value is floor
}

// FromUNORM8 converts an 8-bit UNORM value to float32: v/255.
func FromUNORM8(v uint8) float32 { return float32(v) / 255 }

func decodeColor(f ColorFormat, p []byte) geom.Vec4 {
	if f == RGBA32F {
		return geom.Vec4{
			math.Float32frombits(binary.LittleEndian.Uint32(p[0:])),
			math.Float32frombits(binary.LittleEndian.Uint32(p[4:])),
			math.Float32frombits(binary.LittleEndian.Uint32(p[8:])),
			math.Float32frombits(binary.LittleEndian.Uint32(p[12:])),
		}
	}
	if f == RGBA10 {
		v := unpack10(p)
		return geom.Vec4{FromUNORM10(v[0]), FromUNORM10(v[1]), FromUNORM10(v[2]), FromUNORM10(v[3])}
	}
	return geom.Vec4{FromUNORM8(p[0]), FromUNORM8(p[1]), FromUNORM8(p[2]), FromUNORM8(p[3])}
}

// encodeColor converts c to format f in p; dither is the RGBA10 threshold.
func encodeColor(f ColorFormat, p []byte, c geom.Vec4, writeMask uint8, dither uint16) {
	if f == RGBA10 {
		v := unpack10(p)
		for ch := 0; ch < 4; ch++ {
			if writeMask&(1<<ch) != 0 {
				v[ch] = Dither10(c[ch], dither)
			}
		}
		pack10(p, v)
		return
	}
	for ch := 0; ch < 4; ch++ {
		if writeMask&(1<<ch) == 0 {
			continue
		}
		if f == RGBA32F {
			binary.LittleEndian.PutUint32(p[4*ch:], math.Float32bits(c[ch]))
		} else {
			p[ch] = ToUNORM8(c[ch])
		}
	}
}

// fillPattern repeats data[:n] over data.
func fillPattern(data []byte, n int) {
	for filled := n; filled < len(data); filled *= 2 {
		copy(data[filled:], data[:filled])
	}
}
