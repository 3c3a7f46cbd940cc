package texture

import (
	"encoding/binary"
)

// Block-compressed formats (D3D BC1-BC5, aka DXT1-5, ATI1/2). A block codes
// 4x4 texels, numbered i = 4*row + column; all fields are little-endian.
//
//	BC1  c0 u16, c1 u16 (RGB565: R in bits 11-15, G 5-10, B 0-4), indices u32 (texel i in bits 2i..2i+1)
//	BC2  alpha u64 (texel i in bits 4i..4i+3), then a BC1 colour block
//	BC3  a BC4 block for alpha, then a BC1 colour block
//	BC4  e0 u8, e1 u8, indices 48 bits (texel i in bits 3i..3i+2)
//	BC5  a BC4 block for R, then a BC4 block for G
//
// Decoding is exact integer arithmetic on 8-bit values (the rule of this
// simulator; D3D allows small tolerances):
//
//   - RGB565 expands by bit replication: R = r5<<3 | r5>>2, G = g6<<2 | g6>>4,
//     B = b5<<3 | b5>>2.
//   - Colour palette, per channel: p0 = c0, p1 = c1; when c0 > c1 (as u16), or
//     always in BC2 and BC3: p2 = (2*p0 + p1 + 1)/3, p3 = (p0 + 2*p1 + 1)/3,
//     all opaque; otherwise p2 = (p0 + p1 + 1)/2 and p3 is transparent black
//     (0, 0, 0, 0).
//   - BC2 alpha: a4 * 17.
//   - BC4 palette: v0 = e0, v1 = e1; when e0 > e1, vk = ((8-k)*e0 + (k-1)*e1 + 3)/7
//     for k = 2..7; otherwise vk = ((6-k)*e0 + (k-1)*e1 + 2)/5 for k = 2..5,
//     v6 = 0, v7 = 255.
//
// The decoded texel is RGBA8: BC1-BC3 (r, g, b, a), BC4 (r, 0, 0, 255), BC5
// (r, g, 0, 255).

func expand565(c uint16) (r, g, b int) {
	r5, g6, b5 := int(c>>11), int(c>>5)&63, int(c)&31
	return r5<<3 | r5>>2, g6<<2 | g6>>4, b5<<3 | b5>>2
}

// colorTexel decodes texel i of a BC1 colour block; four forces the
// four-colour palette (BC2, BC3).
func colorTexel(b []byte, i int, four bool) [4]uint8 {
	c0, c1 := binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:])
	idx := binary.LittleEndian.Uint32(b[4:]) >> (2 * uint(i)) & 3
	r0, g0, b0 := expand565(c0)
	if idx == 0 {
		return [4]uint8{uint8(r0), uint8(g0), uint8(b0), 255}
	}
	r1, g1, b1 := expand565(c1)
	switch {
	case idx == 1:
		return [4]uint8{uint8(r1), uint8(g1), uint8(b1), 255}
	case four || c0 > c1:
		if idx == 2 {
			return [4]uint8{uint8((2*r0 + r1 + 1) / 3), uint8((2*g0 + g1 + 1) / 3), uint8((2*b0 + b1 + 1) / 3), 255}
		}
		return [4]uint8{uint8((r0 + 2*r1 + 1) / 3), uint8((g0 + 2*g1 + 1) / 3), uint8((b0 + 2*b1 + 1) / 3), 255}
	case idx == 2:
		return [4]uint8{uint8((r0 + r1 + 1) / 2), uint8((g0 + g1 + 1) / 2), uint8((b0 + b1 + 1) / 2), 255}
	}
	return [4]uint8{}
}

// bc4Palette returns entry k of the palette of endpoints e0, e1.
func bc4Palette(e0, e1 int, k int) uint8 {
	switch {
	case k == 0:
		return uint8(e0)
	case k == 1:
		return uint8(e1)
	case e0 > e1:
		return uint8(((8-k)*e0 + (k-1)*e1 + 3) / 7)
	case k == 6:
		return 0
	case k == 7:
		return 255
	}
	return uint8(((6-k)*e0 + (k-1)*e1 + 2) / 5)
}

// bc4Texel decodes texel i of a BC4 block.
func bc4Texel(b []byte, i int) uint8 {
	bits := uint64(b[2]) | uint64(b[3])<<8 | uint64(b[4])<<16 | uint64(b[5])<<24 | uint64(b[6])<<32 | uint64(b[7])<<40
	k := int(bits>>(3*uint(i))) & 7
	return bc4Palette(int(b[0]), int(b[1]), k)
}

// DecodeBlockTexel decodes texel i (4*row + column) of a block of format f
// (BC1-BC5) into RGBA8. It returns zeros for other formats.
func DecodeBlockTexel(f Format, b []byte, i int) [4]uint8 {
	switch f {
	case BC1:
		return colorTexel(b, i, false)
	case BC2:
		c := colorTexel(b[8:], i, true)
		a := binary.LittleEndian.Uint64(b) >> (4 * uint(i)) & 15
		c[3] = uint8(a * 17)
		return c
	case BC3:
		c := colorTexel(b[8:], i, true)
		c[3] = bc4Texel(b, i)
		return c
	case BC4:
		return [4]uint8{bc4Texel(b, i), 0, 0, 255}
	case BC5:
		return [4]uint8{bc4Texel(b, i), bc4Texel(b[8:], i), 0, 255}
	}
	return [4]uint8{}
}

// DecodeBlock decodes the 16 texels of a block of format f (BC1-BC5) into
// RGBA8, texel i at out[i].
func DecodeBlock(f Format, b []byte, out *[16][4]uint8) {
	for i := range out {
		out[i] = DecodeBlockTexel(f, b, i)
	}
}

// EncodeBlock compresses 16 RGBA8 texels (texel i at px[i]) into a block of
// format f (BC1-BC5), appended to dst. For BC4 the R channel is coded, for BC5
// R and G. The encoder is deterministic:
//
//   - Colour (BC1, and the colour part of BC2/BC3): the endpoints are the two
//     texels farthest apart in RGB (squared distance; the first pair found in
//     texel order wins ties; in a BC1 block with transparent texels, the two
//     among the others), quantized to RGB565 with rounding; every texel
//     takes the palette entry nearest in squared RGB distance (lowest index on
//     ties). BC1 uses the three-colour palette with transparent black when a
//     texel has alpha < 128 (those texels take index 3), else the four-colour
//     palette (c0 > c1; equal endpoints give a uniform block).
//   - BC2 alpha: round(a*15/255).
//   - BC4 channels (and BC3 alpha): e0 = max, e1 = min with the eight-value
//     palette, nearest entry per texel (lowest index on ties); a constant
//     channel gives e0 = e1 and index 0.
func EncodeBlock(f Format, px *[16][4]uint8, dst []byte) []byte {
	switch f {
	case BC1:
		return encodeColor(px, dst, true)
	case BC2:
		var a uint64
		for i := range px {
			a |= uint64((int(px[i][3])*15+127)/255) << (4 * uint(i))
		}
		dst = binary.LittleEndian.AppendUint64(dst, a)
		return encodeColor(px, dst, false)
	case BC3:
		dst = encodeBC4(px, 3, dst)
		return encodeColor(px, dst, false)
	case BC4:
		return encodeBC4(px, 0, dst)
	case BC5:
		dst = encodeBC4(px, 0, dst)
		return encodeBC4(px, 1, dst)
	}
	return dst
}

func to565(r, g, b uint8) uint16 {
	return uint16((int(r)*31+127)/255)<<11 | uint16((int(g)*63+127)/255)<<5 | uint16((int(b)*31+127)/255)
}

func dist2(a [4]uint8, r, g, b int) int {
	dr, dg, db := int(a[0])-r, int(a[1])-g, int(a[2])-b
	return dr*dr + dg*dg + db*db
}

// encodeColor appends a BC1 colour block; alpha allows the transparent
// three-colour mode (BC1 only).
func encodeColor(px *[16][4]uint8, dst []byte, alpha bool) []byte {
	transparent := false
	if alpha {
		for i := range px {
			if px[i][3] < 128 {
				transparent = true
			}
		}
	}
	// Endpoints: the farthest pair among the texels that will be coded.
	best, e0, e1 := -1, -1, -1
	for i := range px {
		if transparent && px[i][3] < 128 {
			continue
		}
		for j := i; j < 16; j++ {
			if transparent && px[j][3] < 128 {
				continue
			}
			if d := dist2(px[i], int(px[j][0]), int(px[j][1]), int(px[j][2])); d > best {
				best, e0, e1 = d, i, j
			}
		}
	}
	var c0, c1 uint16
	if e0 >= 0 {
		c0 = to565(px[e0][0], px[e0][1], px[e0][2])
		c1 = to565(px[e1][0], px[e1][1], px[e1][2])
	}
	if transparent {
		if c0 > c1 {
			c0, c1 = c1, c0
		}
	} else if c0 < c1 {
		c0, c1 = c1, c0
	}
	block := make([]byte, 0, 8)
	block = binary.LittleEndian.AppendUint16(block, c0)
	block = binary.LittleEndian.AppendUint16(block, c1)
	block = append(block, 0, 0, 0, 0)
	// The palette as the decoder sees it (four-colour decoding is forced for
	// BC2/BC3, where alpha is false).
	var pal [4][4]uint8
	for k := 0; k < 4; k++ {
		binary.LittleEndian.PutUint32(block[4:], uint32(k*0x55))
		pal[k] = colorTexel(block, 0, !alpha)
	}
	usable := 4
	if transparent || (alpha && c0 <= c1) {
		usable = 3
	}
	var idx uint32
	for i := range px {
		k := 3
		if !(transparent && px[i][3] < 128) {
			k = 0
			bd := dist2(pal[0], int(px[i][0]), int(px[i][1]), int(px[i][2]))
			for j := 1; j < usable; j++ {
				if d := dist2(pal[j], int(px[i][0]), int(px[i][1]), int(px[i][2])); d < bd {
					bd, k = d, j
				}
			}
		}
		idx |= uint32(k) << (2 * uint(i))
	}
	binary.LittleEndian.PutUint32(block[4:], idx)
	return append(dst, block...)
}

// encodeBC4 appends a BC4 block coding channel ch.
func encodeBC4(px *[16][4]uint8, ch int, dst []byte) []byte {
	lo, hi := 255, 0
	for i := range px {
		v := int(px[i][ch])
		lo, hi = min(lo, v), max(hi, v)
	}
	var bits uint64
	if hi > lo {
		for i := range px {
			v := int(px[i][ch])
			k, bd := 0, 1<<30
			for j := 0; j < 8; j++ {
				d := v - int(bc4Palette(hi, lo, j))
				if d*d < bd {
					bd, k = d*d, j
				}
			}
			bits |= uint64(k) << (3 * uint(i))
		}
	}
	dst = append(dst, uint8(hi), uint8(lo))
	for i := 0; i < 6; i++ {
		dst = append(dst, uint8(bits>>(8*uint(i))))
	}
	return dst
}
