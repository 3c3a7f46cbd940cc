package memory_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
)

// TestRandomTraffic writes random full and partial lines (each line at most
// once, since the memory does not order requests), then reads random pieces of
// lines, through DRAM or ideal channels with and without the L2, on the serial
// and the parallel engine. Every read must return the image with the writes
// applied, every request must complete, and both engines must give the same
// completion cycles and statistics.
func TestRandomTraffic(t *testing.T) {
	const seed = 20261121
	t.Logf("seed %d", seed)
	for _, tc := range []struct {
		name string
		cfg  memory.Config
		l2   *memory.L2Config
	}{
		{"dram", memory.Config{}, nil},
		{"ideal", memory.Config{Type: memory.TypeIdeal, NumChannels: 3, InterleaveBytes: 512}, nil},
		{"dram+l2", memory.Config{NumChannels: 2}, &memory.L2Config{SizeBytes: 8 << 10, Ways: 2}},
		{"dramctl", memory.Config{Type: memory.TypeDRAMCtl, NumChannels: 3,
			DRAMCtl: dramctl.Config{Preset: "HBM2", Refresh: true, Check: true}}, nil},
		{"dramctl+l2", memory.Config{Type: memory.TypeDRAMCtl, NumChannels: 4,
			DRAMCtl: dramctl.Config{Preset: "GDDR6", Refresh: true, Check: true, PagePolicy: dramctl.PageClosed}},
			&memory.L2Config{SizeBytes: 8 << 10, Ways: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1))
			const lines = 512
			img := pattern(lines*64, 0x42)
			want := append([]byte(nil), img...)
			var script []op
			for _, line := range rng.Perm(lines)[:lines/2] {
				off := uint64(line) * 64
				size := uint64(64)
				if rng.IntN(2) == 0 {
					size = uint64(rng.IntN(8)+1) * 4
					off += uint64(rng.IntN(int(64-size)/4+1)) * 4
				}
				data := pattern(int(size), byte(rng.IntN(256)))
				copy(want[off:], data)
				script = append(script, op{at: uint64(len(script) / 4), write: true,
					addr: imageBase + off, data: data, tag: uint64(len(script))})
			}
			for i := 0; i < 400; i++ {
				line := uint64(rng.IntN(lines))
				off := uint64(rng.IntN(16)) * 4
				size := uint64(rng.IntN(int(64-off)/4)+1) * 4
				script = append(script, op{at: 20000 + uint64(i/4), addr: imageBase + line*64 + off,
					size: size, tag: uint64(len(script))})
			}
			ccfg := memclient.Config{MaxOutstanding: 32, MergeReads: true}
			var results [2]string
			for e, engine := range []sim.Engine{sim.NewSerialEngine(), sim.NewParallelEngine()} {
				r := newRigOn(t, engine, tc.cfg, tc.l2, ccfg, script)
				if err := r.mem.LoadImage(imageBase, img); err != nil {
					t.Fatal(err)
				}
				r.run(t)
				for _, d := range r.agent.done {
					o := script[d.Tag]
					if d.Write {
						if d.cycle >= 20000 {
							t.Fatalf("write %d completed in cycle %d, after the reads started", d.Tag, d.cycle)
						}
						continue
					}
					w := want[o.addr-imageBase : o.addr-imageBase+o.size]
					if !bytes.Equal(d.Data, w) {
						t.Fatalf("engine %d: read 0x%x+%d: % x, want % x", e, o.addr, o.size, d.Data, w)
					}
				}
				cycles := make([]uint64, len(script))
				for _, d := range r.agent.done {
					cycles[d.Tag] = d.cycle
				}
				s := stats(r.mem.Stats)
				if r.l2 != nil {
					for k, v := range stats(r.l2.Stats) {
						s[k] = v
					}
				}
				if r.l2 != nil && s["GPU.Memory.Channel[0].writes"] == 0 {
					t.Error("no L2 write-back reached the memory")
				}
				results[e] = fmt.Sprint(cycles, s) // fmt sorts map keys
			}
			if results[0] != results[1] {
				t.Errorf("serial and parallel engines differ:\n%s\n%s", results[0], results[1])
			}
		})
	}
}
