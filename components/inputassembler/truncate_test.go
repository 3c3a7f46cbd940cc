package inputassembler

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// TestTruncateAnyTopology: a chunk's end cuts the stream after primitive
// end-1 whatever the topology (SAGE's distributor cuts draws of points,
// lines and adjacency too), and an end at or past the stream's primitives
// leaves it whole.
func TestTruncateAnyTopology(t *testing.T) {
	for _, c := range []struct {
		topo      command.Topology
		count     uint32
		end       int
		wantCount uint32
		wantPrims int
	}{
		{command.TriangleList, 30, 4, 12, 4},
		{command.TriangleStrip, 12, 4, 6, 4},
		{command.PointList, 12, 5, 5, 5},
		{command.LineList, 12, 5, 10, 5},
		{command.LineListAdj, 16, 3, 12, 3},
		{command.TriangleListAdj, 24, 2, 12, 2},
		{command.PointList, 12, 12, 12, 12},
		{command.PointList, 12, 0, 0, 0},
	} {
		s := vertex.Stream{Topology: c.topo, Count: c.count}
		truncate(&s, c.end)
		if s.Count != c.wantCount || s.NumPrimitives() != c.wantPrims {
			t.Errorf("%v of %d vertices cut at %d: %d vertices, %d primitives; want %d, %d",
				c.topo, c.count, c.end, s.Count, s.NumPrimitives(), c.wantCount, c.wantPrims)
		}
	}
}

// TestTruncateCutStrip: a chunk of a strip with cut indices ends after its
// last triangle's last position, whichever strip that triangle is in.
func TestTruncateCutStrip(t *testing.T) {
	// Strips at positions 0..3 (triangles 0, 1) and 5..8 (triangles 2, 3).
	strips := []vertex.Strip{{Pos: 0, Count: 4, First: 0}, {Pos: 5, Count: 4, First: 2}}
	for _, c := range []struct {
		end       int
		wantCount uint32
	}{{1, 3}, {2, 4}, {3, 8}, {4, 9}, {0, 0}} {
		s := vertex.Stream{Indexed: true, Topology: command.TriangleStrip, Count: 9, Cuts: true, Strips: strips}
		truncate(&s, c.end)
		if s.Count != c.wantCount || s.NumPrimitives() != c.end {
			t.Errorf("cut at %d: %d positions, %d triangles; want %d, %d", c.end, s.Count, s.NumPrimitives(), c.wantCount, c.end)
		}
	}
}
