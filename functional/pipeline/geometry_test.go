package pipeline

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/shader"
)

// emitting is a geometry shader over points whose lane emits vertices with
// position x = 0, 1, 2, ... in order, with a cut wherever cuts says (a cut
// after the k-th emit).
func emitting(t *testing.T, topo string, n int, cuts ...int) *shader.Warp {
	t.Helper()
	var b strings.Builder
	b.WriteString(".gs\n.input_primitive point\n.output_topology " + topo + "\n.max_vertices 16\n")
	b.WriteString(".output o0 position\n.def c0 1 0 0 0\n")
	for k := 1; k <= n; k++ {
		b.WriteString("mov o0, r0\nemit\nadd r0, r0, c0\n")
		for _, c := range cuts {
			if c == k {
				b.WriteString("cut\n")
			}
		}
	}
	p, err := shader.Assemble("strip.gsa", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	w := shader.NewWarp(1)
	w.Reset(p, 1, p.InitConstants(nil))
	w.Run(nil)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestAssembleEmittedOrder: the second primitive assembly cuts output strips
// in D3D's order. Triangle strips give (v0,v1,v2), (v1,v3,v2), (v2,v3,v4),
// (v3,v5,v4): triangle i leads with v_i (its flat attributes) and keeps the
// strip's winding; a cut ends the strip, drops a strip too short for one
// primitive, and the next strip's first triangle is even again. Line strips
// are (v_i, v_i+1).
func TestAssembleEmittedOrder(t *testing.T) {
	for _, tc := range []struct {
		name, topo string
		n          int
		cuts       []int
		want       [][]int // primitives by the x of their vertices
	}{
		{"triangle strip of 6", "triangle_strip", 6, nil,
			[][]int{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}, {3, 5, 4}}},
		{"triangle strips 4, 1, 2, 3", "triangle_strip", 10, []int{4, 5, 7},
			[][]int{{0, 1, 2}, {1, 3, 2}, {7, 8, 9}}},
		{"triangle strips 3, 4", "triangle_strip", 7, []int{3},
			[][]int{{0, 1, 2}, {3, 4, 5}, {4, 6, 5}}},
		{"line strips 3, 1, 2", "line_strip", 6, []int{3, 4},
			[][]int{{0, 1}, {1, 2}, {4, 5}}},
		{"points", "point", 3, []int{1}, [][]int{{0}, {1}, {2}}},
	} {
		w := emitting(t, tc.topo, tc.n, tc.cuts...)
		topo := map[string]shader.OutputTopology{"triangle_strip": shader.TopoTriangleStrip,
			"line_strip": shader.TopoLineStrip, "point": shader.TopoPoint}[tc.topo]
		var out GeometryOutput
		out.Reset(topo.Vertices())
		made := AssembleEmitted(w, 0, topo, &out)
		var got [][]int
		for _, p := range out.Prims {
			var prim []int
			for k := 0; k < out.Corners; k++ {
				prim = append(prim, int(out.Verts[p[k]][0][0]))
			}
			got = append(got, prim)
		}
		if made != len(tc.want) || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %d primitives %v, want %v", tc.name, made, got, tc.want)
		}
	}
}
