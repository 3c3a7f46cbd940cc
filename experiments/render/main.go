// Command render is gfxsim's main job: it renders a scene on a machine configuration
// and reports what happened. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/scene"
)

func main() { expt.Main("render", parseFlags, run) }

// parseFlags reads the command line args into render's options, with what
// it prints on stderr decided by -q, -v, CI (getenv) and whether stderr is a
// terminal (progress.Flags): on a terminal a bar over the frame replaces
// the simulation's progress lines.
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (options, error) {
	fs := flag.NewFlagSet("render", flag.ExitOnError)
	var o options
	fs.StringVar(&o.config, "config", "", "machine configuration (YAML, decoded on top of the default machine configs/sortlast.yaml)")
	fs.StringVar(&o.scene, "scene", "", "built-in scene name or scene/mesh file (default: the default scene); \"list\" prints the built-in scenes")
	fs.StringVar(&o.out, "o", "out/render", "output folder")
	fs.StringVar(&o.mode, "mode", "timing", "timing (the timed Akita model) or functional (the reference renderer alone)")
	fs.IntVar(&o.width, "width", 0, "override the scene's width in pixels (0: the scene's own; give -height too)")
	fs.IntVar(&o.height, "height", 0, "override the scene's height in pixels (0: the scene's own; give -width too)")
	fs.IntVar(&o.samples, "samples", 0, "override the scene's samples per pixel (1 to 64; 0: the scene's own)")
	fs.BoolVar(&o.check, "check", false, "timing mode: also render with the reference renderer and compare the images; with memory type dramctl, also check every DRAM command (memory.check)")
	fs.IntVar(&o.frames, "frames", 0, "render frames 0..N-1 of an animated scene (image_0000.png, stats_0000.json, ...); 0: one frame (-frame) as image.png")
	fs.IntVar(&o.frame, "frame", 0, "render frame K of an animated scene alone, as image.png (0 <= K < its frames); traces, metrics and the monitor record it")
	fs.Float64Var(&o.blur, "blur", -1, "scale the scene's lens radius and motion (0: no blur, 1: as written); negative: the scene's own blur")
	fs.StringVar(&o.front, "front", "", "a bare mesh file (-scene x.obj, .gltf, .glb): the axis its front faces, +z, -z, +x or -x (default +z, glTF's convention; OBJ has none), framed from that side")
	var pf progress.Flags
	fs.IntVar(&o.reorder, "reorder-indices", 0, "reorder the index buffers of opaque, depth-written meshes for vertex reuse (Tipsify for a FIFO of N vertices; 0: off; see experiments/vertexreuse)")
	fs.BoolVar(&o.reorderVertices, "reorder-vertices", false, "with -reorder-indices: also store the reordered meshes' vertices in the order the new index list first uses them")
	pf.Register(fs)
	o.instruments.OneRun = true // one simulation: no -instrument-runs
	o.instruments.Register(fs)
	o.inputs.Register(fs)
	if err := expt.ParseArgs(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.reorder < 0 {
		return o, fmt.Errorf("-reorder-indices %d: want 0 (off) or a FIFO size", o.reorder)
	}
	for _, f := range []struct {
		name    string
		v, most int
		unit    string
	}{
		{"width", o.width, scene.MaxResolution, "pixels"},
		{"height", o.height, scene.MaxResolution, "pixels"},
		{"samples", o.samples, len(scene.AllowedSamples()), "samples per pixel"},
	} {
		if f.v < 0 {
			return o, fmt.Errorf("-%s %d: want 0 (the scene's own) or more", f.name, f.v)
		}
		if f.v > f.most {
			return o, fmt.Errorf("-%s %d: at most %d %s", f.name, f.v, f.most, f.unit)
		}
	}
	if (o.width == 0) != (o.height == 0) {
		return o, fmt.Errorf("-width %d -height %d: give both (or neither, for the scene's own size)", o.width, o.height)
	}
	if math.IsNaN(o.blur) || math.IsInf(o.blur, 0) {
		return o, fmt.Errorf("-blur %v: want a finite scale (0: no blur, 1: as written; negative: the scene's own)", o.blur)
	}
	if math.Abs(o.blur) > math.MaxFloat32 { // the scene scales in 32-bit floats
		return o, fmt.Errorf("-blur %v: at most %.4g in magnitude (the scene scales in 32-bit floats; 0: no blur, 1: as written)", o.blur, math.MaxFloat32)
	}
	if o.out == "" {
		return o, fmt.Errorf("-o: want an output folder")
	}
	if o.reorderVertices && o.reorder == 0 {
		return o, fmt.Errorf("-reorder-vertices renumbers the vertices of reordered meshes: give -reorder-indices too")
	}
	for _, check := range []func() error{o.checkMode, o.checkFrames, o.checkFront, o.instruments.Check, pf.Check} {
		if err := check(); err != nil {
			return o, err
		}
	}
	o.inputs.Log = pf.Log(getenv, stderr)
	o.bar = pf.Bar(getenv, stderr)
	if o.inputs.Log == nil || o.bar {
		o.instruments.ProgressEvery = 0
	}
	return o, nil
}

// checkMode refuses an unknown -mode, and -check or an instrument with -mode
// functional.
func (o *options) checkMode() error {
	if o.mode != "functional" && o.mode != "timing" {
		return fmt.Errorf("-mode %q: want timing or functional", o.mode)
	}
	if o.mode == "functional" && o.check {
		return fmt.Errorf("-check compares the timed image with the reference renderer's: it has no meaning with -mode functional (which is the reference renderer)")
	}
	if in := o.instruments.Requested(); o.mode == "functional" && in != "" {
		return fmt.Errorf("%s with -mode functional: it has no timed components to trace, sample or monitor: drop %s or use -mode timing", in, in)
	}
	return nil
}

// checkFrames refuses a negative -frames or -frame, the two together, and an
// instrument over several frames. (A frame past the scene's last is refused
// once the scene is loaded.)
func (o *options) checkFrames() error {
	switch {
	case o.frames < 0:
		return fmt.Errorf("-frames %d: want 0 (one frame) or a positive count", o.frames)
	case o.frame < 0:
		return fmt.Errorf("-frame %d: want a frame number, 0 or more", o.frame)
	case o.frames > 0 && o.frame > 0:
		return fmt.Errorf("-frames %d and -frame %d: -frames renders frames 0..%d, -frame one frame; give one", o.frames, o.frame, o.frames-1)
	}
	if in := o.instruments.Requested(); o.frames > 1 && in != "" {
		return fmt.Errorf("-frames %d with %s: traces, metrics and the monitor record one frame; instrument frame K alone with -frame K", o.frames, in)
	}
	return nil
}

// checkFront refuses -front for anything but a bare mesh file, and a front
// that is not an axis.
func (o *options) checkFront() error {
	if o.front == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(o.scene)) {
	case ".obj", ".gltf", ".glb":
	default:
		return fmt.Errorf("-front %s: applies to a bare mesh file (-scene x.obj, .gltf or .glb); a scene file gives each mesh's front", o.front)
	}
	if _, err := scene.ParseFront(o.front); err != nil {
		return fmt.Errorf("-front: %v", err)
	}
	return nil
}
