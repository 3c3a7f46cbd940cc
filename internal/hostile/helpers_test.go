package hostile

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene"
)

// memoryLimit is the soft limit every test runs under; heapCeiling is the
// live heap no case may leave behind or reach while it runs.
const (
	memoryLimit = 1 << 30
	heapCeiling = 768 << 20
)

func TestMain(m *testing.M) {
	debug.SetMemoryLimit(memoryLimit)
	os.Exit(m.Run())
}

// watchHeap samples the heap in use every period until the returned
// function is called, which returns the largest sample.
func watchHeap(period time.Duration) (peak func() uint64) {
	stop := make(chan struct{})
	out := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var p uint64
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			p = max(p, m.HeapInuse)
			select {
			case <-stop:
				out <- p
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		return <-out
	}
}

// bounded runs f and fails when it takes longer than limit or when the heap
// in use exceeded heapCeiling while it ran (sampled every 5 ms).
func bounded(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	peak := watchHeap(5 * time.Millisecond)
	start := time.Now()
	f()
	took := time.Since(start)
	if p := peak(); p > heapCeiling {
		t.Errorf("heap in use reached %d MB, more than %d MB", p>>20, heapCeiling>>20)
	}
	if took > limit {
		t.Errorf("took %v, more than %v", took, limit)
	}
}

// loadCase is a hostile input: load must fail with an error naming every
// want.
type loadCase struct {
	name string
	load func() error
	want []string
}

// runBounded runs every case as a subtest under bounded(limit) and checks
// its error.
func runBounded(t *testing.T, limit time.Duration, cases []loadCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			bounded(t, limit, func() { err = tc.load() })
			wantErr(t, err, tc.want...)
		})
	}
}

// sceneFile returns a load that writes src to dir/name and loads it as a
// scene with opts.
func sceneFile(t *testing.T, dir, name, src string, opts ...scene.Option) func() error {
	return func() error {
		_, err := scene.Load(write(t, dir, name, []byte(src)), opts...)
		return err
	}
}

// configFile returns a load that writes src to dir/name and loads it as a
// machine configuration.
func configFile(t *testing.T, dir, name, src string) func() error {
	return func() error {
		_, err := configs.Load(write(t, dir, name, []byte(src)))
		return err
	}
}

// write creates dir/name with data and returns its path.
func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// wantErr fails unless err is an error that contains every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one with %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}
