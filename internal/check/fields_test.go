package check

import (
	"fmt"
	"testing"
)

type queues struct {
	Depth, Width int
	Name         string
}

func TestFieldsAtLeast(t *testing.T) {
	for _, tc := range []struct {
		q    queues
		want string
	}{
		{queues{Depth: 1, Width: 2}, "<nil>"},
		{queues{Depth: 0, Width: 0}, "q: Depth 0 must be at least 1"},
		{queues{Depth: 4, Width: -2}, "q: Width -2 must be at least 1"},
	} {
		if got := fmt.Sprint(For("q").FieldsAtLeast(1, tc.q, "Depth", "Width").Err()); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.q, got, tc.want)
		}
	}
	defer func() {
		if r := recover(); r != "check: check.queues has no integer field Name" {
			t.Errorf("a string field: panic %v", r)
		}
	}()
	For("q").FieldsAtLeast(1, queues{}, "Name")
}
