package protocol

import "testing"

func TestTileOwner(t *testing.T) {
	tests := []struct{ tx, ty, stride, n, want int }{
		{0, 0, 1, 1, 0}, {5, 7, 1, 1, 0},
		{0, 0, 1, 2, 0}, {1, 0, 1, 2, 1}, {0, 1, 1, 2, 1}, {1, 1, 1, 2, 0},
		{3, 2, 2, 4, 3}, {0, 1, 2, 4, 2}, {-1, 0, 1, 4, 3},
	}
	for _, tc := range tests {
		if got := TileOwner(tc.tx, tc.ty, tc.stride, tc.n); got != tc.want {
			t.Errorf("TileOwner(%d,%d,%d,%d) = %d, want %d", tc.tx, tc.ty, tc.stride, tc.n, got, tc.want)
		}
	}
}
