package teximage

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"

	"github.com/gfxsim/gfxsim/internal/inputs"
)

// decodeBytes estimates the peak memory of decoding an image of header cfg
// into RGBA8, from the header alone: the standard library decoder's own
// picture (its bytes per pixel depend on the colour model; an interlaced PNG
// is assembled from its passes, a progressive JPEG keeps every DCT
// coefficient as an int32 until the last scan) plus the RGBA8 result.
func decodeBytes(format string, cfg image.Config, data []byte) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	out := 4 * px
	switch format {
	case "png":
		bpp := int64(4)
		switch cfg.ColorModel {
		case color.GrayModel:
			bpp = 1
		case color.Gray16Model:
			bpp = 2
		case color.RGBA64Model, color.NRGBA64Model:
			bpp = 8
		default:
			if _, ok := cfg.ColorModel.(color.Palette); ok {
				bpp = 1
			}
		}
		dec := bpp * px
		if len(data) > 28 && data[28] == 1 { // IHDR interlace method: Adam7
			dec *= 2
		}
		return dec + out
	case "jpeg":
		comps := int64(3)
		switch cfg.ColorModel {
		case color.GrayModel:
			comps = 1
		case color.CMYKModel:
			comps = 4
		}
		// Blocks cover whole MCUs of up to 32x32 pixels (4:1 subsampling).
		w, h := (int64(cfg.Width)+31)/32*32, (int64(cfg.Height)+31)/32*32
		dec := comps * w * h
		if jpegProgressive(data) {
			dec += 4 * comps * w * h
		}
		return dec + out
	}
	return out
}

// jpegProgressive reports whether a JPEG's frame header is progressive
// (SOF2 or SOF6, SOF10, SOF14); it walks the marker segments up to the first
// frame header as image/jpeg does, skipping the bytes between segments that
// are not a marker (libjpeg and image/jpeg accept them), and says true when
// it finds no frame header (the larger estimate).
func jpegProgressive(data []byte) bool {
	i := 2
	for i+4 <= len(data) {
		m := data[i+1]
		switch {
		case data[i] != 0xff: // an extraneous byte
			i++
			continue
		case m == 0xff: // fill byte
			i++
			continue
		case m == 0x00 || m == 0x01 || m >= 0xd0 && m <= 0xd8: // stuffed byte, TEM, RSTn, SOI: no length
			i += 2
			continue
		}
		switch m {
		case 0xc2, 0xc6, 0xca, 0xce:
			return true
		case 0xc0, 0xc1, 0xc3, 0xc5, 0xc7, 0xc9, 0xcb, 0xcd, 0xcf:
			return false
		}
		i += 2 + int(binary.BigEndian.Uint16(data[i+2:]))
	}
	return true
}

// DecodeWithin is Decode with the decoder's peak memory, estimated from the
// header (width x height x the decoder's bytes per pixel, per format), checked
// against budget b before any pixel is decoded (nil: the default budget).
func DecodeWithin(name string, data []byte, b *inputs.Budget) (*Image, error) {
	return decode(name, data, b)
}

func checkDecode(name, format string, cfg image.Config, data []byte, b *inputs.Budget) error {
	need := decodeBytes(format, cfg, data)
	if err := b.Check(fmt.Sprintf("decoding the %dx%d %s", cfg.Width, cfg.Height, format), need); err != nil {
		return fmt.Errorf("%s: %s header: %v", name, format, err)
	}
	return nil
}
