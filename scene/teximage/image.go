package teximage

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"runtime"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// MaxSize is the largest width or height of an image, decoded or generated.
const MaxSize = 16384

// Image is an RGBA8 image: Pix holds Width*Height*4 bytes, row-major, top row
// first, channels in the order R, G, B, A, alpha not premultiplied.
type Image struct {
	Width, Height int
	Pix           []byte
}

// New returns a transparent black image of the given size; it returns an error
// when a side is not in [1, MaxSize].
func New(width, height int) (*Image, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	return &Image{Width: width, Height: height, Pix: make([]byte, width*height*4)}, nil
}

func checkSize(width, height int) error {
	if width < 1 || height < 1 || width > MaxSize || height > MaxSize {
		return fmt.Errorf("image size %dx%d out of range [1, %d]", width, height, MaxSize)
	}
	return nil
}

// RGBA returns the texel at (x, y).
func (im *Image) RGBA(x, y int) [4]byte {
	i := (y*im.Width + x) * 4
	return [4]byte{im.Pix[i], im.Pix[i+1], im.Pix[i+2], im.Pix[i+3]}
}

// SetRGBA sets the texel at (x, y).
func (im *Image) SetRGBA(x, y int, c [4]byte) {
	i := (y*im.Width + x) * 4
	im.Pix[i], im.Pix[i+1], im.Pix[i+2], im.Pix[i+3] = c[0], c[1], c[2], c[3]
}

// Set stores the colour c (float, [0, 1]) at (x, y).
func (im *Image) Set(x, y int, c geom.Vec4) { im.SetRGBA(x, y, ToBytes(c)) }

// ToBytes converts a colour in [0, 1] to RGBA8: clamp, then round(c*255).
func ToBytes(c geom.Vec4) [4]byte {
	var b [4]byte
	for i, v := range c {
		switch {
		case !(v > 0): // also NaN
			b[i] = 0
		case v >= 1:
			b[i] = 255
		default:
			b[i] = byte(math.Floor(float64(v)*255 + 0.5))
		}
	}
	return b
}

// Clone returns a deep copy.
func (im *Image) Clone() *Image {
	return &Image{Width: im.Width, Height: im.Height, Pix: append([]byte(nil), im.Pix...)}
}

var (
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
	jpegMagic = []byte{0xff, 0xd8}
)

// Decode decodes PNG or JPEG data (recognised by its signature, not by the file
// name) into RGBA8. name only labels errors: "name: png: ...". The header is
// checked before any pixel memory is allocated: the size, and the decoder's
// peak memory against the default budget (DecodeWithin takes a budget).
func Decode(name string, data []byte) (*Image, error) { return decode(name, data, nil) }

func decode(name string, data []byte, b *inputs.Budget) (*Image, error) {
	var (
		cfg         image.Config
		err         error
		decodeImage func([]byte) (image.Image, error)
		format      string
	)
	switch {
	case bytes.HasPrefix(data, pngMagic):
		format = "png"
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
		decodeImage = func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }
	case bytes.HasPrefix(data, jpegMagic):
		format = "jpeg"
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
		decodeImage = func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) }
	default:
		return nil, fmt.Errorf("%s: byte 0: not a PNG or JPEG file (unknown signature)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s header: %s", name, format, decoderMsg(format, err))
	}
	if err := checkSize(cfg.Width, cfg.Height); err != nil {
		return nil, fmt.Errorf("%s: %s header: %v", name, format, err)
	}
	if err := checkDecode(name, format, cfg, data, b); err != nil {
		return nil, err
	}
	img, err := decodeImage(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %s", name, format, decoderMsg(format, err))
	}
	out := FromImage(img)
	if decodeBytes(format, cfg, data)-int64(len(out.Pix)) >= collectAfter {
		// The decoder's own picture is garbage now. Collect it before the
		// caller allocates what it keeps (a texture's copy of the image):
		// a collection that started while it was live would keep it until
		// the next one, and the two would add up past the budget that
		// checkDecode checked them against one at a time.
		runtime.GC()
	}
	return out, nil
}

// collectAfter is the size of a decoder's picture from which decode collects
// it at once.
const collectAfter = 32 << 20

// decoderMsg is the message of a standard library decoder's error without
// the "png: " or "jpeg: " it starts with (the caller names the format once).
func decoderMsg(format string, err error) string {
	return strings.TrimPrefix(err.Error(), format+": ")
}

// FromImage converts any image.Image to RGBA8 with straight alpha. The common
// decoder outputs (YCbCr, NRGBA, RGBA, Gray) are converted directly; other
// types go through color.NRGBAModel.
func FromImage(img image.Image) *Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := &Image{Width: w, Height: h, Pix: make([]byte, w*h*4)}
	switch src := img.(type) {
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			row := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			copy(out.Pix[y*w*4:(y+1)*w*4], row[:w*4])
		}
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				yi := src.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := src.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bb := color.YCbCrToRGB(src.Y[yi], src.Cb[ci], src.Cr[ci])
				o := (y*w + x) * 4
				out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = r, g, bb, 255
			}
		}
	case *image.Gray:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := src.Pix[src.PixOffset(b.Min.X+x, b.Min.Y+y)]
				o := (y*w + x) * 4
				out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = v, v, v, 255
			}
		}
	case *image.CMYK:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := src.PixOffset(b.Min.X+x, b.Min.Y+y)
				r, g, bb := color.CMYKToRGB(src.Pix[i], src.Pix[i+1], src.Pix[i+2], src.Pix[i+3])
				o := (y*w + x) * 4
				out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = r, g, bb, 255
			}
		}
	case *image.Paletted:
		pal := make([]color.NRGBA, 256)
		for i, c := range src.Palette {
			pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := pal[src.Pix[src.PixOffset(b.Min.X+x, b.Min.Y+y)]]
				o := (y*w + x) * 4
				out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = c.R, c.G, c.B, c.A
			}
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
				o := (y*w + x) * 4
				out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = c.R, c.G, c.B, c.A
			}
		}
	}
	return out
}

// ToNRGBA returns the image as an *image.NRGBA sharing no memory with im (for
// writing previews with image/png).
func (im *Image) ToNRGBA() *image.NRGBA {
	out := image.NewNRGBA(image.Rect(0, 0, im.Width, im.Height))
	copy(out.Pix, im.Pix)
	return out
}

// Downscale returns an image whose sides are at most maxSize, reduced by the
// smallest power-of-two factor f that fits: the result is ceil(W/f) x ceil(H/f)
// and each texel is the rounded mean of the f x f block it covers (blocks on the
// right and bottom borders are clipped to the image). When the image already
// fits, or maxSize <= 0, im itself is returned.
func (im *Image) Downscale(maxSize int) *Image {
	if maxSize <= 0 || (im.Width <= maxSize && im.Height <= maxSize) {
		return im
	}
	f := 1
	for (im.Width+f-1)/f > maxSize || (im.Height+f-1)/f > maxSize {
		f *= 2
	}
	w, h := (im.Width+f-1)/f, (im.Height+f-1)/f
	out := &Image{Width: w, Height: h, Pix: make([]byte, w*h*4)}
	for oy := 0; oy < h; oy++ {
		y0, y1 := oy*f, min(oy*f+f, im.Height)
		for ox := 0; ox < w; ox++ {
			x0, x1 := ox*f, min(ox*f+f, im.Width)
			var sum [4]uint64
			for y := y0; y < y1; y++ {
				row := im.Pix[(y*im.Width+x0)*4 : (y*im.Width+x1)*4]
				for i := 0; i < len(row); i += 4 {
					sum[0] += uint64(row[i])
					sum[1] += uint64(row[i+1])
					sum[2] += uint64(row[i+2])
					sum[3] += uint64(row[i+3])
				}
			}
			n := uint64((y1 - y0) * (x1 - x0))
			o := (oy*w + ox) * 4
			for c := 0; c < 4; c++ {
				out.Pix[o+c] = byte((sum[c] + n/2) / n)
			}
		}
	}
	return out
}
