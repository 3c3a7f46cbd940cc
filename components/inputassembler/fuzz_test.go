package inputassembler

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// FuzzDraw runs one draw with arbitrary index bytes and stream parameters
// (including positions past the index buffer and vertices past the vertex
// buffer) through a small input assembler: the batches must be the batcher's,
// and the draw must end with its BatchInfo.
func FuzzDraw(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 3, 0}, uint16(6), uint16(0), int16(0), false, false, uint8(4))
	f.Add([]byte{5, 0, 0, 0, 9, 0, 0, 0, 200, 0, 0, 0}, uint16(9), uint16(1), int16(-3), true, true, uint8(3))
	f.Fuzz(func(t *testing.T, idx []byte, count, start uint16, base int16, strip, wide bool, batch uint8) {
		if len(idx) > 2048 || count > 600 || batch < 3 {
			return
		}
		img := command.NewImage()
		vb, l := vertexBuffer(img, 40)
		ib := vertex.IndexBuffer{Addr: img.Put(idx, 4), Format: 16, Size: uint32(len(idx))}
		if wide {
			ib.Format = 32
		}
		s := vertex.Stream{Indexed: len(idx) > 0, Index: ib, Count: uint32(count), Start: uint32(start), BaseVertex: int32(base)}
		if strip {
			s.Topology = command.TriangleStrip
		}
		cache := CacheConfig{SizeBytes: 256, Ways: 2, LineBytes: 32}
		bn := newBench(t, img, testpeer.Edit(DefaultConfig(), func(c *Config) {
			c.BatchVertices = int(batch)
			c.Credits = 2
			c.IndexCache = cache
			c.VertexCache = cache
			c.MaxOutstandingMemory = 2
		}), 2, 3)
		bn.peers.autoCredit, bn.peers.creditDelay = true, 2
		d := newDraw(0, s, vb, l)
		bn.send(d)
		bn.run(t)
		batcher, _ := vertex.NewBatcher(int(batch))
		got, _, _ := bn.peers.batches()
		k := 0
		var b vertex.Batch
		for first := 0; batcher.Next(img, &s, first, &b); first += len(b.Triangles) {
			if k >= len(got) || !reflect.DeepEqual(got[k].Batch.Vertices, b.Vertices) || !reflect.DeepEqual(got[k].Batch.Triangles, b.Triangles) {
				t.Fatalf("batch %d differs", k)
			}
			k++
		}
		infos := bn.peers.infos()
		if k != len(got) || len(infos) != 1 || infos[0].Msg.(*protocol.BatchInfo).Batches != k {
			t.Fatalf("%d batches sent, %d expected, BatchInfo %+v", len(got), k, infos)
		}
	})
}
