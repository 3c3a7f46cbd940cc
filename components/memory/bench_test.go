package memory_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/memory"
)

// BenchmarkLoadImage loads a 16 MiB image into four channels.
func BenchmarkLoadImage(b *testing.B) {
	m, err := memory.Build(memory.Config{}, sim.NewSerialEngine(), "GPU.Memory")
	if err != nil {
		b.Fatal(err)
	}
	img := pattern(16<<20, 1)
	b.SetBytes(int64(len(img)))
	for i := 0; i < b.N; i++ {
		if err := m.LoadImage(imageBase, img); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGDDR5Stream reports the delivered bytes per DRAM cycle of one
// channel for sequential 64-byte reads (see TestGDDR5Throughput).
func BenchmarkGDDR5Stream(b *testing.B) {
	const n = 600
	script := make([]op, n)
	for i := range script {
		script[i] = op{addr: imageBase + uint64(i)*64, size: 64, tag: uint64(i)}
	}
	var bpc float64
	for i := 0; i < b.N; i++ {
		r := newRig(b, memory.Config{NumChannels: 1}, nil, memclient.Config{MaxOutstanding: 64}, script)
		r.run(b)
		last := r.agent.done[n-1].cycle
		bpc = n * 64 / (float64(last) / float64(agentFreq) * float64(memory.DefaultDRAMFreq))
	}
	b.ReportMetric(bpc, "B/DRAMcycle")
}
