package inputassembler

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/scene"
)

// TestFrameMatchesReference sends every draw of a built-in scene through the
// input assembler and checks the batches and their attributes against the
// functional model, and the batch counters against the reference renderer's.
func TestFrameMatchesReference(t *testing.T) {
	serial := runFrame(t, sim.NewSerialEngine())
	parallel := runFrame(t, sim.NewParallelEngine())
	if !reflect.DeepEqual(serial, parallel) {
		t.Errorf("the parallel engine gives different statistics or dispatch times:\n%v\n%v", serial, parallel)
	}
}

// frameResult is what must not depend on the engine.
type frameResult struct {
	Stats  map[string]float64
	Cores  []int
	Cycles []uint64
}

func runFrame(t *testing.T, e sim.Engine) frameResult {
	f := testpeer.EncodeBuilt(t, testpeer.Builtin(t, "room", scene.WithResolution(64, 48), scene.WithSamples(1), scene.WithMaxTextureSize(32)))
	ref := testpeer.Reference(t, f)
	draws := testpeer.FrameDraws(t, f)
	bn := newBenchOn(t, e, f.Memory, testpeer.Edit(DefaultConfig(), func(c *Config) { c.Credits = 4 }), 4, 40)
	bn.peers.autoCredit, bn.peers.creditDelay = true, 50
	bn.send(draws...)
	bn.run(t)

	got, cores, cycles := bn.peers.batches()
	batcher, _ := vertex.NewBatcher(vertex.DefaultBatchVertices)
	var fetch vertex.Fetcher
	k := 0
	for _, d := range draws {
		var b vertex.Batch
		for first := 0; batcher.Next(f.Memory, &d.State.Stream, first, &b); first += len(b.Triangles) {
			if k >= len(got) {
				t.Fatalf("only %d batches", len(got))
			}
			attrs := make([]vertex.Attributes, len(b.Vertices))
			pipeline.FetchBatch(d.State, f.Memory, &b, &fetch, attrs)
			g := got[k]
			if g.Draw != d || !reflect.DeepEqual(g.Batch.Vertices, b.Vertices) || !reflect.DeepEqual(g.Batch.Triangles, b.Triangles) ||
				!reflect.DeepEqual(g.Attrs, attrs) {
				t.Fatalf("batch %d (draw %d, first triangle %d) differs from the functional model", k, d.Seq, first)
			}
			k++
		}
	}
	st := testpeer.StatMap(bn.ia)
	c := ref.Counters
	for name, want := range map[string]int{"draws": c.Draws, "batches": c.VertexBatches, "vertices": c.VSInvocations,
		"batch_tag_hits": c.VertexCacheHits, "batch_tag_misses": c.VertexCacheMisses} {
		if st["GPU.InputAssembler."+name] != float64(want) {
			t.Errorf("%s = %v, the reference counts %d", name, st["GPU.InputAssembler."+name], want)
		}
	}
	if k != len(got) || len(bn.peers.infos()) != len(draws) {
		t.Errorf("%d batches and %d BatchInfo for %d batches and %d draws", len(got), len(bn.peers.infos()), k, len(draws))
	}
	return frameResult{Stats: st, Cores: cores, Cycles: cycles}
}
