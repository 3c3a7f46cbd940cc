package rasterizer

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/primitiveassembly"
	"github.com/gfxsim/gfxsim/components/protocol"
)

// TestChainWithPrimitiveAssembly wires the real primitive assembly to three
// rasterizers (it sends each primitive only to the owners of its tiles) and
// checks that the depth units receive exactly the reference renderer's tiles
// and quads, that each depth unit gets every draw's DrawEnd from every
// rasterizer, and that the counters match the reference renderer's.
func TestChainWithPrimitiveAssembly(t *testing.T) {
	const R, P, stride = 3, 2, 2
	ref := testpeer.LoadFrame(t, geoYAML)
	res := testpeer.Reference(t, ref.Frame)
	fr := testpeer.LoadFrame(t, geoYAML)
	e := sim.NewSerialEngine()
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	pa := primitiveassembly.MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(primitiveassembly.DefaultConfig(), func(c *primitiveassembly.Config) { c.NumRasterizers = R; c.RasterStride = stride; c.BatchSlots = 4 })).Build("GPU.PrimitiveAssembly")
	core, ia := newFake("Core", e, 4), newFake("IA", e, 64)
	for _, p := range []sim.Port{pa.FromShaderCores, pa.InputAssembler, pa.ToRasterizers, core.Port, ia.Port} {
		conn.PlugIn(p, 4)
	}
	pa.InputAssemblerPort = ia.Port
	var depths []*fake
	for p := 0; p < P; p++ {
		f := newFake("Depth["+strconv.Itoa(p)+"]", e, 4096)
		conn.PlugIn(f.Port, 4)
		depths = append(depths, f)
	}
	var rasts []*Comp
	for r := 0; r < R; r++ {
		c := MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Index = r; c.NumRasterizers = R; c.RasterStride = stride; c.NumPartitions = P })).Build(fmt.Sprintf("GPU.Rasterizer[%d]", r))
		conn.PlugIn(c.FromPrimitiveAssembly, 4)
		conn.PlugIn(c.ToDepthUnits, 4)
		for _, f := range depths {
			c.DepthUnits = append(c.DepthUnits, f.Port)
		}
		pa.Rasterizers = append(pa.Rasterizers, c.FromPrimitiveAssembly)
		rasts = append(rasts, c)
	}
	// The fake core delivers the batches in order under back-pressure (the
	// primitive assembly takes one only into a free slot).
	for _, d := range fr.Draws {
		batches := fr.Shade(t, d)
		for _, sb := range batches {
			core.Script = append(core.Script, scripted{At: 0, Msg: sb, Dst: pa.FromShaderCores})
		}
		ia.Script = append(ia.Script, scripted{At: 0, Msg: protocol.NewBatchInfo(d, len(batches)), Dst: pa.InputAssembler})
	}
	testpeer.Run(t, e, core, ia)

	rc := res.Counters
	if pa.GeometryStats() != rc.GeometryStats {
		t.Errorf("geometry %+v, want %+v", pa.GeometryStats(), rc.GeometryStats)
	}
	checkSums(t, rasts, rc)
	var primitives uint64
	for _, c := range rasts {
		k := c.Counters()
		primitives += k.Primitives
		if k.DrawEnds != uint64(len(fr.Draws)) {
			t.Errorf("%s got %d DrawEnds", c.Name(), k.DrawEnds)
		}
		if k.TilesTested == 0 {
			t.Errorf("%s tested no tile", c.Name())
		}
	}
	// Each primitive went only to its owners, so fewer messages than R per primitive.
	if primitives >= uint64(R*rc.SetUp) || primitives < uint64(rc.SetUp) {
		t.Errorf("%d primitive messages for %d primitives and %d rasterizers", primitives, rc.SetUp, R)
	}
	quads := 0
	for p, f := range depths {
		ends := make([]int, R)
		for _, g := range f.Got {
			switch m := g.Msg.(type) {
			case *protocol.TileQuads:
				r := protocol.TileOwner(m.TileX, m.TileY, stride, R)
				if m.Src != rasts[r].ToDepthUnits || m.Partition != p || int(m.Draw.Seq) != ends[r] {
					t.Fatalf("depth unit %d: tile (%d,%d) of draw %d from %s after %d DrawEnds", p, m.TileX, m.TileY, m.Draw.Seq, m.Src.Name(), ends[r])
				}
				quads += len(m.Quads)
			case *protocol.DrawEnd:
				ends[m.From]++
			}
		}
		for r, n := range ends {
			if n != len(fr.Draws) {
				t.Errorf("depth unit %d: %d DrawEnds from rasterizer %d", p, n, r)
			}
		}
	}
	if quads != rc.Quads {
		t.Errorf("%d quads reached the depth units, want %d", quads, rc.Quads)
	}
	for _, u := range append([]protocol.Unit{pa}, rasts[0], rasts[1], rasts[2]) {
		u.Finish(e.CurrentTime())
		for _, b := range u.Buffers() {
			if b.Len != 0 {
				t.Errorf("%s holds %d entries", b.Name, b.Len)
			}
		}
	}
}
