package hostile

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"runtime"
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
		src := numbered("meshes:\n  m0: &big {procedural: {kind: plane, segments: [1023, 1023]}}\n", "  m%d: *big\n", 1, 40) +
			"materials: {u: {shader: unlit}}\nobjects: [{mesh: m0, material: u}]\n"
		var err error
		bounded(t, 20*time.Second, func() {
			_, err = scene.Load(write(t, dir, "meshes.yaml", []byte(src)), scene.WithBudget(inputs.NewBudget(256<<20)))
		})
		wantErr(t, err, "meshes.yaml:5: meshes.m3.procedural: the procedural mesh of 1048576 vertices needs about 72.0 MiB",
			"more than the memory budget of 256.0 MiB")
	})
	t.Run("procedural mesh refused before it is made", func(t *testing.T) {
		src := "meshes:\n  big: {procedural: {kind: plane, segments: [2047, 2047]}}\n" +
			"materials: {u: {shader: unlit}}\nobjects: [{mesh: big, material: u}]\n"
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := scene.Load(write(t, dir, "big.yaml", []byte(src)), scene.WithBudget(inputs.NewBudget(64<<20)))
		runtime.ReadMemStats(&after)
		wantErr(t, err, "big.yaml:2: meshes.big.procedural: the procedural mesh of 4194304 vertices needs about 287.9 MiB",
			"more than the memory budget of 64.0 MiB")
		// The mesh's 288 MiB were never allocated: the load allocated a few MB at most.
		if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
			t.Errorf("the refused load allocated %d MB", got>>20)
		}
	})
	t.Run("procedural textures refused before they are made", func(t *testing.T) {
		for _, tc := range []struct{ name, texture, want string }{
			{"sky", "{type: cube, procedural: {kind: sky, size: 4096}}", "sky.yaml:2: textures.t.procedural: the 6 images of 4096x4096 needs about 384.0 MiB"},
			{"2D", "{procedural: {kind: noise, size: [4096, 4096]}}", "2D.yaml:2: textures.t.procedural: the 4096x4096 image needs about 64.0 MiB"},
			{"volume", "{type: 3d, procedural: {kind: noise3d, size: [1024, 1024, 64]}}", "volume.yaml:2: textures.t.procedural: the 64 images of 1024x1024 needs about 256.0 MiB"},
		} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := scene.Load(write(t, dir, tc.name+".yaml", []byte("textures:\n  t: "+tc.texture+"\n")), scene.WithBudget(inputs.NewBudget(48<<20)))
			runtime.ReadMemStats(&after)
			wantErr(t, err, tc.want, "more than the memory budget of 48.0 MiB")
			if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
				t.Errorf("%s: the refused load allocated %d MB", tc.name, got>>20)
			}
		}
	})
	t.Run("a cube of one 2D kind reserves its six faces", func(t *testing.T) {
		b := inputs.NewBudget(1 << 30)
		if _, err := scene.Load(write(t, dir, "cube.yaml", []byte("textures:\n  t: {type: cube, procedural: {kind: solid, size: [64, 64]}}\n")), scene.WithBudget(b)); err != nil {
			t.Fatal(err)
		}
		// The generated face, then the texture's copy of six faces.
		if got, want := b.Used(), int64(7*64*64*4); got != want {
			t.Errorf("reserved %d bytes, want %d", got, want)
		}
	})
	t.Run("stream-out buffers", func(t *testing.T) {
		src := numbered("stream_buffers:\n", "  b%d: {size: 67108864}\n", 0, 16) +
			numbered("materials: {step: {shader: particle_step}}\nmeshes: {t: {procedural: {kind: triangle}}}\nobjects:\n",
				"  - {mesh: t, material: step, topology: points, stream_out: {buffer: b%d, rasterize: false}}\n", 0, 16)
		b := inputs.NewBudget(700 << 20)
		s, err := scene.Load(write(t, dir, "streams.yaml", []byte(src)), scene.WithBudget(b))
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, expt.ReserveFrame(b, s), "streams.yaml: the frame of scene streams (1280x720, 1 sample, 0 textures, 16 stream-out buffers) needs about 1.0 GiB", "more than the memory budget of 700.0 MiB")
	})
}

// TestImageFileDecodedOnce: textures that name one image file share one
// decode and one reservation of it; each texture reserves only its own copy.
func TestImageFileDecodedOnce(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 64, 64))); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "same.png", b.Bytes())
	used := func(n int) int64 {
		src := numbered("textures:\n", "  t%d: {file: same.png}\n", 0, n)
		bud := inputs.NewBudget(1 << 30)
		if _, err := scene.Load(write(t, dir, fmt.Sprintf("s%d.yaml", n), []byte(src)), scene.WithBudget(bud)); err != nil {
			t.Fatal(err)
		}
		return bud.Used()
	}
	const imageBytes, textureCopy = 64 * 64 * 4, 64 * 64 * 4
	if one, six := used(1), used(6); six-one != 5*textureCopy || one < imageBytes+textureCopy {
		t.Errorf("one texture reserved %d bytes, six %d: want the %d-byte image once and a %d-byte copy per texture",
			one, six, imageBytes, textureCopy)
	}
}

// numbered returns head followed by line filled with each i in [from, to).
func numbered(head, line string, from, to int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, line, i)
	}
	return b.String()
}
