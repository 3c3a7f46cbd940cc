package backendtest

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
)

// TargetSpec describes the render targets of a Targets.
type TargetSpec struct {
	Width, Height, Samples int
	ColorFormat            framebuffer.ColorFormat
	ColorLayout            framebuffer.Layout
	DepthFormat            depth.Format
	DepthLayout            framebuffer.Layout
	TileW, TileH           int // for Tiled layouts
	// Extra targets: a second depth target (for tests that need two).
	SecondDepth bool
}

// DefaultSpec is the targets of most back-end tests: 16x8 pixels at one
// sample, a linear RGBA8 colour target and a linear D24S8 depth target.
func DefaultSpec() TargetSpec {
	return TargetSpec{Width: 16, Height: 8, Samples: 1, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Linear, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Linear}
}

// Targets is a colour and a depth target (and optionally a second depth target)
// allocated, line aligned, in a fresh memory image.
type Targets struct {
	Spec         TargetSpec
	Image        *command.Image
	Color        *framebuffer.ColorTarget
	ColorDesc    command.Target
	Depth        *framebuffer.DepthTarget
	DepthDesc    command.Target
	Depth2       *framebuffer.DepthTarget
	Depth2Desc   command.Target
	Display      uint64 // a Width*Height*4 byte display buffer
	DisplayBytes uint64
}

// NewTargets allocates the targets of spec in a new image. Every byte of the
// colour target is 0 and every depth 1.0 (stencil 0).
func NewTargets(spec TargetSpec) (*Targets, error) {
	t := &Targets{Spec: spec, Image: command.NewImage()}
	cg := t.geometry()
	cs, err := framebuffer.NewColorTarget(cg, spec.ColorFormat)
	if err != nil {
		return nil, fmt.Errorf("colour target: %w", err)
	}
	ds, err := state.DepthTargetSize(cg, spec.DepthFormat)
	if err != nil {
		return nil, fmt.Errorf("depth target: %w", err)
	}
	desc := func(addr uint64, format uint32, layout framebuffer.Layout) command.Target {
		return command.Target{Addr: addr, Width: uint32(spec.Width), Height: uint32(spec.Height),
			Samples: uint32(spec.Samples), Format: format, Layout: uint32(layout),
			TileW: uint32(spec.TileW), TileH: uint32(spec.TileH)}
	}
	t.ColorDesc = desc(t.Image.Alloc(cs.SizeBytes(), 4096), uint32(spec.ColorFormat), spec.ColorLayout)
	t.DepthDesc = desc(t.Image.Alloc(ds, 4096), uint32(spec.DepthFormat), spec.DepthLayout)
	if spec.SecondDepth {
		t.Depth2Desc = desc(t.Image.Alloc(ds, 4096), uint32(spec.DepthFormat), spec.DepthLayout)
	}
	t.DisplayBytes = uint64(spec.Width * spec.Height * 4)
	t.Display = t.Image.Alloc(t.DisplayBytes, 4096)
	t.Image.Alloc(4096, 4096) // padding after the display buffer
	if err := t.views(); err != nil {
		return nil, err
	}
	t.Depth.ClearDepth(1)
	if t.Depth2 != nil {
		t.Depth2.ClearDepth(1)
	}
	return t, nil
}

func (t *Targets) geometry() framebuffer.Geometry {
	return framebuffer.Geometry{Width: t.Spec.Width, Height: t.Spec.Height, Samples: t.Spec.Samples,
		Layout: t.Spec.ColorLayout, TileW: t.Spec.TileW, TileH: t.Spec.TileH}
}

func (t *Targets) views() error {
	cg := t.geometry()
	dg := cg
	dg.Layout = t.Spec.DepthLayout
	cs, _ := framebuffer.NewColorTarget(cg, t.Spec.ColorFormat)
	b, ok := t.Image.Slice(t.ColorDesc.Addr, cs.SizeBytes())
	if !ok {
		return fmt.Errorf("colour target outside the image")
	}
	var err error
	if t.Color, err = framebuffer.NewColorTargetFromBytes(cg, t.Spec.ColorFormat, b); err != nil {
		return err
	}
	ds, _ := state.DepthTargetSize(dg, t.Spec.DepthFormat)
	view := func(addr uint64) (*framebuffer.DepthTarget, error) {
		b, ok := t.Image.Slice(addr, ds)
		if !ok {
			return nil, fmt.Errorf("depth target outside the image")
		}
		return framebuffer.NewDepthTargetFromBytes(dg, t.Spec.DepthFormat, b)
	}
	if t.Depth, err = view(t.DepthDesc.Addr); err != nil {
		return err
	}
	if t.Spec.SecondDepth {
		if t.Depth2, err = view(t.Depth2Desc.Addr); err != nil {
			return err
		}
	}
	return nil
}

// Clone returns an independent copy of the image with its own views.
func (t *Targets) Clone() *Targets {
	c := *t
	c.Image = command.NewImage()
	c.Image.Put(t.Image.Bytes(), 1)
	if err := c.views(); err != nil {
		panic(err)
	}
	return &c
}

// Draw returns draw seq over the targets: default depth state (less, writes
// on), no blending, the whole target as bounds, depth range [0, 1], 8x8 tiles.
func (t *Targets) Draw(seq uint64, earlyZ bool) *protocol.Draw {
	pat, err := raster.PatternFor(t.Spec.Samples)
	if err != nil {
		panic(err)
	}
	w, h := t.Spec.Width, t.Spec.Height
	d := &state.Draw{
		Index:    int(seq),
		Viewport: geom.Viewport{Width: float32(w), Height: float32(h), MinZ: 0, MaxZ: 1},
		Bounds:   raster.Rect{X1: w, Y1: h},
		Samples:  pat,
		Depth:    depth.DefaultState(),
		Blend:    blend.DefaultState(),
		Color:    t.Color, ColorDesc: t.ColorDesc,
		DepthBuf: t.Depth, DepthDesc: t.DepthDesc,
		EarlyZ: earlyZ, DepthBound: true,
	}
	return &protocol.Draw{Seq: seq, State: d, Raster: pipeline.RasterConfig(d, pipeline.RasterOptions{TileSize: 8})}
}

// UseSecondDepth makes d test against the second depth target.
func (t *Targets) UseSecondDepth(d *protocol.Draw) {
	d.State.DepthBuf, d.State.DepthDesc = t.Depth2, t.Depth2Desc
}

// Prim sets up a triangle with vertices (x, y, z) in pixels and viewport depth
// (1/w = 1), front facing whatever its winding.
func Prim(d *protocol.Draw, v [3][3]float32) *pipeline.Primitive {
	p := &pipeline.Primitive{}
	var sv [3]geom.ScreenVertex
	for i := range sv {
		sv[i] = geom.ScreenVertex{X: geom.Snap(v[i][0]), Y: geom.Snap(v[i][1]), Z: v[i][2], InvW: 1}
	}
	if !raster.Setup(sv, false, &d.Raster, &p.Triangle) {
		panic("backendtest: the triangle covers nothing")
	}
	return p
}

// Rect returns two primitives covering the pixel rectangle [x0,x1) x [y0,y1) at
// depth z.
func Rect(d *protocol.Draw, x0, y0, x1, y1, z float32) [2]*pipeline.Primitive {
	return [2]*pipeline.Primitive{
		Prim(d, [3][3]float32{{x0, y0, z}, {x1, y0, z}, {x0, y1, z}}),
		Prim(d, [3][3]float32{{x1, y0, z}, {x1, y1, z}, {x0, y1, z}}),
	}
}

// Tile returns what a rasterizer sends for primitive p in tile (tx, ty):
// its quads with Live = coverage (nil when the tile has none).
func Tile(d *protocol.Draw, p *pipeline.Primitive, tx, ty, partition int) *protocol.TileQuads {
	qs := p.Triangle.TileQuads(&d.Raster, tx, ty, nil)
	if len(qs) == 0 {
		return nil
	}
	ql := make([]protocol.QuadLive, len(qs))
	for i, q := range qs {
		ql[i] = protocol.QuadLive{Quad: q, Live: q.Coverage}
	}
	return protocol.NewTileQuads(d, p, tx, ty, partition, ql)
}

// Tiles returns the TileQuads of primitive p over every tile of the target, in
// row-major tile order, keeping the tiles owned by partition of n (stride 1).
func Tiles(d *protocol.Draw, p *pipeline.Primitive, partition, n int) []*protocol.TileQuads {
	var out []*protocol.TileQuads
	ts := d.Raster.TileSize
	w, h := d.State.Bounds.X1, d.State.Bounds.Y1
	for ty := 0; ty*ts < h; ty++ {
		for tx := 0; tx*ts < w; tx++ {
			if protocol.TileOwner(tx, ty, 1, n) != partition {
				continue
			}
			if m := Tile(d, p, tx, ty, partition); m != nil {
				out = append(out, m)
			}
		}
	}
	return out
}
