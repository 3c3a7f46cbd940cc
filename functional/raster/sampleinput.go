package raster

import "github.com/gfxsim/gfxsim/functional/geom"

// SampleInputPosition returns the pixel shader's sv_position for sample s of
// pixel (px, py) when the shader runs per sample (the SAGE rasterize chip
// interpolates at each sample): the sample's position in pixels, Z at the
// sample clamped to the depth range, and 1/w there interpolated linearly in
// screen space.
func (t *Triangle) SampleInputPosition(px, py, s int) geom.Vec4 {
	x, y := t.SamplePosition(px, py, s)
	b := t.barycentricsRel(float32(x-int64(t.V[0].X))*inv256, float32(y-int64(t.V[0].Y))*inv256, false)
	invW := float32(b[0]*t.V[0].InvW) + float32(b[1]*t.V[1].InvW) + float32(b[2]*t.V[2].InvW)
	return geom.Vec4{float32(x) * inv256, float32(y) * inv256, t.depthAt(x, y), invW}
}
