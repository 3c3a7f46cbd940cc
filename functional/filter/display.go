package filter

import (
	"fmt"
	"image"
	"image/color"
	"math"
)

// Display filters a whole w x h output frame: the centre of output pixel (i, j) is
// ((i+0.5)*step, (j+0.5)*step) source pixels from the screen's top-left corner,
// rounded to 1/256 pixel (step 1: the pixel centres; 960.0/1280 resizes a 960x768
// sample buffer to 1280x1024, paper section 7.2). Pixels are computed row-major;
// st (may be nil) accumulates the counts.
func Display(w, h, n int, pos Positions, src Samples, c *Convolver, step float64, st *Stats) (*image.RGBA, error) {
	return display(w, h, n, step, st, func(i, j int, st *Stats) color.RGBA {
		return c.Pixel(Centre(i, step), Centre(j, step), pos, src, n, st)
	})
}

// display checks a w x h frame of n samples per pixel at step and computes
// its pixels row-major with pixel; st (may be nil) accumulates the counts.
func display(w, h, n int, step float64, st *Stats, pixel func(i, j int, st *Stats) color.RGBA) (*image.RGBA, error) {
	if err := checkDisplay(w, h, n, step); err != nil {
		return nil, err
	}
	if st == nil {
		st = &Stats{}
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			img.SetRGBA(i, j, pixel(i, j, st))
		}
	}
	return img, nil
}

// Centre is the hardware's convolution centre of output pixel i along one axis at
// a centre step of step source pixels: (i+0.5)*step source pixels rounded to
// 1/256 pixel. Display and the timed convolve chips both place their centres
// with it.
func Centre(i int, step float64) int32 {
	return int32(math.Round((float64(i) + 0.5) * step * 256))
}

// DisplayExact is Display with the exact float64 filter and exact centres.
func DisplayExact(w, h, n int, pos Positions, src Samples, e *Exact, step float64, st *Stats) (*image.RGBA, error) {
	return display(w, h, n, step, st, func(i, j int, st *Stats) color.RGBA {
		return e.Pixel((float64(i)+0.5)*step, (float64(j)+0.5)*step, pos, src, n, st)
	})
}

// MaxDisplay bounds a frame's side in output pixels.
const MaxDisplay = 1 << 14

// MaxStep bounds the centre step, in source pixels per output pixel: the
// reduction the 5x5 window reaches (§7.2 resizes by filtering).
const MaxStep = 16

func checkDisplay(w, h, n int, step float64) error {
	if w < 1 || w > MaxDisplay {
		return fmt.Errorf("filter: display width: %d: must be in [1, %d]", w, MaxDisplay)
	}
	if h < 1 || h > MaxDisplay {
		return fmt.Errorf("filter: display height: %d: must be in [1, %d]", h, MaxDisplay)
	}
	if n < 1 || n > MaxSamples {
		return fmt.Errorf("filter: samples per pixel: %d: must be in [1, %d]", n, MaxSamples)
	}
	if !(step > 0 && step <= MaxStep) {
		return fmt.Errorf("filter: display step: %v source pixels: must be in (0, %d]", step, MaxStep)
	}
	return nil
}
