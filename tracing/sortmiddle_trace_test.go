package tracing

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"
)

// sortMiddleTaskKinds are the kinds of the tiled machine's own units.
var sortMiddleTaskKinds = []string{protocol.KindPass, protocol.KindBin, protocol.KindScreenTile, protocol.KindTileDraw}

// TestSortMiddleTraceTasks traces frames on the tiled machine with 16x16
// screen tiles and two tile units: the room (4 samples, textured), the
// motion-blurred scene at 8 samples (5D primitives shaded through each tile
// unit's shading cache) with 32x32 raster tiles, larger than the screen
// tiles, and a large triangle with such raster tiles. Every task starts once
// and ends, every parent is a task of the frame, tracing changes nothing,
// and the tiled units' tasks are there, as many as their counters say,
// nested in time and in the parent chains Daisen follows.
func TestSortMiddleTraceTasks(t *testing.T) {
	for _, fr := range []struct {
		scene      string
		w, h, spp  int
		rasterTile int  // raster.tile_size (and rop.tile_size); 0: the default, 8
		blurred    bool // 5D primitives of decoupled draws
		chains     bool // check the parent chains (a scene with depth and quads)
		texturized bool
		buffers    int // sortmiddle.tile_buffers (0: 1)
	}{
		{"room", 64, 40, 4, 0, false, true, true, 0},
		{"motion", 64, 36, 8, 32, true, true, false, 0},
		{"triangle", 64, 40, 4, 32, false, false, false, 0},
		{"room", 64, 40, 4, 0, false, true, true, 2}, // a tile stores behind the next one
	} {
		name := fr.scene
		if fr.buffers > 1 {
			name += fmt.Sprintf(" %d buffers", fr.buffers)
		}
		t.Run(name, func(t *testing.T) {
			yaml := "machine: sortmiddle\nsortmiddle: {tile_width: 16, tile_height: 16, tile_units: 2}\n"
			if fr.buffers > 1 {
				yaml = fmt.Sprintf("machine: sortmiddle\nsortmiddle: {tile_width: 16, tile_height: 16, tile_units: 2, tile_buffers: %d, jobs_per_unit: %d}\n",
					fr.buffers, fr.buffers+1)
			}
			if fr.rasterTile > 0 {
				yaml += fmt.Sprintf("raster: {tile_size: %d}\nrop: {tile_size: %d}\n", fr.rasterTile, fr.rasterTile)
			}
			cfg, err := configs.Parse("tiles16.yaml", []byte(yaml))
			if err != nil {
				t.Fatal(err)
			}
			ledger := newTaskLedger()
			file, traced := traceMachineFrame(t, cfg, t.TempDir(), fr.scene, fr.w, fr.h, fr.spp, ledger)
			db := openTrace(t, file)

			t.Run("every started task ends, once, below a task of the frame", func(t *testing.T) {
				ledger.checkBalanced(t)
				if o := ledger.orphans(); len(o) > 0 {
					t.Errorf("tasks whose parent is no task of the frame: %v", o)
				}
				if n := count(t, db, `SELECT count(*) FROM trace`); n != ledger.done+1 { // and the Simulation task
					t.Errorf("%d tasks in the trace, %d ended during the frame", n, ledger.done)
				}
			})

			t.Run("same frame untraced", func(t *testing.T) {
				_, plain := traceMachineFrame(t, cfg, "", fr.scene, fr.w, fr.h, fr.spp, nil)
				sameFrame(t, traced, plain)
			})

			t.Run("tasks as counted", func(t *testing.T) {
				st := traced.Stats
				sum := func(counter string) int {
					n := 0.0
					for k := 0; k < 2; k++ {
						n += st[fmt.Sprintf("GPU.TileUnit[%d]%s", k, counter)]
					}
					return int(n)
				}
				tiles := sum(".tiles")
				flushes := 3 * (tiles - sum(".empty_tiles")) // ROP, depth unit, reorder buffer
				for _, c := range []struct {
					what  string
					query string
					want  int
				}{
					{"passes", `SELECT count(*) FROM trace WHERE kind = 'pass' AND location = 'GPU.Binner'`,
						int(st["GPU.Binner.passes"])},
					{"binned primitives", `SELECT count(*) FROM trace WHERE kind = 'bin' AND location = 'GPU.Binner'`,
						int(st["GPU.Binner.primitives"])},
					{"screen tiles", `SELECT count(*) FROM trace WHERE kind = 'screen_tile'`, tiles},
					{"draws in tiles", `SELECT count(*) FROM trace WHERE kind = 'tile_draw'`, sum(".draw_ends")},
					{"primitives rasterized", `SELECT count(*) FROM trace WHERE kind = 'rasterize'`, sum(".Rasterizer.primitives")},
					{"FlushCmds", `SELECT count(*) FROM trace WHERE kind = 'req_out' AND what = '*protocol.FlushCmd'`, flushes},
					{"flushes", `SELECT count(*) FROM trace WHERE kind = 'flush'`, flushes},
				} {
					if got := count(t, db, c.query); got != c.want || got == 0 {
						t.Errorf("%d tasks of %s, want %d", got, c.what, c.want)
					}
				}
				// Each unit's warps, named by the unit, at the packer and at
				// the cores (pixel warps), or at the cores (shading warps).
				for k := 0; k < 2; k++ {
					at := fmt.Sprintf("GPU.TileUnit[%d].QuadPacker", k)
					like, want := fmt.Sprintf("tu%d.warp%%", k), int(st[at+".warps"])
					if fr.blurred {
						at = `GPU.ShaderCore[%`
						like = fmt.Sprintf("tu%d.shade%%@core", k)
						want = int(st[fmt.Sprintf("GPU.TileUnit[%d].ReorderBuffer.shaded_shading_warps", k)])
					}
					got := count(t, db, `SELECT count(*) FROM trace WHERE kind = 'pixel_warp' AND location LIKE ? AND task_id LIKE ?`,
						at+"%", like)
					if got != want || got == 0 {
						t.Errorf("%d warp tasks %s at %s, want %d", got, like, at, want)
					}
				}
			})

			// A tile stores once its draws are done, below its own task
			// (with two buffers, while the next tile renders).
			t.Run("stores after the tile's draws", func(t *testing.T) {
				stores := count(t, db, `SELECT count(*) FROM trace s JOIN trace p ON s.parent_id = p.task_id
					WHERE s.kind = 'req_out' AND s.what = '*mem.WriteReq' AND p.kind = 'screen_tile'`)
				early := count(t, db, `WITH d AS (SELECT parent_id, max(end_time) AS e FROM trace WHERE kind = 'tile_draw' GROUP BY parent_id)
					SELECT count(*) FROM (SELECT parent_id, start_time FROM trace WHERE kind = 'req_out' AND what = '*mem.WriteReq') s
					JOIN d ON s.parent_id = d.parent_id WHERE s.start_time < d.e`)
				if stores == 0 || early != 0 {
					t.Errorf("%d stores below screen tiles, %d of them before a draw of their tile ended", stores, early)
				}
			})

			// A draw is rendered when its tiles are: its task holds its
			// tile_draw tasks, a screen tile holds its draws, a pass its tiles.
			t.Run("nested in time", func(t *testing.T) {
				if n := count(t, db, `SELECT count(*) FROM trace c JOIN trace p ON c.parent_id = p.task_id
					WHERE c.kind IN ('tile_draw', 'screen_tile') AND (c.start_time < p.start_time OR c.end_time > p.end_time)`); n != 0 {
					t.Errorf("%d screen tiles or draws in a tile outside their parent", n)
				}
				all := count(t, db, `SELECT count(*) FROM trace WHERE kind = 'tile_draw'`)
				joined := count(t, db, `SELECT count(*) FROM trace c JOIN trace d ON d.task_id = substr(c.task_id, 1, instr(c.task_id, '.win') - 1)
					WHERE c.kind = 'tile_draw' AND d.kind = 'draw'`)
				late := count(t, db, `SELECT count(*) FROM trace c JOIN trace d ON d.task_id = substr(c.task_id, 1, instr(c.task_id, '.win') - 1)
					WHERE c.kind = 'tile_draw' AND d.kind = 'draw' AND c.end_time > d.end_time`)
				if joined != all || late != 0 {
					t.Errorf("of %d draws in a tile, %d found their draw task, %d end after it", all, joined, late)
				}
			})

			t.Run("kinds", func(t *testing.T) {
				for _, k := range append(sortMiddleTaskKinds, protocol.KindRasterize, protocol.KindTile,
					protocol.KindPixelWarp, protocol.KindROPWrite, protocol.KindFlush) {
					if count(t, db, `SELECT count(*) FROM trace WHERE kind = ?`, k) == 0 {
						t.Errorf("no task of kind %s", k)
					}
				}
			})

			if fr.rasterTile > 16 {
				// A 32x32 raster tile is rasterized once per 16x16 screen tile
				// it meets: the window in its ID tells them apart.
				t.Run("raster tiles in several windows", func(t *testing.T) {
					rows, err := db.Query(`SELECT task_id FROM trace WHERE kind = 'tile' AND location LIKE '%.Rasterizer'`)
					if err != nil {
						t.Fatal(err)
					}
					defer rows.Close()
					win := regexp.MustCompile(`\.win\d+\.\d+`)
					seen := map[string]bool{}
					shared := 0
					for rows.Next() {
						var id string
						if err := rows.Scan(&id); err != nil {
							t.Fatal(err)
						}
						bare := win.ReplaceAllString(id, "")
						if bare == id {
							t.Errorf("raster tile %s has no window", id)
						}
						if seen[bare] {
							shared++
						}
						seen[bare] = true
					}
					if shared == 0 {
						t.Errorf("no raster tile of a primitive was rasterized in two windows (%d tiles)", len(seen))
					}
				})
			}

			if !fr.chains {
				return
			}
			covered := map[string]bool{}
			for _, c := range sortMiddleChains(fr.blurred, fr.texturized) {
				for _, l := range c.chain {
					covered[l.kind] = true
				}
				t.Run("chain "+c.name, func(t *testing.T) { followChain(t, db, c.chain) })
			}
			for _, k := range sortMiddleTaskKinds {
				if !covered[k] {
					t.Errorf("no chain checks kind %s", k)
				}
			}
		})
	}
}

type namedChain struct {
	name  string
	chain []link // from the first task up; the first two links select it
}

// sortMiddleChains are the parent chains of the tiled machine's tasks up to
// the Simulation task.
func sortMiddleChains(blurred, texturized bool) []namedChain {
	const tu = `^GPU\.TileUnit\[\d\]`
	cp := `^GPU\.CommandProcessor$`
	sim := link{"Simulation", `^GPU$`}
	cat := func(ls ...[]link) []link {
		var out []link
		for _, l := range ls {
			out = append(out, l...)
		}
		return out
	}
	drawUp := []link{{"draw", cp}, {"command", cp}, sim}
	tileUp := []link{{protocol.KindScreenTile, tu + `$`}, {protocol.KindPass, `^GPU\.Binner$`}, sim}
	inTile := cat([]link{{protocol.KindTileDraw, tu + `$`}}, tileUp)
	warp := []link{{"pixel_warp", `^GPU\.ShaderCore\[\d\]$`}, {"pixel_warp", tu + `\.ReorderBuffer$`},
		{"pixel_warp", tu + `\.QuadPacker$`}}
	chains := []namedChain{
		{"binned primitive", cat([]link{{protocol.KindBin, `^GPU\.Binner$`}}, drawUp)},
		{"bin write", cat([]link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`}, {"req_out", `^GPU\.Binner$`},
			{protocol.KindPass, `^GPU\.Binner$`}, sim})},
		{"bin read", cat([]link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`}, {"req_out", tu + `$`}}, tileUp)},
		{"draw in a tile", inTile},
		{"depth unit's raster tile", cat([]link{{"tile", tu + `\.DepthUnit$`}, {"tile", tu + `\.Rasterizer$`},
			{"rasterize", tu + `\.Rasterizer$`}}, inTile)},
		{"ROP write", cat([]link{{"rop_write", tu + `\.ROP$`}}, drawUp)},
		{"tile memory read", cat([]link{{"req_in", tu + `$`}, {"req_out", tu + `\.ROP$`}, {"rop_write", tu + `\.ROP$`}}, drawUp)},
		{"ROP flush", cat([]link{{"flush", tu + `\.ROP$`}, {"req_out", tu + `$`}}, tileUp)},
		{"tile memory write-back", cat([]link{{"req_in", tu + `$`}, {"req_out", tu + `\.DepthUnit$`},
			{"flush", tu + `\.DepthUnit$`}, {"req_out", tu + `$`}}, tileUp)},
	}
	if !blurred {
		chains = append(chains, namedChain{"pixel warp at a core", cat(warp, inTile)})
	}
	if texturized {
		chains = append(chains, namedChain{"texture request", cat([]link{{"texture_request", `^GPU\.TextureSampler\[\d\]$`},
			{"req_out", `^GPU\.ShaderCore\[\d\]$`}}, warp, inTile)})
	}
	if blurred { // every primitive takes the 5D path: shading warps, no pixel warps
		chains = append(chains, namedChain{"shading warp", cat([]link{{"pixel_warp", `^GPU\.ShaderCore\[\d\]$`}}, drawUp)})
	}
	return chains
}
