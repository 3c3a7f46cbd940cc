package library

import (
	"embed"
	"fmt"
	"strings"

	"github.com/gfxsim/gfxsim/functional/shader"
)

//go:embed shaders/*.gsa
var files embed.FS

// Material is a vertex and pixel shader pair.
type Material struct {
	Name   string
	VSName string // vertex shader file base name ("standard" for standard.vs.gsa)
	PSName string // pixel shader file base name
	GSName string // geometry shader file base name ("" when the material has none)
	VS, PS *shader.Program
	GS     *shader.Program // nil when the material has none
	// Links maps each pixel-shader input to its vertex-shader output or
	// system value (shader.Link).
	Links []shader.LinkedInput
}

// Params returns the material parameters of both programs, vertex shader
// first, in declaration order.
func (m *Material) Params() []shader.ParamDecl {
	out := append([]shader.ParamDecl(nil), m.VS.Params...)
	if m.GS != nil {
		out = append(out, m.GS.Params...)
	}
	return append(out, m.PS.Params...)
}

// Samplers returns the samplers of both programs, vertex shader first.
func (m *Material) Samplers() []shader.SamplerDecl {
	out := append([]shader.SamplerDecl(nil), m.VS.Samplers...)
	if m.GS != nil {
		out = append(out, m.GS.Samplers...)
	}
	return append(out, m.PS.Samplers...)
}

// materialTable lists the materials, sorted by name: name, vertex shader,
// pixel shader, and the geometry shader of the geometry shader materials.
func materialTable() [][4]string {
	return [][4]string{
		{"alphatest", "standard", "alphatest"},
		{"blinnphong", "standard", "blinnphong"},
		{"bowlingpin", "pin", "bowlingpin"},
		{"bumppin", "object", "bumppin"},
		{"depthwrite", "standard", "depthwrite"},
		{"envmap", "standard", "envmap"},
		{"gouraud", "gouraud", "gouraud"},
		{"grass", "standard", "vcolor", "grass"},
		{"grass_instanced", "standard", "vcolor", "grass_instanced"},
		{"layered", "standard", "layered"},
		{"long", "standard", "long"},
		{"normalmap", "standard", "normalmap"},
		{"particle_sprite", "particle", "vcolor", "sprite"},
		{"particle_step", "particle", "unlit", "particle_step"},
		{"silhouette", "standard", "unlit", "silhouette"},
		{"textured", "standard", "textured"},
		{"unlit", "standard", "unlit"},
		{"volume", "standard", "volume"},
		{"wood", "object", "wood"},
	}
}

// Names returns the material names, sorted.
func Names() []string {
	t := materialTable()
	out := make([]string, len(t))
	for i, m := range t {
		out[i] = m[0]
	}
	return out
}

// Get assembles and links the named material. Each call returns new
// programs; callers cache them.
func Get(name string) (Material, error) {
	for _, m := range materialTable() {
		if m[0] != name {
			continue
		}
		vs, err := Load(m[1] + ".vs.gsa")
		if err != nil {
			return Material{}, err
		}
		ps, err := Load(m[2] + ".ps.gsa")
		if err != nil {
			return Material{}, err
		}
		last := vs
		var gs *shader.Program
		if m[3] != "" {
			if gs, err = Load(m[3] + ".gs.gsa"); err != nil {
				return Material{}, err
			}
			last = gs
		}
		links, err := shader.Link(last, ps)
		if err != nil {
			return Material{}, fmt.Errorf("library: material %q: %w", name, err)
		}
		return Material{Name: name, VSName: m[1], PSName: m[2], GSName: m[3], VS: vs, PS: ps, GS: gs, Links: links}, nil
	}
	return Material{}, fmt.Errorf("library: unknown material %q (want one of %s)", name, strings.Join(Names(), ", "))
}

// Files returns the names of the embedded shader files, sorted.
func Files() []string {
	entries, err := files.ReadDir("shaders")
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Source returns the text of an embedded shader file.
func Source(file string) ([]byte, error) {
	b, err := files.ReadFile("shaders/" + file)
	if err != nil {
		return nil, fmt.Errorf("library: no shader file %q", file)
	}
	return b, nil
}

// Load assembles an embedded shader file (Program.Name is the file name).
func Load(file string) (*shader.Program, error) {
	src, err := Source(file)
	if err != nil {
		return nil, err
	}
	return shader.Assemble(file, src)
}
