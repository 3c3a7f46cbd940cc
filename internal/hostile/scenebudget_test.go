package hostile

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
)

// TestSceneBuildsWithinBudget: what a scene file makes rather than reads
// counts against the budget too: procedural meshes (40 aliases of a
// million-vertex plane stop at the fourth, before the heap grows past the
// test's ceiling) and stream-out buffers (16 of 64 MiB are in the frame's
// memory, which is refused up front).
func TestSceneBuildsWithinBudget(t *testing.T) {
	dir := t.TempDir()
	t.Run("aliased procedural meshes", func(t *testing.T) {
		var src strings.Builder
		src.WriteString("meshes:\n  m0: &big {procedural: {kind: plane, segments: [1023, 1023]}}\n")
		for i := 1; i < 40; i++ {
			fmt.Fprintf(&src, "  m%d: *big\n", i)
		}
		src.WriteString("materials: {u: {shader: unlit}}\nobjects: [{mesh: m0, material: u}]\n")
		var err error
		bounded(t, 20*time.Second, func() {
			_, err = scene.Load(write(t, dir, "meshes.yaml", []byte(src.String())), scene.WithBudget(inputs.NewBudget(256<<20)))
		})
		wantErr(t, err, "meshes.yaml:5: meshes.m3.procedural: the procedural mesh of 1048576 vertices needs about 72.0 MiB",
			"more than the memory budget of 256.0 MiB")
	})
	t.Run("stream-out buffers", func(t *testing.T) {
		var src strings.Builder
		src.WriteString("stream_buffers:\n")
		for i := 0; i < 16; i++ {
			fmt.Fprintf(&src, "  b%d: {size: 67108864}\n", i)
		}
		src.WriteString("materials: {step: {shader: particle_step}}\nmeshes: {t: {procedural: {kind: triangle}}}\nobjects:\n")
		for i := 0; i < 16; i++ {
			fmt.Fprintf(&src, "  - {mesh: t, material: step, topology: points, stream_out: {buffer: b%d, rasterize: false}}\n", i)
		}
		b := inputs.NewBudget(700 << 20)
		s, err := scene.Load(write(t, dir, "streams.yaml", []byte(src.String())), scene.WithBudget(b))
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, expt.ReserveFrame(b, s), "streams.yaml: the frame of scene streams (1280x720, 1 sample, 0 textures, 16 stream-out buffers) needs about 1.0 GiB", "more than the memory budget of 700.0 MiB")
	})
}
