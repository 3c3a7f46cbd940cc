package filter

import "testing"

// BenchmarkDisplay filters a 1280x1024 frame at 8 samples per pixel with the
// Mitchell-Netravali table (the paper's section 10.3 configuration); it reports
// ns per output pixel.
func BenchmarkDisplay(b *testing.B) {
	const w, h, n = 1280, 1024, 8
	src := randomField(w, h, n, 1)
	pos := newJitterPositions(1)
	k, _ := KernelByName("mitchell")
	conv := NewConvolver(mustTable(k))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Display(w, h, n, pos, src, conv, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(w*h), "ns/pixel")
}
