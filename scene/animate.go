package scene

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/mesh"
	"gopkg.in/yaml.v3"
)

// Defaults of an object's glTF `animation`.
const (
	DefaultAnimationFPS = 30 // frames per second of the scene's frames
)

// animSel is the glTF animation an object plays and the animation times (in
// seconds) of its shutter open and close.
type animSel struct {
	index       int
	open, close float64
}

// objectAnimation reads an object's `animation` for scene mesh mi: nil when
// the mesh has no animations or the field is `off`. Without the field a mesh
// with animations plays animation 0 from time 0.
func (p *parser) objectAnimation(o *object, mi int) (*animSel, error) {
	w := p.w
	model := p.b.models[mi]
	has := model != nil && len(model.Animations) > 0
	an := o.get("animation")
	field := o.path("animation")
	if an != nil {
		if r, err := w.resolve(an, field); err == nil && r.Kind == yaml.ScalarNode {
			if v, _ := w.str(r, field); v == "off" {
				return nil, nil
			}
			return nil, w.errAt(r, field, "expected off or a mapping {index | name, time, fps, shutter, loop}")
		}
		if !has {
			return nil, w.errAt(an, field, "mesh %q has no animations (a glTF file with animations is needed)", p.s.Meshes[mi].Name)
		}
	}
	if !has {
		return nil, nil
	}
	cam := p.s.Camera
	sel := &animSel{}
	var t0, fps, shutter float64 = 0, DefaultAnimationFPS, -1
	loop := false
	if an != nil {
		r := p.reader(an, field, "index", "name", "time", "fps", "shutter", "loop")
		if r.o != nil && r.o.get("index") != nil && r.o.get("name") != nil {
			return nil, w.errAt(an, field, "give index or name, not both")
		}
		sel.index = r.int("index", 0, 0, len(model.Animations)-1)
		if nn := r.node("name"); nn != nil {
			name, err := w.str(nn, r.o.path("name"))
			if err != nil {
				return nil, err
			}
			if sel.index = model.AnimationIndex(name); sel.index < 0 {
				names := make([]string, len(model.Animations))
				for i := range model.Animations {
					names[i] = model.Animations[i].Name
				}
				return nil, w.errAt(nn, r.o.path("name"), "no animation %q (have %s)", name, listOrNone(names))
			}
		}
		t0 = float64(r.float("time", 0, -1e9, 1e9))
		fps = float64(r.float("fps", DefaultAnimationFPS, 1e-6, 1e6))
		shutter = float64(r.float("shutter", -1, 0, 1e6))
		if ln := r.node("loop"); ln != nil {
			var err error
			if loop, err = w.boolean(ln, r.o.path("loop")); err != nil {
				return nil, err
			}
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	if shutter < 0 {
		shutter = float64(cam.ShutterClose-cam.ShutterOpen) / fps
	}
	sel.open = t0 + float64(p.s.Frame)/fps
	sel.close = sel.open + shutter
	if a := &model.Animations[sel.index]; loop && a.End > a.Start {
		wrap := func(t float64) float64 { return a.Start + mod(t-a.Start, a.End-a.Start) }
		sel.open, sel.close = wrap(sel.open), wrap(sel.close)
	}
	return sel, nil
}

func mod(a, b float64) float64 {
	m := math.Mod(a, b)
	if m < 0 {
		m += b
	}
	return m
}

// animatedDraws splits the draws of file mesh mi so that parts that move
// differently under the animation are drawn separately, and returns each
// draw's model-space motion at shutter open and close. fromFile: draws are
// the model's parts (fileDraws), one per part. Otherwise draws is the merged
// mesh with one material; the parts are grouped by their moving root (the
// nearest animated node above them) and each group of a model with more than
// one becomes a mesh of its own ("<mesh>@<node>").
func (b *builder) animatedDraws(mi int, draws []draw, sel *animSel, fromFile bool) ([]draw, [][2]geom.Mat4) {
	model := b.models[mi]
	roots := make([]int, len(model.Parts))
	for k := range model.Parts {
		roots[k] = model.MovingRoot(sel.index, model.PartNode(k))
	}
	var out []draw
	var nodes []int
	if fromFile {
		out, nodes = draws, roots
	} else {
		var order []int
		groups := map[int][]*mesh.Mesh{}
		for k, r := range roots {
			if _, ok := groups[r]; !ok {
				order = append(order, r)
			}
			groups[r] = append(groups[r], model.Parts[k].Mesh)
		}
		if len(order) == 1 {
			out, nodes = draws, order
		} else {
			for _, r := range order {
				out = append(out, draw{b.groupMesh(mi, r, groups[r]), draws[0].material})
				nodes = append(nodes, r)
			}
		}
	}
	motions := make([][2]geom.Mat4, len(out))
	for k, r := range nodes {
		motions[k] = [2]geom.Mat4{b.motion(mi, sel.index, r, sel.open), b.motion(mi, sel.index, r, sel.close)}
	}
	return out, motions
}

// groupMesh returns the scene mesh of the parts of file mesh mi under moving
// root r, adding it once.
func (b *builder) groupMesh(mi, r int, parts []*mesh.Mesh) int {
	key := [2]int{mi, r}
	if j, ok := b.groups[key]; ok {
		return j
	}
	model := b.models[mi]
	node := "static"
	if r >= 0 {
		node = model.Nodes[r].Name
	}
	name := uniqueName(fmt.Sprintf("%s@%s", b.s.Meshes[mi].Name, node), func(n string) bool { return b.s.MeshIndex(n) >= 0 })
	j := b.addMesh(mesh.Merge(name, parts...), nil)
	b.partMesh[j] = true
	b.groups[key] = j
	return j
}

// motion returns the model-space motion of moving root r of file mesh mi at
// animation time t: the model's Motion conjugated by the mesh's `fit`
// transform; the identity exactly for parts that do not move.
func (b *builder) motion(mi, anim, r int, t float64) geom.Mat4 {
	if r < 0 {
		return geom.Identity()
	}
	m := b.models[mi].Motion(anim, r, t)
	f := b.fit[mi]
	if f == geom.Identity() {
		return m
	}
	inv, ok := f.Inverse()
	if !ok {
		return m
	}
	return f.Mul(m).Mul(inv)
}

// batsObject expands an object with `bats` into three objects per bat (body,
// left wing, right wing), posed at frame + shutter open and close.
func (p *parser) batsObject(n *yaml.Node, o *object, field string) error {
	w := p.w
	for _, k := range []string{"mesh", "motion", "repeat", "animation"} {
		if v := o.get(k); v != nil {
			return w.errAt(v, o.path(k), "an object with bats has no %s (the bats are their own meshes and motion)", k)
		}
	}
	bn := o.get("bats")
	r := p.reader(bn, o.path("bats"), "count", "volume", "size", "flap", "flap_rate", "speed", "seed")
	g := mesh.Bats{
		Count:    r.int("count", 100, 1, mesh.MaxBats),
		Volume:   r.vec3("volume", geom.Vec3{8, 3, 8}, true),
		Size:     r.float("size", 0.3, 1e-6, 1e6),
		Flap:     r.float("flap", 50, 0, 90),
		FlapRate: r.float("flap_rate", 0.3, 0, 1e3),
		Speed:    r.float("speed", 0.05, 0, 1e6),
		Seed:     r.seed(),
	}
	if r.err != nil {
		return r.err
	}
	flock, err := g.Generate()
	if err != nil {
		return w.errAt(bn, o.path("bats"), "%v", err)
	}
	name := "bats"
	if nn := o.get("name"); nn != nil {
		if name, err = w.str(nn, o.path("name")); err != nil {
			return err
		}
	}
	ma, matNode, err := p.requiredMaterial(n, o, field)
	if err != nil {
		return err
	}
	place := identityTRS
	if tn := o.get("transform"); tn != nil {
		if place, err = p.trs(tn, o.path("transform"), identityTRS); err != nil {
			return err
		}
	}
	if len(p.s.Objects)+3*flock.Len() > maxInstances {
		return w.errAt(n, field, "more than %d objects in the scene", maxInstances)
	}
	var meshes [3]int
	for k, m := range []*mesh.Mesh{flock.Body, flock.LeftWing, flock.RightWing} {
		m.Name = uniqueName(name+"/"+batParts[k], func(s string) bool { return p.s.MeshIndex(s) >= 0 })
		meshes[k] = p.b.addMesh(m, nil)
		p.b.partMesh[meshes[k]] = true
	}
	for k := range meshes {
		if err := needsTexCoords(&p.s.Materials[ma], p.s.Meshes[meshes[k]]); err != nil {
			return w.errAt(matNode, o.path("material"), "%v", err)
		}
	}
	pm := place.matrix()
	cam := p.s.Camera
	open, close := float64(p.s.Frame)+float64(cam.ShutterOpen), float64(p.s.Frame)+float64(cam.ShutterClose)
	for i := 0; i < flock.Len(); i++ {
		b0, l0, r0 := flock.Pose(i, open)
		b1, l1, r1 := flock.Pose(i, close)
		for k, pose := range [3][2]geom.Mat4{{b0, b1}, {l0, l1}, {r0, r1}} {
			a, b := pm.Mul(pose[0]), pm.Mul(pose[1])
			p.s.Objects = append(p.s.Objects, Object{Name: fmt.Sprintf("%s[%d]/%s", name, i, batParts[k]),
				Mesh: meshes[k], Material: ma, Transform: a, EndTransform: b, Moving: a != b})
		}
	}
	return nil
}

var batParts = [3]string{"body", "wing_left", "wing_right"}
