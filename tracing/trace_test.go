package tracing

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// expectedComponents are components whose tasks a full trace must contain; the
// first is the one whose task view the browser test opens.
var expectedComponents = []string{"GPU.Memory.Channel[0]", "GPU.L2.Bank[0]"}

// traceSmallFrame renders the room at 96x54 with every component traced and
// returns the trace file.
func traceSmallFrame(t *testing.T, dir string) string {
	t.Helper()
	s, err := scene.Builtin(scene.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResolution(96, 54, 4); err != nil {
		t.Fatal(err)
	}
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	p, err := configs.Build(configs.Default())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Attach(p, Options{Path: filepath.Join(dir, "trace")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(f); err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	return tr.File()
}

func TestTraceHasEveryParent(t *testing.T) {
	file := traceSmallFrame(t, t.TempDir())
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, orphans, sims int
	if err := db.QueryRow(`SELECT count(*) FROM trace`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM trace WHERE task_id != ? AND parent_id NOT IN (SELECT task_id FROM trace)`,
		SimulationTaskID).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM trace WHERE kind = 'Simulation'`).Scan(&sims); err != nil {
		t.Fatal(err)
	}
	if n < 100 || orphans != 0 || sims != 1 {
		t.Fatalf("%d tasks, %d orphans, %d Simulation tasks", n, orphans, sims)
	}
	for _, c := range expectedComponents {
		var k int
		if err := db.QueryRow(`SELECT count(*) FROM trace WHERE location = ?`, c).Scan(&k); err != nil || k == 0 {
			t.Errorf("no task of %s (%v)", c, err)
		}
	}
}
