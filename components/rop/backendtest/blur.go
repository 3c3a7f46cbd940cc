package backendtest

import (
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// Decouple makes draw d a decoupled draw in supersample mode (every triangle
// takes the 5D path) and returns its setup.
func Decouple(d *protocol.Draw) *pipeline.Decoupled {
	d.State.Decoupling = command.Decoupling{Mode: command.DecoupleSupersample, Rate: 1}
	if d.State.VS == nil {
		d.State.VS = &shader.Program{}
	}
	var pc pipeline.PatternCache
	dd, err := pipeline.NewDecoupled(d.State, &d.Raster, &pc, 0)
	if err != nil || dd == nil {
		panic("backendtest: the draw cannot be decoupled")
	}
	return dd
}

// Blur sets up API triangle source of decoupled draw d (Decouple) on the 5D
// path, with primitive number id and vertices (x, y, z) in pixels and
// viewport depth (w = 1).
func Blur(d *protocol.Draw, dd *pipeline.Decoupled, source int, id uint32, v [3][3]float32) *pipeline.Primitive {
	var out [3]pipeline.VertexOut
	vp := d.State.Viewport
	for k, p := range v {
		out[k][0] = geom.Vec4{2*p[0]/vp.Width - 1, 1 - 2*p[1]/vp.Height, p[2], 1}
	}
	var st pipeline.GeometryStats
	var ms decouple.MapStats
	prims := pipeline.NewGeometry(d.State, &d.Raster).Triangle5D(dd, source, id,
		[3]*pipeline.VertexOut{&out[0], &out[1], &out[2]}, nil, &st, &ms)
	if len(prims) != 1 {
		panic("backendtest: the 5D triangle covers nothing")
	}
	return &prims[0]
}

// BlurTile returns what a rasterizer sends for 5D primitive p in its 32x32
// tile (tx, ty) to the single partition 0: the quads of raster5d's TileQuads
// with Live = coverage (nil when none).
func BlurTile(d *protocol.Draw, p *pipeline.Primitive, tx, ty int) *protocol.TileQuads {
	qs := p.Blur.Tri.TileQuads(tx, ty, nil, nil)
	if len(qs) == 0 {
		return nil
	}
	ql := make([]protocol.QuadLive, len(qs))
	for i, q := range qs {
		ql[i] = protocol.QuadLive{Quad: raster.Quad{X: q.X, Y: q.Y, Coverage: q.Coverage}, Live: q.Coverage}
	}
	return protocol.NewTileQuads(d, p, tx, ty, 0, ql)
}
