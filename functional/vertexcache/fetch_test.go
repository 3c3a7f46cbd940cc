package vertexcache

import (
	"reflect"
	"strings"
	"testing"
)

// TestFetchOrder: first uses 5, 2, 0, 3 become 0..3; the unused 1, 4, 6
// follow in their order.
func TestFetchOrder(t *testing.T) {
	idx := []uint32{5, 2, 5, 2, 0, 3}
	remapped, order, err := FetchOrder(idx, 7)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{0, 1, 0, 1, 2, 3}; !reflect.DeepEqual(remapped, want) {
		t.Errorf("remapped %v, want %v", remapped, want)
	}
	if want := []uint32{5, 2, 0, 3, 1, 4, 6}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if !reflect.DeepEqual(idx, []uint32{5, 2, 5, 2, 0, 3}) {
		t.Error("FetchOrder modified its input")
	}
	// Every corner still names the same vertex, on a larger list too.
	s := shuffled(grid(13, 7), 5)
	r, o, err := FetchOrder(s, 14*8)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s {
		if o[r[i]] != s[i] {
			t.Fatalf("corner %d: vertex %d became %d, which is old vertex %d", i, s[i], r[i], o[r[i]])
		}
	}
	if _, _, err := FetchOrder([]uint32{0, 9, 1}, 4); err == nil || !strings.Contains(err.Error(), "indices[1]: vertex 9") {
		t.Errorf("out of range: error %v", err)
	}
}
