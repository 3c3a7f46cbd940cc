package raster

import (
	"fmt"
	"testing"
)

func TestSampleMask(t *testing.T) {
	var m SampleMask
	if !m.Empty() || m.Count() != 0 || m.Pixels() != 0 {
		t.Fatalf("zero mask: Empty %v Count %d Pixels %b", m.Empty(), m.Count(), m.Pixels())
	}
	m.Set(0, 0)
	m.Set(2, 63)
	m.Set(3, 26)
	if m.Empty() || m.Count() != 3 || m.Pixels() != 0b1101 {
		t.Fatalf("mask %x: Empty %v Count %d Pixels %b", m, m.Empty(), m.Count(), m.Pixels())
	}
	if !m.Has(2, 63) || m.Has(1, 0) || !m.Has(3, 26) {
		t.Fatalf("Has wrong on %x", m)
	}
	m.Clear(2, 63)
	if m.Has(2, 63) || m.Count() != 2 {
		t.Fatalf("Clear: %x", m)
	}
	o := SampleMask{1, 2, 0, 1 << 26}
	if got, want := m.And(o), (SampleMask{1, 0, 0, 1 << 26}); got != want {
		t.Errorf("And = %x, want %x", got, want)
	}
	if got, want := m.AndNot(o), (SampleMask{}); got != want {
		t.Errorf("AndNot = %x, want %x", got, want)
	}
	if got, want := m.Or(o), (SampleMask{1, 2, 0, 1 << 26}); got != want {
		t.Errorf("Or = %x, want %x", got, want)
	}
	for _, tc := range []struct {
		pm      uint8
		samples int
		want    SampleMask
	}{
		{0b1111, 1, SampleMask{1, 1, 1, 1}},
		{0b0101, 27, SampleMask{1<<27 - 1, 0, 1<<27 - 1, 0}},
		{0b1000, 64, SampleMask{0, 0, 0, ^uint64(0)}},
	} {
		if got := FullPixels(tc.pm, tc.samples); got != tc.want {
			t.Errorf("FullPixels(%04b, %d) = %x, want %x", tc.pm, tc.samples, got, tc.want)
		}
	}
	m = SampleMask{0b101, 0, 1 << 63, 1 << 26}
	var got [][2]int
	for !m.Empty() {
		p, s := m.Pop()
		got = append(got, [2]int{p, s})
	}
	if want := [][2]int{{0, 0}, {0, 2}, {2, 63}, {3, 26}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Pop order %v, want %v", got, want)
	}
}

func TestPixelsAndHelpers(t *testing.T) {
	tests := []struct {
		m          SampleMask
		wantPixels uint8
	}{
		{SampleMask{}, 0},
		{FullPixels(15, 4), 0xF},
		{SampleMask{0, 0, 1, 0}, 0x4},
		{SampleMask{1, 0, 0, 1 << 3}, 0x9},
		{SampleMask{0, 0, 0, 1 << 63}, 0x8},
		{SampleMask{0, 1 << 26, 0, 0}, 0x2},
	}
	for _, tc := range tests {
		if got := tc.m.Pixels(); got != tc.wantPixels {
			t.Errorf("%x.Pixels() = %#x, want %#x", tc.m, got, tc.wantPixels)
		}
		if got := tc.m.HelperPixels(); got != ^tc.wantPixels&15 {
			t.Errorf("%x.HelperPixels() = %#x, want %#x", tc.m, got, ^tc.wantPixels&15)
		}
	}
}
