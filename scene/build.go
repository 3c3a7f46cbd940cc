package scene

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// builder accumulates a Scene and the bookkeeping that turns the parts and
// materials of mesh files into scene meshes, materials and textures.
type builder struct {
	s      *Scene
	models []*mesh.Model // parallel to s.Meshes: the file model of a mesh loaded from a file, else nil
	draws  map[int][]draw
	mats   map[matKey]int
	texs   map[*mesh.Texture]int
	// partMesh and fileMat mark the meshes and materials added for file
	// parts; scene files cannot name them.
	partMesh map[int]bool
	fileMat  map[int]bool
	// decoupled is the scene's default decoupled-sampling setting, given to
	// the materials converted from mesh files.
	decoupled Decoupling
	// fit is the `fit` transform applied to a file mesh's parts (identity
	// when none), so that animation motion can be conjugated by it.
	fit map[int]geom.Mat4
	// groups: the merged mesh of the parts of a file mesh under one moving
	// root of an animation ({mesh, root} -> scene mesh).
	groups map[[2]int]int
}

// draw is one mesh/material pair of a file mesh drawn with its own materials.
type draw struct{ mesh, material int }

type matKey struct {
	mesh, material int
	uv             bool
}

func newBuilder(s *Scene) *builder {
	return &builder{s: s, draws: map[int][]draw{}, mats: map[matKey]int{}, texs: map[*mesh.Texture]int{},
		partMesh: map[int]bool{}, fileMat: map[int]bool{}, decoupled: DefaultDecoupling(), fit: map[int]geom.Mat4{},
		groups: map[[2]int]int{}}
}

// addMesh appends a scene mesh (with its file model, or nil) and returns its
// index.
func (b *builder) addMesh(m *mesh.Mesh, model *mesh.Model) int {
	b.s.Meshes = append(b.s.Meshes, m)
	b.models = append(b.models, model)
	return len(b.s.Meshes) - 1
}

// uniqueName returns name, or name#2, name#3, ... if taken according to used.
func uniqueName(name string, used func(string) bool) string {
	if !used(name) {
		return name
	}
	for k := 2; ; k++ {
		n := fmt.Sprintf("%s#%d", name, k)
		if !used(n) {
			return n
		}
	}
}

// fileDraws returns the draws of scene mesh mi with the file's own materials:
// one per part of its model. Part meshes other than the merged mesh of a
// one-part model are added to the scene as "<mesh>/<part index>".
func (b *builder) fileDraws(mi int) []draw {
	if d, ok := b.draws[mi]; ok {
		return d
	}
	model := b.models[mi]
	name := b.s.Meshes[mi].Name
	var out []draw
	for k, part := range model.Parts {
		pm := mi
		if len(model.Parts) > 1 {
			m := part.Mesh
			m.Name = uniqueName(fmt.Sprintf("%s/%d", name, k), func(n string) bool { return b.s.MeshIndex(n) >= 0 })
			pm = b.addMesh(m, nil)
			b.partMesh[pm] = true
		}
		out = append(out, draw{pm, b.fileMaterial(mi, part.Material, len(part.Mesh.TexCoords) > 0)})
	}
	b.draws[mi] = out
	return out
}

// fileMaterial converts material fm of the model of scene mesh mi (once per
// mesh, material and texture-coordinate presence) and returns its index.
func (b *builder) fileMaterial(mi, fm int, uv bool) int {
	key := matKey{mi, fm, uv}
	if j, ok := b.mats[key]; ok {
		return j
	}
	meshName := b.s.Meshes[mi].Name
	var m Material
	if fm < 0 {
		m = defaultMaterial(meshName + "/default")
	} else {
		mm := &b.models[mi].Materials[fm]
		m = b.convertMaterial(meshName+"/"+mm.Name, mm, uv)
	}
	m.Name = uniqueName(m.Name, func(n string) bool { return b.s.MaterialIndex(n) >= 0 })
	m.Decoupled = b.decoupled
	b.s.Materials = append(b.s.Materials, m)
	j := len(b.s.Materials) - 1
	b.mats[key] = j
	b.fileMat[j] = true
	return j
}

// defaultMaterial is the material of geometry without one: a light grey
// Blinn-Phong surface.
func defaultMaterial(name string) Material {
	return Material{
		Name:   name,
		Shader: "blinnphong",
		Params: []Param{{"diffuse", geom.Vec4{0.8, 0.8, 0.8, 1}}, {"specular", geom.Vec4{0.3, 0.3, 0.3, 32}}},
		State:  DefaultState(),
	}
}

// convertMaterial maps a mesh-file material to a library shader:
//
//	albedo map and alpha cutoff          -> alphatest  (tint = diffuse, cutoff)
//	albedo and normal maps               -> normalmap  (specular)
//	albedo map                           -> textured   (tint = diffuse)
//	otherwise, or without texcoords      -> blinnphong (diffuse, specular)
//
// Specular shininess is at least 1. Double-sided materials are not culled;
// blended ones use alpha blending without depth writes.
func (b *builder) convertMaterial(name string, fm *mesh.Material, uv bool) Material {
	spec := fm.Specular
	spec[3] = max(spec[3], 1)
	m := Material{Name: name, State: DefaultState()}
	switch {
	case uv && fm.Albedo != nil && fm.AlphaCutoff > 0:
		c := fm.AlphaCutoff
		m.Shader = "alphatest"
		m.Params = []Param{{"tint", fm.Diffuse}, {"cutoff", geom.Vec4{c, c, c, c}}}
		m.Textures = []Binding{{"albedo", b.fileTexture(fm.Albedo)}}
	case uv && fm.Albedo != nil && fm.Normal != nil:
		m.Shader = "normalmap"
		m.Params = []Param{{"specular", spec}}
		m.Textures = []Binding{{"albedo", b.fileTexture(fm.Albedo)}, {"normal", b.fileTexture(fm.Normal)}}
	case uv && fm.Albedo != nil:
		m.Shader = "textured"
		m.Params = []Param{{"tint", fm.Diffuse}}
		m.Textures = []Binding{{"albedo", b.fileTexture(fm.Albedo)}}
	default:
		m.Shader = "blinnphong"
		m.Params = []Param{{"diffuse", fm.Diffuse}, {"specular", spec}}
	}
	if fm.DoubleSided {
		m.State.Cull = CullNone
	}
	if fm.Blend {
		m.State.Blend = BlendAlpha
		m.State.DepthWrite = false
	}
	return m
}

// fileTexture adds a mesh-file texture to the scene once and returns its
// index: mipmapped, trilinear, named "<model>/<file name>".
func (b *builder) fileTexture(t *mesh.Texture) int {
	if j, ok := b.texs[t]; ok {
		return j
	}
	st := Texture{
		Name:          uniqueName(t.Name, func(n string) bool { return b.s.TextureIndex(n) >= 0 }),
		Width:         t.Image.Width,
		Height:        t.Image.Height,
		Pix:           t.Image.Pix,
		Mipmaps:       true,
		Filter:        FilterTrilinear,
		AddressU:      AddressWrap,
		AddressV:      AddressWrap,
		AddressW:      AddressWrap,
		MaxLOD:        DefaultMaxLOD,
		MaxAnisotropy: DefaultMaxAnisotropy,
	}
	if t.ClampU {
		st.AddressU = AddressClamp
	}
	if t.ClampV {
		st.AddressV = AddressClamp
	}
	b.s.Textures = append(b.s.Textures, st)
	j := len(b.s.Textures) - 1
	b.texs[t] = j
	return j
}

// fitMeshes scales and translates the meshes uniformly so that their common
// bounding box is centred on the origin with its largest side equal to size,
// and returns the transform it applied (the identity when it did nothing).
func fitMeshes(size float32, meshes ...*mesh.Mesh) geom.Mat4 {
	var lo, hi geom.Vec3
	first := true
	for _, m := range meshes {
		if m.VertexCount() == 0 {
			continue
		}
		l, h := m.Bounds()
		if first {
			lo, hi, first = l, h, false
			continue
		}
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], l[k]), max(hi[k], h[k])
		}
	}
	ext := max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2])
	if first || ext == 0 {
		return geom.Identity()
	}
	c := lo.Add(hi).Scale(0.5)
	s := size / ext
	xf := geom.Scale(geom.Vec3{s, s, s}).Mul(geom.Translate(c.Scale(-1)))
	for _, m := range meshes {
		m.Transform(xf)
	}
	return xf
}
