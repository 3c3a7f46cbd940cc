package study

import (
	"errors"
	"fmt"
	"image"
	"path/filepath"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// Reuse is the vertex reuse of a scene per vertex batch size (the reference
// renderer's count; the MAJC sees one batch of unique vertices at a time).
type Reuse struct {
	Triangles     float64
	Batches       []int
	VSInvocations []float64 // per batch size
}

// FilterError is the table-driven filter of the convolve chips against the
// exact float64 filter on one scene's sample buffer.
type FilterError struct {
	Filter string
	// Mean and Worst absolute difference per channel (R, G, B, A) of the 8-bit
	// outputs, in LSBs.
	Mean  [4]float64
	Worst [4]int
	// Over1 is the fraction of pixels with some channel more than 1 LSB off.
	Over1 float64
	// NegativeClamps of the table-driven filter (channels clamped at 0).
	NegativeClamps float64
}

// Filters is table 4's first half for one scene.
type Filters struct {
	Width, Height, Samples int
	Errors                 []FilterError
}

// Check is the paper's section 10.2 comparison for one scene: SAGE's 16-sample
// image (the table-driven Mitchell filter) against an exact-filter image of
// 256 samples per output pixel (4x the resolution on each axis at 16 samples,
// the filter scaled 4x).
type Check struct {
	Width, Height int
	// OverOneSample is the fraction of pixels with some RGB channel off by more
	// than one sample's contribution, 255/16 8-bit LSBs (the paper: < 1%).
	OverOneSample float64
	Over1         float64 // some RGB channel more than 1 LSB off
	Mean          float64 // mean absolute RGB difference, LSBs
	Worst         int
}

// sageRender renders scene name at w x h x n on the SAGE machine's reference
// renderer and calls display with the sample buffer at Present; its image is
// the frame's.
func sageRender(cfg *configs.Config, in *expt.Inputs, name string, w, h, n int,
	display func(ct *framebuffer.ColorTarget, pos filter.Positions) (*image.RGBA, error)) error {
	b := in.Budget()
	s, err := in.Load(name, w, h, n, b)
	if err != nil {
		return err
	}
	if err := expt.ReserveFrame(b, s); err != nil {
		return err
	}
	f, err := driver.Encode(s, cfg.DriverOptions())
	if err != nil {
		return err
	}
	shown := false
	if _, err := cfg.RenderReferenceWith(f, func(o *reference.Options) error {
		pos := o.Raster.PatternTable
		o.Sage.Display = func(ct *framebuffer.ColorTarget) (*image.RGBA, error) {
			shown = true
			return display(ct, pos)
		}
		return nil
	}); err != nil {
		return err
	}
	if !shown {
		return fmt.Errorf("scene %s: the frame never presented", name)
	}
	return nil
}

// runReuse counts the vertex shader invocations of scene name per batch size
// (a tiny frame: the count does not depend on the resolution).
func runReuse(name string, batches []int, in *expt.Inputs) (Reuse, error) {
	r := Reuse{Batches: batches}
	cfg := configs.SageMachine()
	for _, bv := range batches {
		b := in.Budget()
		s, err := in.Load(name, 32, 18, 1, b)
		if err != nil {
			return r, err
		}
		f, err := driver.Encode(s, cfg.DriverOptions())
		if err != nil {
			return r, err
		}
		res, err := cfg.RenderReferenceWith(f, func(o *reference.Options) error {
			o.BatchVertices = bv
			return nil
		})
		if err != nil {
			return r, err
		}
		r.Triangles = float64(res.Counters.Triangles)
		r.VSInvocations = append(r.VSInvocations, float64(res.Counters.VSInvocations))
	}
	return r, nil
}

// runFilters renders scene name and filters its sample buffer with each
// filter twice, table-driven and exact; the table-driven images go to
// out/filters/<scene>_<filter>.png.
func runFilters(name string, w, h, n int, out string, in *expt.Inputs) (Filters, error) {
	r := Filters{Width: w, Height: h, Samples: n}
	cfg := configs.SageMachine()
	err := sageRender(cfg, in, name, w, h, n, func(ct *framebuffer.ColorTarget, pos filter.Positions) (*image.RGBA, error) {
		var shown *image.RGBA
		for _, fn := range filterNames {
			k, err := filter.KernelByName(fn)
			if err != nil {
				return nil, err
			}
			table, err := filter.NewTable(k, filter.DefaultParams())
			if err != nil {
				return nil, err
			}
			var st filter.Stats
			got, err := filter.Display(w, h, n, pos, ct, filter.NewConvolver(table), 1, &st)
			if err != nil {
				return nil, err
			}
			e, err := filter.NewExact(k, filter.Window, 1)
			if err != nil {
				return nil, err
			}
			want, err := filter.DisplayExact(w, h, n, pos, ct, e, 1, nil)
			if err != nil {
				return nil, err
			}
			fe := compare(got, want)
			fe.Filter, fe.NegativeClamps = fn, float64(st.NegativeClamps)
			r.Errors = append(r.Errors, fe)
			if err := framebuffer.WriteFramePNG(filepath.Join(out, "filters", name+"_"+fn+".png"), got); err != nil {
				return nil, err
			}
			if shown == nil {
				shown = got
			}
		}
		return shown, nil
	})
	return r, err
}

// compare measures got against want channel by channel.
func compare(got, want *image.RGBA) FilterError {
	var fe FilterError
	var total [4]float64
	over, n := 0, 0
	for i := 0; i+3 < len(got.Pix); i += 4 {
		off := false
		for c := 0; c < 4; c++ {
			d := absDiff(got.Pix[i+c], want.Pix[i+c])
			total[c] += float64(d)
			fe.Worst[c] = max(fe.Worst[c], d)
			off = off || d > 1
		}
		if off {
			over++
		}
		n++
	}
	for c := range total {
		fe.Mean[c] = ratio(total[c], float64(n))
	}
	fe.Over1 = ratio(float64(over), float64(n))
	return fe
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// oneSample is one sample's contribution to an 8-bit output at 16 samples per
// pixel: 255/16 LSBs.
const oneSample = 255.0 / 16

// checkFactor is the section 10.2 control's supersampling on each axis:
// 4 x 4 pixels of 16 samples = 256 samples per output pixel.
const checkFactor = 4

// runCheck renders scene name at w x h on SAGE at 16 samples (the board's
// image) and at 4w x 4h at 16 samples filtered exactly with the Mitchell
// filter scaled 4x, and compares them. Both images go to out/check/.
func runCheck(name string, w, h int, out string, in *expt.Inputs) (Check, error) {
	r := Check{Width: w, Height: h}
	cfg := configs.SageMachine()
	if cfg.Sage.Convolve.Filter != "mitchell" {
		return r, errors.New("the check compares the board's Mitchell filter")
	}
	var board, control *image.RGBA
	conv := func(ct *framebuffer.ColorTarget, pos filter.Positions) (*image.RGBA, error) {
		table, err := cfg.SageFilter()
		if err != nil {
			return nil, err
		}
		board, err = filter.Display(w, h, 16, pos, ct, filter.NewConvolver(table), 1, nil)
		return board, err
	}
	if err := sageRender(cfg, in, name, w, h, 16, conv); err != nil {
		return r, err
	}
	k, err := filter.KernelByName("mitchell")
	if err != nil {
		return r, err
	}
	scaled := filter.Scaled{Kernel: k, Factor: checkFactor}
	// The window reaches the scaled radius (8 source pixels) on every side.
	e, err := filter.NewExact(scaled, 2*int(scaled.Radius())+1, 1)
	if err != nil {
		return r, err
	}
	exact := func(ct *framebuffer.ColorTarget, pos filter.Positions) (*image.RGBA, error) {
		var err error
		control, err = filter.DisplayExact(w, h, 16, pos, ct, e, checkFactor, nil)
		return control, err
	}
	if err := sageRender(cfg, in, name, checkFactor*w, checkFactor*h, 16, exact); err != nil {
		return r, err
	}
	over, over1, n := 0, 0, 0
	total := 0.0
	for i := 0; i+3 < len(board.Pix); i += 4 {
		worst := 0
		for c := 0; c < 3; c++ {
			d := absDiff(board.Pix[i+c], control.Pix[i+c])
			total += float64(d)
			worst = max(worst, d)
		}
		r.Worst = max(r.Worst, worst)
		if float64(worst) > oneSample {
			over++
		}
		if worst > 1 {
			over1++
		}
		n++
	}
	r.OverOneSample, r.Over1 = ratio(float64(over), float64(n)), ratio(float64(over1), float64(n))
	r.Mean = ratio(total, 3*float64(n))
	for _, img := range []struct {
		suffix string
		img    *image.RGBA
	}{{"16", board}, {"256_exact", control}} {
		if err := framebuffer.WriteFramePNG(filepath.Join(out, "check", name+"_"+img.suffix+".png"), img.img); err != nil {
			return r, err
		}
	}
	return r, nil
}
