package study

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/scene"
)

func TestStageOf(t *testing.T) {
	for _, tc := range []struct{ unit, want string }{
		{"GPU.ShaderCore[3]", "ShaderCore"},
		{"GPU.ROP[0]", "ROP"},
		{"GPU.CommandProcessor", "CommandProcessor"},
		{"GPU.Binner", "Binner"},
		{"GPU.TileScheduler", "TileScheduler"},
		{"GPU.TileUnit[0]", "TileUnit"},
		{"GPU.TileUnit[12]", "TileUnit"},
		{"GPU.TileUnit[1].Rasterizer", "Rasterizer"},
		{"GPU.TileUnit[1].DepthUnit", "DepthUnit"},
		{"GPU.TileUnit[0].QuadPacker", "QuadPacker"},
		{"GPU.TileUnit[3].ReorderBuffer", "ReorderBuffer"},
		{"GPU.TileUnit[0].ROP", "ROP"},
	} {
		if got := stageOf(tc.unit); got != tc.want {
			t.Errorf("stageOf(%q) = %q, want %q", tc.unit, got, tc.want)
		}
	}
}

// TestStackedStages: the stacked figure shows the stages with the most busy
// cycles in name order and sums the others as "other".
func TestStackedStages(t *testing.T) {
	stages := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"}
	total := map[string]float64{"A": 1, "B": 50, "C": 3, "D": 40, "E": 2, "F": 30, "G": 20, "H": 10, "I": 9, "J": 8, "K": 7}
	names, slot := stackedStages(stages, total)
	if want := []string{"B", "C", "D", "F", "G", "H", "I", "J", "K", "other"}; !reflect.DeepEqual(names, want) {
		t.Errorf("series %v, want %v", names, want)
	}
	if slot["A"] != 9 || slot["E"] != 9 || slot["B"] != 0 || slot["K"] != 8 {
		t.Errorf("slots %v", slot)
	}
	names, slot = stackedStages(stages[:3], total)
	if want := []string{"A", "B", "C"}; !reflect.DeepEqual(names, want) || slot["C"] != 2 {
		t.Errorf("three stages: series %v, slots %v", names, slot)
	}
}

// TestTiledBinSpreadMatchesModel: on a blurred frame (egomotion, 27 samples,
// 96x54) the timed binner's bin spread equals the functional TiledModel's
// for the same frame, exactly, and the machine's tile (RGBA8 + D24S8) is
// decouple.TileSize's for 128 KB of tile memory; the machine's per-tile
// caches shade no less than the per-tile memo.
func TestTiledBinSpreadMatchesModel(t *testing.T) {
	v := TimedVariant{Name: "T 27", Samples: 27, Blur: Moderate, Dec: On, Machine: SortMiddle}
	tp, err := Timed("egomotion", 96, 54, v, nil)
	if err != nil || tp.Err != "" {
		t.Fatal(err, tp.Err)
	}
	tc, fc := tp.Tiled, &tp.Tiled.Functional
	w, h, err := decouple.TileSize(27, decouple.DefaultTileMemory)
	if err != nil {
		t.Fatal(err)
	}
	if w != 32 || h != 16 || tc.TileW != w || tc.TileH != h || fc.TileW != w || fc.TileH != h {
		t.Errorf("machine tile %dx%d, model %dx%d, decouple.TileSize %dx%d (want 32x16)", tc.TileW, tc.TileH, fc.TileW, fc.TileH, w, h)
	}
	if tc.Primitives == 0 || tc.BinSpread <= 1 || tc.BinSpread != fc.BinSpread() || tc.BinEntries != float64(fc.BinEntries) ||
		tc.Primitives != float64(fc.Primitives) {
		t.Errorf("timed bin spread %v (%v entries / %v primitives), model %v (%d / %d)",
			tc.BinSpread, tc.BinEntries, tc.Primitives, fc.BinSpread(), fc.BinEntries, fc.Primitives)
	}
	u, ok := find(fc.Tiled, Unbounded)
	if !ok || u <= 0 || tc.Quads() < u || tc.CoveredPixels <= 0 {
		t.Errorf("timed shading quads %d, per-tile memo %d (%v), %d covered pixels", tc.Quads(), u, ok, tc.CoveredPixels)
	}
}

// TestFrameString: a point's error names its frame by its fields, not as a
// Go struct.
func TestFrameString(t *testing.T) {
	f := Frame{Scene: "room", Width: 64, Height: 36, Samples: 4, Blur: 1.5, Index: 2,
		Decoupling: scene.Decoupling{Mode: scene.DecoupleOff, Rate: 1}}
	if got, want := f.String(), "scene room, 64x36, 4 spp, blur 1.5, frame 2, MSAA, no blur (rate 1)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
