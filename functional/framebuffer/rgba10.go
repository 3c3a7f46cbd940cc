package framebuffer

// The SAGE sample buffer stores 10-bit RGBA per sample, dithered from the
// 12-bit colour the rasterize chip computes (Deering & Naegle 2002, §8:
// "to mitigate contouring, we dither the 12-bit RGBA samples computed during
// rendering to the 10-bit RGBA values actually stored in the sample buffer;
// the convolution of the dithered sample values effectively reverses the
// dithering"). The paper does not give the dither; this is the choice made
// here: an ordered dither whose threshold (0 to 3, the two dropped bits)
// comes from a 2x2 Bayer matrix indexed by the pixel and the sample, so that
// every four consecutive samples of a pixel take all four thresholds and
// their sum is exactly the 12-bit value (sum over t of floor((v+t)/4) = v),
// except for 4093-4095, whose samples the cap at 1023 holds to a sum of 4092.

// bayer2 is the 2x2 Bayer matrix of thresholds, [row][column].
var bayer2 = [2][2]uint16{{0, 2}, {3, 1}}

// clearThreshold rounds to nearest (a fast clear writes one value).
const clearThreshold = 2

// DitherThreshold is the RGBA10 dither threshold (0 to 3) of sample s of
// pixel (x, y): the 2x2 Bayer matrix at column x+s, row y+s/2.
func DitherThreshold(x, y, s int) uint16 {
	return bayer2[(y+s>>1)&1][(x+s)&1]
}

// To12 converts a float to 12-bit UNORM: clamp to [0, 1] (NaN is 0), then
// floor(c*4095 + 0.5) in float32.
func To12(c float32) uint16 {
	if !(c > 0) {
		return 0
	}
	if c >= 1 {
		return 4095
	}
	return uint16(float32(c*4095) + 0.5)
}

// Dither10 converts a float to the stored 10-bit value: its 12-bit value
// plus the threshold (0 to 3), dropping two bits, at most 1023.
func Dither10(c float32, threshold uint16) uint16 {
	return min((To12(c)+threshold)>>2, 1023)
}

// FromUNORM10 converts a 10-bit UNORM value to float32: v/1023.
func FromUNORM10(v uint16) float32 { return float32(v) / 1023 }

// unpack10 reads the four 10-bit channels of a 40-bit little-endian sample.
func unpack10(p []byte) [4]uint16 {
	w := uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 | uint64(p[4])<<32
	return [4]uint16{uint16(w & 1023), uint16(w >> 10 & 1023), uint16(w >> 20 & 1023), uint16(w >> 30 & 1023)}
}

// pack10 writes four 10-bit channels as a 40-bit little-endian sample.
func pack10(p []byte, v [4]uint16) {
	w := uint64(v[0]&1023) | uint64(v[1]&1023)<<10 | uint64(v[2]&1023)<<20 | uint64(v[3]&1023)<<30
	p[0], p[1], p[2], p[3], p[4] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32)
}
