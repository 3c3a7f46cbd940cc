// Command render is gfxsim's main job: it renders a scene on a machine configuration
// and reports what happened. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	var o options
	flag.StringVar(&o.config, "config", "", "machine configuration (YAML, decoded on top of the default machine configs/sortlast.yaml)")
	flag.StringVar(&o.scene, "scene", "", "built-in scene name or scene/mesh file (default: the default scene); \"list\" prints the built-in scenes")
	flag.StringVar(&o.out, "o", "out/render", "output folder")
	flag.StringVar(&o.mode, "mode", "timing", "timing (the timed Akita model) or functional (the reference renderer alone)")
	flag.IntVar(&o.width, "width", 0, "override the scene's width in pixels")
	flag.IntVar(&o.height, "height", 0, "override the scene's height in pixels")
	flag.IntVar(&o.samples, "samples", 0, "override the scene's samples per pixel (1 to 64)")
	flag.BoolVar(&o.check, "check", false, "timing mode: also render with the reference renderer and compare the images")
	flag.IntVar(&o.frames, "frames", 0, "render frames 0..N-1 of an animated scene (image_0000.png, stats_0000.json, ...); 0: frame 0 as image.png")
	flag.Float64Var(&o.blur, "blur", -1, "scale the scene's lens radius and motion (0: no blur, 1: as written); negative: the scene's own blur")
	quiet := flag.Bool("q", false, "quiet: no progress lines while loading and simulating (the summary is still printed)")
	o.instruments.Register(flag.CommandLine)
	o.inputs.Register(flag.CommandLine)
	o.inputs.Log = os.Stderr
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "render: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := o.instruments.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(2)
	}
	if *quiet {
		o.instruments.ProgressEvery = 0
		o.inputs.Log = io.Discard
	}
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}
