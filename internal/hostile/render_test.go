package hostile

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// hiddenScene writes a scene of a wall at z = 1 and then one draw of a small
// triangle in front of it (whose quads stay pending in a partly filled warp)
// followed by n copies of a triangle behind it, every one culled by early Z.
func hiddenScene(t *testing.T, n int) *scene.Scene {
	t.Helper()
	dir := t.TempDir()
	var obj strings.Builder
	obj.WriteString("v -0.1 -0.1 2\nv 0.1 -0.1 2\nv 0 0.1 2\nv -0.5 -0.5 0\nv 0.5 -0.5 0\nv 0 0.5 0\nf 1 2 3\n")
	for i := 0; i < n; i++ {
		obj.WriteString("f 4 5 6\n")
	}
	write(t, dir, "hidden.obj", []byte(obj.String()))
	src := `resolution: [64, 64]
meshes:
  wall: {procedural: {kind: plane, size: 10}}
  hidden: {file: hidden.obj}
materials:
  grey: {shader: unlit, params: {color: [0.5, 0.5, 0.5, 1]}}
  red: {shader: unlit, params: {color: [1, 0, 0, 1]}}
objects:
  - {mesh: wall, material: grey, transform: {translate: [0, 0, 1], rotate: [90, 0, 0]}}
  - {mesh: hidden, material: red}
`
	s, err := scene.Load(write(t, dir, "hidden.yaml", []byte(src)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHiddenTrianglesBoundedMemory: the reference renderer's memory is
// bounded by what is in flight, not by the triangles of a draw that early Z
// culls (class 8).
func TestHiddenTrianglesBoundedMemory(t *testing.T) {
	const n = 300_000
	s := hiddenScene(t, n)
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := watchHeap(2 * time.Millisecond)
	res, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, reference.DefaultOptions())
	p := peak()
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Counters; c.EarlyZQuadsCulled < n || c.QuadsWritten == 0 {
		t.Fatalf("%d quads culled by early Z, %d written: the scene does not test what it should", c.EarlyZQuadsCulled, c.QuadsWritten)
	}
	if grew := int64(p) - int64(before.HeapInuse); grew > 64<<20 {
		t.Errorf("the heap grew by %d MB while rendering %d hidden triangles, want under 64 MB", grew>>20, n)
	}
}

// TestWatchdogHugeBatch: a draw of thousands of triangles over the same
// vertices advances on the timed machine without the watchdog calling it
// stuck, even with the shortest watchdog period, and gives the reference
// image (class 9).
func TestWatchdogHugeBatch(t *testing.T) {
	s := hiddenScene(t, 6000)
	cfg, err := configs.Parse(filepath.Join(t.TempDir(), "wd.yaml"), []byte("watchdog_cycles: 1000\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := configs.RunScene(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	g, err := driver.Encode(s, cfg.DriverOptions())
	if err != nil {
		t.Fatal(err)
	}
	o := reference.DefaultOptions()
	o.Raster = cfg.RasterOptions()
	ref, err := reference.Render(g.Memory, g.Stream, g.StreamBytes, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ref.Image.Pix, res.Image.Pix) {
		t.Error("the timed image differs from the reference renderer's")
	}
	if b := res.Stats["GPU.InputAssembler.batches"]; b < 6000/256 {
		t.Errorf("%v vertex batches, want at least %d (batches close at 256 triangles)", b, 6000/256)
	}
}
