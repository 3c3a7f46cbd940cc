package shadercore_test

import (
	"image"
	"math/bits"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// wallScene is a small frame: a textured wall filling most of the view (a
// mipmapped checker, trilinear), and a gouraud sphere in front of it.
const wallScene = `
name: wall
resolution: [48, 40]
samples: 1
camera: {position: [0, 0, 2], target: [0, 0, 0], fov_y: 60, near: 0.5, far: 10}
lights: [{type: directional, direction: [0, 0, -1]}]
textures:
  tiles: {procedural: {kind: checker, size: 64, cells: 4}}
meshes:
  wall: {procedural: {kind: plane, size: [3, 3], segments: 2, uv_scale: 2}}
  ball: {procedural: {kind: sphere, radius: 0.4, stacks: 6, slices: 8}}
materials:
  tiled: {shader: textured, textures: {albedo: tiles}}
  red: {shader: gouraud, params: {diffuse: [1, 0.2, 0.2, 1]}}
objects:
  - {name: wall, mesh: wall, material: tiled, transform: {rotate: [90, 0, 0]}}
  - {name: ball, mesh: ball, material: red, transform: {translate: [0.3, 0, 0.5]}}
`

// recording is the work of a frame as the reference renderer does it, in API
// order: every vertex batch and pixel warp (as the messages a core receives),
// the outputs the functional pipeline computes for each, the image and the
// counters the core must reproduce.
type recording struct {
	frame   *driver.Frame
	draws   []*protocol.Draw
	jobs    []sim.Msg // *protocol.VertexBatch and *protocol.PixelWarp
	want    []any     // []pipeline.VertexOut or []pipeline.QuadOutput, per job
	image   *image.RGBA
	vsInv   int
	psInv   int
	vsInstr uint64
	psInstr uint64
	texReq  uint64
	helpers int
	warps   int
	batches int
}

// record runs the frame through the functional pipeline exactly as
// functional/reference does (32-vertex batches, 8-quad warps, 8x8 row-major
// tiles), keeping the messages and outputs.
func record(t testing.TB, src string) *recording {
	t.Helper()
	f := testpeer.EncodeScene(t, "wall.yaml", src)
	r := &recording{frame: f}
	testpeer.WalkFrame(t, f, func(act state.Action) {
		switch act.Kind {
		case state.ActDraw:
			r.draw(t, act.Draw)
		case state.ActClear:
			if act.Clear.Flags&command.ClearColor != 0 {
				act.Color.Clear(act.Clear.Color)
			}
			if act.Clear.Flags&command.ClearDepth != 0 {
				act.DepthBuf.ClearDepth(act.Clear.Depth)
			}
			if act.Clear.Flags&command.ClearStencil != 0 {
				act.DepthBuf.ClearStencil(act.Clear.Stencil)
			}
		case state.ActPresent:
			r.image = act.Color.Resolve()
		}
	})
	return r
}

func (r *recording) draw(t testing.TB, d *state.Draw) {
	draw := testpeer.FrameDraw(len(r.draws), d)
	r.draws = append(r.draws, draw)
	cfg := &draw.Raster
	mem := r.frame.Memory
	batcher, err := vertex.NewBatcher(vertex.DefaultBatchVertices)
	if err != nil {
		t.Fatal(err)
	}
	var fetch vertex.Fetcher
	vsTex := pipeline.TextureUnits{Bindings: &d.VSTextures}
	psTex := pipeline.TextureUnits{Bindings: &d.PSTextures}
	w := shader.NewWarp(shader.MaxLanes)
	geo := pipeline.NewGeometry(d, cfg)
	var pending []protocol.WarpQuad
	flush := func() {
		if len(pending) == 0 {
			return
		}
		pw := protocol.NewPixelWarp(draw, uint64(r.warps), pending)
		r.warps++
		w.Reset(d.PS, 4*len(pending), d.PSConstants)
		w.Stats = shader.Stats{}
		for i, q := range pending {
			pipeline.LoadQuad(d, cfg, q.Prim, q.Quad, q.Live, w, 4*i)
			r.helpers += bits.OnesCount8(q.Live.HelperPixels())
		}
		w.Run(&psTex)
		r.psInv += 4 * len(pending)
		r.psInstr += w.Stats.Instructions
		r.texReq += w.Stats.TexRequests
		outs := make([]pipeline.QuadOutput, len(pending))
		var ws pipeline.WriteStats
		for i, q := range pending {
			outs[i] = pipeline.ReadQuad(d, w, 4*i)
			pipeline.WriteQuad(d, cfg, q.Prim, q.Quad, q.Live, &outs[i], &ws)
		}
		r.jobs = append(r.jobs, pw)
		r.want = append(r.want, outs)
		pending = nil
	}
	var batch vertex.Batch
	for first := 0; batcher.Next(mem, &d.Stream, first, &batch); first += len(batch.Triangles) {
		b := vertex.Batch{FirstTriangle: batch.FirstTriangle, Hits: batch.Hits, Misses: batch.Misses,
			Vertices:  append([]uint32(nil), batch.Vertices...),
			Triangles: append([][3]uint8(nil), batch.Triangles...)}
		attrs := make([]vertex.Attributes, len(b.Vertices))
		pipeline.FetchBatch(d, mem, &b, &fetch, attrs)
		vb := protocol.NewVertexBatch(draw, uint64(r.batches), b, attrs)
		r.batches++
		n := len(b.Vertices)
		pipeline.LoadVertices(d, attrs, n, w)
		w.Stats = shader.Stats{}
		w.Run(&vsTex)
		if err := w.Err(); err != nil {
			t.Fatal(err)
		}
		vout := make([]pipeline.VertexOut, n)
		pipeline.StoreVertices(w, n, vout)
		r.vsInv += n
		r.vsInstr += w.Stats.Instructions
		r.texReq += w.Stats.TexRequests
		r.jobs = append(r.jobs, vb)
		r.want = append(r.want, vout)
		for i, tri := range b.Triangles {
			prims := geo.Triangle(first+i, [3]*pipeline.VertexOut{&vout[tri[0]], &vout[tri[1]], &vout[tri[2]]},
				nil, &pipeline.GeometryStats{})
			for p := range prims {
				prim := &prims[p]
				for _, tp := range prim.Triangle.Tiles(cfg, nil) {
					for _, q := range prim.Triangle.TileQuads(cfg, tp.X, tp.Y, nil) {
						live := q.Coverage
						if d.EarlyZ {
							live = pipeline.EarlyDepth(d, cfg, prim, q, &pipeline.DepthStats{})
							if live.Empty() {
								continue
							}
						}
						pending = append(pending, protocol.WarpQuad{Prim: prim, Quad: q, Live: live, Sample: protocol.PerPixel})
						if len(pending) == 8 {
							flush()
						}
					}
				}
			}
		}
	}
	flush()
}
