package depthunit_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
)

// bench is a depth unit wired to fake peers on one direct connection.
type bench struct {
	*backendtest.Rig
	du                    *depthunit.Comp
	rast, packer, rop, cp *backendtest.Peer
}

func newBench(t *testing.T, cfg depthunit.Config, spec backendtest.TargetSpec, memLatency int) *bench {
	t.Helper()
	r := backendtest.NewRig(t, spec, memLatency)
	bn := &bench{Rig: r}
	bn.du = depthunit.MakeBuilder().WithEnv(r.Env()).WithConfig(cfg).Build("GPU.DepthUnit[0]")
	bn.rast, bn.packer, bn.rop, bn.cp = r.Peer("Rasterizer"), r.Peer("QuadPacker"), r.Peer("ROP"), r.Peer("CommandProcessor")
	r.Plug(bn.du.FromRasterizers, bn.du.ToQuadPacker, bn.du.ROP, bn.du.ToMemory, bn.du.Control,
		bn.rast.Port, bn.packer.Port, bn.rop.Port, bn.cp.Port, r.Mem.Top)
	bn.du.QuadPacker = bn.packer.Port
	bn.du.ROPPort = bn.rop.Port
	bn.du.CommandProcessor = bn.cp.Port
	bn.du.Memory = r.Mem
	bn.du.Image = r.TG.Image
	return bn
}

// clearDepth sends a clear of the whole depth-stencil target from the
// command processor at cycle and returns it.
func (b *bench) clearDepth(cycle uint64) *protocol.ClearCmd {
	clear := protocol.NewClearCmd(command.ClearDepth|command.ClearStencil, b.TG.DepthDesc, b.TG.Depth.SizeBytes())
	b.cp.SendAt(cycle, b.du.Control, clear)
	return clear
}

func (b *bench) run() {
	b.T.Helper()
	b.Run(b.du)
}

func (b *bench) stats() map[string]float64 {
	m := map[string]float64{}
	b.du.Stats(func(n string, v float64) { m[n] = v })
	return m
}

// stat returns a counter of the unit by its short name.
func (b *bench) stat(name string) float64 {
	b.T.Helper()
	return b.Stat(b.du, name)
}

// sendTiles schedules tiles from the rasterizer at cycle, then a DrawEnd.
func (b *bench) sendDraw(cycle uint64, d *protocol.Draw, tiles []*protocol.TileQuads) {
	for _, tq := range tiles {
		b.rast.SendAt(cycle, b.du.FromRasterizers, tq)
	}
	b.rast.SendAt(cycle, b.du.FromRasterizers, protocol.NewDrawEnd(d, 0))
}

// received returns the messages a peer took, with their cycles.
func packerMsgs(p *backendtest.Peer) (tiles []*protocol.TileQuads, ends []*protocol.DrawEnd, order []string) {
	for _, r := range p.Received {
		switch m := r.Msg.(type) {
		case *protocol.TileQuads:
			tiles = append(tiles, m)
			order = append(order, "tile")
		case *protocol.DrawEnd:
			ends = append(ends, m)
			order = append(order, "end")
		}
	}
	return
}

// expectedEarly runs pipeline.EarlyDepth on a copy of the targets in the given
// order and returns the survivors of every tile (nil for dropped tiles).
func expectedEarly(tg *backendtest.Targets, draws []*protocol.Draw, tiles [][]*protocol.TileQuads) ([][]protocol.QuadLive, *backendtest.Targets, pipeline.DepthStats) {
	ref := tg.Clone()
	var out [][]protocol.QuadLive
	var st pipeline.DepthStats
	for i, d := range draws {
		sd := *d.State
		sd.DepthBuf = ref.Depth
		for _, tq := range tiles[i] {
			var surv []protocol.QuadLive
			for _, q := range tq.Quads {
				if live := pipeline.EarlyDepth(&sd, &d.Raster, tq.Prim, q.Quad, &st); !live.Empty() {
					surv = append(surv, protocol.QuadLive{Quad: q.Quad, Live: live})
				}
			}
			out = append(out, surv)
		}
	}
	return out, ref, st
}
