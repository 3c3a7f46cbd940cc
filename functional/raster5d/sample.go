package raster5d

// sampleEval is the triangle evaluated at one sample: the three edge functions
// (positive inside when d > 0), their x and y coefficients (for the tie rule),
// the determinant of the warped triangle, and the vertices' clip z and w at the
// sample's time.
type sampleEval struct {
	e, ga, gb [3]float64
	d         float64
	z, w      [3]float64
}

// warp returns vertex k at shutter time tm and lens position (u, v) in
// screen-homogeneous coordinates (hx, hy, w), with its clip z:
//
//	x = x0 + tm*dx (y, z, w likewise); x += u*(Kx*(w - F)); y += v*(Ky*(w - F))
//	hx = x*sx + w*cx;  hy = y*sy + w*cy
//
// every operation rounded to float64 (no fused multiply-add). This is the one
// definition of a warped vertex: Both's moving edges, its determinant and the
// traversal boxes use it.
func (t *Triangle) warp(k int, u, v, tm float64) (hx, hy, w, z float64) {
	p := &t.v[k]
	x := p.x0 + float64(tm*p.dx)
	y := p.y0 + float64(tm*p.dy)
	z = p.z0 + float64(tm*p.dz)
	w = p.w0 + float64(tm*p.dw)
	x += float64(u * float64(t.kx*float64(w-t.f)))
	y += float64(v * float64(t.ky*float64(w-t.f)))
	hx = float64(x*t.sx) + float64(w*t.cx)
	hy = float64(y*t.sy) + float64(w*t.cy)
	return hx, hy, w, z
}

// edgeValue returns (A*X + B*Y) + C with each product rounded.
func edgeValue(a, b, c, x, y float64) float64 { return float64(float64(a*x)+float64(b*y)) + c }

// eval evaluates the triangle at screen position (x, y) in pixels, lens (u, v)
// and time tm.
func (t *Triangle) eval(x, y, u, v, tm float64, se *sampleEval) {
	switch t.Case {
	case Static:
		for k := range t.e {
			ed := &t.e[k]
			se.ga[k], se.gb[k] = ed.a[0], ed.b[0]
			se.e[k] = edgeValue(ed.a[0], ed.b[0], ed.c[0], x, y)
			se.z[k], se.w[k] = t.v[k].z0, t.v[k].w0
		}
		se.d = t.det[0]
	case Moving:
		for k := range t.e {
			ed := &t.e[k]
			a := ed.a[0] + float64(tm*float64(ed.a[1]+float64(tm*ed.a[2])))
			b := ed.b[0] + float64(tm*float64(ed.b[1]+float64(tm*ed.b[2])))
			c := ed.c[0] + float64(tm*float64(ed.c[1]+float64(tm*ed.c[2])))
			se.ga[k], se.gb[k] = a, b
			se.e[k] = edgeValue(a, b, c, x, y)
			p := &t.v[k]
			se.z[k], se.w[k] = p.z0+float64(tm*p.dz), p.w0+float64(tm*p.dw)
		}
		d := t.det
		se.d = d[0] + float64(tm*float64(d[1]+float64(tm*float64(d[2]+float64(tm*d[3])))))
	case Defocused:
		for k := range t.e {
			t.lensEdge(k, x, y, u, v, se)
			se.z[k], se.w[k] = t.v[k].z0, t.v[k].w0
		}
		se.d = float64(t.det[0]+float64(u*t.det[1])) + float64(v*t.det[2])
	default:
		var h [3][3]float64
		for k := range h {
			h[k][0], h[k][1], h[k][2], se.z[k] = t.warp(k, u, v, tm)
			se.w[k] = h[k][2]
		}
		var x12 [3]float64 // h_1 x h_2, shared by edge 0 and d when edge 0 warps
		have := false
		for k := range t.e {
			ed := &t.e[k]
			if ed.form == formLens {
				t.lensEdge(k, x, y, u, v, se)
				continue
			}
			c := cross(h[ed.i], h[ed.j])
			if k == 0 {
				// Swapping the factors negates every component exactly.
				x12, have = c, true
				if ed.i != 1 {
					x12 = [3]float64{-c[0], -c[1], -c[2]}
				}
			}
			s := ed.a[0]
			se.ga[k], se.gb[k] = s*c[0], s*c[1]
			se.e[k] = edgeValue(se.ga[k], se.gb[k], s*c[2], x, y)
		}
		if !have {
			x12 = cross(h[1], h[2])
		}
		// det3(h_0, h_1, h_2), term by term.
		se.d = float64(float64(h[0][0]*x12[0])+float64(h[0][1]*x12[1])) + float64(h[0][2]*x12[2])
	}
}

// lensEdge evaluates edge k in formLens.
func (t *Triangle) lensEdge(k int, x, y, u, v float64, se *sampleEval) {
	ed := &t.e[k]
	a := ed.a[0] + float64(v*ed.a[1])
	b := ed.b[0] + float64(u*ed.b[1])
	c := float64(ed.c[0]+float64(u*ed.c[1])) + float64(v*ed.c[2])
	se.ga[k], se.gb[k] = a, b
	se.e[k] = edgeValue(a, b, c, x, y)
}

// covered applies the hit test to an evaluated sample: a non-zero determinant d
// that the cull mode keeps, every edge inside (sign(d)*E > 0, or E == 0 and the
// tie rule gives the edge to this triangle), and the depth z/w in [0, 1].
func (t *Triangle) covered(se *sampleEval) bool {
	d := se.d
	if !(d > 0 || d < 0) || t.culled(d) {
		return false
	}
	for k := 0; k < 3; k++ {
		e := se.e[k]
		if d < 0 {
			e = -e
		}
		if e > 0 {
			continue
		}
		if e != 0 { // negative or NaN
			return false
		}
		// Tie: the sample belongs to the triangle on the side the edge's
		// gradient (A, B) points to lexicographically: top-left.
		g := se.ga[k]
		if g == 0 {
			g = se.gb[k]
		}
		if d < 0 {
			g = -g
		}
		if !(g > 0) {
			return false
		}
	}
	zw := depthRatio(se)
	return zw >= 0 && zw <= 1
}

// depthRatio returns the clip depth z/w of the sample's point on the triangle:
// sum E_k*z_k / sum E_k*w_k (the perspective-correct interpolation of z and w).
func depthRatio(se *sampleEval) float64 {
	num := float64(float64(se.e[0]*se.z[0])+float64(se.e[1]*se.z[1])) + float64(se.e[2]*se.z[2])
	den := float64(float64(se.e[0]*se.w[0])+float64(se.e[1]*se.w[1])) + float64(se.e[2]*se.w[2])
	return num / den
}

// evalSample evaluates the triangle at sample s of pixel (px, py).
func (t *Triangle) evalSample(px, py, s int, se *sampleEval) {
	p := t.pat
	e := p.entry(px, py, s)
	t.eval(float64(px)+p.off[s][0], float64(py)+p.off[s][1], float64(p.u[e]), float64(p.v[e]), float64(p.t[e]), se)
}

// CoversSample reports whether sample s of pixel (px, py) is covered: inside
// BBox, inside the triangle warped to the sample's (u, v, t) (with the tie rule),
// not culled, and with its depth between the near and far planes. TileQuads
// gives the same answer.
func (t *Triangle) CoversSample(px, py, s int) bool {
	if t.Case == Rejected || s < 0 || s >= t.pat.n || !t.BBox.Contains(px, py) {
		return false
	}
	var se sampleEval
	t.evalSample(px, py, s, &se)
	return t.covered(&se)
}

// SampleInfo is what the pipeline reads at a visible sample: its
// barycentrics, depth and facing from one evaluation of the triangle.
type SampleInfo struct {
	Bary  [3]float32 // Barycentrics
	Depth float32    // SampleDepth
	Front bool       // FrontFacing
}

// SampleInfo returns Barycentrics, SampleDepth and FrontFacing of sample s of
// pixel (px, py) from one evaluation: the same values as the three methods,
// for a third of the work.
func (t *Triangle) SampleInfo(px, py, s int) SampleInfo {
	var se sampleEval
	t.evalSample(px, py, s, &se)
	return SampleInfo{Bary: barycentrics(&se), Depth: t.depth(&se), Front: t.front(&se)}
}

// Barycentrics returns the clip-space (perspective-correct) barycentric weights
// b of sample s of pixel (px, py) on the triangle warped to the sample's (u, v,
// t): the sample's point is sum b_k*p_k(u, v, t) in clip space, and, the warp
// being affine, sum b_k*p_k(t) on the unwarped triangle at the sample's time.
// b_k = E_k / (E_0 + E_1 + E_2) from the sample's edge functions, so the
// weights sum to 1 up to rounding. Meaningful for covered samples; elsewhere
// they extrapolate (NaN where the sum is zero).
func (t *Triangle) Barycentrics(px, py, s int) [3]float32 {
	var se sampleEval
	t.evalSample(px, py, s, &se)
	return barycentrics(&se)
}

func barycentrics(se *sampleEval) [3]float32 {
	sum := float64(se.e[0]+se.e[1]) + se.e[2]
	return [3]float32{float32(se.e[0] / sum), float32(se.e[1] / sum), float32(se.e[2] / sum)}
}

// SampleDepth returns the viewport depth of sample s of pixel (px, py): the
// sample's clip z/w (depthRatio) mapped as geom.Viewport.ToScreen maps depth,
// MinZ + float32(z/w)*(MaxZ - MinZ) in float32, clamped to the viewport's depth
// range (NaN gives its minimum).
func (t *Triangle) SampleDepth(px, py, s int) float32 {
	var se sampleEval
	t.evalSample(px, py, s, &se)
	return t.depth(&se)
}

func (t *Triangle) depth(se *sampleEval) float32 {
	vp := &t.Viewport
	z := vp.MinZ + float32(float32(depthRatio(se))*float32(vp.MaxZ-vp.MinZ))
	if !(z >= t.zlo) {
		return t.zlo
	}
	if z > t.zhi {
		return t.zhi
	}
	return z
}

// FrontFacing reports whether the triangle warped to the (u, v, t) of sample s
// of pixel (px, py) faces the viewer: its determinant is positive (clockwise on
// screen) unless Config.FrontCCW. It is what sv_isfrontface and the stencil's
// face selection read for that sample.
func (t *Triangle) FrontFacing(px, py, s int) bool {
	var se sampleEval
	t.evalSample(px, py, s, &se)
	return t.front(&se)
}

func (t *Triangle) front(se *sampleEval) bool { return (se.d > 0) != t.frontCCW }
