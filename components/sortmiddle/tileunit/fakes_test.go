package tileunit

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// backEnd plays the back end a tile unit drives: the rasterizer (Rasterizer
// records the primitives and DrawEnds), the ROP, the depth unit and the
// reorder buffer (one control port each), and a client of the tile memory
// (TileMemory, which sends what the test schedules and records the answers).
// The ROP reports DrawDone DrawLatency cycles after the rasterizer took the
// DrawEnd, after Render (when set) wrote the draw's result into the memory
// image over the window of the draw's last primitive; each control port
// answers a FlushCmd with Done FlushLatency cycles after taking it. Everything
// it sent is in Sent, with its SendTime set when it left.
type backEnd struct {
	*sim.TickingComponent
	Rasterizer, ROP, DepthUnit, ReorderBuffer, TileMemory sim.Port
	Unit                                                  sim.Port // the tile unit's Control port

	DrawLatency, FlushLatency uint64
	Render                    func(d *protocol.Draw, window raster.Rect)

	Got   []testpeer.Taken
	Sent  []sim.Msg
	sched testpeer.Schedule

	window raster.Rect // of the last primitive
}

func newBackEnd(e sim.Engine, drawLatency, flushLatency uint64) *backEnd {
	b := &backEnd{DrawLatency: drawLatency, FlushLatency: flushLatency}
	b.TickingComponent = sim.NewTickingComponent("BackEnd", e, testpeer.Freq, b)
	b.Rasterizer = sim.NewLimitNumMsgPort(b, 16, "BackEnd.Rasterizer")
	b.ROP = sim.NewLimitNumMsgPort(b, 16, "BackEnd.ROP")
	b.DepthUnit = sim.NewLimitNumMsgPort(b, 16, "BackEnd.DepthUnit")
	b.ReorderBuffer = sim.NewLimitNumMsgPort(b, 16, "BackEnd.ReorderBuffer")
	b.TileMemory = sim.NewLimitNumMsgPort(b, 16, "BackEnd.TileMemory")
	return b
}

func (b *backEnd) ports() []sim.Port {
	return []sim.Port{b.Rasterizer, b.ROP, b.DepthUnit, b.ReorderBuffer, b.TileMemory}
}

// SendAt schedules msg (its Dst set) to leave src at cycle c.
func (b *backEnd) SendAt(c uint64, src sim.Port, msg sim.Msg) {
	msg.Meta().Src = src
	b.sched.Send(c, src, msg)
	b.Sent = append(b.Sent, msg)
}

func (b *backEnd) Tick(now sim.VTimeInSec) bool {
	return b.sched.Serve(now, b.ports(), &b.Got, b.take)
}

func (b *backEnd) take(cycle uint64, port sim.Port, msg sim.Msg) {
	switch m := msg.(type) {
	case *protocol.PrimitiveMsg:
		b.window = m.Window
	case *protocol.DrawEnd:
		if b.Render != nil {
			b.Render(m.Draw, b.window)
		}
		d := protocol.NewDrawDone(m.Draw, 0)
		d.Dst = b.Unit
		b.SendAt(cycle+b.DrawLatency, b.ROP, d)
	case *protocol.FlushCmd:
		d := protocol.NewDone(m.ID, 0)
		d.Dst = b.Unit
		b.SendAt(cycle+b.FlushLatency, port, d)
	}
}

// received returns what port took, in order.
func (b *backEnd) received(port sim.Port) []testpeer.Taken {
	return testpeer.ByPort(b.Got, port.Name())
}

// splitFinder sends the addresses from split on to high, the others to low.
type splitFinder struct {
	split     uint64
	low, high sim.Port
}

func (f splitFinder) Find(addr uint64) sim.Port {
	if addr >= f.split {
		return f.high
	}
	return f.low
}
