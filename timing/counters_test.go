package timing

import (
	"fmt"
	"reflect"
	"testing"
)

// tagged has a counter of every kind AddTagged reads, and untagged fields.
type tagged struct {
	quads   uint64 `stat:"quads"`
	skipped uint64
	depth   int     `stat:"depth"`
	small   uint8   `stat:"small"`
	hits    uint32  `stat:"cache_hits"`
	rate    float64 `stat:"rate"`
	half    float32 `stat:"half"`
	label   string
}

// TestAddTagged: every kind of counter is reported under the prefix, untagged
// fields are skipped, and anything else panics, naming the type and field.
func TestAddTagged(t *testing.T) {
	var st tagged
	st.quads, st.skipped, st.depth, st.small = 3, 9, -2, 7
	st.hits = 5
	st.rate, st.half, st.label = 0.25, 1.5, "y"
	cases := []struct {
		name  string
		v     any
		want  []string
		panic string
	}{
		{name: "pointer", v: &st, want: []string{"GPU.ROP[0].quads=3", "GPU.ROP[0].depth=-2", "GPU.ROP[0].small=7",
			"GPU.ROP[0].cache_hits=5", "GPU.ROP[0].rate=0.25", "GPU.ROP[0].half=1.5"}},
		{name: "value", v: struct {
			a uint64 `stat:"a"`
			b uint64
		}{4, 5}, want: []string{"GPU.ROP[0].a=4"}},
		{name: "untagged only", v: struct{ a uint64 }{1}},
		{name: "string field", v: &struct {
			n string `stat:"n"`
		}{}, panic: "timing.AddTagged: struct { n string \"stat:\\\"n\\\"\" }.n is a string, not a counter"},
		{name: "slice field", v: &tagBadSlice{}, panic: "timing.AddTagged: timing.tagBadSlice.per is a []uint64, not a counter"},
		{name: "bool field", v: &tagBadBool{}, panic: "timing.AddTagged: timing.tagBadBool.on is a bool, not a counter"},
		{name: "struct field", v: &tagBadNested{},
			panic: "timing.AddTagged: timing.tagBadNested.in is a struct { n uint64 }, not a counter"},
		{name: "not a struct", v: new(uint64), panic: "timing.AddTagged: *uint64 is not a struct or a pointer to one"},
	}
	for _, c := range append(cases, cases...) { // twice: the second from the cached field lists
		var got []string
		func() {
			defer func() {
				if r := recover(); r != nil && r != c.panic || r == nil && c.panic != "" {
					t.Errorf("%s: panic %v, want %q", c.name, r, c.panic)
				}
			}()
			AddTagged("GPU.ROP[0].", func(n string, v float64) { got = append(got, fmt.Sprintf("%s=%g", n, v)) }, c.v)
		}()
		if c.panic == "" && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

type tagBadSlice struct {
	per []uint64 `stat:"per"`
}

type tagBadBool struct {
	on bool `stat:"on"`
}

type tagBadNested struct {
	in struct{ n uint64 } `stat:"in"`
}
