package main

import "testing"

// TestDrawsAndTriangles: the scene line says "1 draw" and "1 triangle", not
// "1 draws" and "1 triangles" (the triangle scene, a bare mesh of one draw),
// and that the triangles are the submitted ones where a geometry stage makes
// more (particles).
func TestDrawsAndTriangles(t *testing.T) {
	for _, c := range []struct {
		draws, triangles int
		geometry         bool
		want             string
	}{
		{1, 1, false, "1 draw, 1 triangle"},
		{1, 69451, false, "1 draw, 69451 triangles"},
		{17, 12112, false, "17 draws, 12112 triangles"},
		{11, 2, true, "11 draws, 2 triangles submitted (the geometry stage makes more)"},
		{0, 0, false, "0 draws, 0 triangles"},
	} {
		if got := drawsAndTriangles(c.draws, c.triangles, c.geometry); got != c.want {
			t.Errorf("drawsAndTriangles(%d, %d, %v) = %q, want %q", c.draws, c.triangles, c.geometry, got, c.want)
		}
	}
}
