package main

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/plot"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/tracing"
)

// frameMachines are the per-pass limits the frame study renders with: PC1-PC8
// and the ATI Radeon 8500 of the document's section 4 (16 operations, 6
// registers, 6 texture units, 6 interpolants, one level of dependent fetch:
// a fetch may read a restored value, depth 2 in gfxsim's counting).
func frameMachines() []multipass.Limits {
	return append(multipass.PipelineConfigs(),
		multipass.Limits{Name: "R8500", Ops: 16, Registers: 6, TexUnits: 6, Interpolants: 6, TexDepth: 2})
}

// frameRow is one timed frame of the bowling-pin scene.
type frameRow struct {
	Machine multipass.Limits
	Pin     *driver.MultipassDraw `json:",omitempty"` // nil: the pins fit one pass
	Single  multipass.Usage       // the pin shader as one pass
	Draws   int
	Cycles  uint64             // core cycles of the frame
	Seconds float64            // simulated time of the frame
	Stats   map[string]float64 // every counter of the run
	Wall    float64            // wall-clock seconds of the simulation
}

// pinPartition returns passes, fetches and other instructions of one pin's
// programs (summed over its passes) and the cost model's prediction.
func (r *frameRow) pinPartition(model multipass.CostModel) (p, t, i int, cost float64) {
	if r.Pin == nil {
		u := r.Single
		return 1, u.TexFetches, u.Other(), model.PassCost(u)
	}
	return r.Pin.Passes, r.Pin.Total.TexFetches, r.Pin.Total.Other(), r.Pin.Cost
}

func sumStats(st map[string]float64, prefix, suffix string) float64 {
	t := 0.0
	for k, v := range st {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) {
			t += v
		}
	}
	return t
}

// pinScene is the bowling-pin built-in at the study's resolution, with the
// floor drawn unlit so that only the pins are split and the frame time
// follows the pin shader's partition.
func pinScene(w, h int) (*scene.Scene, error) {
	s, err := scene.Builtin("bowlingpin")
	if err != nil {
		return nil, err
	}
	if err := s.SetResolution(w, h, 1); err != nil {
		return nil, err
	}
	m := &s.Materials[s.MaterialIndex("floor")]
	m.Shader, m.Textures = "unlit", nil
	m.Params = []scene.Param{{Name: "color", Value: [4]float32{0.45, 0.36, 0.27, 1}}}
	return s, s.Validate()
}

// frameStudy renders the bowling-pin scene through the timed pipeline (the
// default machine) once per set of per-pass limits, and checks every image
// against the single-pass reference render byte for byte. The reference is
// rendered once per process, so that any shard can run any frame.
type frameStudy struct {
	o    options
	sess *tracing.Session
	once sync.Once
	s    *scene.Scene
	ref  *image.RGBA
	m    *multipass.Shader
	err  error
}

func newFrameStudy(o options) *frameStudy {
	return &frameStudy{o: o, sess: o.instruments.NewSession(o.out, len(frameMachines()), o.Log)}
}

// prepare builds the scene, renders the reference image and analyzes the pin
// shader, once.
func (fs *frameStudy) prepare() error {
	fs.once.Do(func() {
		s, err := pinScene(fs.o.width, fs.o.height)
		if err != nil {
			fs.err = err
			return
		}
		single, err := driver.Encode(s, driver.DefaultOptions())
		if err != nil {
			fs.err = err
			return
		}
		ref, err := reference.Render(single.Memory, single.Stream, single.StreamBytes, reference.DefaultOptions())
		if err != nil {
			fs.err = err
			return
		}
		lm, err := library.Get("bowlingpin")
		if err != nil {
			fs.err = err
			return
		}
		fs.m, fs.err = multipass.Analyze(lm.PS, multipass.Options{ExactDerivatives: true})
		fs.s, fs.ref = s, ref.Image
	})
	return fs.err
}

// reference returns the single-pass reference image.
func (fs *frameStudy) reference() (*image.RGBA, error) {
	if err := fs.prepare(); err != nil {
		return nil, err
	}
	return fs.ref, nil
}

// frame renders the frame of machine lim, pins partitioned by RDS with the
// first cost model.
func (fs *frameStudy) frame(lim multipass.Limits) (*frameRow, error) {
	if err := fs.prepare(); err != nil {
		return nil, err
	}
	s := fs.s
	do := driver.DefaultOptions()
	do.Multipass = driver.MultipassOptions{Limits: lim, Cost: multipass.CostModels()[0]}
	f, err := driver.Encode(s, do)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lim.Name, err)
	}
	if err := expt.Reserve(fs.o.inputs.Budget(), configs.Default(), s); err != nil {
		return nil, err
	}
	p, err := configs.Build(configs.Default())
	if err != nil {
		return nil, err
	}
	in, err := fs.sess.Attach(p, f.Draws, expt.RunName("frame", lim.Name))
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := expt.RunFrame(p, f, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lim.Name, err)
	}
	r := &frameRow{Machine: lim, Single: fs.m.SingleUsage(), Draws: f.Draws, Cycles: res.Cycles, Seconds: res.Seconds,
		Stats: res.Stats, Wall: time.Since(start).Seconds()}
	for k := range f.Multipass {
		if f.Multipass[k].Material == "pin" {
			r.Pin = &f.Multipass[k]
		}
	}
	if !bytes.Equal(res.Image.Pix, fs.ref.Pix) {
		return nil, fmt.Errorf("%s: the timed multipass image differs from the single-pass reference image", lim.Name)
	}
	return r, nil
}

// frameReport writes the reference image, the table of the timed frames and
// the figure of their time against the cost model.
func frameReport(w io.Writer, o options, ref *image.RGBA, rows []*frameRow) error {
	model := multipass.CostModels()[0]
	if err := framebuffer.WriteFramePNG(filepath.Join(o.out, "bowlingpin.png"), ref); err != nil {
		return err
	}
	fmt.Fprintf(w, "Timed frames: bowling-pin scene %dx%d, default machine, pins partitioned by RDS (%s, exact derivatives)\n",
		ref.Rect.Dx(), ref.Rect.Dy(), model.Name)
	out := o.out
	base := rows[0].Stats
	for _, r := range rows {
		if r.Pin == nil {
			base = r.Stats // a single-pass frame: the baseline
		}
	}
	header := []string{"machine", "limits", "passes per pin", "draws", "fetches", "other instr", "predicted cost",
		"cycles", "frame us", "extra VS invocations", "extra quads", "extra PS invocations", "saved bytes (ROP writes)",
		"restored bytes (L2 reads)", "wall s"}
	var table [][]string
	var xs, ys []float64
	for _, r := range rows {
		st := r.Stats
		p, t, i, cost := r.pinPartition(model)
		table = append(table, []string{r.Machine.Name, r.Machine.String(), itoa(p), itoa(r.Draws), itoa(t), itoa(i), f0(cost),
			strconv.FormatUint(r.Cycles, 10), f1(r.Seconds * 1e6),
			f0(st["GPU.InputAssembler.vertices"] - base["GPU.InputAssembler.vertices"]),
			f0(sumStats(st, "GPU.Rasterizer[", "].quads") - sumStats(base, "GPU.Rasterizer[", "].quads")),
			f0(sumStats(st, "GPU.ShaderCore[", "].ps_invocations") - sumStats(base, "GPU.ShaderCore[", "].ps_invocations")),
			f0(st["GPU.Multipass.save_bytes_written"]), f0(st["GPU.Multipass.restore_l2_bytes"]), f1(r.Wall)})
		xs = append(xs, cost)
		ys = append(ys, float64(r.Cycles))
	}
	expt.Table(w, header, table)
	if err := outputs.WriteCSV(filepath.Join(out, "frames.csv"), header, table); err != nil {
		return err
	}
	a, b, r2 := lineFit(xs, ys)
	fmt.Fprintf(w, "cycles = %.0f + %.1f * predicted cost (%s): r^2 = %.3f over %d frames\n", a, b, model.Name, r2, len(xs))
	if n := len(rows); n > 1 {
		// Frame time per pass: the slope of cycles over passes per pin.
		var ps []float64
		for _, r := range rows {
			p, _, _, _ := r.pinPartition(model)
			ps = append(ps, float64(p))
		}
		pa, pb, pr2 := lineFit(ps, ys)
		fmt.Fprintf(w, "cycles = %.0f + %.0f * passes per pin: r^2 = %.3f (passes, fetches and instructions grow together across\n"+
			"these partitions, so the frames do not separate c_p, c_t and c_i; see README)\n", pa, pb, pr2)
	}
	fmt.Fprintln(w)
	line := plot.Series{Name: fmt.Sprintf("fit: %.0f + %.1f x", a, b)}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	line.X, line.Y = []float64{lo, hi}, []float64{a + b*lo, a + b*hi}
	fig := plot.Figure{Title: "Bowling pin: simulated frame time against the cost model",
		XLabel: "predicted cost of the pin's partition (" + model.Name + ")", YLabel: "simulated frame (cycles)",
		Series: []plot.Series{{Name: "PC1-PC8, R8500", X: xs, Y: ys}, line}}
	return fig.Save(filepath.Join(out, "frame_vs_cost.png"))
}

// lineFit is the least-squares line y = a + b x and its r^2.
func lineFit(xs, ys []float64) (a, b, r2 float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy, syy float64
	for i := range xs {
		sx, sy = sx+xs[i], sy+ys[i]
		sxx, sxy, syy = sxx+xs[i]*xs[i], sxy+xs[i]*ys[i], syy+ys[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return sy / n, 0, 0
	}
	b = (n*sxy - sx*sy) / d
	a = (sy - b*sx) / n
	vy := n*syy - sy*sy
	if vy == 0 {
		return a, b, 1
	}
	c := n*sxy - sx*sy
	return a, b, c * c / (d * vy)
}
