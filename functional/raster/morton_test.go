package raster

import "testing"

func TestMortonSpreadCompact(t *testing.T) {
	for _, tc := range []struct{ v, spread uint }{
		{0, 0}, {1, 1}, {2, 4}, {3, 5}, {0xFF, 0x5555}, {0xFFFF, 0x55555555}, {0x1_0003, 5}, // bits above 16 dropped
	} {
		if got := MortonSpread(tc.v); got != tc.spread {
			t.Errorf("MortonSpread(%#x) = %#x, want %#x", tc.v, got, tc.spread)
		}
		if got := MortonCompact(tc.spread); got != tc.v&0xFFFF {
			t.Errorf("MortonCompact(%#x) = %#x, want %#x", tc.spread, got, tc.v&0xFFFF)
		}
	}
	if got := MortonCompact(0xAAAA_AAAA); got != 0 {
		t.Errorf("MortonCompact of odd bits = %#x, want 0", got)
	}
	for k := 0; k < 1<<12; k++ {
		x, y := MortonDecode(k)
		if back := int(MortonSpread(uint(x)) | MortonSpread(uint(y))<<1); back != k {
			t.Fatalf("MortonDecode(%d) = (%d, %d), encodes back to %d", k, x, y, back)
		}
	}
}
