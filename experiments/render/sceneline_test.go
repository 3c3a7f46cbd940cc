package main

import "testing"

// TestDrawsAndTriangles: the scene line says "1 draw" and "1 triangle", not
// "1 draws" and "1 triangles" (the triangle scene, a bare mesh of one draw).
func TestDrawsAndTriangles(t *testing.T) {
	for _, c := range []struct {
		draws, triangles int
		want             string
	}{
		{1, 1, "1 draw, 1 triangle"},
		{1, 69451, "1 draw, 69451 triangles"},
		{17, 12112, "17 draws, 12112 triangles"},
		{11, 2, "11 draws, 2 triangles"},
		{0, 0, "0 draws, 0 triangles"},
	} {
		if got := drawsAndTriangles(c.draws, c.triangles); got != c.want {
			t.Errorf("drawsAndTriangles(%d, %d) = %q, want %q", c.draws, c.triangles, got, c.want)
		}
	}
}
