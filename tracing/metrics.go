package tracing

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gfxsim/gfxsim/internal/outputs"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/plot"
	"github.com/gfxsim/gfxsim/timing"
)

// Metrics samples a platform every Interval core cycles.
type Metrics struct {
	*timing.TickingComponent
	p        *configs.Platform
	interval uint64
	waker    *timing.Waker
	traffic  map[string]*portTraffic // per unit
	units    []string                // unit names, in platform order
	channels []string

	last    map[string]float64 // previous cumulative readings
	lastCyc uint64             // the cycle of the latest sample
	prevCyc uint64             // the cycle of the one before it
	rows    []sample
	done    bool
}

type sample struct {
	cycle  uint64
	name   string
	metric string
	value  float64
}

// portTraffic counts the messages and bytes through one unit's ports.
type portTraffic struct {
	inMsgs, inBytes, outMsgs, outBytes atomic.Uint64
}

type trafficHook struct{ t *portTraffic }

func (h trafficHook) Func(ctx sim.HookCtx) {
	m, ok := ctx.Item.(sim.Msg)
	if !ok {
		return
	}
	b := uint64(m.Meta().TrafficBytes)
	switch ctx.Pos {
	case sim.HookPosPortMsgSend:
		h.t.outMsgs.Add(1)
		h.t.outBytes.Add(b)
	case sim.HookPosPortMsgRecvd:
		h.t.inMsgs.Add(1)
		h.t.inBytes.Add(b)
	}
}

// NewMetrics prepares the sampler; call it after configs.Build and before Run.
// interval is in core cycles (at least 100).
func NewMetrics(p *configs.Platform, interval uint64) (*Metrics, error) {
	if err := checkInterval(interval); err != nil {
		return nil, fmt.Errorf("metrics: %v", err)
	}
	m := &Metrics{p: p, interval: interval, traffic: map[string]*portTraffic{}, last: map[string]float64{}}
	m.TickingComponent = timing.NewSamplerComponent("GPU.Metrics", p.Engine, p.CoreFreq, m)
	m.waker = timing.NewWaker(p.Engine, p.CoreFreq, m)
	for _, u := range p.Units {
		m.watch(u)
	}
	// The SAGE machine builds its video path (route and convolve chips, video
	// output) at Run.
	p.OnUnitsBuilt(func(units []protocol.Unit) {
		for _, u := range units {
			m.watch(u)
		}
	})
	for _, c := range p.Memory.Channels {
		m.channels = append(m.channels, c.Name())
	}
	m.waker.WakeIn(0, int(interval))
	return m, nil
}

// MinMetricsInterval and MaxMetricsInterval bound the sampling interval in
// core cycles: a sample costs a row of every unit's counters, and the waker
// takes an int (2^64-1 cycles had wrapped to -1: a sample every cycle).
// 2^40 cycles are some 18 minutes of simulated time at 1 GHz, longer than
// any frame.
const (
	MinMetricsInterval = 100
	MaxMetricsInterval = 1 << 40
)

// checkInterval refuses a sampling interval outside [MinMetricsInterval,
// MaxMetricsInterval].
func checkInterval(interval uint64) error {
	switch {
	case interval < MinMetricsInterval:
		return fmt.Errorf("interval %d cycles is below %d", interval, MinMetricsInterval)
	case interval > MaxMetricsInterval:
		return fmt.Errorf("interval %d cycles is above %d (2^40)", interval, uint64(MaxMetricsInterval))
	}
	return nil
}

// watch counts the messages and bytes through unit u's ports.
func (m *Metrics) watch(u protocol.Unit) {
	t := &portTraffic{}
	m.traffic[u.Name()] = t
	m.units = append(m.units, u.Name())
	for _, port := range u.Ports() {
		port.AcceptHook(trafficHook{t})
	}
}

// Tick takes a sample while the frame runs, up to the frame's end
// (Platform.FrameEnd: on SAGE the video scan-out's). Once the frame is
// finished (or the run halted) it takes none and stops: Finish takes the
// last sample, which covers the partial interval up to the frame's end.
func (m *Metrics) Tick(now sim.VTimeInSec) bool {
	if m.done {
		return false
	}
	if m.p.Halt.Stopped() {
		m.done = true
		return false
	}
	// The frame is finished at its end: on SAGE the video output knows its
	// last line's time before the chips reach it, and the samples go on
	// until then.
	if end, ok := m.p.FrameEnd(); ok && m.p.FrameFinished() && m.Freq.Cycle(now) >= m.Freq.Cycle(end) {
		m.done = true
		return false
	}
	m.sample(now)
	m.waker.WakeIn(now, int(m.interval))
	return false
}

// Finish takes the last sample, after Platform.Run (which finishes the units'
// statistics at the frame's end). It is dated at the frame's end
// (Platform.FrameEnd) and covers the cycles since the previous sample; now,
// the engine's time at the end of the run, dates it when the frame did not
// finish. When a sample was already taken at that cycle (an interval that
// divides the frame's length), what happened since is added to it.
func (m *Metrics) Finish(now sim.VTimeInSec) {
	if end, ok := m.p.FrameEnd(); ok {
		now = end
	}
	m.sample(now)
	m.done = true
}

func (m *Metrics) delta(key string, v float64) float64 {
	d := v - m.last[key]
	m.last[key] = v
	return d
}

// sample appends a row per unit, link and channel metric at cycle c, covering
// the cycles since the previous sample; at the cycle of the previous sample
// (Finish at a frame's end that a Tick sampled) it adds to that sample's rows
// instead (occupancy: the latest reading).
func (m *Metrics) sample(now sim.VTimeInSec) {
	c := m.Freq.Cycle(now)
	from := m.lastCyc
	amend := c == m.lastCyc && len(m.rows) > 0
	if amend {
		from = m.prevCyc
	}
	if c <= from {
		return
	}
	span := float64(c - from)
	start := len(m.rows)
	st := map[string]float64{}
	add := func(n string, v float64) { st[n] = v }
	for _, u := range m.p.Units {
		u.Stats(add)
	}
	for _, l := range m.p.Links {
		l.Stats(add)
	}
	m.p.Memory.Stats(add)
	for _, u := range m.p.Units {
		n := u.Name()
		if b, ok := u.(busyAt); ok {
			// The unit's busy share of its own cycles, those it slept
			// through counted (Activity.At): not over 1, and right on a
			// clock other than the core's (SAGE's chips).
			if busy, total, ok := b.BusyAt(now); ok {
				db, dt := m.delta(n+".busy", float64(busy)), m.delta(n+".own_cycles", float64(total))
				if dt > 0 || !amend {
					m.rows = append(m.rows, sample{c, n, "busy", share(db, dt)})
				}
			}
		} else {
			m.rows = append(m.rows, sample{c, n, "busy", m.delta(n+".busy", st[n+".cycles_busy"]) / span})
		}
		m.rows = append(m.rows, sample{c, n, "buffer_occupancy", occupancy(u.Buffers())})
		t := m.traffic[n]
		m.rows = append(m.rows,
			sample{c, n, "messages_in", m.delta(n+".min", float64(t.inMsgs.Load()))},
			sample{c, n, "bytes_in", m.delta(n+".bin", float64(t.inBytes.Load()))},
			sample{c, n, "messages_out", m.delta(n+".mout", float64(t.outMsgs.Load()))},
			sample{c, n, "bytes_out", m.delta(n+".bout", float64(t.outBytes.Load()))})
	}
	for _, l := range m.p.Links { // the SAGE machine adds its video path's links at Run
		n := l.(sim.Named).Name()
		m.rows = append(m.rows, sample{c, n, "bytes", m.delta(n+".bytes", st[n+".bytes"])},
			sample{c, n, "messages", m.delta(n+".messages", st[n+".messages"])})
	}
	for _, n := range m.channels {
		m.rows = append(m.rows, sample{c, n, "bytes_read", m.delta(n+".bytes_read", st[n+".bytes_read"])},
			sample{c, n, "bytes_written", m.delta(n+".bytes_written", st[n+".bytes_written"])})
	}
	if !amend {
		m.prevCyc, m.lastCyc = m.lastCyc, c
		return
	}
	// Fold the new rows into the sample already taken at c (once, at the end
	// of a run).
	at := map[[2]string]int{}
	for i := start - 1; i >= 0 && m.rows[i].cycle == c; i-- {
		at[[2]string{m.rows[i].name, m.rows[i].metric}] = i
	}
	kept := start
	for _, r := range m.rows[start:] {
		i, ok := at[[2]string{r.name, r.metric}]
		switch {
		case !ok: // a unit the earlier sample did not have
			m.rows[kept] = r
			kept++
		case r.metric == "buffer_occupancy":
			m.rows[i].value = r.value
		default:
			m.rows[i].value += r.value
		}
	}
	m.rows = m.rows[:kept]
}

// busyAt is a unit whose busy cycles can be read at any time
// (timing.Unit.BusyAt).
type busyAt interface {
	BusyAt(now sim.VTimeInSec) (busy, total uint64, ok bool)
}

// share is part over whole, 0 when whole is.
func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// occupancy is the share of a unit's bounded buffers that holds entries:
// the entries held, each buffer's counted up to its capacity, over the
// capacities. An unbounded buffer (Cap 0) has no share to fill and is left
// out; a buffer holding more than its Cap (a soft limit that a flush
// exceeds: the render-target caches' and the HiZ unit's write queues) counts
// as full. It is 0 for a unit with no bounded buffer, and at most 1.
func occupancy(bs []timing.BufferState) float64 {
	used, capacity := 0, 0
	for _, b := range bs {
		if b.Cap <= 0 {
			continue
		}
		used += min(b.Len, b.Cap)
		capacity += b.Cap
	}
	if capacity == 0 {
		return 0
	}
	return float64(used) / float64(capacity)
}

// Samples returns the number of sampling points taken.
func (m *Metrics) Samples() int {
	n := 0
	var last uint64
	for _, r := range m.rows {
		if r.cycle != last {
			n++
			last = r.cycle
		}
	}
	return n
}

// Write saves metrics.csv and the figures utilization.png and bandwidth.png in dir.
func (m *Metrics) Write(dir string) error {
	rows := make([][]string, 0, len(m.rows))
	for _, r := range m.rows {
		rows = append(rows, []string{strconv.FormatUint(r.cycle, 10), r.name, r.metric, strconv.FormatFloat(r.value, 'g', 8, 64)})
	}
	if err := outputs.WriteCSV(filepath.Join(dir, "metrics.csv"), []string{"cycle", "name", "metric", "value"}, rows); err != nil {
		return err
	}
	if len(m.rows) == 0 {
		return nil
	}
	if err := m.utilizationFigure().Save(filepath.Join(dir, "utilization.png")); err != nil {
		return err
	}
	return m.bandwidthFigure().Save(filepath.Join(dir, "bandwidth.png"))
}

// group is the kind of a unit: its name without the index ("GPU.ShaderCore").
func group(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		return name[:i]
	}
	return name
}

// series averages metric over the units of each group, per sampling point.
func (m *Metrics) series(metric string, names []string, scale func(v, span float64) float64, sum bool) []plot.Series {
	type acc struct {
		x, y []float64
		n    []int
	}
	groups := map[string]*acc{}
	var order []string
	var cycles []uint64
	for _, r := range m.rows {
		if len(cycles) == 0 || cycles[len(cycles)-1] != r.cycle {
			cycles = append(cycles, r.cycle)
		}
	}
	idx := map[uint64]int{}
	for i, c := range cycles {
		idx[c] = i
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, r := range m.rows {
		if r.metric != metric || !want[r.name] {
			continue
		}
		g := group(r.name)
		a, ok := groups[g]
		if !ok {
			a = &acc{x: make([]float64, len(cycles)), y: make([]float64, len(cycles)), n: make([]int, len(cycles))}
			groups[g] = a
			order = append(order, g)
		}
		i := idx[r.cycle]
		span := float64(r.cycle)
		if i > 0 {
			span = float64(r.cycle - cycles[i-1])
		}
		a.x[i] = float64(r.cycle) / 1000
		a.y[i] += scale(r.value, span)
		a.n[i]++
	}
	sort.Strings(order)
	var out []plot.Series
	for _, g := range order {
		a := groups[g]
		s := plot.Series{Name: strings.TrimPrefix(g, "GPU.")}
		for i := range a.x {
			if a.n[i] == 0 {
				continue
			}
			y := a.y[i]
			if !sum {
				y /= float64(a.n[i])
			}
			s.X = append(s.X, a.x[i])
			s.Y = append(s.Y, y)
		}
		out = append(out, s)
	}
	return out
}

func (m *Metrics) utilizationFigure() *plot.Figure {
	return &plot.Figure{Title: "Utilization over the frame (average over the units of each kind)",
		XLabel: "time (thousands of core cycles)", YLabel: "busy share of cycles (%)", YMin: 0, YMax: 100,
		Series: m.series("busy", m.units, func(v, _ float64) float64 { return 100 * v }, false)}
}

func (m *Metrics) bandwidthFigure() *plot.Figure {
	ghz := m.p.CoreFreq / 1e9
	// bytes per interval -> GB/s at the core clock: bytes / cycles * cycles/s / 1e9.
	perSec := func(v, span float64) float64 { return v / span * float64(ghz) }
	s := m.series("bytes_read", m.channels, perSec, true)
	for i := range s {
		s[i].Name = "DRAM read"
	}
	w := m.series("bytes_written", m.channels, perSec, true)
	for i := range w {
		w[i].Name = "DRAM written"
	}
	return &plot.Figure{Title: "Memory bandwidth over the frame (all channels)",
		XLabel: "time (thousands of core cycles)", YLabel: "bandwidth (GB/s)", Series: append(s, w...)}
}
