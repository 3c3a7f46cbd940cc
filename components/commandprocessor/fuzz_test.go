package commandprocessor

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
)

// FuzzCommandStream feeds arbitrary bytes to the command processor as a command
// stream (after a memory image holding valid resources, so that seeds built from
// real commands reach the draws). Every run must end either finished or with an
// error: never a panic, never a silent stop with work pending.
func FuzzCommandStream(f *testing.F) {
	r := newResources(f)
	seeds := [][]command.Command{
		append(r.setup(), command.Draw{VertexCount: 3}, command.End{}),
		append(r.setup(), command.SetConstants{Stage: command.PixelStage, Count: 1, Addr: r.red},
			command.Clear{Flags: command.ClearColor | command.ClearDepth, Depth: 1},
			command.DrawIndexed{IndexCount: 6}, command.SyncToken{Value: 1, Addr: r.red}, command.Present{}, command.End{}),
		{command.SetViewport{Viewport: geom.Viewport{Width: 1, Height: 1, MaxZ: 1}}, command.Nop{Words: 3}, command.End{}},
	}
	for _, s := range seeds {
		var e command.Encoder
		for _, c := range s {
			e.Append(c)
		}
		f.Add(e.Bytes())
	}
	base := r.img.End()
	f.Fuzz(func(t *testing.T, stream []byte) {
		if len(stream) > 4096 {
			return
		}
		img := command.NewImage()
		img.Put(r.img.Bytes(), 1)
		if img.End() != base {
			t.Fatal("image copy moved")
		}
		addr := img.Put(stream, 4096)
		b := newBench(t, img, benchConfig{cp: testpeer.Edit(DefaultConfig(), func(c *Config) { c.DMAChunkBytes = 128 }), partitions: 2,
			memLatency: 3, drawLatency: 4, ackLatency: 2})
		b.run(t, img, addr, uint64(len(stream)))
		if (b.cp.Err() == nil) != b.cp.Finished() {
			t.Fatalf("finished %v with error %v", b.cp.Finished(), b.cp.Err())
		}
	})
}
