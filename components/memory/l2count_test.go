package memory_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/memory"
)

// TestL2CountsEachReadOnce: every read a bank takes is counted once as a
// hit, a miss or an MSHR hit, also when the directory retries a hit because
// the bank stage is busy with fills. Reads of one resident line interleaved
// with misses to other lines, all issued at once, make the fills take the
// bank stage while hits wait for it. (Akita's directory records its
// "read-hit" step before it knows the bank can take the read, and again on
// every retry: read_hits counted 55 for these 40 hits.)
func TestL2CountsEachReadOnce(t *testing.T) {
	const hot = imageBase
	script := []op{{at: 0, addr: hot, size: 64}}
	for i := 0; i < 40; i++ {
		script = append(script,
			op{at: 400, addr: hot, size: 64, tag: uint64(2 * i)},
			op{at: 400, addr: hot + uint64(i+1)*0x200, size: 64, tag: uint64(2*i + 1)}) // bank 0, another line each
	}
	l2 := memory.L2Config{SizeBytes: 64 << 10}
	r := newRig(t, memory.Config{Type: memory.TypeIdeal, NumChannels: 2}, &l2, memclient.Config{MaxOutstanding: 128}, script)
	if err := r.mem.LoadImage(imageBase, pattern(64<<10, 0x5a)); err != nil {
		t.Fatal(err)
	}
	r.run(t)
	s := stats(r.l2.Stats)
	const b = "GPU.L2.Bank[0]."
	hits, misses, mshr := s[b+"read_hits"], s[b+"read_misses"], s[b+"read_mshr_hits"]
	if reads := s[b+"reads"]; reads != 81 || hits+misses+mshr != reads {
		t.Errorf("reads %v, read_hits %v + read_misses %v + read_mshr_hits %v = %v; want 81 reads, each counted once",
			reads, hits, misses, mshr, hits+misses+mshr)
	}
	if misses != 41 || hits+mshr != 40 {
		t.Errorf("read_misses %v, read_hits %v + read_mshr_hits %v; want 41 misses and 40 hits", misses, hits, mshr)
	}
	if want := hits / 81; s[b+"read_hit_rate"] != want {
		t.Errorf("read_hit_rate %v, want %v", s[b+"read_hit_rate"], want)
	}
}
