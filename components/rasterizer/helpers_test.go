package rasterizer

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/reference"
)

// fake is a scripted peer; scripted is its script entry.
type (
	fake     = testpeer.Peer
	scripted = testpeer.Scripted
)

func newFake(name string, e sim.Engine, bufCap int) *fake { return testpeer.NewPeer(name, e, bufCap) }

// primOf sets up one triangle of draw d given by screen vertices (x, y, z).
func primOf(t testing.TB, d *protocol.Draw, tri [3][3]float32) *pipeline.Primitive {
	t.Helper()
	var v [3]pipeline.VertexOut
	for k, p := range tri {
		v[k][0] = testpeer.ClipPos(d, p[0], p[1], p[2])
	}
	var st pipeline.GeometryStats
	prims := pipeline.NewGeometry(d.State, &d.Raster).Triangle(0, [3]*pipeline.VertexOut{&v[0], &v[1], &v[2]}, nil, &st)
	if len(prims) != 1 {
		t.Fatalf("triangle %v gave %d primitives (%+v)", tri, len(prims), st)
	}
	return &prims[0]
}

// rig is a rasterizer fed by a fake primitive assembly, sending to fake depth
// units, on one direct connection.
type rig struct {
	e      sim.Engine
	r      *Comp
	pa     *fake
	depths []*fake
}

func newRig(t testing.TB, e sim.Engine, b Builder, name string, partitions int) *rig {
	t.Helper()
	g := &rig{e: e}
	g.r = testpeer.BuildOn(b, e, name, func(c *Config) { c.NumPartitions = partitions })
	g.pa = newFake("PA", e, 4)
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(g.r.FromPrimitiveAssembly, 4)
	conn.PlugIn(g.r.ToDepthUnits, 4)
	conn.PlugIn(g.pa.Port, 4)
	g.depths, g.r.DepthUnits = testpeer.NewPeers("Depth", partitions, e, 1024, conn, 4)
	return g
}

func (g *rig) run(t testing.TB) {
	t.Helper()
	testpeer.Run(t, g.e, g.pa)
	g.r.Finish(g.e.CurrentTime())
	for _, b := range g.r.Buffers() {
		if b.Len != 0 {
			t.Errorf("%s holds %d entries after the run", b.Name, b.Len)
		}
	}
}

// checkSums fails t unless the coarse tiles (partial and inside), inside
// tiles, quads and covered samples counted by rasts add up to the reference
// renderer's rc.
func checkSums(t testing.TB, rasts []*Comp, rc reference.Counters) {
	t.Helper()
	var sum Counters
	for _, c := range rasts {
		k := c.Counters()
		sum.TilesPartial += k.TilesPartial
		sum.TilesInside += k.TilesInside
		sum.Quads += k.Quads
		sum.CoveredSamples += k.CoveredSamples
	}
	if sum.TilesPartial+sum.TilesInside != uint64(rc.Tiles) || sum.TilesInside != uint64(rc.TilesInside) ||
		sum.Quads != uint64(rc.Quads) || sum.CoveredSamples != uint64(rc.CoveredSamples) {
		t.Errorf("rasterizers %+v; reference tiles %d inside %d quads %d samples %d",
			sum, rc.Tiles, rc.TilesInside, rc.Quads, rc.CoveredSamples)
	}
}
