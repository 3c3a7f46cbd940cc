package tracing

import (
	"database/sql"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/teststats"
)

// traceTask is one row of a trace.
type traceTask struct {
	id, parent, kind, what, where string
	start, end                    float64
}

// readTasks reads every task of the SQLite trace file.
func readTasks(t *testing.T, db *sql.DB) map[string]traceTask {
	t.Helper()
	rows, err := db.Query(`SELECT task_id, parent_id, kind, what, location, start_time, end_time FROM trace`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]traceTask{}
	for rows.Next() {
		var k traceTask
		var parent sql.NullString
		if err := rows.Scan(&k.id, &parent, &k.kind, &k.what, &k.where, &k.start, &k.end); err != nil {
			t.Fatal(err)
		}
		k.parent = parent.String
		out[k.id] = k
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// handedOver reports whether the task k is the next stage's work on what its
// parent p, a task of an earlier stage, handed on when it ended
// (docs/design-timing.md, section 10): a draw command carried out, a vertex
// batch dispatched to a core and to primitive assembly, a raster tile sent to
// the HiZ and depth units, a warp the quad packer sent to the reorder buffer,
// a Present the SAGE convolve chips and video output acknowledged before
// their scan-out.
func handedOver(k, p traceTask) bool {
	switch {
	case k.kind == "draw" && p.kind == "command",
		(k.kind == "vertex_warp" || k.kind == "primitive_assembly") && p.kind == "vertex_batch",
		k.kind == "tile" && p.kind == "tile" && strings.Contains(p.where, "Rasterizer"),
		k.kind == "pixel_warp" && p.kind == "pixel_warp" && strings.HasSuffix(p.where, "QuadPacker"),
		(k.kind == "swath_line" || k.kind == "scan_line") && p.kind == "req_out":
		return true
	}
	return false
}

// unitPattern names a unit's kind: its name with the indices left out
// (GPU.Pipe[].ShaderCore[]).
var unitIndex = regexp.MustCompile(`\[\d+\]`)

func unitPattern(where string) string { return unitIndex.ReplaceAllString(where, "[]") }

// TestTraceAgreesWithStatistics renders a traced frame of the room on the
// sort-last machine, on SAGE and on the tiled machine, and one of the
// particles (geometry shaders, stream-out, DrawAuto) on the sort-last
// machine, and checks that the trace tells the story of stats.json: every task ends, no earlier than it
// starts and within its parent's span; every kind is one docs/design-timing.md section 10 lists, at
// a unit that reports statistics; and the tasks of each kind at each unit are
// as many as the unit's counter of that work (commands, draws, batches,
// warps, primitives, tiles, texture and late-Z requests, ROP writes, clears,
// flushes, SAGE's chunks, bursts, writes and lines, the tiled machine's
// passes, binned primitives, screen tiles, draws in a tile and FlushCmds),
// its memory requests (a tile memory's too) as
// many as its request counters, and every memory request reached one channel
// or L2 bank, which counted it.
func TestTraceAgreesWithStatistics(t *testing.T) {
	for _, tc := range []struct {
		name, scene string
		cfg         func() *configs.Config
		// markerBusy matches the units whose cycles_busy may exceed their
		// tasks' span: passing on a DrawEnd is busy (a cycle of the coarse
		// stage, a message sent) and no task holds it (section 10 has no
		// task for a marker). In the room the markers fall within other
		// tasks; the particles' draws that stream out only, or whose points
		// all die, send markers alone (the rasterizers were busy 63 of
		// their 261 cycles so).
		markerBusy string
	}{
		{"sortlast", "room", configs.Default, ""},
		{"sage", "room", configs.SageMachine, ""},
		{"sortmiddle", "room", configs.SortMiddleMachine, ""},
		// Geometry shaders, stream-out and DrawAuto (geometry_warp tasks).
		{"sortlast particles", "particles", configs.Default, `^GPU\.(Rasterizer\[\d+\]|QuadPacker)$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ledger := newTaskLedger()
			file, res := traceMachineFrame(t, tc.cfg(), t.TempDir(), tc.scene, 160, 90, 4, ledger)
			t.Run("every started task ends", func(t *testing.T) { ledger.checkBalanced(t) })
			db := openTrace(t, file)
			tasks := readTasks(t, db)
			if len(tasks) != ledger.done+1 {
				t.Errorf("%d tasks in the trace, %d ended during the frame and the Simulation task", len(tasks), ledger.done)
			}
			if tc.scene == "particles" && !hasKind(tasks, protocol.KindGeometryWarp) {
				t.Errorf("no %s task in a frame of geometry shaders", protocol.KindGeometryWarp)
			}
			checkTraceAgainstStats(t, tasks, res, tc.markerBusy)
		})
	}
}

// hasKind reports whether a task of kind is among tasks.
func hasKind(tasks map[string]traceTask, kind string) bool {
	for _, k := range tasks {
		if k.kind == kind {
			return true
		}
	}
	return false
}

// checkTraceAgainstStats checks the relations between the frame's tasks and
// its statistics; the units markerBusy matches (a regular expression, "":
// none) are not held to being busy only within their tasks.
func checkTraceAgainstStats(t *testing.T, tasks map[string]traceTask, res *configs.Result, markerBusy string) {
	st := res.Stats

	t.Run("times", func(t *testing.T) {
		bad := map[string]int{}
		example := map[string]string{}
		note := func(what string, k traceTask) {
			bad[what]++
			if _, ok := example[what]; !ok {
				example[what] = fmt.Sprintf("%s [%.9g, %.9g]", k.id, k.start, k.end)
			}
		}
		for _, k := range tasks {
			if k.end < k.start || k.start < 0 {
				note(k.kind+" at "+unitPattern(k.where)+" ends before it starts", k)
			}
			if k.id == SimulationTaskID {
				continue
			}
			p, ok := tasks[k.parent]
			if !ok {
				note(k.kind+" at "+unitPattern(k.where)+" has no parent", k)
				continue
			}
			pair := fmt.Sprintf("%s at %s below %s at %s", k.kind, unitPattern(k.where), p.kind, unitPattern(p.where))
			switch {
			case k.start < p.start:
				note(pair+" starts before its parent", k)
			case handedOver(k, p):
				// The parent is an earlier stage's task, which ends when it
				// hands the work on: the child starts no earlier.
				if k.start < p.end {
					note(pair+" starts before its parent (an earlier stage) handed it over", k)
				}
			case k.kind == "req_out" && k.what == "*mem.WriteReq":
				// A posted write: queued during its task, sent when the
				// write queue drains and answered maybe after it ended
				// (docs/design-timing.md, section 10).
			case k.end > p.end:
				note(pair+" ends after its parent", k)
			}
		}
		report(t, bad, example)
	})

	t.Run("kinds and places", func(t *testing.T) {
		kinds := map[string]bool{}
		for _, k := range append(append(append([]string{protocol.KindGeometryWarp}, taskKinds...), sageTaskKinds...), sortMiddleTaskKinds...) {
			kinds[k] = true
		}
		units := map[string]bool{"GPU": true}
		for key := range st {
			for i := strings.Index(key, "."); i >= 0; {
				units[key[:i]] = true
				j := strings.Index(key[i+1:], ".")
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
		bad := map[string]int{}
		example := map[string]string{}
		for _, k := range tasks {
			if !kinds[k.kind] {
				bad["kind "+k.kind+" not in docs/design-timing.md"]++
				example["kind "+k.kind+" not in docs/design-timing.md"] = k.id
			}
			if !units[k.where] {
				bad["location "+k.where+" reports no statistics"]++
				example["location "+k.where+" reports no statistics"] = k.id
			}
		}
		report(t, bad, example)
	})

	// count[kind][where] and, for requests, byWhat[kind+" "+what][where].
	count := map[string]map[string]float64{}
	add := func(key, where string) {
		if count[key] == nil {
			count[key] = map[string]float64{}
		}
		count[key][where]++
	}
	// reached[where of the parent req_out] = the req_in tasks below it.
	reached := map[string]float64{}
	for _, k := range tasks {
		add(k.kind, k.where)
		if k.kind == "req_out" || k.kind == "req_in" {
			add(k.kind+" "+strings.TrimPrefix(k.what, "*"), k.where)
		}
		if p, ok := tasks[k.parent]; ok && k.kind == "req_in" && p.kind == "req_out" {
			reached[p.where]++
		}
	}
	s := teststats.Stats(st)

	t.Run("counts", func(t *testing.T) {
		checked := map[string]int{}
		compared := map[string]bool{} // key + " at " + unit
		// eachUnit checks, for every unit whose name matches unit and that
		// reports counter probe, that the tasks of key there are want(u).
		eachUnit := func(key, unit, probe string, want func(u string) float64) {
			t.Helper()
			re := regexp.MustCompile(`^` + unit + `$`)
			for _, u := range s.Units("." + probe) {
				if !re.MatchString(u) {
					continue
				}
				checked[key+" at "+unitPattern(u)]++
				compared[key+" at "+u] = true
				if got, w := count[key][u], want(u); got != w {
					t.Errorf("%s tasks at %s: %v, statistics say %v", key, u, got, w)
				}
			}
		}
		c := func(name string) func(u string) float64 {
			return func(u string) float64 { return st[u+"."+name] }
		}
		sum := func(names ...string) func(u string) float64 {
			return func(u string) float64 {
				v := 0.0
				for _, n := range names {
					v += st[u+"."+n]
				}
				return v
			}
		}
		// A SAGE pipe's or a tile unit's units are named below it.
		// binnerTook is how many messages of kind the command processor sent
		// the tiled machine's binner (none elsewhere).
		binnerTook := func(kind string) float64 {
			if len(s.Units(".bin_entries")) == 0 {
				return 0
			}
			return st["GPU.CommandBus."+kind+".messages"]
		}
		pipe := `GPU(\.Pipe\[\d+\]|\.TileUnit\[\d+\])?`
		tu := `GPU\.TileUnit\[\d+\]`
		eachUnit("command", `GPU\.CommandProcessor`, "commands", c("commands"))
		eachUnit("draw", `GPU\.CommandProcessor`, "draws", c("draws"))
		eachUnit("vertex_batch", pipe+`\.InputAssembler`, "batches", c("batches"))
		eachUnit("vertex_warp", pipe+`\.ShaderCore\[\d+\]`, "vertex_warps", c("vertex_warps"))
		eachUnit("geometry_warp", pipe+`\.ShaderCore\[\d+\]`, "gs_warps", c("gs_warps"))
		eachUnit("primitive_assembly", pipe+`\.PrimitiveAssembly`, "batches", c("batches"))
		eachUnit("rasterize", pipe+`\.Rasterizer(\[\d+\])?`, "primitives", c("primitives"))
		eachUnit("tile", pipe+`\.Rasterizer(\[\d+\])?`, "tiles_emitted", c("tiles_emitted"))
		eachUnit("tile", `GPU\.HiZ\[\d+\]`, "tiles_in", c("tiles_in"))
		eachUnit("tile", `GPU\.DepthUnit\[\d+\]`, "tiles_in", c("tiles_in"))
		eachUnit("tile", tu+`\.DepthUnit`, "tiles_in", c("tiles_in"))
		eachUnit("pixel_warp", pipe+`\.QuadPacker`, "warps", c("warps"))
		eachUnit("pixel_warp", pipe+`\.ReorderBuffer`, "warps", c("warps"))
		// A core's pixel warps: the sort-last machine's pixel_warp tasks, a
		// SAGE pipe core's sample_warp tasks.
		eachUnit("pixel_warp", `GPU\.ShaderCore\[\d+\]`, "pixel_warps", c("pixel_warps"))
		eachUnit("sample_warp", `GPU\.Pipe\[\d+\]\.ShaderCore\[\d+\]`, "pixel_warps", c("pixel_warps"))
		eachUnit("texture_request", `GPU\.TextureSampler\[\d+\]`, "requests", c("requests"))
		// The back end: the sort-last machine's partitions, a tile unit's
		// depth unit and ROP (one each).
		eachUnit("late_z", `GPU\.DepthUnit\[\d+\]|`+tu+`\.DepthUnit`, "late_z_requests", c("late_z_requests"))
		eachUnit("rop_write", `GPU\.ROP\[\d+\]|`+tu+`\.ROP`, "messages_in", c("messages_in"))
		eachUnit("resolve", `GPU\.ROP\[\d+\]|`+tu+`\.ROP`, "presents", c("presents"))
		eachUnit("clear", `GPU\.(ROP|DepthUnit|HiZ|Interleave)\[\d+\]|`+tu+`\.(ROP|DepthUnit)`, "clears", c("clears"))
		eachUnit("flush", `GPU\.DepthUnit\[\d+\]|`+tu+`\.DepthUnit`, "flushes", sum("presents", "flushes"))
		// A tile unit's ROP and reorder buffer flush at the end of each tile
		// (the FlushCmds of its screen tile).
		eachUnit("flush", tu+`\.(ROP|ReorderBuffer)`, "flushes", c("flushes"))
		eachUnit("flush", `GPU\.HiZ\[\d+\]`, "flushes", c("flushes"))
		eachUnit("flush", `GPU\.Interleave\[\d+\]`, "presents", c("presents"))
		eachUnit("draw_chunk", `GPU\.Distributor`, "returns", c("returns"))
		eachUnit("sample_warp", `GPU\.Pipe\[\d+\]\.SampleFill`, "warps", c("warps"))
		eachUnit("sample_burst", `GPU\.Sched\[\d+\]`, "samples_in", func(u string) float64 {
			// The bursts the pipes' sample buses carried to this sched.
			k := strings.TrimSuffix(strings.TrimPrefix(u, "GPU.Sched["), "]")
			return s.Sum(`GPU\.Pipe\[\d+\]\.SampleBus\[` + k + `\]\.SampleBurst\.messages`)
		})
		eachUnit("sample_write", `GPU\.Interleave\[\d+\]`, "bursts", c("bursts"))
		// The tiled machine: a pass per non-empty PassEnd, a bin task per
		// primitive binned, a screen_tile per tile a unit rendered and a
		// tile_draw per draw in it (the DrawEnds it sent its rasterizer).
		eachUnit("pass", `GPU\.Binner`, "passes", c("passes"))
		eachUnit("bin", `GPU\.Binner`, "primitives", c("primitives"))
		eachUnit("screen_tile", tu, "tiles", c("tiles"))
		eachUnit("tile_draw", tu, "draw_ends", c("draw_ends"))
		if w := st["GPU.Video.pixels"]; w > 0 {
			// One scan line per output line, one swath line per line and chip.
			lines := w / float64(res.Image.Rect.Dx())
			eachUnit("scan_line", `GPU\.Video`, "pixels", func(string) float64 { return lines })
			eachUnit("swath_line", `GPU\.Convolve\[\d+\]`, "presents", func(string) float64 { return lines })
		}

		// Requests: a memory client's by kind, the texture samplers' to the
		// L2, the command processor's DMA and commands, what the host
		// interface, the L2 banks and the channels took.
		eachUnit("req_out mem.ReadReq", `.+`, "memory.reads", c("memory.reads"))
		eachUnit("req_out mem.WriteReq", `.+`, "memory.writes", c("memory.writes"))
		eachUnit("req_out mem.ReadReq", `GPU\.TextureSampler\[\d+\]`, "l2.reads", c("l2.reads"))
		eachUnit("req_out mem.WriteReq", `GPU\.TextureSampler\[\d+\]`, "l2.writes", c("l2.writes"))
		eachUnit("req_out protocol.TexRequest", pipe+`\.ShaderCore\[\d+\]`, "texture_requests", c("texture_requests"))
		eachUnit("req_out protocol.LateZReq", `GPU\.ROP\[\d+\]|`+tu+`\.ROP`, "late_z_requests", c("late_z_requests"))
		// The command processor's: its DMA's and its DrawAuto counter reads.
		eachUnit("req_out mem.ReadReq", `GPU\.CommandProcessor`, "dma.reads", sum("dma.reads", "local.reads"))
		eachUnit("req_out mem.WriteReq", `GPU\.CommandProcessor`, "dma.writes", sum("dma.writes", "local.writes"))
		// The command processor's clears and presents are those its
		// receivers took (the HiZ units': from their depth units).
		// The tiled machine's binner takes both (as the ROP and as the depth
		// unit) and counts neither: the command bus counts them.
		eachUnit("req_out protocol.ClearCmd", `GPU\.CommandProcessor`, "commands_clear", func(string) float64 {
			return s.Sum(`GPU\.(ROP|DepthUnit|Interleave)\[\d+\]\.clears`) + binnerTook("ClearCmd")
		})
		eachUnit("req_out protocol.PresentCmd", `GPU\.CommandProcessor`, "commands_present", func(string) float64 {
			return s.Sum(`GPU\.(ROP\[\d+\]|DepthUnit\[\d+\]|Interleave\[\d+\]|Route|Convolve\[\d+\]|Video(\[\d+\])?)\.presents`) + binnerTook("PresentCmd")
		})
		eachUnit("req_out protocol.PassEnd", `GPU\.CommandProcessor`, "passes", c("passes"))
		// A tile unit's FlushCmds are the flushes its units took; its tile
		// memory took its ROP's and depth unit's requests.
		eachUnit("req_out protocol.FlushCmd", tu, "tiles", func(u string) float64 {
			return s.Sum(regexp.QuoteMeta(u) + `\.(ROP|DepthUnit|ReorderBuffer)\.flushes`)
		})
		eachUnit("req_in mem.ReadReq", tu, "tile_memory_reads", c("tile_memory_reads"))
		eachUnit("req_in mem.WriteReq", tu, "tile_memory_writes", c("tile_memory_writes"))
		eachUnit("req_out protocol.HiZControl", `GPU\.DepthUnit\[\d+\]`, "clears", func(u string) float64 {
			h := strings.Replace(u, "DepthUnit", "HiZ", 1)
			return st[h+".clears"] + st[h+".flushes"]
		})
		eachUnit("req_in mem.ReadReq", `GPU\.HostInterface`, "reads", c("reads"))
		eachUnit("req_in mem.WriteReq", `GPU\.HostInterface`, "writes", c("writes"))
		eachUnit("req_out mem.ReadReq", `GPU\.HostInterface`, "reads", c("reads"))
		eachUnit("req_out mem.WriteReq", `GPU\.HostInterface`, "writes", c("writes"))
		eachUnit("req_in mem.ReadReq", `GPU(\.Pipe\[\d+\]\.Texture)?\.?L2\.Bank\[\d+\]`, "reads", c("reads"))
		eachUnit("req_in mem.WriteReq", `GPU(\.Pipe\[\d+\]\.Texture)?\.?L2\.Bank\[\d+\]`, "writes", c("writes"))
		eachUnit("req_out mem.ReadReq", `GPU(\.Pipe\[\d+\]\.Texture)?\.?L2\.Bank\[\d+\]`, "read_misses", c("read_misses"))
		eachUnit("req_in mem.ReadReq", `GPU(\.Pipe\[\d+\]\.Texture)?\.?Memory\.Channel\[\d+\]`, "reads", c("reads"))
		eachUnit("req_in mem.WriteReq", `GPU(\.Pipe\[\d+\]\.Texture)?\.?Memory\.Channel\[\d+\]`, "writes", c("writes"))

		// Every memory request a client sent reached one L2 bank or channel
		// (one req_in task below its req_out).
		for _, u := range s.Units(".memory.reads") {
			checked["memory requests below a client's req_out at "+unitPattern(u)]++
			if got, want := reached[u], st[u+".memory.reads"]+st[u+".memory.writes"]; got != want {
				t.Errorf("%s: %v req_in tasks below its req_out tasks, %v memory requests", u, got, want)
			}
		}
		for _, u := range s.Units(".l2.reads") {
			checked["L2 requests below a sampler's req_out at "+unitPattern(u)]++
			if got, want := reached[u], st[u+".l2.reads"]+st[u+".l2.writes"]; got != want {
				t.Errorf("%s: %v req_in tasks below its req_out tasks, %v L2 requests", u, got, want)
			}
		}

		// No task was left out: every kind at every place was compared.
		for key, m := range count {
			if key == "Simulation" || key == "req_out" || key == "req_in" {
				continue // the Simulation task; requests are compared by message kind
			}
			for where, n := range m {
				if !compared[key+" at "+where] {
					t.Errorf("%v %s tasks at %s: no counter compared", n, key, where)
				}
			}
		}
		if testing.Verbose() {
			var names []string
			for k, v := range checked {
				names = append(names, fmt.Sprintf("%s (%d)", k, v))
			}
			sort.Strings(names)
			t.Log(strings.Join(names, "\n"))
		}
	})

	// A unit busy in a cycle holds a task then: its cycles_busy are at most
	// the time its tasks (requests included) span, on the units that count
	// their states in core cycles (their states add up to the frame's).
	t.Run("busy within tasks", func(t *testing.T) {
		spans := map[string][][2]float64{}
		for _, k := range tasks {
			spans[k.where] = append(spans[k.where], [2]float64{k.start, k.end})
			if k.kind == "pass" {
				// The tiled machine's tile scheduler records no task: it
				// works on the binner's pass, whose task ends when the
				// scheduler answers that the pass's tiles are done.
				spans["GPU.TileScheduler"] = append(spans["GPU.TileScheduler"], [2]float64{k.start, k.end})
			}
		}
		period := res.Seconds / float64(res.Cycles)
		n := 0
		for _, u := range s.Units(".cycles_busy") {
			if markerBusy != "" && regexp.MustCompile(markerBusy).MatchString(u) {
				continue
			}
			all := 0.0
			for k, v := range st {
				if state, ok := strings.CutPrefix(k, u+".cycles_"); ok && !strings.Contains(state, ".") {
					all += v
				}
			}
			if all != float64(res.Cycles) {
				continue
			}
			n++
			iv := spans[u]
			sort.Slice(iv, func(i, j int) bool { return iv[i][0] < iv[j][0] })
			covered, lo, hi := 0.0, -1.0, -1.0
			for _, v := range iv {
				if v[0] > hi {
					covered += hi - lo
					lo, hi = v[0], v[1]
				} else {
					hi = max(hi, v[1])
				}
			}
			covered += hi - lo
			if busy := st[u+".cycles_busy"]; busy > math.Round(covered/period) {
				t.Errorf("%s: busy %v cycles, its %d tasks span %v cycles", u, busy, len(iv), math.Round(covered/period))
			}
		}
		if n == 0 {
			t.Error("no unit counts its states in core cycles")
		}
	})

	if testing.Verbose() {
		var rows []string
		for kind, m := range count {
			for where, n := range m {
				rows = append(rows, fmt.Sprintf("%s at %s: %v", kind, where, n))
			}
		}
		sort.Strings(rows)
		t.Log(strings.Join(rows, "\n"))
	}
}

// report fails t with every violation counted in bad, an example each.
func report(t *testing.T, bad map[string]int, example map[string]string) {
	t.Helper()
	var keys []string
	for k := range bad {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%d %s, e.g. %s", bad[k], k, example[k])
	}
}
