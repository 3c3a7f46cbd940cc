package commandprocessor

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/scene"
)

// renderDraw renders one dispatched draw functionally, in API order, with one
// quad per pixel warp (the image does not depend on the warp size): the stand-in
// for the rest of the pipeline.
func renderDraw(t *testing.T, m state.Memory, pd *protocol.Draw) {
	d, cfg := pd.State, pd.Raster
	batcher, err := vertex.NewBatcher(vertex.DefaultBatchVertices)
	if err != nil {
		t.Fatal(err)
	}
	vwarp, pwarp := shader.NewWarp(shader.MaxLanes), shader.NewWarp(4)
	vsTex := pipeline.TextureUnits{Bindings: &d.VSTextures}
	psTex := pipeline.TextureUnits{Bindings: &d.PSTextures}
	geo := pipeline.NewGeometry(d, &cfg)
	var f vertex.Fetcher
	var batch vertex.Batch
	var gs pipeline.GeometryStats
	var prims []pipeline.Primitive
	vout := make([]pipeline.VertexOut, batcher.MaxVertices)
	attrs := make([]vertex.Attributes, batcher.MaxVertices)
	for first := 0; batcher.Next(m, &d.Stream, first, &batch); first += len(batch.Triangles) {
		if _, err := pipeline.ShadeBatch(d, m, &batch, vwarp, &f, &vsTex, attrs, vout); err != nil {
			t.Fatal(err)
		}
		for i, tri := range batch.Triangles {
			prims = geo.Triangle(first+i, [3]*pipeline.VertexOut{&vout[tri[0]], &vout[tri[1]], &vout[tri[2]]}, prims[:0], &gs)
			for p := range prims {
				prim := &prims[p]
				for _, tp := range prim.Triangle.Tiles(&cfg, nil) {
					for _, q := range prim.Triangle.TileQuads(&cfg, tp.X, tp.Y, nil) {
						live := q.Coverage
						if d.EarlyZ {
							var ds pipeline.DepthStats
							if live = pipeline.EarlyDepth(d, &cfg, prim, q, &ds); live.Empty() {
								continue
							}
						}
						pwarp.Reset(d.PS, 4, d.PSConstants)
						pipeline.LoadQuad(d, &cfg, prim, q, live, pwarp, 0)
						pwarp.Run(&psTex)
						o := pipeline.ReadQuad(d, pwarp, 0)
						var ws pipeline.WriteStats
						pipeline.WriteQuad(d, &cfg, prim, q, live, &o, &ws)
					}
				}
			}
		}
	}
}

// TestFrameMatchesReference runs a built-in scene through the command processor
// (the fake pipeline renders each draw functionally when it is dispatched) and
// compares the presented image and the command counts with the reference
// renderer's: clears, draws and presents happen in the same order.
func TestFrameMatchesReference(t *testing.T) {
	for _, name := range []string{"room", "overdraw"} {
		serial := runFrame(t, name, sim.NewSerialEngine())
		if name == "room" {
			if parallel := runFrame(t, name, sim.NewParallelEngine()); !reflect.DeepEqual(serial, parallel) {
				t.Errorf("%s: the parallel engine gives different statistics:\n%v\n%v", name, serial, parallel)
			}
		}
	}
}

func runFrame(t *testing.T, name string, e sim.Engine) map[string]float64 {
	s := testpeer.Builtin(t, name, scene.WithResolution(48, 32), scene.WithSamples(4), scene.WithMaxTextureSize(32))
	want := testpeer.Reference(t, testpeer.EncodeBuilt(t, s))
	f := testpeer.EncodeBuilt(t, s)
	b := newBenchOn(t, e, f.Memory, benchConfig{cp: testpeer.Edit(DefaultConfig(), func(c *Config) { c.StateVersions = 2 }), partitions: 2,
		memLatency: 20, drawLatency: 15, ackLatency: 4})
	b.pipe.render = func(d *protocol.Draw) { renderDraw(t, f.Memory, d) }
	b.run(t, f.Memory, f.Stream, f.StreamBytes)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	img := b.cp.Image()
	if img == nil || !bytes.Equal(img.Pix, want.Image.Pix) || img.Rect != want.Image.Rect {
		t.Errorf("%s: the image differs from the reference", name)
	}
	st := testpeer.StatMap(b.cp)
	c := want.Counters
	if st["GPU.CommandProcessor.commands"] != float64(c.Commands) || st["GPU.CommandProcessor.draws"] != float64(c.Draws) ||
		st["GPU.CommandProcessor.clears"] != float64(c.Clears) || st["GPU.CommandProcessor.presents"] != float64(c.Presents) {
		t.Errorf("%s: commands %v draws %v clears %v presents %v, reference %d %d %d %d", name,
			st["GPU.CommandProcessor.commands"], st["GPU.CommandProcessor.draws"], st["GPU.CommandProcessor.clears"],
			st["GPU.CommandProcessor.presents"], c.Commands, c.Draws, c.Clears, c.Presents)
	}
	if got := command32(f.Memory, f.SyncAddr); got != f.SyncValue {
		t.Errorf("%s: sync token %d, want %d", name, got, f.SyncValue)
	}
	return st
}

func command32(m state.Memory, addr uint64) uint32 {
	var b [4]byte
	m.ReadAt(b[:], addr)
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
