package texture

import (
	"fmt"
	"image"
	"image/color"
	"math"
)

// FromImage builds a Linear RGBA8 texture from a decoded image (PNG, JPEG, ...), with
// the full mip chain when mips is set. Texels are straight (non-premultiplied) RGBA:
// *image.NRGBA bytes are used as they are; other images are converted with
// color.NRGBAModel (premultiplied colours are divided by alpha).
func FromImage(img image.Image, mips bool) (*Texture, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w < 1 || h < 1 || w > MaxDimension || h > MaxDimension {
		return nil, fmt.Errorf("image: size %dx%d out of range [1, %d]", w, h, MaxDimension)
	}
	return NewRGBA8(w, h, ImagePixels(img), mips)
}

// ImagePixels returns the straight-alpha RGBA8 texels of img, row-major.
func ImagePixels(img image.Image) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	pix := make([]byte, 0, w*h*4)
	if n, ok := img.(*image.NRGBA); ok {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			off := n.PixOffset(b.Min.X, y)
			pix = append(pix, n.Pix[off:off+4*w]...)
		}
		return pix
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			pix = append(pix, c.R, c.G, c.B, c.A)
		}
	}
	return pix
}

// Image returns slice 0 of level i as an *image.NRGBA (a copy), for inspection
// and dumps (see ImageSlice).
func (t *Texture) Image(level int) (*image.NRGBA, error) { return t.ImageSlice(level, 0) }

// ImageSlice returns slice z of level i as an *image.NRGBA (a copy). RGBA8
// texels are copied as they are; other formats are decoded and converted to
// 8 bits per channel (clamped to [0, 1], round to nearest; sRGB texels are
// re-encoded as sRGB, so RGBA8_SRGB images show their stored bytes).
func (t *Texture) ImageSlice(level, z int) (*image.NRGBA, error) {
	if level < 0 || level >= len(t.Levels) {
		return nil, fmt.Errorf("level: %d out of range [0, %d)", level, len(t.Levels))
	}
	l := &t.Levels[level]
	if z < 0 || z >= l.Depth {
		return nil, fmt.Errorf("slice: %d out of range [0, %d)", z, l.Depth)
	}
	img := image.NewNRGBA(image.Rect(0, 0, l.Width, l.Height))
	for y := 0; y < l.Height; y++ {
		for x := 0; x < l.Width; x++ {
			o := img.PixOffset(x, y)
			if t.Format == RGBA8 || t.Format == RGBA8SRGB {
				a := t.Address(level, x, y, z)
				copy(img.Pix[o:o+4], t.data[a:a+4])
				continue
			}
			c := t.fetch(level, x, y, z)
			for k, v := range c {
				img.Pix[o+k] = unorm8(v)
			}
		}
	}
	return img, nil
}

func unorm8(v float32) uint8 { return unit8(float64(v)) }

// unit8 is v in [0, 1] (clamped; NaN is 0) as an 8-bit value, rounding to
// nearest.
func unit8(v float64) uint8 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(math.Floor(v*255 + 0.5))
}
