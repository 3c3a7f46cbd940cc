package hiz

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/depth"
)

func TestMaskCost(t *testing.T) {
	cases := []struct{ s, b, m, want int }{
		{128, 8, 0, 32}, {128, 8, 7, 81}, {128, 4, 6, 82}, {128, 16, 4, 76}, {32, 8, 1, 15},
	}
	for _, c := range cases {
		if got := MaskCost(c.s, c.b, c.m); got != c.want {
			t.Errorf("MaskCost(%d, %d, %d) = %d, want %d", c.s, c.b, c.m, got, c.want)
		}
	}
	cfg := Config{Mode: ZMask, Packed: true}.WithDefaults()
	if cfg.TileSamples != 128 || cfg.MaskBlock != 8 || cfg.PackedBits != 128 || cfg.MaskBudget() != 82 || cfg.MaxMixedBlocks() != 7 {
		t.Errorf("packed defaults %+v: budget %d, %d mixed blocks", cfg, cfg.MaskBudget(), cfg.MaxMixedBlocks())
	}
	if cfg.TileBits() != 224 || cfg.MemoryTileBits() != 128 {
		t.Errorf("tile bits %d in cache, %d in memory; want 224 and 128", cfg.TileBits(), cfg.MemoryTileBits())
	}
	for _, c := range []struct {
		cfg  Config
		bits int
	}{{Config{Mode: Forward}, 64}, {Config{Mode: ZMask}, 128}, {Config{Mode: ZMask, Layers: 3}, 192}, {Config{Mode: ZMask, Layers: 4, TileSamples: 64}, 288}} {
		if got := c.cfg.WithDefaults().TileBits(); got != c.bits {
			t.Errorf("%+v: TileBits %d, want %d", c.cfg, got, c.bits)
		}
	}
}

// packedTile returns a 16x8-pixel packed buffer whose tile has z-min 5000000,
// layer 1 (near, z-max 7000000) on the given count of samples at the start of
// each 8-sample block, layer 0 (far, z-max 9000000) elsewhere.
func packedTile(t *testing.T, near []int) *Buffer {
	t.Helper()
	b, err := NewBuffer(Config{Mode: ZMask, Packed: true}, Target{Width: 16, Height: 8, Samples: 1, Format: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	var l1 Mask
	for k, n := range near {
		l1 = l1.Or(Range(8*k, 8*k+n))
	}
	st := TileState{Known: true, Lo: 5000000}
	st.Hi[0], st.Hi[1] = 9000000, 7000000
	st.Layer[0], st.Layer[1] = Range(0, 128).AndNot(l1), l1
	b.SetTile(0, st)
	return b
}

// TestPackLossy: nine mixed blocks against a budget of seven: the two with the
// fewest near samples (blocks 1 and 3, one sample each) go to the far layer;
// the values round outwards to 15-bit floats (5000000 down to 4999167,
// 9000000 and 7000000 up to 9003008 and 7000064).
func TestPackLossy(t *testing.T) {
	b := packedTile(t, []int{3, 1, 5, 1, 2, 4, 4, 4, 4})
	if n := b.MixedBlocks(0); n != 9 {
		t.Fatalf("%d mixed blocks", n)
	}
	if forced := b.Pack(0); forced != 2 {
		t.Errorf("Pack forced %d blocks, want 2", forced)
	}
	got := b.Tile(0)
	want := TileState{Known: true, Lo: 4999167}
	want.Hi[0], want.Hi[1] = 9003008, 7000064
	var l1 Mask
	for k, n := range []int{3, 0, 5, 0, 2, 4, 4, 4, 4} {
		l1 = l1.Or(Range(8*k, 8*k+n))
	}
	want.Layer[0], want.Layer[1] = Range(0, 128).AndNot(l1), l1
	if got != want {
		t.Errorf("packed\n got  %+v\n want %+v", got, want)
	}
	if n := b.MixedBlocks(0); MaskCost(128, 8, n) > b.Config().MaskBudget() {
		t.Errorf("%d mixed blocks cost %d bits", n, MaskCost(128, 8, n))
	}
	// A tile within budget loses nothing but value precision.
	b = packedTile(t, []int{3, 1, 5})
	if forced := b.Pack(0); forced != 0 {
		t.Errorf("forced %d blocks within budget", forced)
	}
	if st := b.Stats(); st.Packs != 1 || st.BlocksForced != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestEncodeDecode(t *testing.T) {
	b := packedTile(t, []int{3, 1, 5, 1, 2, 4, 4, 4, 4, 8})
	b.Pack(0)
	enc := b.Encode(0, nil)
	if len(enc) != 16 {
		t.Fatalf("packed tile of %d bytes, want 16", len(enc))
	}
	dec, err := b.Decode(enc, Range(0, 128))
	if err != nil {
		t.Fatal(err)
	}
	if dec != b.Tile(0) {
		t.Errorf("decoded\n %+v\nwant\n %+v", dec, b.Tile(0))
	}
	// Greater form and an unpacked configuration round-trip too.
	st := b.Tile(0)
	st.Greater = true
	st.Lo, st.Hi[0], st.Hi[1] = ^RoundBound(800, depth.D24S8, true, false), ^RoundBound(300, depth.D24S8, false, false), ^RoundBound(500, depth.D24S8, false, false)
	b.SetTile(0, st)
	if dec, err := b.Decode(b.Encode(0, nil), Range(0, 128)); err != nil || dec != st {
		t.Errorf("greater form: %+v %v\nwant %+v", dec, err, st)
	}
	u, err := NewBuffer(Config{Mode: ZMask, Layers: 3}, Target{Width: 8, Height: 4, Samples: 1, Format: depth.D32F})
	if err != nil {
		t.Fatal(err)
	}
	ust := tileOf(5, []uint32{70, 80, 90}, Range(0, 10), Range(10, 20), Range(20, 32))
	u.SetTile(0, ust)
	enc = u.Encode(0, nil)
	if len(enc) != 24 {
		t.Errorf("3-layer tile of %d bytes, want 24", len(enc))
	}
	if dec, err := u.Decode(enc, Range(0, 32)); err != nil || dec != ust {
		t.Errorf("unpacked: %+v %v", dec, err)
	}
	if _, err := u.Decode(enc[:5], Range(0, 32)); err == nil {
		t.Error("a short tile decoded")
	}
	bad := append([]byte(nil), enc...)
	bad[16] = 0xFF // layer 3 of 3
	if _, err := u.Decode(bad, Range(0, 32)); err == nil {
		t.Error("layer index 3 of 3 decoded")
	}
}

func FuzzDecode(f *testing.F) {
	p, _ := NewBuffer(Config{Mode: ZMask, Packed: true}, Target{Width: 16, Height: 8, Samples: 1, Format: depth.D32F})
	u, _ := NewBuffer(Config{Mode: ZMask, Layers: 3}, Target{Width: 8, Height: 4, Samples: 1, Format: depth.D24S8})
	f.Add(p.Encode(0, nil))
	f.Add(u.Encode(0, nil))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range []*Buffer{p, u} {
			valid := Range(0, b.Geometry().TileSamples)
			st, err := b.Decode(data, valid)
			if err != nil {
				continue
			}
			var all Mask
			for i := 0; i < b.Config().Layers; i++ {
				if st.Layer[i].Intersects(all) {
					t.Fatalf("layers overlap: %+v", st)
				}
				all = all.Or(st.Layer[i])
			}
			if st.Known && all != valid {
				t.Fatalf("layers do not partition the tile: %+v", st)
			}
		}
	})
}

// TestEncodeLayout pins the packed bit layout of Encode (bits little-endian
// first): the form bit, z-min, z-max 0 and z-max 1 as 15-bit codes (bits 1-15,
// 16-30, 31-45), then per 8-sample block a mixed bit and the layer bit
// (uniform) or 8 sample bits (mixed), zero-padded to PackedBits.
func TestEncodeLayout(t *testing.T) {
	b, err := NewBuffer(Config{Mode: ZMask, Packed: true}, Target{Width: 16, Height: 8, Samples: 1, Format: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	// z-min 0 reduces to code 2, the largest code whose downward expansion,
	// floor(2 * 2^-25 * (2^24-1)), is still 0.
	st := TileState{Known: true, Lo: 0}
	st.Hi[0], st.Hi[1] = depth.MaxD24, 1<<23 // codes 0x7800 and 0x7000
	st.Layer[1] = Range(0, 9)                // block 0 uniform on layer 1, block 1 mixed (sample 8)
	st.Layer[0] = Range(0, 128).AndNot(st.Layer[1])
	b.SetTile(0, st)
	want := []byte{0x04, 0x00, 0x00, 0x78, 0x00, 0xb8, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if got := b.Encode(0, nil); string(got) != string(want) {
		t.Errorf("Encode = % x\nwant     % x", got, want)
	}
	// The greater form sets bit 0.
	st.Greater = true
	b.SetTile(0, st)
	if got := b.Encode(0, nil); got[0]&1 != 1 {
		t.Errorf("greater form: first byte %#x, want bit 0 set", got[0])
	}
}

// TestPackedSampleCounts pins where PACKED ZMASK applies (configs/README.md):
// tiles of 64 samples or more, and sample counts per pixel that are powers of
// two (a tile of exactly TileSamples samples).
func TestPackedSampleCounts(t *testing.T) {
	cases := []struct {
		tile, samples int
		ok            bool
	}{
		{32, 4, false}, {64, 1, true}, {64, 64, true}, {128, 4, true}, {128, 64, true},
		{128, 3, false}, {128, 27, false}, {256, 27, false}, {256, 12, false},
	}
	for _, c := range cases {
		_, err := NewBuffer(Config{Mode: ZMask, Packed: true, TileSamples: c.tile},
			Target{Width: 64, Height: 64, Samples: c.samples, Format: depth.D24S8})
		if (err == nil) != c.ok {
			t.Errorf("%d-sample packed tiles at %d samples per pixel: error %v, want ok %v", c.tile, c.samples, err, c.ok)
		}
	}
}
