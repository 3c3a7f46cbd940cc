package study

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
	"github.com/gfxsim/gfxsim/scene"
)

// TestQuick runs the -quick study (room, smalltris, overdraw at 64x36) and
// checks its outputs: the CSV's columns and rows, the batch counts against
// the IA's (runOrder refuses a mismatch), LRU of 2N entries never shading
// more than LRU of N (a stack algorithm; FIFO has no such guarantee), the
// same image in every order, and the figures.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("three scenes, nine timed frames")
	}
	dir := t.TempDir()
	var out strings.Builder
	if err := Run(Options{Common: expt.Common{Out: dir, Quick: true, Workers: 1}}, &out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "vertexreuse.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"scene", "order", "draws", "triangles", "reordered_triangles", "acmr_batch", "batches",
		"acmr_fifo8", "acmr_fifo16", "acmr_fifo32", "acmr_fifo64", "acmr_lru8", "acmr_lru16", "acmr_lru32", "acmr_lru64",
		"cycles", "ia_vertices", "ia_batches", "vs_invocations", "vs_instructions", "ps_instructions", "vs_share",
		"shader_busy_cycles", "pixels_differ"}
	if !reflect.DeepEqual(rows[0], want) {
		t.Fatalf("columns %v, want %v", rows[0], want)
	}
	if got := len(rows) - 1; got != (len(QuickScenes)+1)*len(OrderNames) {
		t.Fatalf("%d rows, want %d scenes and the total in %d orders", got, len(QuickScenes), len(OrderNames))
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	num := func(r []string, c string) float64 {
		v, err := strconv.ParseFloat(r[col[c]], 64)
		if err != nil {
			t.Fatalf("%s %s: %s: %v", r[0], r[1], c, err)
		}
		return v
	}
	for _, r := range rows[1:] {
		name := r[0] + " " + r[1]
		for k := 1; k < len(Sizes); k++ {
			small, large := "acmr_lru"+strconv.Itoa(Sizes[k-1]), "acmr_lru"+strconv.Itoa(Sizes[k])
			if num(r, large) > num(r, small) {
				t.Errorf("%s: %s %s > %s %s", name, large, r[col[large]], small, r[col[small]])
			}
		}
		if r[col["batches"]] != r[col["ia_batches"]] {
			t.Errorf("%s: the IA formed %s batches, the batch scheme %s", name, r[col["ia_batches"]], r[col["batches"]])
		}
		if r[col["pixels_differ"]] != "0" {
			t.Errorf("%s: %s pixels differ from the original order's image", name, r[col["pixels_differ"]])
		}
		if num(r, "cycles") <= 0 || num(r, "vs_share") <= 0 || num(r, "vs_share") >= 1 {
			t.Errorf("%s: cycles %s, VS share %s", name, r[col["cycles"]], r[col["vs_share"]])
		}
	}
	for _, fig := range []string{"acmr.png", "acmr_cache_size.png", "timed.png"} {
		if st, err := os.Stat(filepath.Join(dir, fig)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", fig, err)
		}
	}
	if !strings.Contains(out.String(), "ACMR (vertex shader invocations per triangle") {
		t.Errorf("no ACMR table printed:\n%s", out.String())
	}
}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, ParseFlags) }

// TestEveryBuiltinRuns measures every built-in scene of a full run at 32x18
// (the -quick study covers three): each point's batch counts must equal the
// timed IA's, and the scenes left out are exactly those the study cannot
// count (a DrawAuto draw, triangles with adjacency).
func TestEveryBuiltinRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("every built-in scene, three timed frames each")
	}
	names := TriangleBuiltins()
	var left []string
	for _, n := range scene.BuiltinNames() {
		if !slices.Contains(names, n) {
			left = append(left, n)
		}
	}
	if want := []string{"particles", "silhouette"}; !reflect.DeepEqual(left, want) {
		t.Errorf("built-ins left out: %v, want %v", left, want)
	}
	o := Options{Common: expt.Common{Workers: 1}, Width: 32, Height: 18}
	o.defaults()
	cfg := configs.Default()
	for _, n := range names {
		r, err := runPoint(point{name: n}, o, cfg, nil)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if len(r.Orders) != len(OrderNames) || r.Orders[0].Reuse.Triangles == 0 {
			t.Errorf("%s: %d orders, %d triangles", n, len(r.Orders), r.Orders[0].Reuse.Triangles)
		}
	}
}
