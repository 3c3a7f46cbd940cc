package timing

import (
	"reflect"
	"testing"
)

func TestCompact(t *testing.T) {
	tests := []struct {
		name     string
		q        []int
		head     int
		min      int
		want     []int
		wantHead int
	}{
		{"all consumed", []int{1, 2, 3}, 3, 8, []int{}, 0},
		{"empty", nil, 0, 8, nil, 0},
		{"few consumed", []int{1, 2, 3, 4, 5}, 1, 0, []int{1, 2, 3, 4, 5}, 1},
		{"half consumed stays", []int{1, 2, 3, 4}, 2, 0, []int{1, 2, 3, 4}, 2},
		{"over half moves", []int{1, 2, 3, 4, 5}, 3, 0, []int{4, 5}, 0},
		{"over half but not over min", []int{1, 2, 3, 4, 5}, 3, 3, []int{1, 2, 3, 4, 5}, 3},
		{"over min and half", []int{1, 2, 3, 4, 5}, 4, 3, []int{5}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, head := Compact(tc.q, tc.head, tc.min)
			if head != tc.wantHead || len(got) != len(tc.want) || (len(got) > 0 && !reflect.DeepEqual(got, tc.want)) {
				t.Errorf("Compact(%v, %d, %d) = %v, %d; want %v, %d", tc.q, tc.head, tc.min, got, head, tc.want, tc.wantHead)
			}
			if cap(tc.q) > 0 && cap(got) != cap(tc.q) {
				t.Errorf("cap %d, want the queue's array (cap %d)", cap(got), cap(tc.q))
			}
		})
	}
}
