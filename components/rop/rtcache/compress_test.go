package rtcache_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
)

// TestSetSurfaceApplies: compression applies to a surface only when it is on,
// the surface is multisampled, a line holds whole pixels from a pixel-aligned
// base, and the block (line/samples) is at least MinBlock.
func TestSetSurfaceApplies(t *testing.T) {
	tests := []struct {
		name     string
		line     int
		minBlock int
		off      bool
		s        rtcache.Surface
		want     bool
	}{
		{"4x RGBA8, 256-byte lines", 256, 0, false, rtcache.Surface{Base: base, Size: 4096, Samples: 4, BytesPerSample: 4}, true},
		{"compression off", 256, 0, true, rtcache.Surface{Base: base, Size: 4096, Samples: 4, BytesPerSample: 4}, false},
		{"1x", 256, 0, false, rtcache.Surface{Base: base, Size: 4096, Samples: 1, BytesPerSample: 4}, false},
		{"4x, 128-byte lines: 32-byte blocks", 128, 0, false, rtcache.Surface{Base: base, Size: 4096, Samples: 4, BytesPerSample: 4}, false},
		{"4x, 128-byte lines, 32-byte access", 128, 32, false, rtcache.Surface{Base: base, Size: 4096, Samples: 4, BytesPerSample: 4}, true},
		{"8x RGBA8, 256-byte lines", 256, 0, false, rtcache.Surface{Base: base, Size: 4096, Samples: 8, BytesPerSample: 4}, false},
		{"8x RGBA8, 512-byte lines", 512, 0, false, rtcache.Surface{Base: base, Size: 4096, Samples: 8, BytesPerSample: 4}, true},
		{"4x RGBA32F, 256-byte lines", 256, 0, false, rtcache.Surface{Base: base, Size: 4096, Samples: 4, BytesPerSample: 16}, true},
		{"16x RGBA32F: a pixel is bigger than a line", 128, 8, false, rtcache.Surface{Base: base, Size: 4096, Samples: 16, BytesPerSample: 16}, false},
		{"base not pixel aligned", 256, 0, false, rtcache.Surface{Base: base + 8, Size: 4096, Samples: 4, BytesPerSample: 4}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, _ := setup(t, rtcache.Config{Size: 4 * tc.line, Ways: 1, LineSize: tc.line, MaxOutstanding: 2,
				WriteQueue: 2, Compression: !tc.off, MinBlock: tc.minBlock}, 5)
			if got := o.cache.SetSurface(tc.s); got != tc.want {
				t.Errorf("SetSurface = %v, want %v", got, tc.want)
			}
			if got := o.cache.SetSurface(tc.s); got != tc.want {
				t.Errorf("SetSurface again = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestCompressedTags follows the tags of a 4x RGBA8 surface of four 256-byte
// lines through write-backs, reads, a fast clear and a flush, with exact sizes.
func TestCompressedTags(t *testing.T) {
	o, m := setup(t, rtcache.Config{Size: 512, Ways: 1, LineSize: 256, MaxOutstanding: 4, WriteQueue: 4,
		Compression: true}, 5)
	img := o.img.Bytes()
	// Line 0: every pixel (16 bytes) has four equal samples, pixels differ.
	// Line 1: the same but pixel 5's sample 2 differs.
	for l := 0; l < 2; l++ {
		for px := 0; px < 16; px++ {
			for s := 0; s < 4; s++ {
				copy(img[l*256+px*16+s*4:], []byte{byte(px), byte(2 * px), 7, 255})
			}
		}
	}
	img[256+5*16+2*4] ^= 1
	clear(img[512:1024]) // lines 2 and 3: zeros, uniform
	if !o.cache.SetSurface(rtcache.Surface{Base: base, Size: 1024, Samples: 4, BytesPerSample: 4}) {
		t.Fatal("surface not compressible")
	}
	var states []rtcache.LineState
	state := func(sim.VTimeInSec) {
		for l := uint64(0); l < 4; l++ {
			states = append(states, o.cache.State(base+l*256))
		}
	}
	acc := func(addr uint64) func(sim.VTimeInSec) {
		return func(now sim.VTimeInSec) { o.cache.Access(now, addr, 0) }
	}
	o.at(1, acc(base))     // read 256
	o.at(2, acc(base+256)) // read 256 (set 1)
	o.at(20, func(now sim.VTimeInSec) {
		o.cache.Write(base)
		o.cache.Write(base + 256)
		acc(base + 512)(now) // evicts line 0: compressed
		acc(base + 768)(now) // evicts line 1: uncompressed
	})
	o.at(40, state)
	o.at(41, acc(base))     // read 64, evicts clean line 2
	o.at(42, acc(base+256)) // read 256
	o.at(60, func(now sim.VTimeInSec) {
		o.cache.Clear(base+256, base+1024) // lines 1..3 cleared; line 1 leaves the cache
		state(now)
		o.cache.Write(base + 512) // cleared line 2 written: no longer cleared, tag reset
		state(now)
	})
	o.at(70, func(sim.VTimeInSec) { o.cache.Flush() }) // line 2 (zeros: uniform) compressed
	o.at(90, state)
	o.run(t)
	U, C, X := rtcache.Uncompressed, rtcache.Compressed, rtcache.Cleared
	want := []rtcache.LineState{
		C, U, U, U, // after the first write-backs
		C, X, X, X, // after the clear
		C, X, U, X, // line 2 written
		C, X, C, X, // after the flush
	}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("states %v,\nwant %v", states, want)
	}
	type x struct {
		off   uint64
		size  uint64
		write bool
	}
	var got []x
	for _, a := range m.Log {
		got = append(got, x{a.Addr - base, a.Size, a.Write})
	}
	wantLog := []x{{0, 256, false}, {256, 256, false}, {512, 256, false}, {768, 256, false},
		{0, 64, true}, {256, 256, true}, {0, 64, false}, {256, 256, false}, {512, 64, true}}
	if !reflect.DeepEqual(got, wantLog) {
		t.Errorf("memory log %v,\nwant %v", got, wantLog)
	}
	if d := m.Log[4].Data; !reflect.DeepEqual(d, img[:64]) {
		t.Errorf("the compressed write-back carried % x, want the line's first 64 bytes", d[:16])
	}
	c := o.cache.Counters()
	// Evictions: lines 0 and 1 (by 2 and 3), 2 and 3 (by 0 and 1), 0 again (line
	// 2 allocated by its write).
	wc := rtcache.Counters{Misses: 6, LineReads: 6, Evictions: 5, WriteBacks: 3, BytesRead: 5*256 + 64,
		BytesWritten: 64 + 256 + 64, CompressedReads: 1, UncompressedReads: 5, CompressedWriteBacks: 2,
		UncompressedWriteBacks: 1, BytesSaved: 3 * 192, ClearedLines: 3}
	if c != wc {
		t.Errorf("counters %+v,\nwant %+v", c, wc)
	}
}

// TestUnusableCounted: the transfers of a 1x surface's lines move whole and are
// counted as unusable; lines outside every surface are not counted.
func TestUnusableCounted(t *testing.T) {
	o, m := setup(t, rtcache.Config{Size: 256, Ways: 1, LineSize: 256, MaxOutstanding: 4, WriteQueue: 4,
		Compression: true}, 5)
	o.cache.SetSurface(rtcache.Surface{Base: base, Size: 512, Samples: 1, BytesPerSample: 4})
	o.at(1, func(now sim.VTimeInSec) { o.cache.Access(now, base, 0) })
	o.at(20, func(now sim.VTimeInSec) {
		o.cache.Write(base)
		o.cache.Access(now, base+1024, 0) // outside: evicts line 0 (whole)
	})
	o.run(t)
	for _, a := range m.Log {
		if a.Size != 256 {
			t.Errorf("a request of %d bytes", a.Size)
		}
	}
	if c := o.cache.Counters(); c.Unusable != 2 || c.CompressedWriteBacks+c.UncompressedWriteBacks+c.UncompressedReads != 0 {
		t.Errorf("counters %+v, want 2 unusable transfers", c)
	}
}

// sizeCodec compresses a line to 64 bytes per distinct leading byte value
// class: lines starting with 0 to 64 bytes, with 1 to 128, others not at all.
type sizeCodec struct{}

func (sizeCodec) Size(addr uint64, data []byte, unit uint64) uint64 {
	switch data[0] {
	case 0:
		return unit
	case 1:
		return 2 * unit
	}
	return uint64(len(data))
}

// TestCodecSurface: a surface with a codec moves each line with the size the
// codec gives at write-back, reads it back with that size, and the eviction
// hook sees every evicted line.
func TestCodecSurface(t *testing.T) {
	o, m := setup(t, rtcache.Config{Size: 256, Ways: 1, LineSize: 256, MaxOutstanding: 4, WriteQueue: 4,
		Compression: true}, 5)
	img := o.img.Bytes()
	img[0], img[256], img[512] = 0, 1, 2
	if !o.cache.SetSurface(rtcache.Surface{Base: base, Size: 1024, Codec: sizeCodec{}}) {
		t.Fatal("codec surface not usable")
	}
	var evicted []uint64
	o.cache.SetEvictHook(func(line uint64, dirty bool) {
		if dirty {
			evicted = append(evicted, line-base)
		} else {
			evicted = append(evicted, line-base+1)
		}
	})
	var sizes []uint64
	acc := func(addr uint64) func(sim.VTimeInSec) {
		return func(now sim.VTimeInSec) { o.cache.Access(now, addr, 0) }
	}
	wr := func(addr uint64) func(sim.VTimeInSec) {
		return func(now sim.VTimeInSec) { o.cache.Write(addr) }
	}
	o.at(1, wr(base))       // allocated without a read
	o.at(2, wr(base+256))   // evicts line 0 (dirty): 64 bytes
	o.at(3, wr(base+512))   // evicts line 1 (dirty): 128 bytes
	o.at(4, acc(base+768))  // evicts line 2 (dirty): 256 bytes; reads 256
	o.at(30, acc(base))     // evicts line 3 (clean); reads 64
	o.at(50, acc(base+256)) // evicts line 0 (clean); reads 128
	o.at(70, func(sim.VTimeInSec) {
		for l := uint64(0); l < 4; l++ {
			sizes = append(sizes, o.cache.CompressedSize(base+256*l))
		}
	})
	o.run(t)
	type x struct {
		off, size uint64
		write     bool
	}
	var got []x
	for _, a := range m.Log {
		got = append(got, x{a.Addr - base, a.Size, a.Write})
	}
	want := []x{{0, 64, true}, {256, 128, true}, {768, 256, false}, {512, 256, true}, {0, 64, false}, {256, 128, false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("memory log %v,\nwant %v", got, want)
	}
	if !reflect.DeepEqual(sizes, []uint64{64, 128, 256, 256}) {
		t.Errorf("compressed sizes %v", sizes)
	}
	if !reflect.DeepEqual(evicted, []uint64{0, 256, 512, 769, 1}) {
		t.Errorf("evicted %v", evicted)
	}
	if c := o.cache.Counters(); c.CompressedWriteBacks != 2 || c.CompressedReads != 2 || c.BytesSaved != 192+128+192+128 {
		t.Errorf("counters %+v", c)
	}
}
