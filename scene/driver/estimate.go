package driver

import (
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// DrawEstimate is what the driver knows of a draw's work before any unit runs
// it, for a guess of how far a run is (tracing.Progress): the screen area its
// triangles cover and the primitives it submits. It is an estimate, not a
// count: the area is that of the mesh's triangles through the object's mvp,
// clipped to the view frustum, less the faces its cull mode discards, with
// overdraw counted and nothing depth-tested; a vertex or geometry shader that
// moves or makes vertices is not followed (points expanded by a geometry
// shader cover nothing here), and a DrawAuto's primitives are the GPU's to
// count (0).
type DrawEstimate struct {
	Pixels     float64 // screen area of its triangles, in pixels
	Primitives int     // triangles or points it submits
}

// Work is the draw's weight in progress estimates: its pixels plus its
// primitives, a primitive counted as one pixel (so that a draw whose
// triangles cover nothing still weighs something).
func (d DrawEstimate) Work() float64 { return d.Pixels + float64(d.Primitives) }

// drawEstimate returns the DrawEstimate of object obj's draw (one pass of it,
// for a multipass object) through mvp with material state st.
func (e *encoder) drawEstimate(obj *scene.Object, mvp geom.Mat4, st scene.State) DrawEstimate {
	st.FrontCCW = frontCCW(obj, st)
	switch {
	case obj.DrawAuto > 0:
		return DrawEstimate{}
	case obj.Topology == scene.TopologyPoints:
		return DrawEstimate{Primitives: e.s.Meshes[obj.Mesh].VertexCount()}
	}
	return estimate(e.s.Meshes[obj.Mesh], mvp, st, e.s.Width, e.s.Height)
}

// estimate returns the DrawEstimate of drawing mesh m's triangles through mvp
// with material state st on a width x height target.
func estimate(m *mesh.Mesh, mvp geom.Mat4, st scene.State, width, height int) DrawEstimate {
	e := DrawEstimate{Primitives: m.TriangleCount()}
	vp := geom.Viewport{Width: float32(width), Height: float32(height), MaxZ: 1}
	view := geom.GuardBand{X: 1, Y: 1} // the viewport's own edges
	mode := geom.CullMode(st.Cull)
	var poly geom.ClipPolygon
	for t := 0; t+2 < len(m.Indices); t += 3 {
		var p [3]geom.Vec4
		some, every := uint32(0), ^uint32(0)
		for k := range p {
			p[k] = mvp.MulVec(m.Positions[m.Indices[t+k]].Vec4(1))
			c := geom.ClipCode(p[k], view)
			some, every = some|c, every&c
		}
		if some&geom.ClipInvalid != 0 || every&geom.FrustumMask != 0 {
			continue // not finite, or wholly outside one plane
		}
		if some&geom.ClipPlaneMask == 0 {
			poly.N = 3 // inside the frustum: no clipping
			for k := range p {
				poly.V[k].Pos = p[k]
			}
		} else {
			geom.ClipTriangle(p, geom.ClipPlaneMask, view, &poly)
		}
		// Shoelace over the clipped polygon in pixels (Y down, as the
		// rasterizer's SignedArea: positive is clockwise on screen).
		a := 0.0
		for i := 0; i < poly.N; i++ {
			s, t := screen(vp, poly.V[i].Pos), screen(vp, poly.V[(i+1)%poly.N].Pos)
			a += s[0]*t[1] - s[1]*t[0]
		}
		if a == 0 || math.IsNaN(a) || math.IsInf(a, 0) {
			continue
		}
		sign := int64(1)
		if a < 0 {
			sign = -1
		}
		if culled, _ := geom.Cull(sign, mode, st.FrontCCW); !culled {
			e.Pixels += math.Abs(a) / 2
		}
	}
	return e
}

// screen returns clip-space p in pixels on vp (unsnapped, as float64).
func screen(vp geom.Viewport, p geom.Vec4) [2]float64 {
	w := float64(p[3])
	return [2]float64{(float64(p[0])/w + 1) * float64(vp.Width) / 2, (1 - float64(p[1])/w) * float64(vp.Height) / 2}
}
