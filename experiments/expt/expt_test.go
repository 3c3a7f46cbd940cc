package expt

import "testing"

func TestSnakeCase(t *testing.T) {
	tests := map[string]string{
		"VertexCacheHits":    "vertex_cache_hits",
		"PSInvocations":      "ps_invocations",
		"Tiles":              "tiles",
		"EarlyZQuadsCulled":  "early_z_quads_culled",
		"VSLaneInstructions": "vs_lane_instructions",
	}
	for in, want := range tests {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAddStruct(t *testing.T) {
	type inner struct{ A, B int }
	type outer struct {
		inner
		CountX uint64
		On     bool
		skip   int
	}
	s := Stats{}
	s.AddStruct("unit", outer{inner: inner{1, 2}, CountX: 3, On: true})
	want := Stats{"unit.count_x": 3, "unit.on": 1}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s = %v, want %v", k, s[k], v)
		}
	}
	if len(s) != 2 {
		t.Errorf("stats %v: unexported embedded struct fields must not appear", s)
	}
}

func TestRunName(t *testing.T) {
	tests := []struct {
		parts []string
		want  string
	}{
		{[]string{"l1_size", "texstudy", "32KB"}, "l1_size-texstudy-32KB"},
		{[]string{"ZMASK (2 layers)", "room", "4x"}, "ZMASK__2_layers_-room-4x"},
		{[]string{" PC1 ", "a/b:c", "é"}, "PC1-a_b_c-_"},
		{[]string{"one"}, "one"},
	}
	for _, tt := range tests {
		if got := RunName(tt.parts...); got != tt.want {
			t.Errorf("RunName(%q) = %q, want %q", tt.parts, got, tt.want)
		}
	}
}
