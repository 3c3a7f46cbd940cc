package scene

// The scene file parser, meshes: mesh files and procedural meshes.

import (
	"fmt"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

func (p *parser) mesh(e entry, needFileMaterials bool) error {
	w := p.w
	field := "meshes." + e.key
	o, err := w.object(e.v, field, "file", "procedural", "fit", "front")
	if err != nil {
		return err
	}
	var model *mesh.Model
	var parts []*mesh.Mesh
	fit := geom.Identity()
	fn, pn := o.get("file"), o.get("procedural")
	switch {
	case fn != nil && pn != nil:
		return w.errAt(e.v, field, "give either file or procedural, not both")
	case fn != nil:
		path, err := p.path(fn, o.path("file"))
		if err != nil {
			return err
		}
		model, err = mesh.Load(path, p.meshOptions(!needFileMaterials))
		if err != nil {
			// The mesh's folder as the scene names it, not the resolved
			// absolute one: models/quad.mtl:2, as the user reads it.
			written := filepath.Dir(filepath.FromSlash(fn.Value)) + string(filepath.Separator)
			if written == "."+string(filepath.Separator) {
				written = ""
			}
			msg := strings.ReplaceAll(err.Error(), filepath.Dir(path)+string(filepath.Separator), written)
			return w.errAt(fn, o.path("file"), "%s", msg)
		}
		for _, part := range model.Parts {
			parts = append(parts, part.Mesh)
		}
	case pn != nil:
		m, err := p.proceduralMesh(pn, e.v, o.path("procedural"))
		if err != nil {
			return err
		}
		parts = []*mesh.Mesh{m}
	default:
		return w.errAt(e.v, field, "needs file or procedural")
	}
	if n := o.get("front"); n != nil {
		if fn == nil {
			return w.errAt(n, o.path("front"), "front turns a mesh file; a procedural mesh has its own orientation (rotate its objects)")
		}
		k, err := w.enum(n, o.path("front"), FrontNames)
		if err != nil {
			return err
		}
		if turn := Front(k).Turn(); turn != geom.Identity() {
			for _, m := range parts {
				m.Transform(turn)
			}
			fit = turn
		}
	}
	if n := o.get("fit"); n != nil {
		size, err := w.float(n, o.path("fit"), 1e-6, 1e30)
		if err != nil {
			return err
		}
		fit = fitMeshes(size, parts...).Mul(fit)
	}
	var m *mesh.Mesh
	if model != nil {
		m = model.Merged()
	} else {
		m = parts[0]
	}
	m.Name = e.key
	p.b.fit[p.b.addMesh(m, model)] = fit
	return nil
}

// proceduralMesh makes the procedural mesh of node n (field names it),
// reserving its memory first; a refusal is reported at node at (the mesh
// entry, which is an alias of another for a shared mesh).
func (p *parser) proceduralMesh(n, at *yaml.Node, field string) (*mesh.Mesh, error) {
	kind, err := p.kindOf(n, field, meshKinds)
	if err != nil {
		return nil, err
	}
	keys := map[string][]string{
		"plane":    {"size", "segments", "uv_scale"},
		"cube":     {"size", "segments", "uv_scale"},
		"sphere":   {"radius", "stacks", "slices", "uv_scale"},
		"torus":    {"major_radius", "minor_radius", "segments", "sides", "uv_scale"},
		"terrain":  {"size", "segments", "height", "frequency", "octaves", "seed", "uv_scale"},
		"flock":    {"count", "volume", "size", "flap", "phase", "seed"},
		"leaves":   {"count", "radii", "size", "seed"},
		"triangle": {"vertices", "colors"},
	}[kind]
	r := p.reader(n, field, append([]string{"kind"}, keys...)...)
	const big = 1e30
	var g mesh.Generator
	switch kind {
	case "plane":
		g = mesh.Plane{Size: r.vec2("size", geom.Vec2{1, 1}), Segments: r.int2("segments", [2]int{1, 1}, 1, mesh.MaxSegments),
			UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "cube":
		g = mesh.Cube{Size: r.vec3("size", geom.Vec3{1, 1, 1}, true), Segments: r.int("segments", 1, 1, mesh.MaxSegments),
			UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "sphere":
		g = mesh.Sphere{Radius: r.float("radius", 1, 0, big), Stacks: r.int("stacks", 16, 2, mesh.MaxSegments),
			Slices: r.int("slices", 32, 3, mesh.MaxSegments), UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "torus":
		g = mesh.Torus{MajorRadius: r.float("major_radius", 1, 0, big), MinorRadius: r.float("minor_radius", 0.25, 0, big),
			Segments: r.int("segments", 48, 3, mesh.MaxSegments), Sides: r.int("sides", 16, 3, mesh.MaxSegments),
			UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "terrain":
		g = mesh.Terrain{Size: r.vec2("size", geom.Vec2{10, 10}), Segments: r.int2("segments", [2]int{64, 64}, 1, mesh.MaxSegments),
			Height: r.float("height", 1, 0, big), Frequency: r.float("frequency", 0.3, 0, big), Octaves: r.int("octaves", 4, 1, 12),
			Seed: r.seed(), UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "flock":
		g = mesh.Flock{Count: r.int("count", 100, 1, mesh.MaxVertices/6), Volume: r.vec3("volume", geom.Vec3{4, 2, 4}, true),
			Size: r.float("size", 0.2, 0, big), Flap: r.float("flap", 30, -90, 90), Phase: r.float("phase", 0, -big, big), Seed: r.seed()}
	case "leaves":
		g = mesh.Leaves{Count: r.int("count", 200, 1, mesh.MaxVertices/4), Radii: r.vec3("radii", geom.Vec3{1, 1, 1}, true),
			Size: r.float("size", 0.2, 0, big), Seed: r.seed()}
	case "triangle":
		t := mesh.Triangle{Vertices: [3]geom.Vec3{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}}
		if vs := r.vecList("vertices", 3, 3, 3); vs != nil {
			for i := range vs {
				t.Vertices[i] = geom.Vec3{vs[i][0], vs[i][1], vs[i][2]}
			}
		}
		if cs := r.vecList("colors", 3, 3, 4); cs != nil {
			for i := range cs {
				t.Colors[i] = toColor(cs[i])
			}
			t.HasColors = true
		}
		g = t
	}
	// Reserved before it is made, so that many meshes (aliases of one large
	// one) stop at the first past the budget, with nothing allocated for it.
	// One past the vertex limit is left to Generate's error.
	if fp := g.Footprint(); r.err == nil && fp.Vertices <= mesh.MaxVertices {
		if err := p.opt.budget.Reserve(fmt.Sprintf("the procedural mesh of %d vertices", fp.Vertices), fp.Bytes); err != nil {
			return nil, p.w.errAt(at, field, "%v", err)
		}
	}
	return generated(p, r, n, field, g.Generate)
}

var reservedMaterials = []string{fromFile, fromMTL}
