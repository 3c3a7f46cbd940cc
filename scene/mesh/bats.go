package mesh

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
)

// MaxBats bounds Bats.Count (three draws per bat).
const MaxBats = 10000

// Bats is an animated flock of bats, the many-small-moving-triangles workload
// of decoupled sampling's animation study (Ragan-Kelley et al. 2011, Fig. 9).
// A bat is three rigid parts, each a small mesh shared by every bat: a body
// of 4 triangles along its flight direction and two wings of 3 triangles
// hinged on the body axis. Its pose is a function of the time tau in frames,
// so that the parts move over a shutter interval (motion blur) and from
// frame to frame:
//
//	position(tau) = centre + heading*Speed*k*tau + up*0.1*Size*cos(2pi*FlapRate*tau + phase)
//	wing angle(tau) = Flap*sin(2pi*FlapRate*tau + phase) degrees (up for positive angles)
//
// with a seeded centre (uniform in the box Volume centred on the origin),
// heading (yaw uniform in [0, 360) degrees, level flight), speed factor k in
// [0.75, 1.25) and flap phase in [0, 2pi) per bat.
type Bats struct {
	Count    int
	Volume   geom.Vec3
	Size     float32 // wingspan in world units
	Flap     float32 // wing amplitude in degrees, [0, 90]
	FlapRate float32 // wingbeats per frame, >= 0
	Speed    float32 // flight speed in world units per frame, >= 0
	Seed     uint64
}

// BatFlock is a generated flock: the three part meshes, in bat space (the bat
// flies along +Z with +Y up; the left wing spans +X, the right wing -X), and
// the seeded parameters of every bat.
type BatFlock struct {
	Body, LeftWing, RightWing *Mesh

	p    Bats
	bats []bat
}

type bat struct {
	centre       geom.Vec3
	yawDegrees   float32
	speed, phase float64
	heading      geom.Vec3
}

// Generate validates the parameters and builds the flock.
func (p Bats) Generate() (*BatFlock, error) {
	if p.Count < 1 || p.Count > MaxBats {
		return nil, fmt.Errorf("count %d out of range [1, %d]", p.Count, MaxBats)
	}
	for k := 0; k < 3; k++ {
		if !(p.Volume[k] >= 0) || math.IsInf(float64(p.Volume[k]), 0) {
			return nil, fmt.Errorf("volume[%d] %v must be non-negative and finite", k, p.Volume[k])
		}
	}
	if err := checkPositive("size", p.Size); err != nil {
		return nil, err
	}
	if !(p.Flap >= 0 && p.Flap <= 90) {
		return nil, fmt.Errorf("flap %v out of range [0, 90] degrees", p.Flap)
	}
	if !(p.FlapRate >= 0) || !(p.Speed >= 0) || !geom.AllFinite(p.FlapRate, p.Speed) {
		return nil, fmt.Errorf("flap_rate %v and speed %v must be non-negative and finite", p.FlapRate, p.Speed)
	}
	f := &BatFlock{p: p, Body: batBody(p.Size), LeftWing: batWing(p.Size, 1), RightWing: batWing(p.Size, -1)}
	r := rng.New(p.Seed)
	for i := 0; i < p.Count; i++ {
		b := bat{centre: geom.Vec3{r.Symmetric(p.Volume[0] / 2), r.Symmetric(p.Volume[1] / 2), r.Symmetric(p.Volume[2] / 2)}}
		b.yawDegrees = r.Range(0, 360)
		b.speed = float64(p.Speed) * float64(r.Range(0.75, 1.25))
		b.phase = 2 * math.Pi * float64(r.Float32())
		s, c := math.Sincos(float64(b.yawDegrees) * math.Pi / 180)
		b.heading = geom.Vec3{float32(s), 0, float32(c)} // +Z turned by the yaw about +Y
		f.bats = append(f.bats, b)
	}
	return f, nil
}

// Len returns the number of bats.
func (f *BatFlock) Len() int { return len(f.bats) }

// Pose returns the bat-space-to-world matrices of bat i's body, left wing and
// right wing at time tau (in frames).
func (f *BatFlock) Pose(i int, tau float64) (body, left, right geom.Mat4) {
	b := &f.bats[i]
	beat := 2*math.Pi*float64(f.p.FlapRate)*tau + b.phase
	travel := float32(b.speed * tau)
	bob := float32(0.1 * float64(f.p.Size) * math.Cos(beat))
	pos := b.centre.Add(b.heading.Scale(travel)).Add(geom.Vec3{0, bob, 0})
	body = geom.Translate(pos).Mul(geom.RotateEulerDegrees(geom.Vec3{0, b.yawDegrees, 0}))
	angle := float32(float64(f.p.Flap) * math.Sin(beat))
	left = body.Mul(geom.RotateEulerDegrees(geom.Vec3{0, 0, angle}))
	right = body.Mul(geom.RotateEulerDegrees(geom.Vec3{0, 0, -angle}))
	return body, left, right
}

// batBody is a flat-shaded half bipyramid along Z (nose at +Z), 4 triangles
// facing up and sideways.
func batBody(size float32) *Mesh {
	s := size
	nose, tail := geom.Vec3{0, 0, 0.28 * s}, geom.Vec3{0, 0, -0.22 * s}
	top, l, r := geom.Vec3{0, 0.06 * s, 0}, geom.Vec3{0.05 * s, 0, 0}, geom.Vec3{-0.05 * s, 0, 0}
	return flatTriangles(size, [][3]geom.Vec3{{nose, top, r}, {nose, l, top}, {tail, r, top}, {tail, top, l}})
}

// batWing is a wing of 3 triangles fanned from the front of its hinge on the
// body axis; side 1 spans +X (left), -1 spans -X (right). The upper side is
// the front face.
func batWing(size float32, side float32) *Mesh {
	s := size
	x := func(v float32) float32 { return side * v * s }
	front, back := geom.Vec3{0, 0, 0.12 * s}, geom.Vec3{0, 0, -0.15 * s}
	tip := geom.Vec3{x(0.5), 0, 0.02 * s}
	mid := geom.Vec3{x(0.32), 0, -0.1 * s}
	inner := geom.Vec3{x(0.15), 0, -0.18 * s}
	tris := [][3]geom.Vec3{{front, tip, mid}, {front, mid, inner}, {front, inner, back}}
	if side < 0 {
		for i := range tris {
			tris[i][1], tris[i][2] = tris[i][2], tris[i][1]
		}
	}
	return flatTriangles(size, tris)
}

// flatTriangles builds a mesh of separate flat-shaded triangles with texture
// coordinates from the XZ position (u = x/size + 0.5, v = 0.5 - z/size) and
// tangents.
func flatTriangles(size float32, tris [][3]geom.Vec3) *Mesh {
	m := &Mesh{}
	for _, t := range tris {
		n := unit(t[1].Sub(t[0]).Cross(t[2].Sub(t[0])), geom.Vec3{0, 1, 0})
		for _, v := range t {
			m.Indices = append(m.Indices, uint32(len(m.Positions)))
			m.Positions = append(m.Positions, v)
			m.Normals = append(m.Normals, n)
			m.TexCoords = append(m.TexCoords, geom.Vec2{v[0]/size + 0.5, 0.5 - v[2]/size})
		}
	}
	m.GenerateTangents()
	return m
}
