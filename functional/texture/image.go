package texture

import (
	"fmt"
	"image"
	"image/color"
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
	pix := make([]byte, 0, w*h*4)
	if n, ok := img.(*image.NRGBA); ok {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			off := n.PixOffset(b.Min.X, y)
			pix = append(pix, n.Pix[off:off+4*w]...)
		}
	} else {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				pix = append(pix, c.R, c.G, c.B, c.A)
			}
		}
	}
	return NewRGBA8(w, h, pix, mips)
}

// Image returns level i as an *image.NRGBA (a copy), for inspection and dumps.
func (t *Texture) Image(level int) (*image.NRGBA, error) {
	if level < 0 || level >= len(t.Levels) {
		return nil, fmt.Errorf("level: %d out of range [0, %d)", level, len(t.Levels))
	}
	l := &t.Levels[level]
	img := image.NewNRGBA(image.Rect(0, 0, l.Width, l.Height))
	img.Pix = t.LinearLevel(level, img.Pix[:0])
	return img, nil
}
