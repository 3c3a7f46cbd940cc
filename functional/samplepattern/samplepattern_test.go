package samplepattern

import (
	"strings"
	"testing"
)

// hashGrid returns Entry over the quads of the period whose first pixel is
// (x0, y0): grid[qy][qx].
func hashGrid(x0, y0 int) (g [64][64]int) {
	for qy := 0; qy < 64; qy++ {
		for qx := 0; qx < 64; qx++ {
			g[qy][qx] = Entry(x0+2*qx, y0+2*qy)
		}
	}
	return g
}

func TestEntryBalancedAndAdjacentQuadsDiffer(t *testing.T) {
	// Several origins: the hash's properties hold for any 128x128 window.
	for _, o := range [][2]int{{0, 0}, {-128, -128}, {-3000, 7}, {1 << 40, -(1 << 40)}, {130, -2}} {
		g := hashGrid(o[0], o[1])
		var count [Entries]int
		for qy := 0; qy < 64; qy++ {
			for qx := 0; qx < 64; qx++ {
				e := g[qy][qx]
				if e < 0 || e >= Entries {
					t.Fatalf("origin %v: Entry = %d out of range", o, e)
				}
				count[e]++
				if r := g[qy][(qx+1)%64]; r == e {
					t.Errorf("origin %v: quads (%d,%d) and its right neighbour share entry %d", o, qx, qy, e)
				}
				if d := g[(qy+1)%64][qx]; d == e {
					t.Errorf("origin %v: quads (%d,%d) and its lower neighbour share entry %d", o, qx, qy, e)
				}
			}
		}
		for e, c := range count {
			if c != 64 {
				t.Errorf("origin %v: entry %d used %d times per period, want 64", o, e, c)
			}
		}
	}
}

func TestEntryPeriod(t *testing.T) {
	// Period 128 pixels in x and y, for negative and large coordinates too, and
	// the four pixels of a quad share an entry.
	for _, p := range [][2]int{{0, 0}, {5, 9}, {-1, -1}, {-129, 77}, {1<<40 + 3, -(1 << 41) - 5}} {
		x, y := p[0], p[1]
		e := Entry(x, y)
		for _, d := range [][2]int{{128, 0}, {0, 128}, {-128, 0}, {0, -128}, {128 * 1000, -128 * 77}} {
			if got := Entry(x+d[0], y+d[1]); got != e {
				t.Errorf("Entry(%d,%d) = %d, Entry(%d,%d) = %d: want period 128", x, y, e, x+d[0], y+d[1], got)
			}
		}
		qx, qy := x&^1, y&^1
		for k := 0; k < 4; k++ {
			if got := Entry(qx+k&1, qy+k>>1); got != Entry(qx, qy) {
				t.Errorf("pixel %d of quad (%d,%d): entry %d, want %d", k, qx, qy, got, Entry(qx, qy))
			}
		}
	}
	// Negative coordinates are a true mod: pixel -1 is pixel 127 of the period.
	for y := -130; y < 130; y++ {
		for x := -130; x < 130; x++ {
			if Entry(x, y) != Entry(x&127, y&127) {
				t.Fatalf("Entry(%d,%d) = %d, Entry(%d,%d) = %d", x, y, Entry(x, y), x&127, y&127, Entry(x&127, y&127))
			}
		}
	}
}

func TestEntryNoSmallerPeriod(t *testing.T) {
	// No translation by (dx, dy) quads, other than multiples of 64, maps the
	// hash onto itself; and no translation makes more than maxSame of the 4096
	// quads equal to their translate (chance is 64; doc.go states this bound).
	const maxSame = 137 // the hash's measured worst, stated in doc.go
	g := hashGrid(0, 0)
	worst := 0
	for dy := 0; dy < 64; dy++ {
		for dx := 0; dx < 64; dx++ {
			if dx == 0 && dy == 0 {
				continue
			}
			same := 0
			for qy := 0; qy < 64; qy++ {
				for qx := 0; qx < 64; qx++ {
					if g[(qy+dy)%64][(qx+dx)%64] == g[qy][qx] {
						same++
					}
				}
			}
			if same == 64*64 {
				t.Errorf("translation by (%d,%d) quads is a period", dx, dy)
			}
			worst = max(worst, same)
		}
	}
	if worst > maxSame {
		t.Errorf("a translation keeps %d of 4096 quads' entries, want <= %d", worst, maxSame)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	a, b := Generate(7), Generate(7)
	if *a != *b {
		t.Fatal("Generate(7) differs between two calls")
	}
	if c := Generate(8); *c == *a {
		t.Fatal("Generate(8) equals Generate(7)")
	}
	// Pin the first offsets so a change of PRNG or order is noticed.
	got := [4][2]uint8{a.Off[0][0][0], a.Off[0][0][1], a.Off[0][0][2], a.Off[0][0][3]}
	want := [4][2]uint8{{44, 47}, {8, 15}, {47, 1}, {1, 34}}
	if got != want {
		t.Errorf("Generate(7).Off[0][0][:4] = %v, want %v", got, want)
	}
}

func TestGenerateStratified(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 63} {
		tab := Generate(seed)
		if err := tab.Validate(); err != nil {
			t.Fatal(err)
		}
		for e := range tab.Off {
			for p := range tab.Off[e] {
				offs := &tab.Off[e][p]
				var strata [4][4]int
				for s, o := range offs {
					strata[o[0]/16][o[1]/16]++
					if s == 0 || s == 1 || s == 3 || s == 7 {
						checkPrefix(t, seed, e, p, offs[:s+1])
					}
				}
				for i := range strata {
					for j, c := range strata[i] {
						if c != 1 {
							t.Fatalf("seed %d entry %d pixel %d: stratum (%d,%d) holds %d samples, want 1", seed, e, p, i, j, c)
						}
					}
				}
			}
		}
	}
}

// checkPrefix checks the spread of a prefix of 2, 4 or 8 samples: 2 in
// diagonally opposite quadrants; 4 one per quadrant; 8 two per quadrant, per
// stratum row and per stratum column.
func checkPrefix(t *testing.T, seed uint64, e, p int, pre [][2]uint8) {
	t.Helper()
	n := len(pre)
	var quad [2][2]int
	var col, row [4]int
	for _, o := range pre {
		quad[o[0]/32][o[1]/32]++
		col[o[0]/16]++
		row[o[1]/16]++
	}
	switch n {
	case 2:
		a, b := pre[0], pre[1]
		if a[0]/32 == b[0]/32 || a[1]/32 == b[1]/32 {
			t.Fatalf("seed %d entry %d pixel %d: samples 0 and 1 %v %v not in opposite quadrants", seed, e, p, a, b)
		}
	case 4, 8:
		for i := range quad {
			for j, c := range quad[i] {
				if c != n/4 {
					t.Fatalf("seed %d entry %d pixel %d: first %d samples put %d in quadrant (%d,%d), want %d", seed, e, p, n, c, i, j, n/4)
				}
			}
		}
		if n == 8 && (col != [4]int{2, 2, 2, 2} || row != [4]int{2, 2, 2, 2}) {
			t.Fatalf("seed %d entry %d pixel %d: first 8 samples per stratum column %v, row %v, want 2 each", seed, e, p, col, row)
		}
	}
}

func TestOffsetUnits(t *testing.T) {
	var tab Table
	// Pixel 3 of the entry of pixel (5, 3): (5&1) + 2*(3&1) = 3.
	e := Entry(5, 3)
	tab.Off[e][3][2] = [2]uint8{0, 63}
	tab.Off[e][3][9] = [2]uint8{31, 32}
	for _, tc := range []struct {
		s      int
		ox, oy int16
	}{
		{2, -126, 126},  // (0.5/64 - 0.5) px = -126/256; (63.5/64 - 0.5) px = 126/256
		{9, -2, 2},      // the two offsets nearest the centre
		{9 + 16, -2, 2}, // s mod 16
		{0, -126, -126},
	} {
		ox, oy := tab.Offset(5, 3, tc.s)
		if ox != tc.ox || oy != tc.oy {
			t.Errorf("Offset(5,3,%d) = (%d,%d), want (%d,%d)", tc.s, ox, oy, tc.ox, tc.oy)
		}
		// The same sample seen from the other periods.
		if ox2, oy2 := tab.Offset(5-128, 3+256, tc.s); ox2 != ox || oy2 != oy {
			t.Errorf("Offset(-123,259,%d) = (%d,%d), want (%d,%d)", tc.s, ox2, oy2, ox, oy)
		}
	}
	// Every 6-bit offset o maps to 4o+2-128 exactly: o/64 + 1/128 - 1/2 pixels.
	for o := 0; o <= MaxOff; o++ {
		tab.Off[e][3][5] = [2]uint8{uint8(o), uint8(MaxOff - o)}
		ox, oy := tab.Offset(5, 3, 5)
		if int(ox) != 4*o+2-128 || int(oy) != 4*(MaxOff-o)+2-128 {
			t.Fatalf("o = %d: Offset = (%d,%d)", o, ox, oy)
		}
	}
}

func TestExtremes(t *testing.T) {
	var tab Table
	for e := range tab.Off {
		for p := range tab.Off[e] {
			for s := range tab.Off[e][p] {
				tab.Off[e][p][s] = [2]uint8{20, 40}
			}
		}
	}
	tab.Off[17][2][0] = [2]uint8{10, 41} // in every prefix
	tab.Off[60][1][3] = [2]uint8{63, 0}  // from n = 4 on
	tab.Off[5][3][15] = [2]uint8{0, 63}  // only n = 16
	for _, tc := range []struct {
		n                      int
		minX, maxX, minY, maxY int16
	}{
		{1, 4*10 - 126, 4*20 - 126, 4*40 - 126, 4*41 - 126},
		{0, 4*10 - 126, 4*20 - 126, 4*40 - 126, 4*41 - 126}, // clamped to 1
		{3, 4*10 - 126, 4*20 - 126, 4*40 - 126, 4*41 - 126},
		{4, 4*10 - 126, 126, -126, 4*41 - 126},
		{16, -126, 126, -126, 126},
		{99, -126, 126, -126, 126}, // clamped to 16
	} {
		a, b, c, d := tab.Extremes(tc.n)
		if a != tc.minX || b != tc.maxX || c != tc.minY || d != tc.maxY {
			t.Errorf("Extremes(%d) = %d %d %d %d, want %d %d %d %d", tc.n, a, b, c, d, tc.minX, tc.maxX, tc.minY, tc.maxY)
		}
	}
}

func TestValidate(t *testing.T) {
	tab := Generate(3)
	if err := tab.Validate(); err != nil {
		t.Fatalf("generated table: %v", err)
	}
	tab.Off[9][2][11][1] = 64
	err := tab.Validate()
	if err == nil || !strings.Contains(err.Error(), "Table.Off[9][2][11][1]: 64") {
		t.Fatalf("Validate = %v, want an error naming Off[9][2][11][1]", err)
	}
}
