package tilescheduler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/internal/enum"
	"github.com/gfxsim/gfxsim/timing"
)

// Order is the order in which a pass's tiles are handed out.
type Order int

// The tile orders.
const (
	RowMajor Order = iota
	ZOrder
)

var orderNames = enum.Names[Order]{Type: "Order", What: "order", Names: []string{"rowmajor", "zorder"}, OneOf: true, CaseOnly: true}

func (o Order) String() string { return orderNames.String(o) }

// ParseOrder returns the order named s (rowmajor, zorder).
func ParseOrder(s string) (Order, error) { return orderNames.Parse(s) }

// Config is the tile scheduler's configuration.
type Config struct {
	TileUnits   int   // back-end tile units
	JobsPerUnit int   // tiles a unit holds at once (1: the next tile is handed out when one finishes)
	Order       Order // the order of the tiles
}

// Validate names the first bad field.
func (c Config) Validate() error {
	return check.For("tile scheduler").
		That(c.TileUnits >= 1, "TileUnits %d: the tiled machine needs at least one tile unit", c.TileUnits).
		AtLeast("JobsPerUnit", c.JobsPerUnit, 1).
		That(orderNames.Valid(c.Order), "Order %d is not one of rowmajor, zorder", c.Order).
		Err()
}

const (
	stateBusy = iota
	stateWaitUnits
	stateBlockedSend
	stateIdle
	numStates
)

var stateNames = [numStates]string{"busy", "wait_tile_units", "blocked_send", "idle"}

// Scheduler is the tiled machine's tile scheduler: see the package
// documentation.
type Scheduler struct {
	timing.Unit[Config]

	// FromBinner receives protocol.BinnedPass and sends the binner Done.
	FromBinner sim.Port
	// ToTileUnits sends protocol.TileJob and receives the units' Done.
	ToTileUnits sim.Port

	// Peers, set by the platform builder.
	Binner    sim.Port
	TileUnits []sim.Port

	pass   *protocol.BinnedPass
	tiles  []int          // the pass's tiles to render, in order
	next   int            // the next tile to hand out
	held   []int          // per unit, tiles handed out and not done
	jobs   map[string]int // job ID -> unit
	done   int            // tiles done
	answer *protocol.Done // the Done for the binner, waiting to be sent
	rr     int            // the unit to try first

	// Statistics.
	st      counters
	perUnit []uint64
}

// counters are the scheduler's statistics, named by their tags (Stats).
type counters struct {
	passes       uint64 `stat:"passes"`
	tilesDone    uint64 `stat:"tiles"`
	tilesSkipped uint64 `stat:"tiles_skipped"`
}

// Tick takes the units' reports, hands out tiles, answers the binner, and
// takes the next pass.
func (c *Scheduler) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cy := c.Freq.Cycle(now)
	progress := c.receive(now)
	blocked := false
	if c.pass != nil {
		var p bool
		p, blocked = c.handOut(now)
		progress = p || progress
		if c.done == len(c.tiles) && c.answer == nil {
			c.answer = protocol.NewDone(c.pass.ID, 0)
			c.pass = nil
			c.st.passes++
			progress = true
		}
	}
	if c.answer != nil {
		a := c.answer
		a.Src, a.Dst, a.SendTime = c.FromBinner, c.Binner, now
		if c.FromBinner.Send(a) == nil {
			c.answer = nil
			progress = true
		}
	}
	if c.pass == nil && c.answer == nil {
		progress = c.take(now) || progress
	}
	state := stateIdle
	switch {
	case progress:
		state = stateBusy
	case blocked:
		state = stateBlockedSend
	case c.pass != nil:
		state = stateWaitUnits
	}
	c.Activity.Set(cy, state)
	return progress
}

// take starts the next pass: its tiles are every tile when the pass
// presents or stores cleared targets, else the tiles with primitives.
func (c *Scheduler) take(now sim.VTimeInSec) bool {
	p, ok := timing.TakeAs[*protocol.BinnedPass](&c.Fault, c.FromBinner, now)
	if !ok {
		return false
	}
	c.pass = p
	c.tiles = c.tiles[:0]
	nx, ny := p.Grid.Tiles()
	for _, k := range c.order(nx, ny) {
		if p.Present || p.StoreAll || len(p.Bins[k].Entries) > 0 {
			c.tiles = append(c.tiles, k)
		} else {
			c.st.tilesSkipped++
		}
	}
	c.next, c.done = 0, 0
	return true
}

// order returns the tiles of an nx x ny grid in the configured order.
func (c *Scheduler) order(nx, ny int) []int {
	out := make([]int, 0, nx*ny)
	if c.Cfg.Order == RowMajor {
		for k := 0; k < nx*ny; k++ {
			out = append(out, k)
		}
		return out
	}
	size := 1
	for size < nx || size < ny {
		size <<= 1
	}
	for m := 0; m < size*size; m++ {
		x, y := deinterleave(m)
		if x < nx && y < ny {
			out = append(out, y*nx+x)
		}
	}
	return out
}

// deinterleave splits Morton code m into x (even bits) and y (odd bits).
func deinterleave(m int) (x, y int) {
	for b := 0; m>>(2*b) != 0; b++ {
		x |= (m >> (2 * b) & 1) << b
		y |= (m >> (2*b + 1) & 1) << b
	}
	return x, y
}

// handOut gives the next tiles to the units with room, starting after the
// last unit served.
func (c *Scheduler) handOut(now sim.VTimeInSec) (progress, blocked bool) {
	for c.next < len(c.tiles) {
		u := -1
		for k := 0; k < c.Cfg.TileUnits; k++ {
			v := (c.rr + k) % c.Cfg.TileUnits
			if c.held[v] < c.Cfg.JobsPerUnit {
				u = v
				break
			}
		}
		if u < 0 {
			return progress, false
		}
		job := protocol.NewTileJob(c.pass, c.tiles[c.next])
		job.Src, job.Dst, job.SendTime = c.ToTileUnits, c.TileUnits[u], now
		if c.ToTileUnits.Send(job) != nil {
			return progress, true
		}
		c.jobs[job.ID] = u
		c.held[u]++
		c.perUnit[u]++
		c.next++
		c.rr = (u + 1) % c.Cfg.TileUnits
		progress = true
	}
	return progress, false
}

// receive takes the units' Done for their tiles.
func (c *Scheduler) receive(now sim.VTimeInSec) bool {
	progress := false
	for {
		d, ok := timing.TakeAs[*protocol.Done](&c.Fault, c.ToTileUnits, now)
		if !ok {
			return progress
		}
		u, known := c.jobs[d.RspTo]
		if !known {
			c.Fault.Fail(fmt.Errorf("Done from tile unit %d for job %s, which is not a tile job in progress", d.From, d.RspTo))
			return progress
		}
		delete(c.jobs, d.RspTo)
		c.held[u]--
		c.done++
		c.st.tilesDone++
		c.Env.Progress.Add(1)
		progress = true
	}
}
