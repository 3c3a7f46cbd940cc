package rtcache

import (
	"reflect"
	"testing"
)

// TestReadsBookkeeping: Find finds the reads added, by line; a recycled waiter
// list comes back empty from Spare, with its array.
func TestReadsBookkeeping(t *testing.T) {
	var r Reads[int]
	if r.Find(64) != nil || r.Len() != 0 {
		t.Fatal("an empty Reads finds a read")
	}
	r.Add(Fill[int]{Line: 64, Waiters: append(r.Spare(), 1), Task: "a"})
	r.Add(Fill[int]{Line: 128, Prefetch: true})
	f := r.Find(64)
	if f == nil || r.Len() != 2 || f.Task != "a" || !reflect.DeepEqual(f.Waiters, []int{1}) {
		t.Fatalf("Find(64) = %+v, Len %d", f, r.Len())
	}
	f.Waiters = append(f.Waiters, 2) // a merged miss joins the read
	if got := r.Find(64).Waiters; !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("waiters %v, want [1 2]", got)
	}
	if p := r.Find(128); p == nil || !p.Prefetch || len(p.Waiters) != 0 {
		t.Errorf("Find(128) = %+v, want the prefetch without waiters", p)
	}
	w := make([]int, 3, 8)
	r.Recycle(w)
	if s := r.Spare(); len(s) != 0 || cap(s) != 8 {
		t.Errorf("Spare after Recycle: len %d cap %d, want 0 and the recycled 8", len(s), cap(s))
	}
	if s := r.Spare(); s != nil {
		t.Errorf("Spare with nothing recycled = %v, want nil", s)
	}
}
