package mesh

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/teximage"
)

// Model is the content of a mesh file: its triangles split into parts (one per
// material and, for glTF, per primitive instance) and the materials the file
// describes.
type Model struct {
	Name      string // the file name without directory and extension
	Parts     []Part
	Materials []Material

	// glTF only: the node hierarchy, the node each part was instanced by
	// (parallel to Parts) and the animations (see animation.go).
	Nodes      []Node
	PartNodes  []int
	Animations []Animation
}

// PartNode returns the node of part i, or -1 (OBJ files have no nodes).
func (m *Model) PartNode(i int) int {
	if i < len(m.PartNodes) {
		return m.PartNodes[i]
	}
	return -1
}

// Part is a mesh drawn with one material; Material indexes Model.Materials and
// is -1 when the file gives no material (or materials were not loaded).
type Part struct {
	Mesh     *Mesh
	Material int
}

// Material is a surface description read from an MTL file or a glTF material,
// reduced to what gfxsim's shader library can draw.
type Material struct {
	Name        string
	Diffuse     geom.Vec4 // MTL: (Kd, d); glTF: baseColorFactor
	Specular    geom.Vec4 // MTL: (Ks, Ns); glTF: (0.2, 0.2, 0.2, 32), glTF has no Phong specular
	Albedo      *Texture  // MTL map_Kd (alpha from map_d); glTF baseColorTexture; nil if none
	Normal      *Texture  // MTL norm; glTF normalTexture; nil if none
	AlphaCutoff float32   // > 0: alpha-tested with this threshold (glTF MASK; MTL map_d: 0.5)
	Blend       bool      // alpha-blended (glTF BLEND; MTL d < 1 without map_d)
	DoubleSided bool      // glTF doubleSided
}

// Texture is an image of a mesh file with its addressing. Textures are shared
// between the materials that use the same file.
type Texture struct {
	Name           string // the file name as written in the mesh file, or "images[i]" for embedded glTF images
	Image          *teximage.Image
	ClampU, ClampV bool // clamp to edge instead of wrapping
}

// LoadOptions control mesh file loading.
type LoadOptions struct {
	// MaxTextureSize downscales images larger than this many texels per side
	// by a power of two (teximage.Image.Downscale); 0 keeps them as they are.
	MaxTextureSize int
	// SkipMaterials loads only the geometry: no image is decoded and every
	// part has Material -1 (parts stay split by material). The files the mesh
	// file names are still checked as without it, so that a mesh drawn in a
	// scene's own material fails as the same file given alone does: an OBJ's
	// MTL libraries are read and parsed, its usemtl names looked up in them,
	// and the images of the materials it uses resolved (they must exist
	// inside the allowed folders); a glTF file's materials are checked the
	// same way (see DecodeGLTF).
	SkipMaterials bool
	// Roots are folder trees, besides the mesh file's own folder, that the
	// files it names (MTL files, images, glTF buffers) may be read from; every
	// other reference is refused (see package internal/inputs).
	Roots *inputs.Roots
	// Named says that another input file (a scene) named the mesh file and
	// Roots resolved its path: the file is then read through Roots
	// (inputs.Roots.ReadFile), like the files it names. A mesh file given on
	// the command line is the user's choice and is read as it is.
	Named bool
	// Budget is the memory the load may reserve (nil: the default budget,
	// for each allocation alone).
	Budget *inputs.Budget
}

// read reads the mesh file at path: through Roots when another input named
// it (Named).
func (opt LoadOptions) read(path string, kind inputs.Kind) ([]byte, error) {
	if opt.Named {
		return opt.Roots.ReadFile(path, kind)
	}
	return inputs.ReadFile(path, kind)
}

// roots returns the folder trees the files named by the mesh file at path
// may be read from: its own folder and opt.Roots.
func (opt LoadOptions) roots(path string) (*inputs.Roots, error) {
	return opt.Roots.With(filepath.Dir(path))
}

// Merged returns all parts as one mesh named after the model; for a one-part
// model it is the part's mesh itself.
func (m *Model) Merged() *Mesh {
	if len(m.Parts) == 1 {
		return m.Parts[0].Mesh
	}
	meshes := make([]*Mesh, len(m.Parts))
	for i, p := range m.Parts {
		meshes[i] = p.Mesh
	}
	return Merge(m.Name, meshes...)
}

// TriangleCount returns the number of triangles of all parts.
func (m *Model) TriangleCount() int {
	n := 0
	for _, p := range m.Parts {
		n += p.Mesh.TriangleCount()
	}
	return n
}

// Load reads a mesh file by its extension: .obj (with its MTL files) or .gltf
// and .glb (glTF 2.0).
func Load(path string, opt LoadOptions) (*Model, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".obj":
		return LoadOBJ(path, opt)
	case ".gltf", ".glb":
		return LoadGLTF(path, opt)
	}
	return nil, fmt.Errorf("%s: unsupported mesh file type %q (want .obj, .gltf or .glb)", path, filepath.Ext(path))
}

func modelName(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// LoadOBJ reads an OBJ file, the MTL files it names (relative to its
// directory) and, unless opt.SkipMaterials, the images they name (relative to
// the MTL file; with SkipMaterials they are only resolved). Each part's mesh is named after the file, with "/material"
// appended when the file has several parts.
//
// Material conversion: Diffuse = (Kd, d), Specular = (Ks, Ns); map_Kd is the
// albedo; map_d is an alpha mask (AlphaCutoff 0.5): when it names another file
// than map_Kd, its red channel replaces the albedo's alpha (the two images
// must have the same size); d < 1 without map_d means alpha blending; norm is
// the normal map. A usemtl naming no material of the MTL files is an error,
// unless the file names no mtllib at all: then its parts have no material.
func LoadOBJ(path string, opt LoadOptions) (*Model, error) {
	data, err := opt.read(path, inputs.OBJFile)
	if err != nil {
		return nil, err
	}
	if err := opt.Budget.Check("parsing "+filepath.Base(path), objParseBytes(len(data))); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	obj, err := ParseOBJ(path, data)
	if err != nil {
		return nil, err
	}
	for _, p := range obj.Parts {
		if err := opt.Budget.Reserve("the meshes of "+filepath.Base(path), p.Mesh.Bytes()); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	model := &Model{Name: modelName(path)}
	for _, p := range obj.Parts {
		p.Mesh.Name = model.Name
		if len(obj.Parts) > 1 {
			p.Mesh.Name = model.Name + "/" + p.Material
		}
		model.Parts = append(model.Parts, Part{Mesh: p.Mesh, Material: -1})
	}
	dir := filepath.Dir(path)
	roots, err := opt.roots(path)
	if err != nil {
		return nil, err
	}
	type libMat struct {
		m    *MTLMaterial
		lib  string // the resolved file, which its maps are relative to
		name string // the library as the OBJ file names it, for errors
	}
	known := map[string]libMat{}
	for _, ref := range obj.MaterialLibs {
		lib, err := roots.Resolve(dir, ref.File)
		var data []byte
		if err == nil {
			data, err = roots.ReadFile(lib, inputs.MTLFile)
		}
		if err != nil {
			advice := ""
			if errors.Is(err, fs.ErrNotExist) {
				advice = " (put the library beside the OBJ file, or delete this line to draw the mesh in the default material)"
			}
			return nil, fmt.Errorf("%s:%d: mtllib: %v%s", path, ref.Line, err, advice)
		}
		name := ref.File // as the OBJ names it, beside the OBJ's name as given
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		mats, err := ParseMTL(name, data)
		if err != nil {
			return nil, err
		}
		for i := range mats {
			if _, dup := known[mats[i].Name]; !dup {
				known[mats[i].Name] = libMat{&mats[i], lib, name}
			}
		}
	}
	cache := &teximage.Cache{MaxSize: opt.MaxTextureSize, Budget: opt.Budget, Roots: roots} // each image file once per model
	textures := map[string]*Texture{}
	texture := func(lib string, m MTLMap) (*Texture, error) {
		p, err := roots.Resolve(filepath.Dir(lib), m.File)
		if err != nil || opt.SkipMaterials {
			return nil, err
		}
		key := fmt.Sprintf("%s|%v", p, m.Clamp)
		if t, ok := textures[key]; ok {
			return t, nil
		}
		im, err := cache.LoadNamed(p, inputs.QuotePath(m.File)) // as the library writes it
		if err != nil {
			return nil, err
		}
		t := &Texture{Name: m.File, Image: im, ClampU: m.Clamp, ClampV: m.Clamp}
		textures[key] = t
		return t, nil
	}
	matIndex := map[string]int{}
	for i, p := range obj.Parts {
		if p.Material == "" {
			continue
		}
		if j, ok := matIndex[p.Material]; ok {
			model.Parts[i].Material = j
			continue
		}
		lm, ok := known[p.Material]
		if !ok && len(obj.MaterialLibs) == 0 {
			continue // usemtl without any mtllib: the part has no material
		}
		if !ok {
			return nil, fmt.Errorf("%s:%d: usemtl: unknown material %s (not in any mtllib)", path, p.Line, inputs.Quote(p.Material))
		}
		mm := lm.m
		mat := Material{
			Name:     mm.Name,
			Diffuse:  mm.Kd.Vec4(mm.D),
			Specular: mm.Ks.Vec4(mm.Ns),
			Blend:    mm.D < 1 && mm.MapD.File == "",
		}
		if mm.MapKd.File != "" {
			t, err := texture(lm.lib, mm.MapKd)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: map_Kd: %v", lm.name, mm.MapKd.Line, err)
			}
			mat.Albedo = t
		}
		if mm.MapD.File != "" {
			mat.AlphaCutoff = 0.5
			if mm.MapKd.File != mm.MapD.File {
				mp, err := roots.Resolve(filepath.Dir(lm.lib), mm.MapD.File)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: map_d: %v", lm.name, mm.MapD.Line, err)
				}
				if !opt.SkipMaterials {
					mask, err := cache.LoadNamed(mp, inputs.QuotePath(mm.MapD.File))
					if err != nil {
						return nil, fmt.Errorf("%s:%d: map_d: %v", lm.name, mm.MapD.Line, err)
					}
					mat.Albedo, err = withAlphaMask(mat.Albedo, mask, mm.MapD.File)
					if err != nil {
						return nil, fmt.Errorf("%s:%d: map_d: %v", lm.name, mm.MapD.Line, err)
					}
				}
			}
		}
		if mm.Normal.File != "" {
			t, err := texture(lm.lib, mm.Normal)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: norm: %v", lm.name, mm.Normal.Line, err)
			}
			mat.Normal = t
		}
		if opt.SkipMaterials {
			matIndex[p.Material] = -1 // checked, not converted
			continue
		}
		matIndex[p.Material] = len(model.Materials)
		model.Parts[i].Material = len(model.Materials)
		model.Materials = append(model.Materials, mat)
	}
	return model, nil
}

// withAlphaMask returns a copy of albedo whose alpha is the red channel of
// mask; without an albedo, a white texture with that alpha.
func withAlphaMask(albedo *Texture, mask *teximage.Image, maskName string) (*Texture, error) {
	var im *teximage.Image
	out := &Texture{Name: maskName}
	if albedo == nil {
		im = mask.Clone()
		for i := 0; i < len(im.Pix); i += 4 {
			im.Pix[i+3] = im.Pix[i]
			im.Pix[i], im.Pix[i+1], im.Pix[i+2] = 255, 255, 255
		}
	} else {
		if albedo.Image.Width != mask.Width || albedo.Image.Height != mask.Height {
			return nil, fmt.Errorf("mask %dx%d differs in size from map_Kd %dx%d",
				mask.Width, mask.Height, albedo.Image.Width, albedo.Image.Height)
		}
		im = albedo.Image.Clone()
		for i := 0; i < len(im.Pix); i += 4 {
			im.Pix[i+3] = mask.Pix[i]
		}
		out.Name = albedo.Name + "+" + maskName
		out.ClampU, out.ClampV = albedo.ClampU, albedo.ClampV
	}
	out.Image = im
	return out, nil
}

// objParseBytes bounds the working memory of parsing an OBJ file of n bytes:
// the position, texture coordinate and normal arrays, the vertex
// deduplication maps and the parts' index and vertex lists.
func objParseBytes(n int) int64 { return 12 * int64(n) }

// Bytes is the memory of the mesh's arrays.
func (m *Mesh) Bytes() int64 {
	return int64(len(m.Positions))*12 + int64(len(m.Normals))*12 + int64(len(m.TexCoords))*8 +
		int64(len(m.Tangents))*16 + int64(len(m.Colors))*16 + int64(len(m.Indices))*4
}
