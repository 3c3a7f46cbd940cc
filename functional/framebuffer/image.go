package framebuffer

import (
	"bufio"
	"fmt"
	"image"
	"image/png"
	"math"

	"github.com/gfxsim/gfxsim/functional/depth"

	"github.com/gfxsim/gfxsim/internal/outputs"
)

// Resolve box-filters the samples of every visible pixel into an RGBA8 image (see the
// package comment for the exact rounding). The image's bytes are not premultiplied.
func (t *ColorTarget) Resolve() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, t.Width, t.Height))
	for y := 0; y < t.Height; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < t.Width; x++ {
			px := t.ResolvePixel(x, y)
			copy(row[4*x:4*x+4], px[:])
		}
	}
	return img
}

// ResolvePixel box-filters the samples of pixel (x, y), which must be inside
// the surface: RGBA8 rounds the integer mean, RGBA10 rounds the mean of the
// 10-bit values scaled to 8 bits, RGBA32F converts the float mean like an
// RGBA8 store.
func (t *ColorTarget) ResolvePixel(x, y int) [4]byte {
	var px [4]byte
	n := t.Samples
	base := t.Index(x, y, 0) * t.bps
	switch t.Format {
	case RGBA32F:
		var sum [4]float32
		for s := 0; s < n; s++ {
			c := decodeColor(RGBA32F, t.data[base+s*16:])
			for ch := range sum {
				sum[ch] += c[ch]
			}
		}
		for ch := range sum {
			px[ch] = ToUNORM8(sum[ch] / float32(n))
		}
	case RGBA10:
		var sum [4]int
		for s := 0; s < n; s++ {
			v := unpack10(t.data[base+5*s:])
			for ch := range sum {
				sum[ch] += int(v[ch])
			}
		}
		d := 1023 * n
		for ch := range sum {
			px[ch] = uint8((sum[ch]*255 + d/2) / d)
		}
	default:
		var sum [4]int
		for s := 0; s < n; s++ {
			p := t.data[base+4*s:]
			for ch := range sum {
				sum[ch] += int(p[ch])
			}
		}
		for ch := range sum {
			px[ch] = uint8((sum[ch] + n/2) / n)
		}
	}
	return px
}

// checkSample checks a sample index of a target of n samples per pixel.
func checkSample(sample, n int) error {
	if sample < 0 || sample >= n {
		return fmt.Errorf("sample: %d out of range [0, %d)", sample, n)
	}
	return nil
}

// SampleImage returns sample s of every visible pixel as an RGBA8 image (RGBA8
// as stored; RGBA32F and RGBA10 decoded and converted like an RGBA8 store), a
// raw per-sample view for debugging.
func (t *ColorTarget) SampleImage(sample int) (*image.RGBA, error) {
	if err := checkSample(sample, t.Samples); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, t.Width, t.Height))
	for y := 0; y < t.Height; y++ {
		for x := 0; x < t.Width; x++ {
			a := t.Index(x, y, sample) * t.bps
			px := img.Pix[y*img.Stride+4*x:]
			if t.Format != RGBA8 {
				c := decodeColor(t.Format, t.data[a:])
				for ch := 0; ch < 4; ch++ {
					px[ch] = ToUNORM8(c[ch])
				}
			} else {
				copy(px[:4], t.data[a:a+4])
			}
		}
	}
	return img, nil
}

// LinearBytes appends the visible samples to dst in a layout-independent order
// (rows top to bottom, pixels left to right, samples in order), each in the format's
// bytes. Two targets with the same format and contents give the same bytes whatever
// their layouts.
func (t *ColorTarget) LinearBytes(dst []byte) []byte {
	for y := 0; y < t.Height; y++ {
		for x := 0; x < t.Width; x++ {
			a := t.Index(x, y, 0) * t.bps
			dst = append(dst, t.data[a:a+t.Samples*t.bps]...)
		}
	}
	return dst
}

// DepthImage returns the depth of sample s of every visible pixel as a 16-bit
// grey image: round(clamp(depth, 0, 1) * 65535), NaN as 0.
func (t *DepthTarget) DepthImage(sample int) (*image.Gray16, error) {
	if err := checkSample(sample, t.Samples); err != nil {
		return nil, err
	}
	img := image.NewGray16(image.Rect(0, 0, t.Width, t.Height))
	for y := 0; y < t.Height; y++ {
		for x := 0; x < t.Width; x++ {
			d, _ := t.Load(x, y, sample)
			z := float64(depth.Dequantize(d, t.Format))
			if !(z > 0) {
				z = 0
			}
			v := uint16(math.Round(min(z, 1) * 65535))
			img.Pix[y*img.Stride+2*x] = uint8(v >> 8)
			img.Pix[y*img.Stride+2*x+1] = uint8(v)
		}
	}
	return img, nil
}

// WriteFramePNG writes frame img to path as PNG as a display shows it: its
// colour, opaque. A render target's alpha (alpha-tested edges, alpha-blended
// surfaces) is not shown by a display, and a viewer would draw the frame
// see-through where it is below 1.
func WriteFramePNG(path string, img *image.RGBA) error {
	opaque := &image.RGBA{Pix: make([]byte, len(img.Pix)), Stride: img.Stride, Rect: img.Rect}
	copy(opaque.Pix, img.Pix)
	for i := 3; i < len(opaque.Pix); i += 4 {
		opaque.Pix[i] = 255
	}
	return WritePNG(path, opaque)
}

// WritePNG writes img to path as PNG. An *image.RGBA is written verbatim as
// non-premultiplied RGBA (its bytes are render-target values, not premultiplied
// colour); other images are encoded by image/png as they are.
func WritePNG(path string, img image.Image) error {
	if rgba, ok := img.(*image.RGBA); ok {
		img = &image.NRGBA{Pix: rgba.Pix, Stride: rgba.Stride, Rect: rgba.Rect}
	}
	f, err := outputs.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := png.Encode(w, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
