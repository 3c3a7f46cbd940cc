package primitiveassembly

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// fake is a scripted peer; scripted is its script entry.
type (
	fake     = testpeer.Peer
	scripted = testpeer.Scripted
)

func newFake(name string, e sim.Engine, bufCap int) *fake { return testpeer.NewPeer(name, e, bufCap) }

// rig is primitive assembly with a fake shader core, a fake input assembler and
// fake rasterizers on direct connections.
type rig struct {
	e     *sim.SerialEngine
	pa    *Comp
	core  *fake
	ia    *fake
	rasts []*fake
}

func newRig(t *testing.T, b Builder, rasterizers int) *rig {
	t.Helper()
	e := sim.NewSerialEngine()
	r := &rig{e: e}
	r.pa = testpeer.BuildOn(b, e, "GPU.PrimitiveAssembly", func(c *Config) { c.NumRasterizers = rasterizers })
	r.core = newFake("Core", e, 4)
	r.ia = newFake("IA", e, 64)
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(r.pa.FromShaderCores, 4)
	conn.PlugIn(r.pa.InputAssembler, 4)
	conn.PlugIn(r.pa.ToRasterizers, 4)
	conn.PlugIn(r.core.Port, 4)
	conn.PlugIn(r.ia.Port, 4)
	r.pa.InputAssemblerPort = r.ia.Port
	r.rasts, r.pa.Rasterizers = testpeer.NewPeers("Rast", rasterizers, e, 1024, conn, 4)
	return r
}

// newHeldRig is a rig of one rasterizer that holds its input (it takes one
// message and never drains), an output queue of outputQueue messages, and
// ports of one message on the connection.
func newHeldRig(outputQueue int) *rig {
	e := sim.NewSerialEngine()
	r := &rig{e: e}
	r.pa = MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) {
		c.NumRasterizers, c.OutputQueue = 1, outputQueue
	})).Build("GPU.PrimitiveAssembly")
	r.core, r.ia = newFake("Core", e, 4), newFake("IA", e, 4)
	rast := newFake("Rast", e, 1)
	rast.Hold = true
	r.rasts = []*fake{rast}
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	for _, p := range []sim.Port{r.pa.FromShaderCores, r.pa.InputAssembler, r.pa.ToRasterizers, r.core.Port, r.ia.Port, rast.Port} {
		conn.PlugIn(p, 1)
	}
	r.pa.InputAssemblerPort, r.pa.Rasterizers = r.ia.Port, []sim.Port{rast.Port}
	return r
}

func (r *rig) run(t *testing.T) {
	t.Helper()
	testpeer.Run(t, r.e, r.core, r.ia)
	r.pa.Finish(r.e.CurrentTime())
}

// checkDrained fails when primitive assembly still holds work.
func (r *rig) checkDrained(t *testing.T) {
	t.Helper()
	for _, b := range r.pa.Buffers() {
		if b.Len != 0 {
			t.Errorf("buffer %s holds %d entries after the run", b.Name, b.Len)
		}
	}
	if len(r.pa.draws) != 0 {
		t.Errorf("%d draws left", len(r.pa.draws))
	}
}

// batchOf builds a shaded batch of independent triangles given by their screen
// vertices (x, y, z each), the first being API triangle first.
func batchOf(d *protocol.Draw, seq uint64, first int, tris ...[3][3]float32) *protocol.ShadedBatch {
	b := &vertex.Batch{FirstTriangle: first}
	var out []pipeline.VertexOut
	for _, tri := range tris {
		var loc [3]uint8
		for k, v := range tri {
			loc[k] = uint8(len(out))
			var o pipeline.VertexOut
			o[0] = testpeer.ClipPos(d, v[0], v[1], v[2])
			o[1] = geom.Vec4{v[0], v[1], v[2], 1}
			out = append(out, o)
			b.Vertices = append(b.Vertices, uint32(len(b.Vertices)))
		}
		b.Triangles = append(b.Triangles, loc)
	}
	return protocol.NewShadedBatch(d, seq, b, out)
}
