package mesh

import (
	"fmt"
	"math"
	"sort"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
	"github.com/qmuntal/gltf"
)

// maxAnimationKeys bounds the keyframes of one glTF animation sampler.
const maxAnimationKeys = 1 << 20

// ChannelPath is the node property a glTF animation channel drives.
type ChannelPath uint8

// The animated properties (glTF's "weights", morph targets, is not supported).
const (
	PathTranslation ChannelPath = iota
	PathRotation
	PathScale
)

var channelPathNames = enum.Names[ChannelPath]{Type: "ChannelPath", Names: []string{"translation", "rotation", "scale"}}

func (p ChannelPath) String() string { return channelPathNames.String(p) }

// Interpolation is a glTF animation sampler's interpolation.
type Interpolation uint8

// The interpolations of glTF 2.0.
const (
	InterpLinear      Interpolation = iota // rotations by quaternion slerp
	InterpStep                             // the value of the key at or before the time
	InterpCubicSpline                      // cubic Hermite with the keys' in and out tangents
)

var interpolationNames = enum.Names[Interpolation]{Type: "Interpolation", Names: []string{"LINEAR", "STEP", "CUBICSPLINE"}}

func (i Interpolation) String() string { return interpolationNames.String(i) }

// Channel is one animated property of one node: keyframe Times in seconds
// (strictly increasing) and Values of 3 (translation, scale) or 4 (rotation
// quaternion x, y, z, w) numbers; CUBICSPLINE stores three values per key:
// in-tangent, value, out-tangent.
type Channel struct {
	Node   int
	Path   ChannelPath
	Interp Interpolation
	Times  []float64
	Values [][4]float64
}

// Animation is a glTF animation: its channels and the time range its keys
// cover.
type Animation struct {
	Name       string
	Channels   []Channel
	Start, End float64 // seconds: the first and last key time over all channels
}

// Node is a glTF node: its parent (-1 for roots and nodes outside the loaded
// scene) and its rest transform relative to the parent, as a matrix or as
// translation, rotation (unit quaternion x, y, z, w) and scale.
type Node struct {
	Name      string
	Parent    int
	HasMatrix bool
	T, S      [3]float64
	R         [4]float64
	matrix    mat64
}

// local returns the node's transform with animation a's channels applied at
// time t (a nil: the rest transform).
func (n *Node) local(a *Animation, node int, t float64) mat64 {
	if n.HasMatrix {
		return n.matrix
	}
	tr, r, s := n.T, n.R, n.S
	if a != nil {
		for i := range a.Channels {
			c := &a.Channels[i]
			if c.Node != node {
				continue
			}
			v := c.sample(t)
			switch c.Path {
			case PathTranslation:
				tr = [3]float64{v[0], v[1], v[2]}
			case PathRotation:
				r = v
			case PathScale:
				s = [3]float64{v[0], v[1], v[2]}
			}
		}
	}
	return trsMatrix(tr, r, s)
}

// trsMatrix returns T * R * S with the quaternion normalised (a zero
// quaternion is the identity rotation).
func trsMatrix(t [3]float64, q [4]float64, s [3]float64) mat64 {
	ql := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if ql == 0 {
		q, ql = [4]float64{0, 0, 0, 1}, 1
	}
	x, y, z, w := q[0]/ql, q[1]/ql, q[2]/ql, q[3]/ql
	r := mat64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w), 0},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w), 0},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y), 0},
		{0, 0, 0, 1},
	}
	ts := mat64{{1, 0, 0, t[0]}, {0, 1, 0, t[1]}, {0, 0, 1, t[2]}, {0, 0, 0, 1}}
	sc := mat64{{s[0], 0, 0, 0}, {0, s[1], 0, 0}, {0, 0, s[2], 0}, {0, 0, 0, 1}}
	return ts.mul(r).mul(sc)
}

// sample evaluates the channel at time t (seconds): before the first key
// the first value, after the last the last value.
func (c *Channel) sample(t float64) [4]float64 {
	n := len(c.Times)
	val := func(k int) [4]float64 {
		if c.Interp == InterpCubicSpline {
			return c.Values[3*k+1]
		}
		return c.Values[k]
	}
	if t <= c.Times[0] || n == 1 {
		return val(0)
	}
	if t >= c.Times[n-1] {
		return val(n - 1)
	}
	k := sort.SearchFloat64s(c.Times, t) // first key with Times[k] >= t; 1 <= k < n
	if c.Times[k] == t {
		return val(k)
	}
	k--
	t0, t1 := c.Times[k], c.Times[k+1]
	u := (t - t0) / (t1 - t0)
	switch c.Interp {
	case InterpStep:
		return val(k)
	case InterpCubicSpline:
		td := t1 - t0
		u2, u3 := u*u, u*u*u
		v0, b0 := c.Values[3*k+1], c.Values[3*k+2]
		a1, v1 := c.Values[3*(k+1)], c.Values[3*(k+1)+1]
		var out [4]float64
		for i := range out {
			out[i] = (2*u3-3*u2+1)*v0[i] + (u3-2*u2+u)*td*b0[i] + (-2*u3+3*u2)*v1[i] + (u3-u2)*td*a1[i]
		}
		if c.Path == PathRotation {
			out = normalize4(out)
		}
		return out
	}
	a, b := val(k), val(k+1)
	if c.Path == PathRotation {
		return slerp(a, b, u)
	}
	return [4]float64{a[0] + u*(b[0]-a[0]), a[1] + u*(b[1]-a[1]), a[2] + u*(b[2]-a[2]), 0}
}

func normalize4(q [4]float64) [4]float64 {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if l == 0 {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

// slerp interpolates unit quaternions along the shorter arc.
func slerp(a, b [4]float64, u float64) [4]float64 {
	a, b = normalize4(a), normalize4(b)
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	if d < 0 {
		d, b = -d, [4]float64{-b[0], -b[1], -b[2], -b[3]}
	}
	wa, wb := 1-u, u
	if d < 0.9995 {
		th := math.Acos(d)
		s := math.Sin(th)
		wa, wb = math.Sin((1-u)*th)/s, math.Sin(u*th)/s
	}
	return normalize4([4]float64{wa*a[0] + wb*b[0], wa*a[1] + wb*b[1], wa*a[2] + wb*b[2], wa*a[3] + wb*b[3]})
}

// AnimationIndex returns the index of the animation called name, or -1.
func (m *Model) AnimationIndex(name string) int {
	for i := range m.Animations {
		if m.Animations[i].Name == name {
			return i
		}
	}
	return -1
}

// world returns node i's world transform under animation a (nil: at rest)
// at time t.
func (m *Model) world(a *Animation, i int, t float64) mat64 {
	w := ident64
	for depth := 0; i >= 0 && depth <= maxNodeDepth; depth++ {
		w = m.Nodes[i].local(a, i, t).mul(w)
		i = m.Nodes[i].Parent
	}
	return w
}

// NodeWorld returns node's world (model-space) transform under animation anim
// at time t seconds; anim < 0 gives the rest pose the part meshes were built
// in.
func (m *Model) NodeWorld(anim, node int, t float64) geom.Mat4 {
	var a *Animation
	if anim >= 0 {
		a = &m.Animations[anim]
	}
	return m.world(a, node, t).mat4()
}

// MovingRoot returns the nearest node, node itself or an ancestor, that
// animation anim drives, or -1 when the node does not move. Parts with the
// same moving root move together.
func (m *Model) MovingRoot(anim, node int) int {
	if anim < 0 || anim >= len(m.Animations) {
		return -1
	}
	driven := map[int]bool{}
	for _, c := range m.Animations[anim].Channels {
		driven[c.Node] = true
	}
	for depth := 0; node >= 0 && depth <= maxNodeDepth; depth++ {
		if driven[node] {
			return node
		}
		node = m.Nodes[node].Parent
	}
	return -1
}

// Motion returns the transform that moves the rest-pose geometry of the
// subtree of node to its pose under animation anim at time t seconds:
// World(t) * World(rest)^-1. A node that does not move (MovingRoot -1) gets
// the identity exactly.
func (m *Model) Motion(anim, node int, t float64) geom.Mat4 {
	if m.MovingRoot(anim, node) < 0 {
		return geom.Identity()
	}
	rest, ok := m.world(nil, node, 0).inverse()
	if !ok {
		return geom.Identity()
	}
	return m.world(&m.Animations[anim], node, t).mul(rest).mat4()
}

func (a mat64) mat4() geom.Mat4 {
	var m geom.Mat4
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			m[r][c] = float32(a[r][c])
		}
	}
	return m
}

// inverse inverts a by Gauss-Jordan elimination with partial pivoting.
func (a mat64) inverse() (mat64, bool) {
	inv := ident64
	for c := 0; c < 4; c++ {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if a[p][c] == 0 {
			return mat64{}, false
		}
		a[c], a[p] = a[p], a[c]
		inv[c], inv[p] = inv[p], inv[c]
		d := a[c][c]
		for k := 0; k < 4; k++ {
			a[c][k] /= d
			inv[c][k] /= d
		}
		for r := 0; r < 4; r++ {
			if r == c || a[r][c] == 0 {
				continue
			}
			f := a[r][c]
			for k := 0; k < 4; k++ {
				a[r][k] -= f * a[c][k]
				inv[r][k] -= f * inv[c][k]
			}
		}
	}
	return inv, true
}

// maxNodeDepth is the deepest node hierarchy the loader accepts.
const maxNodeDepth = 64

// animations reads the document's animations: channels on node translation,
// rotation and scale with LINEAR, STEP or CUBICSPLINE samplers.
func (l *gltfLoader) animations() error {
	for ai, ga := range l.doc.Animations {
		field := fmt.Sprintf("animations[%d]", ai)
		if ga == nil {
			return l.errf("%s: null animation", field)
		}
		a := Animation{Name: ga.Name, Start: math.Inf(1), End: math.Inf(-1)}
		if a.Name == "" {
			a.Name = fmt.Sprintf("animation%d", ai)
		}
		for ci, gc := range ga.Channels {
			cf := fmt.Sprintf("%s.channels[%d]", field, ci)
			c, err := l.channel(ga, gc, cf)
			if err != nil {
				return err
			}
			a.Start, a.End = math.Min(a.Start, c.Times[0]), math.Max(a.End, c.Times[len(c.Times)-1])
			a.Channels = append(a.Channels, c)
		}
		if len(a.Channels) == 0 {
			a.Start, a.End = 0, 0
		}
		l.model.Animations = append(l.model.Animations, a)
	}
	return nil
}

func (l *gltfLoader) channel(ga *gltf.Animation, gc *gltf.AnimationChannel, field string) (Channel, error) {
	var c Channel
	if gc == nil {
		return c, l.errf("%s: null channel", field)
	}
	tn := gc.Target.Node
	switch {
	case tn == nil:
		return c, l.errf("%s.target.node: missing (channels without a node are not supported)", field)
	case *tn < 0 || *tn >= len(l.model.Nodes) || l.doc.Nodes[*tn] == nil:
		return c, l.errf("%s.target.node: node %d does not exist (%d nodes)", field, *tn, len(l.doc.Nodes))
	}
	c.Node = *tn
	switch gc.Target.Path {
	case gltf.TRSTranslation:
		c.Path = PathTranslation
	case gltf.TRSRotation:
		c.Path = PathRotation
	case gltf.TRSScale:
		c.Path = PathScale
	case gltf.TRSWeights:
		return c, l.errf("%s.target.path: weights (morph target animation) is not supported; only translation, rotation and scale", field)
	default:
		return c, l.errf("%s.target.path: unknown path %d", field, gc.Target.Path)
	}
	if l.model.Nodes[c.Node].HasMatrix {
		return c, l.errf("%s.target.node: node %d has a matrix; animated nodes must use translation, rotation and scale", field, c.Node)
	}
	if gc.Sampler < 0 || gc.Sampler >= len(ga.Samplers) || ga.Samplers[gc.Sampler] == nil {
		return c, l.errf("%s.sampler: sampler %d does not exist (%d samplers)", field, gc.Sampler, len(ga.Samplers))
	}
	s := ga.Samplers[gc.Sampler]
	sf := fmt.Sprintf("%s (sampler %d)", field, gc.Sampler)
	switch s.Interpolation {
	case gltf.InterpolationLinear:
		c.Interp = InterpLinear
	case gltf.InterpolationStep:
		c.Interp = InterpStep
	case gltf.InterpolationCubicSpline:
		c.Interp = InterpCubicSpline
	default:
		return c, l.errf("%s.interpolation: unknown interpolation %d", sf, s.Interpolation)
	}
	comps := 3
	if c.Path == PathRotation {
		comps = 4
	}
	// Counted from the accessors' declared counts before they are read.
	n := max(0, l.accessorCount(s.Input))
	if l.animKeys += n; l.animKeys > MaxGLTFAnimationKeys {
		return c, l.errf("%s.input: the animations have %d keyframes over all channels so far, more than %d", sf, l.animKeys, MaxGLTFAnimationKeys)
	}
	want := n
	if c.Interp == InterpCubicSpline {
		want = 3 * n
	}
	if m := l.accessorCount(s.Output); m >= 0 && n > 0 && m != want {
		return c, l.errf("%s.output: %d values for %d keys of %v interpolation, want %d", sf, m, n, c.Interp, want)
	}
	var err error
	if c.Times, err = l.keyTimes(s.Input, sf+".input"); err != nil {
		return c, err
	}
	if c.Values, err = l.keyValues(s.Output, comps, want, sf+".output"); err != nil {
		return c, err
	}
	return c, nil
}

// MaxGLTFAnimationKeys bounds the keyframes of a glTF file's animations,
// counted over all channels (a sampler used by several channels counts for
// each; its keys are read once).
const MaxGLTFAnimationKeys = 1 << 22

// accessorCount returns the declared element count of accessor ai, -1 when
// it does not exist (reading it reports that, or a negative count).
func (l *gltfLoader) accessorCount(ai int) int {
	if ai < 0 || ai >= len(l.doc.Accessors) || l.doc.Accessors[ai] == nil {
		return -1
	}
	return l.doc.Accessors[ai].Count
}

// keyTimes reads the key times of accessor ai once per load: finite and
// strictly increasing, reserved in the budget.
func (l *gltfLoader) keyTimes(ai int, field string) ([]float64, error) {
	if t, ok := l.animTimes[ai]; ok {
		return t, nil
	}
	vals, n, err := l.readVec(ai, 1, 1, maxAnimationKeys, field)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, l.errf("%s: no keyframes", field)
	}
	if err := l.opt.Budget.Reserve("the keyframe times", 8*int64(n)); err != nil {
		return nil, l.errf("%s: %v", field, err)
	}
	times := make([]float64, n)
	for i, t := range vals {
		if !geom.AllFinite(t) || (i > 0 && !(t > vals[i-1])) {
			return nil, l.errf("%s: key times must be finite and strictly increasing (key %d: %v)", field, i, t)
		}
		times[i] = float64(t)
	}
	l.animTimes[ai] = times
	return times, nil
}

// keyValues reads the want key values of comps components of accessor ai
// once per load, reserved in the budget.
func (l *gltfLoader) keyValues(ai, comps, want int, field string) ([][4]float64, error) {
	key := [2]int{ai, comps}
	if v, ok := l.animValues[key]; ok {
		return v, nil
	}
	vals, m, err := l.readVec(ai, comps, comps, want, field)
	if err != nil {
		return nil, err
	}
	if err := l.opt.Budget.Reserve("the keyframe values", 32*int64(m)); err != nil {
		return nil, l.errf("%s: %v", field, err)
	}
	out := make([][4]float64, m)
	for i := range out {
		for k := 0; k < comps; k++ {
			out[i][k] = float64(vals[comps*i+k])
		}
	}
	l.animValues[key] = out
	return out, nil
}
