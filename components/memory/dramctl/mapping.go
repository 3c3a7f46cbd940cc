package dramctl

import (
	"fmt"
	"math/bits"
	"strings"
)

// Address fields of a channel-local address.
const (
	fieldRow = iota
	fieldRank
	fieldBankGroup
	fieldBank
	fieldColumn
	numFields
)

var fieldNames = [numFields]string{"row", "rank", "bankgroup", "bank", "column"}

// Location is where a burst lives in a channel.
type Location struct {
	Rank, BankGroup, Bank, Row, Column int
}

// Mapping decodes channel-local addresses into locations: the bits below the
// burst select a byte of it; above them the fields take their bits in the
// configured order, the last field named lowest. With XOR bank hashing the
// rank-local bank index (bank group * Banks + bank) is XORed with the row's low
// bits. Addresses at or above the channel's capacity wrap around.
type Mapping struct {
	offsetBits uint
	shift      [numFields]uint
	mask       [numFields]uint64
	banks      int    // banks per bank group
	bankMask   uint64 // banks per rank - 1
	xor        bool
	order      []int // fields from the highest bits to the lowest
}

func log2(v int) uint { return uint(bits.Len(uint(v)) - 1) }

// ParseMapping parses a comma-separated field order (highest bits first) for
// geometry g: each of row, rank, bankgroup, bank and column at most once, and
// every field with more than one value present.
func ParseMapping(spec string, g Geometry) (Mapping, error) {
	counts := [numFields]int{g.Rows, g.Ranks, g.BankGroups, g.Banks, g.Columns}
	m := Mapping{offsetBits: log2(int(g.BurstBytes())), banks: g.Banks, bankMask: uint64(g.BanksPerRank() - 1)}
	seen := [numFields]bool{}
	for _, raw := range strings.Split(spec, ",") {
		name := strings.ToLower(strings.TrimSpace(raw))
		f := -1
		for i, n := range fieldNames {
			if name == n {
				f = i
			}
		}
		switch {
		case f < 0:
			return Mapping{}, fmt.Errorf("mapping %q: unknown field %q (want %s)", spec, raw, strings.Join(fieldNames[:], ", "))
		case seen[f]:
			return Mapping{}, fmt.Errorf("mapping %q names %s twice", spec, name)
		}
		seen[f] = true
		m.order = append(m.order, f)
	}
	for f, ok := range seen {
		if !ok && counts[f] > 1 {
			return Mapping{}, fmt.Errorf("mapping %q does not cover %s (%d values need %d address bits)",
				spec, fieldNames[f], counts[f], log2(counts[f]))
		}
	}
	shift := m.offsetBits
	for i := len(m.order) - 1; i >= 0; i-- {
		f := m.order[i]
		m.shift[f] = shift
		m.mask[f] = uint64(counts[f] - 1)
		shift += log2(counts[f])
	}
	return m, nil
}

// WithXOR returns m with XOR bank hashing on or off.
func (m Mapping) WithXOR(on bool) Mapping {
	m.xor = on
	return m
}

// Decode returns the location of channel-local address a.
func (m *Mapping) Decode(a uint64) Location {
	l := Location{
		Rank:      int(a >> m.shift[fieldRank] & m.mask[fieldRank]),
		BankGroup: int(a >> m.shift[fieldBankGroup] & m.mask[fieldBankGroup]),
		Bank:      int(a >> m.shift[fieldBank] & m.mask[fieldBank]),
		Row:       int(a >> m.shift[fieldRow] & m.mask[fieldRow]),
		Column:    int(a >> m.shift[fieldColumn] & m.mask[fieldColumn]),
	}
	if m.xor {
		b := (uint64(l.BankGroup*m.banks+l.Bank) ^ uint64(l.Row)) & m.bankMask
		l.BankGroup, l.Bank = int(b)/m.banks, int(b)%m.banks
	}
	return l
}

// Encode returns the channel-local address of the first byte of the burst at
// l (the inverse of Decode below the capacity).
func (m *Mapping) Encode(l Location) uint64 {
	if m.xor {
		b := (uint64(l.BankGroup*m.banks+l.Bank) ^ uint64(l.Row)) & m.bankMask
		l.BankGroup, l.Bank = int(b)/m.banks, int(b)%m.banks
	}
	v := [numFields]int{l.Row, l.Rank, l.BankGroup, l.Bank, l.Column}
	var a uint64
	for f := range v {
		a |= (uint64(v[f]) & m.mask[f]) << m.shift[f]
	}
	return a
}

// String returns the field order, highest bits first.
func (m Mapping) String() string {
	n := make([]string, len(m.order))
	for i, f := range m.order {
		n[i] = fieldNames[f]
	}
	s := strings.Join(n, ",")
	if m.xor {
		s += " (xor bank hash)"
	}
	return s
}
