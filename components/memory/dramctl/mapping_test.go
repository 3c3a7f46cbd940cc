package dramctl

import (
	"math/rand"
	"strings"
	"testing"
)

// TestMappingBijective decodes every burst address of small random channels
// under random field orders, with and without XOR bank hashing: every
// location must come out exactly once, in range, and encode back to its
// address.
func TestMappingBijective(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	pick := func(choices ...int) int { return choices[rng.Intn(len(choices))] }
	for trial := 0; trial < 200; trial++ {
		g := Geometry{BusWidth: pick(16, 32, 64), BurstLength: pick(4, 8), DataRate: 2, Ranks: pick(1, 2),
			BankGroups: pick(1, 2, 4), Banks: pick(1, 2, 4), Rows: pick(1, 4, 16), Columns: pick(1, 2, 8)}
		order := rng.Perm(numFields)
		var names []string
		for _, f := range order {
			names = append(names, fieldNames[f])
		}
		spec := strings.Join(names, ",")
		m, err := ParseMapping(spec, g)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		m = m.WithXOR(rng.Intn(2) == 0)
		seen := map[Location]bool{}
		bb := g.BurstBytes()
		for a := uint64(0); a < g.Capacity(); a += bb {
			l := m.Decode(a + uint64(rng.Int63n(int64(bb)))) // any byte of the burst
			if l.Rank >= g.Ranks || l.BankGroup >= g.BankGroups || l.Bank >= g.Banks || l.Row >= g.Rows || l.Column >= g.Columns {
				t.Fatalf("%v %s: 0x%x decodes outside the channel: %+v", g, m, a, l)
			}
			if seen[l] {
				t.Fatalf("%v %s: 0x%x decodes to %+v twice", g, m, a, l)
			}
			seen[l] = true
			if back := m.Encode(l); back != a {
				t.Fatalf("%v %s: 0x%x -> %+v -> 0x%x", g, m, a, l, back)
			}
			if m.Decode(a+g.Capacity()) != l {
				t.Fatalf("%v %s: 0x%x does not wrap at the capacity", g, m, a)
			}
		}
		if len(seen) != g.TotalBanks()*g.Rows*g.Columns {
			t.Fatalf("%v %s: %d locations, want %d", g, m, len(seen), g.TotalBanks()*g.Rows*g.Columns)
		}
	}
}

// TestMappingOrder pins the default GDDR6 mapping: bank groups in the lowest
// bits above the 32-byte burst, then banks, columns and rows, and XOR hashing
// of the rank-local bank index with the row's low bits.
func TestMappingOrder(t *testing.T) {
	p, _ := LookupPreset("GDDR6")
	m, err := ParseMapping(DefaultMapping, p.Geometry)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		addr uint64
		xor  bool
		want Location
	}{
		{0, false, Location{}},
		{31, false, Location{}},
		{32, false, Location{BankGroup: 1}},
		{3 * 32, false, Location{BankGroup: 3}},
		{4 * 32, false, Location{Bank: 1}},
		{16 * 32, false, Location{Column: 1}},
		{16 * 32 * 64, false, Location{Row: 1}},
		{16*32*64*16384 - 1, false, Location{BankGroup: 3, Bank: 3, Column: 63, Row: 16383}},
		// Row 5 = 0b0101: bank index 0 ^ 5 = 5 -> bank group 1, bank 1.
		{5 * 16 * 32 * 64, true, Location{Row: 5, BankGroup: 1, Bank: 1}},
	} {
		mm := m.WithXOR(tc.xor)
		if got := mm.Decode(tc.addr); got != tc.want {
			t.Errorf("0x%x (xor %v): %+v, want %+v", tc.addr, tc.xor, got, tc.want)
		}
	}
}

// TestMappingErrors checks the mappings ParseMapping refuses.
func TestMappingErrors(t *testing.T) {
	p, _ := LookupPreset("GDDR6")
	g := p.Geometry
	for _, tc := range []struct{ spec, want string }{
		{"row,bank,column", "does not cover bankgroup (4 values need 2 address bits)"},
		{"row,bank,bankgroup,column,bank", "names bank twice"},
		{"row,bank,bankgroup,col", `unknown field "col"`},
		{"row,column,bank", "does not cover bankgroup"},
	} {
		_, err := ParseMapping(tc.spec, g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.spec, err, tc.want)
		}
	}
	if _, err := ParseMapping("row,bank,bankgroup,column", g); err != nil {
		t.Errorf("rank may be left out with one rank: %v", err)
	}
}
