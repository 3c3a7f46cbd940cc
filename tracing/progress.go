package tracing

import (
	"fmt"
	"io"
	"time"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/timing"
)

// Progress reports how far a run is: draws completed of the frame's draws and the
// simulated cycles. It samples every 10,000 core cycles and prints at most every
// Every of wall time (to a terminal), and keeps a monitor's entry of the run up
// to date when one is given.
type Progress struct {
	*timing.TickingComponent
	// Label, when set, starts every printed line (the run's name in a sweep).
	Label string
	// Bar, when not nil, shows the frame's progress: one part per draw and
	// a last for the resolve and present, redrawn when a draw finishes and
	// at most every second otherwise (render on a terminal).
	Bar *progress.Bar
	// Work, when set, holds each draw's estimated work in draw order
	// (driver.DrawEstimate.Work: screen area and primitives): the time left
	// in the draws is estimated by the share of it done, not by the count of
	// draws, which differ in size by orders of magnitude. The resolve and
	// present are not estimated.
	Work    []float64
	lastBar time.Time
	barDone int
	// lastDone draws were done at doneAt (the time left is estimated from
	// then, progress.ETAShare).
	lastDone int
	doneAt   time.Time
	p        *configs.Platform
	waker    *timing.Waker
	w        io.Writer
	every    time.Duration
	total    int
	start    time.Time
	last     time.Time
	run      *MonitorRun
	done     bool
	period   int
}

// NewProgress reports the progress of p's frame of totalDraws draws to w (nil: no
// terminal output) every `every` of wall time, and to run (nil: none).
func NewProgress(p *configs.Platform, totalDraws int, w io.Writer, every time.Duration, run *MonitorRun) *Progress {
	g := &Progress{p: p, w: w, every: every, total: totalDraws, run: run, period: 10000}
	g.TickingComponent = timing.NewSamplerComponent("GPU.Progress", p.Engine, p.CoreFreq, g)
	g.waker = timing.NewWaker(p.Engine, p.CoreFreq, g)
	g.start = time.Now()
	g.last, g.doneAt = g.start, g.start
	g.waker.WakeIn(0, g.period)
	return g
}

// DrawsDone returns the draws every partition has finished.
func DrawsDone(p *configs.Platform) int {
	st := map[string]float64{}
	p.CommandProcessor.Stats(func(n string, v float64) { st[n] = v })
	return int(st[p.CommandProcessor.Name()+".draws"]) - p.CommandProcessor.DrawsInFlight()
}

// Tick samples the progress.
func (g *Progress) Tick(now sim.VTimeInSec) bool {
	if g.done {
		return false
	}
	done := DrawsDone(g.p)
	if done != g.lastDone {
		g.lastDone, g.doneAt = done, time.Now()
	}
	finished := g.p.FrameFinished() || g.p.Halt.Stopped()
	if g.run != nil {
		g.run.update(done, g.Freq.Cycle(now), finished)
	}
	g.drawBar(done, finished)
	if g.w != nil && time.Since(g.last) >= g.every {
		g.last = time.Now()
		el := time.Since(g.start)
		eta := g.eta(done, g.doneAt.Sub(g.start), el)
		if done >= g.total && !finished {
			eta = ", " + g.remains()
		}
		fmt.Fprintf(g.w, "  %s%d of %d draws done, cycle %d, %s%s\n", g.prefix(), done, g.total, g.Freq.Cycle(now), progress.Duration(el), eta)
	}
	if finished {
		g.done = true
		return false
	}
	g.waker.WakeIn(now, g.period)
	return false
}

// drawBar sets the bar to done draws, total+1 parts when finished.
func (g *Progress) drawBar(done int, finished bool) {
	if g.Bar == nil {
		return
	}
	label := "draws" // (short: the line stays within 80 columns)
	switch {
	case finished:
		done, label = g.total+1, "frame done"
	case done >= g.total:
		label = g.remains()
	}
	if done != g.barDone || time.Since(g.lastBar) >= time.Second {
		g.barDone, g.lastBar = done, time.Now()
		g.Bar.Set(done, label)
	}
}

// eta estimates the time left in the draws when done of them were done took
// after the start, el before now.
func (g *Progress) eta(done int, took, el time.Duration) string {
	if g.Work == nil {
		if eta := progress.ETA(done, g.total, took, el-took); eta != "" {
			return eta + " at this rate of draws" // draws differ in size: a rough guide
		}
		return ""
	}
	if eta := progress.ETAShare(progress.Share(done, g.total, g.Work), took, el-took); eta != "" {
		return eta + " in the draws (by their screen area), then the resolve"
	}
	return ""
}

// remains says what of the frame remains once every draw is through: the
// resolve, flushes and present, or on SAGE after them the video scan-out.
func (g *Progress) remains() string {
	if g.p.CommandProcessor.Finished() {
		return fmt.Sprintf("scanning out the video frame, %.0f%% of its pixels", 100*g.p.VideoShare())
	}
	return "resolving and presenting the frame"
}

func (g *Progress) prefix() string {
	if g.Label == "" {
		return ""
	}
	return g.Label + ": "
}
