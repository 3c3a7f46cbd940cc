package framebuffer

import (
	"encoding/binary"
	"fmt"

	"github.com/gfxsim/gfxsim/functional/depth"
)

// StencilPlaneAlign is the alignment of the D32F stencil plane.
const StencilPlaneAlign = 256

// DepthTarget is a multisampled depth/stencil buffer. The embedded Surface's fields
// and Format are read-only.
type DepthTarget struct {
	Surface
	Format       depth.Format
	stencilPlane int // D32F: offset of the stencil plane
	size         int
	data         []byte
}

// NewDepthTarget allocates a depth target with every depth and stencil value 0.
func NewDepthTarget(g Geometry, f depth.Format) (*DepthTarget, error) {
	t, err := newDepthTarget(g, f)
	if err != nil {
		return nil, err
	}
	t.data = make([]byte, t.size)
	return t, nil
}

// NewDepthTargetFromBytes wraps data (at least SizeBytes bytes in this target's
// layout) without copying.
func NewDepthTargetFromBytes(g Geometry, f depth.Format, data []byte) (*DepthTarget, error) {
	t, err := newDepthTarget(g, f)
	if err != nil {
		return nil, err
	}
	if len(data) < t.size {
		return nil, fmt.Errorf("data: %d bytes, want at least %d", len(data), t.size)
	}
	t.data = data[:t.size:t.size]
	return t, nil
}

func newDepthTarget(g Geometry, f depth.Format) (*DepthTarget, error) {
	if !f.Valid() {
		return nil, fmt.Errorf("Format: invalid depth format %d", uint8(f))
	}
	s, err := NewSurface(g)
	if err != nil {
		return nil, err
	}
	if err := checkSize(s.Elements(), 5); err != nil {
		return nil, err
	}
	t := &DepthTarget{Surface: s, Format: f, size: s.Elements() * 4}
	if f == depth.D32F {
		t.stencilPlane = (t.size + StencilPlaneAlign - 1) / StencilPlaneAlign * StencilPlaneAlign
		t.size = t.stencilPlane + s.Elements()
	}
	return t, nil
}

// SizeBytes is the size of the allocation (both planes for D32F).
func (t *DepthTarget) SizeBytes() uint64 { return uint64(t.size) }

// Bytes returns the target's memory image (not a copy).
func (t *DepthTarget) Bytes() []byte { return t.data }

// StencilPlaneOffset is the offset of the D32F stencil plane; 0 for D24S8, whose
// stencil shares the depth word.
func (t *DepthTarget) StencilPlaneOffset() uint64 { return uint64(t.stencilPlane) }

// Address returns the byte offset of the depth of sample s of pixel (x, y) (for
// D24S8 the whole 32-bit depth/stencil word).
func (t *DepthTarget) Address(x, y, sample int) uint64 { return uint64(t.Index(x, y, sample)) * 4 }

// StencilAddress returns the byte offset of the stencil byte of a sample: Address+3
// for D24S8, StencilPlaneOffset+element for D32F.
func (t *DepthTarget) StencilAddress(x, y, sample int) uint64 {
	i := uint64(t.Index(x, y, sample))
	if t.Format == depth.D32F {
		return uint64(t.stencilPlane) + i
	}
	return i*4 + 3
}

// Load returns the stored depth (depth.Quantize representation) and stencil of a
// sample; zeros outside the surface.
func (t *DepthTarget) Load(x, y, sample int) (uint32, uint8) {
	if !t.inside(x, y, sample) {
		return 0, 0
	}
	i := t.Index(x, y, sample)
	w := binary.LittleEndian.Uint32(t.data[4*i:])
	if t.Format == depth.D32F {
		return w, t.data[t.stencilPlane+i]
	}
	return w & depth.MaxD24, uint8(w >> 24)
}

// Store writes the depth and stencil of a sample (D24S8 keeps the low 24 bits of
// depthValue). Samples outside the surface are ignored.
func (t *DepthTarget) Store(x, y, sample int, depthValue uint32, stencil uint8) {
	if !t.inside(x, y, sample) {
		return
	}
	i := t.Index(x, y, sample)
	if t.Format == depth.D32F {
		binary.LittleEndian.PutUint32(t.data[4*i:], depthValue)
		t.data[t.stencilPlane+i] = stencil
		return
	}
	binary.LittleEndian.PutUint32(t.data[4*i:], depthValue&depth.MaxD24|uint32(stencil)<<24)
}

// Depth returns the depth of a sample as a float (depth.Dequantize).
func (t *DepthTarget) Depth(x, y, sample int) float32 {
	d, _ := t.Load(x, y, sample)
	return depth.Dequantize(d, t.Format)
}

// Test runs the depth/stencil test of st for one sample against the stored values and
// stores the result's depth and stencil when they differ from the stored ones.
// fragDepth is depth.Quantize(z, t.Format). Outside the surface it returns a failing
// result and stores nothing.
func (t *DepthTarget) Test(st *depth.State, x, y, sample int, fragDepth uint32, backFacing bool) depth.Result {
	if !t.inside(x, y, sample) {
		return depth.Result{}
	}
	d, s := t.Load(x, y, sample)
	r := st.Test(t.Format, fragDepth, d, s, backFacing)
	if r.Depth != d || r.Stencil != s {
		t.Store(x, y, sample, r.Depth, r.Stencil)
	}
	return r
}

// ClearDepth sets the depth of every sample, padding included, to Quantize(z),
// keeping the stencil values.
func (t *DepthTarget) ClearDepth(z float32) {
	q := depth.Quantize(z, t.Format)
	n := t.Elements()
	if t.Format == depth.D32F {
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(t.data[4*i:], q)
		}
		return
	}
	for i := 0; i < n; i++ {
		w := binary.LittleEndian.Uint32(t.data[4*i:])
		binary.LittleEndian.PutUint32(t.data[4*i:], w&^depth.MaxD24|q)
	}
}

// ClearStencil sets the stencil of every sample, padding included, keeping depth.
func (t *DepthTarget) ClearStencil(v uint8) {
	n := t.Elements()
	if t.Format == depth.D32F {
		plane := t.data[t.stencilPlane : t.stencilPlane+n]
		for i := range plane {
			plane[i] = v
		}
		return
	}
	for i := 0; i < n; i++ {
		t.data[4*i+3] = v
	}
}
