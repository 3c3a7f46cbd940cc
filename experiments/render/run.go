package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/tracing"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/progress"
)

type options struct {
	config, scene, out, mode string
	width, height, samples   int
	check                    bool
	instruments              tracing.Flags
	inputs                   expt.Inputs
	frames                   int     // 0: one frame written as image.png; N: frames 0..N-1 as image_0000.png, ...
	frame                    int     // with frames 0: the frame rendered (-frame)
	blur                     float64 // < 0: the scene's own
	front                    string  // a bare mesh's front (-front; "": the default, +z)
	bar                      bool    // a progress bar over the frame on stderr
	reorder                  int     // -reorder-indices: Tipsify's FIFO size (0: the meshes' own order)
	reorderVertices          bool    // -reorder-vertices: also store the reordered meshes' vertices in first-use order
}

// driverOptions returns the driver options of a frame on cfg, with the
// reordering of -reorder-indices and -reorder-vertices.
func (o options) driverOptions(cfg *configs.Config) driver.Options {
	do := cfg.DriverOptions()
	do.ReorderIndices, do.ReorderVertices = o.reorder, o.reorderVertices
	return do
}

// sceneOptions returns the loader options of frame f.
func (o options) sceneOptions(f int) ([]scene.Option, error) {
	opts := []scene.Option{scene.WithFrame(f)}
	if o.blur >= 0 {
		opts = append(opts, scene.WithBlur(float32(o.blur)))
	}
	if o.front != "" { // checked by parseFlags (checkFront)
		fr, err := scene.ParseFront(o.front)
		if err != nil {
			return nil, fmt.Errorf("-front: %v", err)
		}
		opts = append(opts, scene.WithFront(fr))
	}
	return opts, nil
}

// suffix names the outputs of frame f: "" for a single-frame run, else "_0000", ...
func (o options) suffix(f int) string {
	if o.frames == 0 {
		return ""
	}
	return fmt.Sprintf("_%04d", f)
}

func run(o options, w io.Writer) (err error) {
	if strings.EqualFold(o.scene, "list") { // (List and LIST too: no scene has that name)
		for _, n := range scene.BuiltinNames() {
			fmt.Fprintln(w, n)
		}
		return nil
	}
	cfg := configs.Default()
	if o.config != "" {
		var err error
		if cfg, err = configs.Load(o.config); err != nil {
			return err
		}
	}
	if o.check && cfg.Memory.Type == "dramctl" {
		cfg.Memory.Check = true // and replay every DRAM command through the protocol checker
	}
	budget := o.inputs.Budget()
	// The budget is the process's: the collector keeps the heap, the garbage
	// of transient decodes included, within it (restored on return, for the
	// tests that call run).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(budget.Max()))
	if o.mode != "functional" { // the reference renderer builds no machine
		if err := cfg.ReserveMemory(budget); err != nil {
			return err
		}
	}
	_, statErr := os.Stat(o.out)
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("-o %s: %w", o.out, err)
	}
	if os.IsNotExist(statErr) {
		defer func() {
			if err != nil {
				os.Remove(o.out) // the folder this run made, when the run wrote nothing into it
			}
		}()
	}
	if _, err := o.sceneOptions(0); err != nil {
		return err
	}
	first, last := o.frame, o.frame // -frame K (0 by default)
	if o.frames > 0 {
		first, last = 0, o.frames-1
	}
	for f := first; f <= last; f++ {
		opts, _ := o.sceneOptions(f)
		s, err := o.inputs.Load(o.scene, o.width, o.height, o.samples, budget, opts...)
		if err != nil {
			return err
		}
		if f == first && o.frames > s.Frames {
			return fmt.Errorf("-frames %d: scene %q has %s", o.frames, s.Name, expt.Count(s.Frames, "frame", "frames"))
		}
		held, err := o.reserveFrame(budget, cfg, s)
		if err != nil {
			return err
		}
		if o.frames > 0 {
			fmt.Fprintf(w, "frame %d of %d\n", f, o.frames)
		}
		if o.mode == "functional" {
			err = runFunctional(o, s, cfg, w, o.suffix(f))
		} else {
			err = runTiming(o, s, cfg, w, o.suffix(f))
		}
		budget.Release(held)
		if err != nil {
			return err
		}
	}
	return nil
}

// reserveFrame reserves scene s's frame in budget and returns the bytes held:
// the reference renderer's frame in functional mode; a timed machine's frame
// (expt.TimedFrameBytes), and with -check the reference renderer's frame that
// the timed image is compared with, in timing mode.
func (o options) reserveFrame(budget *inputs.Budget, cfg *configs.Config, s *scene.Scene) (int64, error) {
	if o.mode == "functional" {
		return s.FrameBytes(), expt.ReserveFrame(budget, s)
	}
	if err := expt.ReserveTimedFrame(budget, cfg, s); err != nil {
		return 0, err
	}
	held := expt.TimedFrameBytes(cfg, s)
	if o.check {
		if err := expt.ReserveFrame(budget, s); err != nil {
			budget.Release(held)
			return 0, fmt.Errorf("-check: %w", err)
		}
		held += s.FrameBytes()
	}
	return held, nil
}

func runFunctional(o options, s *scene.Scene, cfg *configs.Config, w io.Writer, suffix string) error {
	start := time.Now()
	f, err := encode(o, s, cfg)
	if err != nil {
		return err
	}
	if err := cfg.CheckFrame(int(f.Color.Width), int(f.Color.Height), int(f.Color.Samples)); err != nil {
		return err
	}
	res, err := renderReference(o, s, cfg, f)
	if err != nil {
		return err
	}
	wall := time.Since(start)
	if res.Image == nil {
		return fmt.Errorf("scene %q: the command stream never presented an image", s.Name)
	}
	st := expt.Stats{}
	st.AddStruct("reference", &res.Counters)
	res.Counters.Decoupled.Each(func(name string, v float64) { st["reference.decoupled."+name] = v })
	st["run.wall_seconds"] = wall.Seconds()
	if err := writeOutputs(o.out, suffix, res.Image, st, cfg); err != nil {
		return err
	}
	summary(w, cfg, s, f, &res.Counters, wall)
	fmt.Fprintf(w, "wrote %s\n", o.out)
	return nil
}

// writeOutputs writes image<suffix>.png, stats<suffix>.json and config.yaml.
func writeOutputs(dir, suffix string, img *image.RGBA, st expt.Stats, cfg *configs.Config) error {
	if err := framebuffer.WriteFramePNG(filepath.Join(dir, "image"+suffix+".png"), img); err != nil {
		return err
	}
	if err := st.WriteJSON(filepath.Join(dir, "stats"+suffix+".json")); err != nil {
		return err
	}
	return outputs.WriteFile(filepath.Join(dir, "config.yaml"), cfg.YAML())
}

// encode builds the frame's command stream and memory, with progress lines
// while it takes long (block compression of large textures).
func encode(o options, s *scene.Scene, cfg *configs.Config) (*driver.Frame, error) {
	var f *driver.Frame
	err := o.inputs.Progress("encoding the frame of scene "+s.Name, nil, func() error {
		var err error
		f, err = driver.Encode(s, o.driverOptions(cfg))
		return err
	})
	return f, err
}

// renderReference renders frame f of scene s on the reference renderer, with
// progress lines while it takes long.
func renderReference(o options, s *scene.Scene, cfg *configs.Config, f *driver.Frame) (*reference.Result, error) {
	var res *reference.Result
	err := o.inputs.Progress("rendering the frame of scene "+s.Name+" on the reference renderer", nil, func() error {
		var err error
		res, err = cfg.RenderReference(f)
		return err
	})
	return res, err
}

func runTiming(o options, s *scene.Scene, cfg *configs.Config, w io.Writer, suffix string) error {
	if err := cfg.CheckScene(s); err != nil {
		return err
	}
	f, err := encode(o, s, cfg)
	if err != nil {
		return err
	}
	p, err := configs.Build(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "scene %s: %dx%d, %s per pixel, %s; machine %s\n",
		s.Name, s.Width, s.Height, expt.Count(s.Samples, "sample", "samples"), drawsAndTriangles(f.Draws, f.Triangles, s.NeedsGeometryStage()), cfg.Name)
	multipassLine(w, s, f)
	sageVideo(w, cfg, s)
	in, err := o.instruments.Attach(p, f.Draws, o.out, os.Stderr)
	if err != nil {
		return err
	}
	// One part per draw and a last for the resolve and present, which is
	// not estimated (weight 0): the bar fills, and estimates the time left in
	// the draws, by their estimated work.
	in.Progress.Bar = progress.New(os.Stderr, f.Draws+1, o.bar)
	in.Progress.Work = make([]float64, len(f.DrawEstimates))
	for i, d := range f.DrawEstimates {
		in.Progress.Work[i] = d.Work()
	}
	in.Progress.Bar.Weigh(append(slices.Clone(in.Progress.Work), 0))
	start := time.Now()
	stopWatching := expt.HaltOnInterrupt(p.Halt) // Ctrl-C ends the run cleanly: the trace and metrics are closed
	res, err := p.Run(f)
	stopWatching()
	if errors.Is(err, expt.ErrInterrupted) {
		err = fmt.Errorf("%w with %d of %d draws done (the trace and metrics so far are written; no image or statistics)",
			err, tracing.DrawsDone(p), f.Draws)
	}
	in.Progress.Bar.Clear() // a run that stopped early leaves no bar behind
	wall := time.Since(start)
	if cerr := in.Close(p.RunEnd()); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	st := expt.Stats(res.Stats)
	st["run.wall_seconds"] = wall.Seconds()
	st["run.events"] = float64(res.Events)
	if err := writeOutputs(o.out, suffix, res.Image, st, cfg); err != nil {
		return err
	}
	timedSummary(w, p, res, wall)
	if o.check {
		g, err := driver.Encode(s, o.driverOptions(cfg))
		if err != nil {
			return err
		}
		ref, err := renderReference(o, s, cfg, g)
		if err != nil {
			return err
		}
		if !bytes.Equal(ref.Image.Pix, res.Image.Pix) {
			return fmt.Errorf("the timed image differs from the reference renderer's")
		}
		fmt.Fprintln(w, "check: the timed image equals the reference renderer's, bit for bit")
	}
	files := []string{"image" + suffix + ".png", "stats" + suffix + ".json", "config.yaml"}
	if in.Trace != nil {
		files = append(files, filepath.Base(in.Trace.File()))
	}
	if in.Metrics != nil {
		files = append(files, "metrics.csv", "utilization.png", "bandwidth.png")
	}
	fmt.Fprintf(w, "wrote %s (%s)\n", o.out, strings.Join(files, ", "))
	return nil
}

// multipassLine prints, when the driver split draws into passes (a machine
// with multipass limits), each split draw's object, pixel shader and passes.
func multipassLine(w io.Writer, s *scene.Scene, f *driver.Frame) {
	if len(f.Multipass) == 0 {
		return
	}
	var parts []string
	for i, d := range f.Multipass {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(f.Multipass)-i))
			break
		}
		name := fmt.Sprintf("object %d", d.Object)
		if d.Object >= 0 && d.Object < len(s.Objects) && s.Objects[d.Object].Name != "" {
			name = s.Objects[d.Object].Name
		}
		parts = append(parts, fmt.Sprintf("%s (%s) %s", name, d.Shader, expt.Count(d.Passes, "pass", "passes")))
	}
	fmt.Fprintf(w, "multipass: %s split: %s\n", expt.Count(len(f.Multipass), "draw", "draws"), strings.Join(parts, ", "))
}

// sageVideo prints, on the SAGE machine, the convolve chips' filter and the
// video output's size: what the image went through after the samples.
func sageVideo(w io.Writer, cfg *configs.Config, s *scene.Scene) {
	if cfg.Machine != "sage" {
		return
	}
	cv := cfg.Sage.Convolve
	radius := "its own radius"
	if cv.Radius > 0 {
		radius = fmt.Sprintf("radius %g", cv.Radius)
	}
	ow, oh, _, err := cfg.VideoSize(s.Width, s.Height)
	if err != nil {
		return // refused before the run
	}
	fmt.Fprintf(w, "video: %s filter (%s, gamma %g) on %d convolve chips, %dx%d output\n", cv.Filter, radius, cv.Gamma, cv.Chips, ow, oh)
	if s.Blurred() {
		fmt.Fprintln(w, "blur: not modelled on SAGE: the scene's lens and motion blur are drawn sharp (README, the SAGE machine, \"Not modelled\")")
	}
}

// drawsAndTriangles is the scene line's "17 draws, 12112 triangles", in the
// singular where a count is 1 ("1 draw, 1 triangle": the triangle scene).
// The triangles are the ones the draws submit: on a scene with a geometry
// stage (points, geometry shaders, stream-out) the line says so, since the
// frame's statistics count the primitives that stage makes.
func drawsAndTriangles(draws, triangles int, geometryStage bool) string {
	s := expt.Count(draws, "draw", "draws") + ", " + expt.Count(triangles, "triangle", "triangles")
	if geometryStage {
		s += " submitted (the geometry stage makes more)"
	}
	return s
}

func summary(w io.Writer, cfg *configs.Config, s *scene.Scene, f *driver.Frame, c *reference.Counters, wall time.Duration) {
	fmt.Fprintf(w, "scene %s: %dx%d, %s per pixel, %s, %.1f MB of memory\n",
		s.Name, s.Width, s.Height, expt.Count(s.Samples, "sample", "samples"), drawsAndTriangles(f.Draws, f.Triangles, s.NeedsGeometryStage()), float64(f.Memory.Size())/1e6)
	multipassLine(w, s, f)
	sageVideo(w, cfg, s)
	fmt.Fprintf(w, "functional render (reference renderer) in %.2f s\n", wall.Seconds())
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	rows := [][]string{
		{"vertex batches", fmt.Sprint(c.VertexBatches), ""},
		{"vertex shader invocations", fmt.Sprint(c.VSInvocations), "tag hit rate " + pct(c.VertexCacheHits, c.VertexCacheHits+c.VertexCacheMisses)},
		{"triangles", fmt.Sprint(c.Triangles), fmt.Sprintf("%d rejected, %d clipped, %d culled", c.Rejected, c.Clipped, c.Culled)},
		{"triangles set up", fmt.Sprint(c.SetUp), ""},
		{"coarse tiles", fmt.Sprint(c.Tiles), pct(c.TilesInside, c.Tiles) + " fully covered"},
		{"quads", fmt.Sprint(c.Quads), fmt.Sprintf("%d covered samples", c.CoveredSamples)},
		{"quads culled by early Z", fmt.Sprint(c.EarlyZQuadsCulled), ""},
		{"pixel shader invocations", fmt.Sprint(c.PSInvocations), "helper pixels " + pct(c.HelperPixels, c.PSInvocations)},
		{"pixel warps", fmt.Sprint(c.PixelWarps), ""},
		{"instructions (VS + PS, per warp)", fmt.Sprint(c.VSInstructions + c.PSInstructions), fmt.Sprintf("%d per lane", c.VSLaneInstructions+c.PSLaneInstructions)},
		{"texture requests", fmt.Sprint(c.TexRequests), ""},
		{"depth tests", fmt.Sprint(c.DepthTestsPassed + c.DepthTestsFailed), "passed " + pct(c.DepthTestsPassed, c.DepthTestsPassed+c.DepthTestsFailed)},
		{"samples written", fmt.Sprint(c.SamplesWritten), fmt.Sprintf("%d blended, %d killed", c.SamplesBlended, c.SamplesKilled)},
	}
	if dc := &c.Decoupled; dc.Draws > 0 {
		rows = append(rows,
			[]string{"decoupled draws", fmt.Sprint(dc.Draws), fmt.Sprintf("5D triangles: %d static, %d moving, %d defocused, %d both",
				dc.Triangles[raster5d.Static], dc.Triangles[raster5d.Moving], dc.Triangles[raster5d.Defocused], dc.Triangles[raster5d.Both])},
			[]string{"5D sample tests", fmt.Sprint(dc.Raster.Tests()), fmt.Sprintf("%d covered", dc.Raster.SamplesCovered)},
			[]string{"visible samples", fmt.Sprint(dc.VisibleSamples), fmt.Sprintf("%d covered pixels", dc.CoveredPixels)},
			[]string{"shading quads", fmt.Sprint(dc.ShadingQuads), fmt.Sprintf("memo hits %d of %d look-ups", dc.MemoHits, dc.MemoHits+dc.MemoMisses)},
			[]string{"shading rate", fmt.Sprintf("%.3f", dc.ShadingRate()), "shader invocations per covered pixel"},
			[]string{"savings", fmt.Sprintf("%.2fx", dc.Savings()), "visible samples per invocation (against supersampling)"},
			[]string{"blur area", fmt.Sprintf("%.2f", dc.BlurArea()), "mean pixels touched by one shading sample"},
		)
	}
	expt.Table(w, []string{"counter", "value", "note"}, rows)
}
