package tracing

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/timing"
)

// occupancy counts bounded buffers only, each up to its capacity.
func TestOccupancy(t *testing.T) {
	for _, tc := range []struct {
		name string
		bs   []timing.BufferState
		want float64
	}{
		{"no buffers", nil, 0},
		{"empty", []timing.BufferState{{Len: 0, Cap: 4}}, 0},
		{"bounded", []timing.BufferState{{Len: 1, Cap: 4}, {Len: 2, Cap: 4}}, 0.375},
		{"full", []timing.BufferState{{Len: 4, Cap: 4}, {Len: 4, Cap: 4}}, 1},
		{"unbounded only", []timing.BufferState{{Len: 300, Cap: 0}}, 0},
		{"unbounded left out", []timing.BufferState{{Len: 300, Cap: 0}, {Len: 1, Cap: 4}}, 0.25},
		{"soft limit exceeded counts as full", []timing.BufferState{{Len: 112, Cap: 16}, {Len: 0, Cap: 16}}, 0.5},
	} {
		if got := occupancy(tc.bs); got != tc.want {
			t.Errorf("%s: occupancy %v, want %v", tc.name, got, tc.want)
		}
	}
}

// metricsRun samples the built-in scene name at w x h with spp samples per
// pixel on cfg every interval cycles, and returns the sampler after Finish at
// the engine's time and the frame's result.
func metricsRun(t *testing.T, cfg *configs.Config, name string, w, h, spp int, interval uint64) (*Metrics, *configs.Result) {
	t.Helper()
	p, f := buildOn(t, cfg, name, w, h, spp)
	m, err := NewMetrics(p, interval)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(f)
	if err != nil {
		t.Fatal(err)
	}
	m.Finish(p.Engine.CurrentTime())
	return m, res
}

// Every sample's buffer occupancy is a share, at most 1, on the machines
// whose units hold unbounded buffers (the tile units' tile lists, the SAGE
// distributor's chunks outstanding) and soft-limited write queues that a
// flush fills past their limit (the caches of the ROPs, depth and HiZ units).
func TestMetricsOccupancyAtMostOne(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, scene string
	}{
		{"sortlast", "", "room"},
		{"sortmiddle", "machine: sortmiddle\n", "room"},
		{"sage", "machine: sage\n", "triangle"},
	} {
		cfg := configs.Default()
		if tc.yaml != "" {
			var err error
			if cfg, err = configs.Parse(tc.name+".yaml", []byte(tc.yaml)); err != nil {
				t.Fatal(err)
			}
		}
		m, _ := metricsRun(t, cfg, tc.scene, 64, 36, 4, 500)
		n := 0
		for _, r := range m.rows {
			if r.metric != "buffer_occupancy" {
				continue
			}
			n++
			if r.value < 0 || r.value > 1 {
				t.Errorf("%s: cycle %d: %s buffer_occupancy %v, want a share in [0, 1]", tc.name, r.cycle, r.name, r.value)
			}
		}
		if n == 0 {
			t.Errorf("%s: no buffer_occupancy sampled", tc.name)
		}
	}
}

// The last sample is dated at the frame's end and covers the partial interval
// since the previous one: the busy cycles and link bytes of the samples add up
// to the frame's counters, whether the interval is shorter than the frame,
// longer, or divides it (a sample due at the frame's last cycle).
func TestMetricsLastSampleAtFrameEnd(t *testing.T) {
	_, ref := metricsRun(t, configs.Default(), "triangle", 64, 36, 4, 100)
	frame := ref.Cycles
	for _, interval := range []uint64{100, 1000, frame / 2, frame, frame + 1, 100000} {
		m, res := metricsRun(t, configs.Default(), "triangle", 64, 36, 4, interval)
		if res.Cycles != frame {
			t.Fatalf("interval %d: frame of %d cycles, want %d", interval, res.Cycles, frame)
		}
		wantSamples := int((frame + interval - 1) / interval)
		if got := m.Samples(); got != wantSamples {
			t.Errorf("interval %d: %d samples, want %d", interval, got, wantSamples)
		}
		if last := m.rows[len(m.rows)-1].cycle; last != frame {
			t.Errorf("interval %d: last sample at cycle %d, want the frame's end %d", interval, last, frame)
		}
		busy := map[string]float64{}
		bytes := map[string]float64{}
		var from, cur uint64 // the previous sample's cycle and this row's
		for _, r := range m.rows {
			if r.cycle != cur {
				from, cur = cur, r.cycle
			}
			span := float64(cur - from)
			switch r.metric {
			case "busy":
				if r.value < 0 || r.value > 1 {
					t.Errorf("interval %d: cycle %d: %s busy %v, want a share in [0, 1]", interval, r.cycle, r.name, r.value)
				}
				busy[r.name] += r.value * span
			case "bytes":
				bytes[r.name] += r.value
			}
		}
		for _, n := range m.units {
			if got, want := math.Round(busy[n]), res.Stats[n+".cycles_busy"]; got != want {
				t.Errorf("interval %d: %s busy %v cycles over the samples, want the frame's %v", interval, n, got, want)
			}
		}
		for n, got := range bytes {
			if want := res.Stats[n+".bytes"]; got != want {
				t.Errorf("interval %d: link %s moved %v bytes over the samples, want the frame's %v", interval, n, got, want)
			}
		}
	}
}

// A sample at the cycle of the previous one (Finish at the frame's last cycle
// when a Tick sampled that cycle before the command processor finished) adds
// what happened since to that sample instead of a second row at that cycle.
func TestMetricsSampleAtSameCycleAdds(t *testing.T) {
	p, err := configs.Build(configs.Default())
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMetrics(p, 100)
	if err != nil {
		t.Fatal(err)
	}
	unit := m.units[0]
	// Per sample: six rows per unit, two per link and two per memory channel.
	perSample := 6*len(m.units) + 2*len(p.Links) + 2*len(m.channels)
	for _, step := range []struct {
		cycle, msgs uint64 // the sample's cycle, the messages received before it
		wantSamples int
		want        map[uint64]float64 // messages_in of unit per sample cycle
	}{
		{100, 5, 1, map[uint64]float64{100: 5}},
		{100, 2, 1, map[uint64]float64{100: 7}},
		{250, 3, 2, map[uint64]float64{100: 7, 250: 3}},
		{250, 0, 2, map[uint64]float64{100: 7, 250: 3}},
		{200, 4, 2, map[uint64]float64{100: 7, 250: 3}}, // before the latest sample: none taken
	} {
		m.traffic[unit].inMsgs.Add(step.msgs)
		m.sample(m.Freq.NCyclesLater(int(step.cycle), 0))
		got := map[uint64]float64{}
		for _, r := range m.rows {
			if r.name == unit && r.metric == "messages_in" {
				got[r.cycle] += r.value
			}
		}
		if m.Samples() != step.wantSamples || len(m.rows) != step.wantSamples*perSample || !maps.Equal(got, step.want) {
			t.Errorf("after a sample at cycle %d: %d samples in %d rows, %s messages_in %v; want %d samples in %d rows, %v",
				step.cycle, m.Samples(), len(m.rows), unit, got, step.wantSamples, step.wantSamples*perSample, step.want)
		}
	}
}

// A unit's busy share is of its own clock's cycles, those it slept through
// counted in the sample they fell in: no share exceeds 1 at the shortest
// interval (cycles slept through were credited to a later sample, up to
// 1.16 on room); on the SAGE machine, whose scheds run at 100 MHz beside a
// 500 MHz core, a sched's share reaches past 100/500 (it was capped there),
// and the samples go on to the end of the video scan-out (they stopped when
// the commands finished).
func TestMetricsBusyOwnClock(t *testing.T) {
	sage, err := configs.Parse("sage.yaml", []byte("machine: sage\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg      *configs.Config
		scene    string
		interval uint64
	}{{configs.Default(), "room", MinMetricsInterval}, {sage, "triangle", 5000}} {
		m, res := metricsRun(t, tc.cfg, tc.scene, 64, 40, 4, tc.interval)
		sched := 0.0
		var cycles []uint64
		for _, r := range m.rows {
			if len(cycles) == 0 || cycles[len(cycles)-1] != r.cycle {
				cycles = append(cycles, r.cycle)
			}
			if r.metric != "busy" {
				continue
			}
			if r.value < 0 || r.value > 1 {
				t.Errorf("%s: cycle %d: %s busy %v, want a share in [0, 1]", tc.cfg.Name, r.cycle, r.name, r.value)
			}
			if strings.HasPrefix(r.name, "GPU.Sched[") {
				sched = max(sched, r.value)
			}
		}
		if tc.cfg != sage {
			continue
		}
		if sched <= 0.2 {
			t.Errorf("the scheds' busy share peaks at %v: not a share of their own 100 MHz cycles", sched)
		}
		end := uint64(res.Stats["GPU.video_end_cycles"])
		if n := len(cycles); n < 2 || cycles[n-1] != end || cycles[n-1]-cycles[n-2] > tc.interval {
			t.Errorf("the last samples at cycles %v, want one every %d cycles up to the video's end %d", cycles[max(0, n-2):], tc.interval, end)
		}
	}
}
