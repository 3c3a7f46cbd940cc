package expt

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
)

// Inputs are the flags every experiment binary takes about what it reads and
// how much memory it may use (README, "Untrusted inputs").
type Inputs struct {
	// AllowPaths are folder trees, besides the scene file's own, that the
	// files a scene names may be read from (-allow-path, repeatable).
	AllowPaths []string
	// MaxMemory is the memory budget of a load and run in bytes (-max-memory;
	// 0: inputs.DefaultMaxMemory()).
	MaxMemory int64
	// Log receives progress lines of long loads (nil: none).
	Log io.Writer
	// ProgressEvery is how often a long load prints a line (0: 10 s).
	ProgressEvery time.Duration
	// BuiltinOnly, set before Register, says the binary loads built-in
	// scenes only, which name no files: -allow-path is not offered.
	BuiltinOnly bool

	share int // runs at once that share MaxMemory (ShareWith)
}

// ShareWith says that n runs (a study's -workers) run at once: each run's
// Budget is then an equal share of MaxMemory, so that together they stay
// within it.
func (in *Inputs) ShareWith(n int) {
	if in != nil {
		in.share = n
	}
}

// Register adds -allow-path (unless BuiltinOnly) and -max-memory to fs.
func (in *Inputs) Register(fs *flag.FlagSet) {
	if !in.BuiltinOnly {
		in.registerAllowPath(fs)
	}
	fs.Func("max-memory", fmt.Sprintf("memory budget of a load and run, e.g. 6G, shared equally by a study's -workers (default: a quarter of physical memory, %s here)",
		inputs.Bytes(inputs.DefaultMaxMemory())), func(s string) error {
		n, err := inputs.ParseBytes(s)
		if err != nil {
			return err
		}
		in.MaxMemory = n
		return nil
	})
}

func (in *Inputs) registerAllowPath(fs *flag.FlagSet) {
	fs.Func("allow-path", "a folder whose files scenes may read, besides the scene file's own folder (repeatable)", func(s string) error {
		if _, err := inputs.NewRoots(s); err != nil {
			return err
		}
		in.AllowPaths = append(in.AllowPaths, s)
		return nil
	})
}

// Budget returns a new memory budget for one run: MaxMemory bytes, or its
// share when runs run at once (ShareWith).
func (in *Inputs) Budget() *inputs.Budget {
	if in == nil {
		return inputs.NewBudget(0)
	}
	if in.share <= 1 {
		return inputs.NewBudget(in.MaxMemory)
	}
	all := inputs.NewBudget(in.MaxMemory).Max()
	b := inputs.NewBudget(all / int64(in.share))
	b.Source = fmt.Sprintf("-max-memory %s shared by %d workers", inputs.Bytes(all), in.share)
	return b
}

// Load loads a scene as LoadScene does, with the allowed folders, within
// budget b, printing a progress line every ProgressEvery while it takes long.
func (in *Inputs) Load(name string, width, height, samples int, b *inputs.Budget, opts ...scene.Option) (*scene.Scene, error) {
	var s *scene.Scene
	err := in.Progress("loading scene "+name, b, func() error {
		var err error
		opts = append(opts, scene.WithAllowPaths(in.allow()...), scene.WithBudget(b))
		s, err = loadScene(name, width, height, samples, opts...)
		return err
	})
	return s, err
}

func (in *Inputs) allow() []string {
	if in == nil {
		return nil
	}
	return in.AllowPaths
}

// Reserve reserves the memory of running machine cfg on scene s in b: the
// machine's caches and buffers (configs.Config.MemoryEstimate) and the
// timed frame (ReserveTimedFrame); it returns the refusal with the estimate.
func Reserve(b *inputs.Budget, cfg *configs.Config, s *scene.Scene) error {
	if err := cfg.ReserveMemory(b); err != nil {
		return err
	}
	return ReserveTimedFrame(b, cfg, s)
}

// ReserveFrame reserves the frame of scene s (scene.Scene.FrameBytes) in b:
// a frame the reference renderer draws.
func ReserveFrame(b *inputs.Budget, s *scene.Scene) error {
	return reserveFrame(b, s, "", s.FrameBytes())
}

// ReserveTimedFrame reserves the frame of scene s for a timed run of cfg in b
// (TimedFrameBytes).
func ReserveTimedFrame(b *inputs.Budget, cfg *configs.Config, s *scene.Scene) error {
	where := " on a timed machine (the image and its copy in the machine's memory)"
	if n := cfg.MemoryImageCopies(); n > 1 {
		where = fmt.Sprintf(" on a timed machine (the image and its %d copies in the machine's memories)", n)
	}
	if cfg.PassBytes(1) > 0 {
		where = fmt.Sprintf(" on a timed machine (the image, its copy in the machine's memory and %s of binned primitives)",
			inputs.Bytes(cfg.PassBytes(s.TriangleCount())))
	}
	return reserveFrame(b, s, where, TimedFrameBytes(cfg, s))
}

// TimedFrameBytes estimates the memory of scene s's frame on a timed run of
// cfg: scene.Scene.FrameBytes for the driver's image, which lives on, and as
// much again for each copy the machine loads (configs.Config.MemoryImageCopies:
// its memory's, and on SAGE every pipe's texture memory's), and on the tiled
// machine the primitives a pass holds (configs.Config.PassBytes).
func TimedFrameBytes(cfg *configs.Config, s *scene.Scene) int64 {
	return int64(1+cfg.MemoryImageCopies())*s.FrameBytes() + cfg.PassBytes(s.TriangleCount())
}

func reserveFrame(b *inputs.Budget, s *scene.Scene, where string, n int64) error {
	what := fmt.Sprintf("the frame of scene %s (%dx%d, %s, %s", s.Name, s.Width, s.Height,
		Count(s.Samples, "sample", "samples"), Count(len(s.Textures), "texture", "textures"))
	if len(s.StreamBuffers) > 0 {
		what += ", " + Count(len(s.StreamBuffers), "stream-out buffer", "stream-out buffers")
	}
	if err := b.Reserve(what+")"+where, n); err != nil {
		return fmt.Errorf("%s: %v", s.Source, err)
	}
	return nil
}

// Progress runs f and, while it runs, prints "what: N s, M reserved" every
// ProgressEvery to Log, as a simulation prints its progress.
func (in *Inputs) Progress(what string, b *inputs.Budget, f func() error) error {
	if in == nil || in.Log == nil {
		return f()
	}
	every := in.ProgressEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintf(in.Log, "  %s: %.0f s, %s of memory reserved\n", what, time.Since(start).Seconds(), inputs.Bytes(b.Used()))
			}
		}
	}()
	err := f()
	close(done)
	<-stopped // no line after f's end
	return err
}

// loadScene is LoadScene with scene options.
func loadScene(name string, width, height, samples int, opts ...scene.Option) (*scene.Scene, error) {
	if name == "" {
		name = scene.DefaultName
	}
	s, err := scene.Open(name, opts...)
	if err != nil {
		return nil, err
	}
	if err := s.SetResolution(width, height, samples); err != nil {
		return nil, fmt.Errorf("scene %q: %w", name, err)
	}
	return s, nil
}
