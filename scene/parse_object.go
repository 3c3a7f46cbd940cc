package scene

// The scene file parser, objects: transforms, motion, instances and repeats.

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/names"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// trs is a transform as translation, Euler rotation (degrees, X then Y then
// Z) and scale: M = T * R * S.
type trs struct{ t, r, s geom.Vec3 }

var identityTRS = trs{s: geom.Vec3{1, 1, 1}}

func (x trs) matrix() geom.Mat4 {
	return geom.Translate(x.t).Mul(geom.RotateEulerDegrees(x.r)).Mul(geom.Scale(x.s))
}

// lerp interpolates component-wise: (1-u)*a + u*b, exact at u = 0 and u = 1.
func (x trs) lerp(y trs, u float32) trs {
	if x == y {
		return x
	}
	l := func(a, b geom.Vec3) geom.Vec3 {
		return geom.Vec3{(1-u)*a[0] + u*b[0], (1-u)*a[1] + u*b[1], (1-u)*a[2] + u*b[2]}
	}
	return trs{l(x.t, y.t), l(x.r, y.r), l(x.s, y.s)}
}

func (p *parser) trs(n *yaml.Node, field string, def trs) (trs, error) {
	r := p.reader(n, field, "translate", "rotate", "scale")
	x := trs{
		t: r.vec3("translate", def.t, false),
		r: r.vec3("rotate", def.r, false),
		s: r.vec3("scale", def.s, true),
	}
	if r.err == nil && (x.s[0] == 0 || x.s[1] == 0 || x.s[2] == 0) {
		return x, p.w.errAt(r.o.get("scale"), r.o.path("scale"), "%v has a zero component", x.s)
	}
	return x, r.err
}

// instance is one copy of a repeated object: its start and end transforms and
// its name suffix.
type instance struct {
	start, end trs
	suffix     string
}

func (p *parser) object(n *yaml.Node, field string) error {
	w := p.w
	o, err := w.object(n, field, append([]string{"name", "mesh", "material", "transform", "motion", "repeat", "animation", "bats"}, streamKeys...)...)
	if err != nil {
		return err
	}
	if o.get("bats") != nil {
		return p.batsObject(n, o, field)
	}
	for _, k := range streamKeys {
		if o.get(k) != nil {
			return p.geometryObject(n, o, field)
		}
	}
	if mn := o.get("material"); mn != nil && mn.Kind == yaml.ScalarNode {
		if ma := p.s.MaterialIndex(mn.Value); ma >= 0 && p.s.Materials[ma].GeometryShader() != "" {
			return p.geometryObject(n, o, field)
		}
	}
	mn := o.get("mesh")
	if mn == nil {
		return w.errAt(n, field, "missing mesh")
	}
	meshName, err := w.str(mn, o.path("mesh"))
	if err != nil {
		return err
	}
	mi := p.s.MeshIndex(meshName)
	if mi < 0 || p.b.isPart(mi) {
		return w.errAt(mn, o.path("mesh"), "unknown mesh %s%s", inputs.Quote(meshName), names.DidYouMean(meshName, p.meshNames()))
	}
	matNode := o.get("material")
	if matNode == nil {
		return w.errAt(n, field, "missing material (a material name, or %s)", fromFile)
	}
	matName, err := w.str(matNode, o.path("material"))
	if err != nil {
		return err
	}
	var draws []draw
	if matName == fromFile || matName == fromMTL {
		if p.b.models[mi] == nil {
			return w.errAt(matNode, o.path("material"), "%s needs a mesh loaded from a file; %s is procedural", matName, inputs.Quote(meshName))
		}
		draws = p.b.fileDraws(mi)
	} else {
		ma, err := p.namedMaterial(matNode, o, matName)
		if err != nil {
			return err
		}
		draws = []draw{{mi, ma}}
	}
	for _, d := range draws {
		if err := needsTexCoords(&p.s.Materials[d.material], p.s.Meshes[d.mesh]); err != nil {
			return w.errAt(matNode, o.path("material"), "%v", err)
		}
	}
	name := meshName
	if nn := o.get("name"); nn != nil {
		if name, err = w.str(nn, o.path("name")); err != nil {
			return err
		}
	}
	start := identityTRS
	if tn := o.get("transform"); tn != nil {
		if start, err = p.trs(tn, o.path("transform"), identityTRS); err != nil {
			return err
		}
	}
	end := start
	if mo := o.get("motion"); mo != nil {
		if end, err = p.trs(mo, o.path("motion"), start); err != nil {
			return err
		}
	}
	insts := []instance{{start, end, ""}}
	if rn := o.get("repeat"); rn != nil {
		if insts, err = p.repeat(rn, o.path("repeat"), start, end); err != nil {
			return err
		}
	}
	anim, err := p.objectAnimation(o, mi)
	if err != nil {
		return err
	}
	motions := make([][2]geom.Mat4, len(draws))
	for k := range motions {
		motions[k] = [2]geom.Mat4{geom.Identity(), geom.Identity()}
	}
	if anim != nil {
		if draws, motions = p.b.animatedDraws(mi, draws, anim, matName == fromFile || matName == fromMTL); len(draws) == 0 {
			return w.errAt(n, field, "no parts to draw")
		}
	}
	if len(p.s.Objects)+len(insts)*len(draws) > maxInstances {
		return w.errAt(n, field, "more than %d objects in the scene", maxInstances)
	}
	cam := p.s.Camera
	for _, in := range insts {
		t0 := in.start.lerp(in.end, cam.ShutterOpen).matrix()
		t1 := in.start.lerp(in.end, cam.ShutterClose).matrix()
		for k, d := range draws {
			on := name + in.suffix
			if len(draws) > 1 {
				on = fmt.Sprintf("%s/%d", on, k)
			}
			a, b := mulMotion(t0, motions[k][0]), mulMotion(t1, motions[k][1])
			if !finiteMat(a) || !finiteMat(b) {
				// A repeat's step times the copy's index (plus jitter), or a
				// file's animation times the object's scale, past a float32.
				at, f := n, field
				keys, why := []string{"repeat", "motion", "transform"}, "its translation, rotation or scale overflows a 32-bit float"
				if finiteMat(t0) && finiteMat(t1) {
					keys, why = []string{"animation", "transform"}, "the mesh file's animation times the object's transform overflows a 32-bit float"
				}
				for _, key := range keys {
					if kn := o.get(key); kn != nil {
						at, f = kn, o.path(key)
						break
					}
				}
				return w.errAt(at, f, "the transform of %s is not finite: %s", inputs.Quote(on), why)
			}
			blur := p.s.Blur
			if p.opt.blurSet {
				blur = p.opt.blur
			}
			if !finiteMat(BlurLerp(a, b, blur)) {
				at, f := n, field
				if kn := o.get("motion"); kn != nil {
					at, f = kn, o.path("motion")
				}
				return w.errAt(at, f, "the motion of %s times blur %v is not finite: it overflows a 32-bit float (make the motion or the blur smaller)",
					inputs.Quote(on), blur)
			}
			p.s.Objects = append(p.s.Objects, Object{
				Name: on, Mesh: d.mesh, Material: d.material,
				Transform: a, EndTransform: b, Moving: a != b,
			})
		}
	}
	return nil
}

// finiteMat reports whether every element of m is finite.
func finiteMat(m geom.Mat4) bool {
	for r := range m {
		if !geom.AllFinite(m[r][:]...) {
			return false
		}
	}
	return true
}

// mulMotion returns t * m, or t itself when m is the identity (so static
// objects keep their transforms bit for bit).
func mulMotion(t, m geom.Mat4) geom.Mat4 {
	if m == geom.Identity() {
		return t
	}
	return t.Mul(m)
}

// isPart reports whether scene mesh i was added for a part of a file mesh
// (such meshes cannot be named by objects).
func (b *builder) isPart(i int) bool { return b.partMesh[i] }

// isFileMaterial reports whether scene material i was converted from a mesh
// file (such materials cannot be named by objects).
func (b *builder) isFileMaterial(i int) bool { return b.fileMat[i] }

// meshNames, materialNames and textureNames list the names objects and
// materials may refer to (not the parts and materials of mesh files), for the
// errors' guesses.
func (p *parser) meshNames() []string {
	return namesOf(p.s.Meshes, func(m *mesh.Mesh) string { return m.Name }, p.b.isPart)
}

func (p *parser) materialNames() []string {
	return namesOf(p.s.Materials, func(m Material) string { return m.Name }, p.b.isFileMaterial)
}

func (p *parser) textureNames() []string {
	return namesOf(p.s.Textures, func(t Texture) string { return t.Name }, func(int) bool { return false })
}

// namesOf returns the names of items, but those of the indices hidden reports.
func namesOf[T any](items []T, name func(T) string, hidden func(int) bool) []string {
	var out []string
	for i, x := range items {
		if !hidden(i) {
			out = append(out, name(x))
		}
	}
	return out
}

func (p *parser) repeat(n *yaml.Node, field string, start, end trs) ([]instance, error) {
	w := p.w
	r := p.reader(n, field, "count", "step", "jitter", "order", "seed")
	count := r.ints("count", []int{1, 1, 1}, 1, 3, 1, maxInstances)
	step := r.vec3("step", geom.Vec3{}, false)
	order := r.enum("order", 0, []string{"forward", "reverse", "shuffle"})
	seed := r.seed()
	if r.err != nil {
		return nil, r.err
	}
	for len(count) < 3 {
		count = append(count, 1)
	}
	total := int64(count[0]) * int64(count[1]) * int64(count[2])
	if total > maxInstances {
		return nil, w.errAt(r.o.get("count"), r.o.path("count"), "%d instances, at most %d", total, maxInstances)
	}
	var jt, jr geom.Vec3
	var js float32
	if jn := r.o.get("jitter"); jn != nil {
		jrd := p.reader(jn, r.o.path("jitter"), "translate", "rotate", "scale")
		jt = jrd.vec3("translate", geom.Vec3{}, true)
		jr = jrd.vec3("rotate", geom.Vec3{}, true)
		js = jrd.float("scale", 0, 0, 0.999)
		if jrd.err != nil {
			return nil, jrd.err
		}
		for k := 0; k < 3; k++ {
			if jt[k] < 0 || jr[k] < 0 {
				return nil, w.errAt(jn, r.o.path("jitter"), "jitter amplitudes must be non-negative")
			}
		}
	}
	g := rng.New(seed)
	out := make([]instance, 0, total)
	for iz := 0; iz < count[2]; iz++ {
		for iy := 0; iy < count[1]; iy++ {
			for ix := 0; ix < count[0]; ix++ {
				off := geom.Vec3{step[0] * float32(ix), step[1] * float32(iy), step[2] * float32(iz)}
				off = off.Add(geom.Vec3{g.Symmetric(jt[0]), g.Symmetric(jt[1]), g.Symmetric(jt[2])})
				rot := geom.Vec3{g.Symmetric(jr[0]), g.Symmetric(jr[1]), g.Symmetric(jr[2])}
				sc := 1 + g.Symmetric(js)
				apply := func(x trs) trs {
					return trs{x.t.Add(off), x.r.Add(rot), x.s.Scale(sc)}
				}
				out = append(out, instance{apply(start), apply(end), fmt.Sprintf("[%d]", len(out))})
			}
		}
	}
	switch order {
	case 1:
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	case 2:
		for i := len(out) - 1; i > 0; i-- {
			j := g.Intn(i + 1)
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// namedMaterial returns the index of the scene material called name, which node
// (o's "material") gives; the materials of mesh files are not for objects to
// name.
func (p *parser) namedMaterial(node *yaml.Node, o *object, name string) (int, error) {
	ma := p.s.MaterialIndex(name)
	if ma < 0 || p.b.isFileMaterial(ma) {
		return -1, p.w.errAt(node, o.path("material"), "unknown material %s%s", inputs.Quote(name), names.DidYouMean(name, p.materialNames()))
	}
	return ma, nil
}

// requiredMaterial reads o's "material", which object n at field must have,
// as namedMaterial does, and returns its node too.
func (p *parser) requiredMaterial(n *yaml.Node, o *object, field string) (int, *yaml.Node, error) {
	node := o.get("material")
	if node == nil {
		return -1, nil, p.w.errAt(n, field, "missing material")
	}
	name, err := p.w.str(node, o.path("material"))
	if err != nil {
		return -1, nil, err
	}
	ma, err := p.namedMaterial(node, o, name)
	return ma, node, err
}
