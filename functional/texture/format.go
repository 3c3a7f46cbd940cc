package texture

import (
	"encoding/binary"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Format is a texel format.
type Format uint8

// Texel formats. The numbering is the one of the command stream's texture
// descriptor.
const (
	RGBA8     Format = iota // 4 bytes R, G, B, A, UNORM
	RGBA8SRGB               // 4 bytes R, G, B (sRGB-encoded), A (linear), UNORM; filtered in linear space
	R8                      // 1 byte R, UNORM; reads (r, 0, 0, 1)
	RG8                     // 2 bytes R, G, UNORM; reads (r, g, 0, 1)
	RGBA16F                 // 4 IEEE-754 binary16 halves R, G, B, A
	RGBA32F                 // 4 IEEE-754 binary32 floats R, G, B, A
	BC1                     // 8-byte blocks of 4x4 texels: two RGB565 endpoints, 2-bit indices (1-bit alpha)
	BC2                     // 16-byte blocks: 4-bit explicit alpha, then a BC1 colour block
	BC3                     // 16-byte blocks: a BC4 alpha block, then a BC1 colour block
	BC4                     // 8-byte blocks: one channel, two 8-bit endpoints, 3-bit indices; reads (r, 0, 0, 1)
	BC5                     // 16-byte blocks: two BC4 blocks (R, then G); reads (r, g, 0, 1)
	numFormats
)

var formatNames = enum.Names[Format]{Type: "Format", What: "texture format", OneOf: true, Names: []string{"RGBA8", "RGBA8_SRGB", "R8", "RG8", "RGBA16F", "RGBA32F",
	"BC1", "BC2", "BC3", "BC4", "BC5"}}

// String returns the format's name.
func (f Format) String() string { return formatNames.String(f) }

// Valid reports whether f is a known format.
func (f Format) Valid() bool { return formatNames.Valid(f) }

// ParseFormat parses a format name ("rgba8", "rgba8_srgb", "bc1", ...),
// ignoring case, '_' and '-'.
func ParseFormat(s string) (Format, error) { return formatNames.Parse(s) }

// Compressed reports whether f is a block-compressed format (4x4-texel blocks).
func (f Format) Compressed() bool { return f >= BC1 && f <= BC5 }

// BlockDim is the edge of the format's storage unit in texels: 4 for the block
// formats, 1 otherwise.
func (f Format) BlockDim() int {
	if f.Compressed() {
		return 4
	}
	return 1
}

// UnitBytes is the size of the format's storage unit: a texel, or a 4x4 block.
func (f Format) UnitBytes() int {
	switch f {
	case R8:
		return 1
	case RG8:
		return 2
	case RGBA16F, BC1, BC4:
		return 8
	case RGBA32F, BC2, BC3, BC5:
		return 16
	}
	return 4
}

// BytesPerTexel is the size of one texel of an uncompressed format (0 for the
// block formats; see UnitBytes).
func (f Format) BytesPerTexel() int {
	if f.Compressed() {
		return 0
	}
	return f.UnitBytes()
}

// DecodedBytes is the size of one texel as the texture L1 holds it after the
// fill path converted it (Giesen part 4: blocks are decoded, sRGB texels
// converted, "so fat texels take more L1 space"): RGBA8 4; RGBA8_SRGB 8 (16 bits
// per channel in linear space); R8 1; RG8 2; RGBA16F 8; RGBA32F 16; BC1, BC2,
// BC3 4 (RGBA8); BC4 1 (R8); BC5 2 (RG8).
func (f Format) DecodedBytes() int {
	switch f {
	case RGBA8SRGB, RGBA16F:
		return 8
	case RGBA32F:
		return 16
	case R8, BC4:
		return 1
	case RG8, BC5:
		return 2
	}
	return 4
}

// SourceFormat is the format of the row-major level data New takes for f: f
// itself for the uncompressed formats, RGBA8 for BC1-BC3, R8 for BC4 and RG8
// for BC5 (New compresses every level).
func (f Format) SourceFormat() Format {
	switch f {
	case BC1, BC2, BC3:
		return RGBA8
	case BC4:
		return R8
	case BC5:
		return RG8
	}
	return f
}

// srgbTable maps an 8-bit sRGB value to linear: c/12.92 for c <= 0.04045,
// else ((c+0.055)/1.055)^2.4, with c = v/255, computed in float64 and rounded
// to float32. It is filled once and never written again.
var srgbTable = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(srgbToLinear(float64(i) / 255))
	}
	return t
}()

func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func linearToSRGB(l float64) float64 {
	if l <= 0.0031308 {
		return l * 12.92
	}
	return 1.055*math.Pow(l, 1/2.4) - 0.055
}

// SRGBToLinear returns the linear value of an 8-bit sRGB-encoded channel, as
// the sampler decodes it.
func SRGBToLinear(v uint8) float32 { return srgbTable[v] }

// LinearToSRGB8 encodes a linear value in [0, 1] (clamped; NaN is 0) as an
// 8-bit sRGB value, rounding to nearest.
func LinearToSRGB8(l float64) uint8 {
	// linearToSRGB keeps the order, NaN and the ends 0 and 1: unit8 clamps.
	return unit8(linearToSRGB(l))
}

// HalfToFloat converts an IEEE-754 binary16 value to float32 (exactly).
func HalfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: mant * 2^-24
		v := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 31:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
}

// FloatToHalf converts a float32 to binary16, rounding to nearest even;
// overflow gives infinity and NaN stays NaN.
func FloatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 255 {
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 31 {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		m := mant | 0x800000
		shift := uint(14 - e)
		h := m >> shift
		rem, mid := m&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > mid || (rem == mid && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent: rounds up to the next binade or to infinity
	}
	return sign | uint16(h)
}

// decodeUnit decodes texel (x%4, y%4 of its block for the block formats) of
// the storage unit p (a texel, or a block) of format f.
func decodeUnit(f Format, p []byte, x, y int) geom.Vec4 {
	switch f {
	case RGBA8:
		return geom.Vec4{float32(p[0]) / 255, float32(p[1]) / 255, float32(p[2]) / 255, float32(p[3]) / 255}
	case RGBA8SRGB:
		return geom.Vec4{srgbTable[p[0]], srgbTable[p[1]], srgbTable[p[2]], float32(p[3]) / 255}
	case R8:
		return geom.Vec4{float32(p[0]) / 255, 0, 0, 1}
	case RG8:
		return geom.Vec4{float32(p[0]) / 255, float32(p[1]) / 255, 0, 1}
	case RGBA16F:
		return geom.Vec4{HalfToFloat(binary.LittleEndian.Uint16(p)), HalfToFloat(binary.LittleEndian.Uint16(p[2:])),
			HalfToFloat(binary.LittleEndian.Uint16(p[4:])), HalfToFloat(binary.LittleEndian.Uint16(p[6:]))}
	case RGBA32F:
		return geom.Vec4{math.Float32frombits(binary.LittleEndian.Uint32(p)), math.Float32frombits(binary.LittleEndian.Uint32(p[4:])),
			math.Float32frombits(binary.LittleEndian.Uint32(p[8:])), math.Float32frombits(binary.LittleEndian.Uint32(p[12:]))}
	}
	c := DecodeBlockTexel(f, p, (y&3)*4+(x&3))
	return geom.Vec4{float32(c[0]) / 255, float32(c[1]) / 255, float32(c[2]) / 255, float32(c[3]) / 255}
}
