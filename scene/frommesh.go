package scene

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/mesh"
	"github.com/gfxsim/gfxsim/scene/teximage"
)

// FromMeshFile wraps a bare mesh file (.obj with its MTL, .gltf, .glb) in a
// default scene, so that any model can be rendered without writing YAML:
//
//   - 1280x720, 4 samples, max_texture_size 1024 (options override them);
//   - the model drawn once, with its own materials (see convertMaterial);
//     parts without a material get a grey Blinn-Phong material;
//   - when no material has a texture but the mesh has texture coordinates,
//     an image beside the file whose name starts with the file's name up to
//     its first '_', '-' or '.' (spot_triangulated.obj -> spot_texture.png) is
//     used as the albedo of a textured material, the first in name order;
//   - a camera at 40 degrees vertical field of view looking at the centre of
//     the bounding box from the front-right-above direction (0.5, 0.35, 1)
//     for a mesh whose front faces +Z (glTF's convention, and the default for
//     OBJ, which has none; WithFront names another: the direction is turned
//     with it, Front.Facing), as close as it can be with the whole box within
//     90% of the view, with near and far planes around it;
//   - one white directional light from above, right and front (turned with
//     the front likewise), ambient 0.15, a dark blue-grey background;
//   - a glTF file with animations plays animation 0 from time 0 at 30 frames
//     a second (each part that moves on its own is its own object): frame f
//     (WithFrame) opens its shutter at f/30 s and closes it 1/30 s later,
//     and the scene has a frame for every opening up to the animation's last
//     key; a file without animations is a still (frame 0 only).
func FromMeshFile(path string, opts ...Option) (*Scene, error) {
	o, err := collect(opts)
	if err != nil {
		return nil, err
	}
	maxTex := DefaultMaxTextureSize
	if o.maxTextureSizeSet {
		maxTex = o.maxTextureSize
	}
	roots, err := o.roots(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	model, err := mesh.Load(path, mesh.LoadOptions{MaxTextureSize: maxTex, Roots: roots, Budget: o.budget})
	if err != nil {
		return nil, err
	}
	s := &Scene{
		Name: model.Name, Source: path,
		Width: DefaultWidth, Height: DefaultHeight, Samples: 4, Frames: 1, Blur: 1,
		Clear:   Clear{Color: geom.Vec4{0.12, 0.13, 0.16, 1}, Depth: 1},
		Ambient: geom.Vec3{0.15, 0.15, 0.15},
		Lights: []Light{{Kind: DirectionalLight, Direction: o.front.Facing(geom.Vec3{-0.4, -0.8, -0.45}).Normalize(),
			Color: geom.Vec3{1, 1, 1}}},
	}
	b := newBuilder(s)
	merged := model.Merged()
	merged.Name = model.Name
	mi := b.addMesh(merged, model)
	if len(merged.TexCoords) > 0 && !hasAlbedo(model) {
		if img := siblingImage(path); img != "" {
			// The sibling is found, not named, but read under the same rule
			// as a named file.
			real, err := roots.Resolve(filepath.Dir(path), filepath.Base(img))
			if err != nil {
				return nil, fmt.Errorf("%s: sibling texture: %v", path, err)
			}
			images := teximage.Cache{MaxSize: maxTex, Budget: o.budget, Roots: roots}
			im, err := images.LoadNamed(real, img) // as found beside the mesh
			if err != nil {
				return nil, fmt.Errorf("%s: the texture found beside it for its texture coordinates (README, bare meshes): %w", path, err)
			}
			tex := &mesh.Texture{Name: filepath.Base(img), Image: im}
			for i := range model.Parts {
				if model.Parts[i].Material < 0 {
					model.Materials = append(model.Materials, mesh.Material{
						Name: "default", Diffuse: geom.Vec4{1, 1, 1, 1}, Specular: geom.Vec4{0.2, 0.2, 0.2, 32}})
					model.Parts[i].Material = len(model.Materials) - 1
				}
			}
			for i := range model.Materials {
				model.Materials[i].Albedo = tex
			}
		}
	}
	b.fit[mi] = geom.Identity()
	draws := b.fileDraws(mi)
	motions := make([][2]geom.Mat4, len(draws))
	for k := range motions {
		motions[k] = [2]geom.Mat4{geom.Identity(), geom.Identity()}
	}
	if len(model.Animations) == 0 && o.frame > 0 {
		return nil, fmt.Errorf("%s: frame %d asked for, but the file has no animation (frame 0 only)", path, o.frame)
	}
	s.Frame = o.frame
	if len(model.Animations) > 0 {
		// Animation 0 from time 0, a frame every 1/DefaultAnimationFPS s up to
		// its last key, each frame's shutter open for the whole frame.
		a := model.Animations[0]
		s.Frames = animationFrames(a, DefaultAnimationFPS)
		if s.Frame >= s.Frames {
			return nil, fmt.Errorf("%s: frame %d out of range [0, %d]: its animation 0 (%q) ends at %.4g s, a frame every 1/%d s from 0 "+
				"(a scene file's animation: chooses another; scene/FORMAT.md)", path, s.Frame, s.Frames-1, a.Name, a.End, DefaultAnimationFPS)
		}
		open := float64(s.Frame) / DefaultAnimationFPS
		draws, motions = b.animatedDraws(mi, draws, &animSel{open: open, close: open + 1.0/DefaultAnimationFPS}, true)
	}
	for k, d := range draws {
		m := motions[k]
		s.Objects = append(s.Objects, Object{Name: s.Meshes[d.mesh].Name, Mesh: d.mesh, Material: d.material,
			Transform: m[0], EndTransform: m[1], Moving: m[0] != m[1]})
	}
	// A box whose diagonal squared overflows a float32 (sides beyond about
	// 1e19) is too large for the pipeline's float32 arithmetic: the clipper
	// would reject its triangles.
	lo, hi := merged.Bounds()
	d := hi.Sub(lo)
	if !(d.Dot(d) <= math.MaxFloat32) {
		return nil, fmt.Errorf("%s: the mesh's bounding box from %v to %v is too large for the default camera (its diagonal "+
			"squared overflows a 32-bit float): scale the mesh down, or draw it from a scene file with fit: (scene/FORMAT.md)", path, lo, hi)
	}
	s.Camera = frameCamera(merged, s.Aspect(), o.front)
	if err := s.Camera.validate(); err != nil {
		return nil, fmt.Errorf("%s: the mesh's bounding box from %v to %v gives no default camera (%v): "+
			"scale the mesh, or draw it from a scene file with fit: (scene/FORMAT.md)", path, lo, hi, err)
	}
	if err := o.apply(s); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return s, nil
}

// animationFrames returns the frames of animation a at fps frames per second
// from time 0: frame f opens its shutter at f/fps, and the last frame is the
// last that opens at or before a's last key (at most maxFrames).
func animationFrames(a mesh.Animation, fps float64) int {
	if !(a.End > 0) {
		return 1
	}
	return int(min(math.Floor(a.End*fps+1e-9), maxFrames-1)) + 1
}

func hasAlbedo(m *mesh.Model) bool {
	for _, mat := range m.Materials {
		if mat.Albedo != nil {
			return true
		}
	}
	return false
}

// siblingImage finds the image FromMeshFile uses for a mesh without texture:
// a .png, .jpg or .jpeg in the mesh's folder whose name is the mesh file's
// stem (its name up to its first '_', '-' or '.') followed by '_', '-' or '.'
// (spot_triangulated.obj: spot_texture.png, not spotlight.png). A name with a
// word (between '_', '-', '.' or ' ') that says it holds another map than
// colour (ao, normal..., occlusion, rough..., metal..., emissive, emission,
// specular, height, bump, disp...) is passed over; one with a word that says
// colour (albedo, basecolor, diffuse, color, colour) comes first, then name
// order. "" if none.
func siblingImage(path string) string {
	base := filepath.Base(path)
	stem := base
	if i := strings.IndexAny(base, "_-."); i > 0 {
		stem = base[:i]
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return ""
	}
	var colour, other []string
	for _, e := range entries {
		n := e.Name()
		switch strings.ToLower(filepath.Ext(n)) {
		case ".png", ".jpg", ".jpeg":
		default:
			continue
		}
		if e.IsDir() || !strings.HasPrefix(n, stem) || len(n) == len(stem) || !strings.ContainsRune("_-.", rune(n[len(stem)])) {
			continue
		}
		words := strings.FieldsFunc(strings.ToLower(strings.TrimSuffix(n, filepath.Ext(n))), func(r rune) bool { return strings.ContainsRune("_-. ", r) })
		switch {
		case slices.Contains(words, "ao") || anyPrefix(words, "normal", "occlusion", "rough", "metal", "emissive", "emission", "specular", "height", "bump", "disp"):
		case anyPrefix(words, "albedo", "basecolor", "diffuse", "color", "colour"):
			colour = append(colour, n)
		default:
			other = append(other, n)
		}
	}
	sort.Strings(colour)
	sort.Strings(other)
	if found := append(colour, other...); len(found) > 0 {
		return filepath.Join(filepath.Dir(path), found[0])
	}
	return ""
}

// anyPrefix reports whether a word of words starts with one of prefixes.
func anyPrefix(words []string, prefixes ...string) bool {
	for _, w := range words {
		for _, p := range prefixes {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}

// frameCamera places a camera that sees the whole mesh: looking at the centre
// of the bounding box from direction (0.5, 0.35, 1) turned to the mesh's
// front (Front.Facing), at the smallest distance
// (found by bisection, starting from one that fits the bounding sphere) at
// which all eight corners of the box project within 90% of the viewport.
func frameCamera(m *mesh.Mesh, aspect float32, front Front) Camera {
	lo, hi := m.Bounds()
	c := lo.Add(hi).Scale(0.5)
	r := hi.Sub(lo).Length() / 2
	if r == 0 {
		r = 1
	}
	const fov = 40
	half := float64(fov) / 2 * math.Pi / 180
	fit := math.Min(math.Tan(half), math.Tan(half)*float64(aspect))
	far := float32(float64(r)/math.Sin(math.Atan(fit))) * 1.05
	dir := front.Facing(geom.Vec3{0.5, 0.35, 1}).Normalize()
	cam := func(d float32) Camera {
		return Camera{
			Position: c.Add(dir.Scale(d)), Target: c, Up: geom.Vec3{0, 1, 0},
			FovYDegrees: fov, Near: max(d-2*r, d*0.01), Far: d + 2*r,
			FocusDistance: d, ShutterClose: 1,
		}
	}
	inside := func(cm Camera) bool {
		vp := cm.Projection(aspect).Mul(cm.View())
		for k := 0; k < 8; k++ {
			p := geom.Vec3{lo[0], lo[1], lo[2]}
			if k&1 != 0 {
				p[0] = hi[0]
			}
			if k&2 != 0 {
				p[1] = hi[1]
			}
			if k&4 != 0 {
				p[2] = hi[2]
			}
			q := vp.MulVec(p.Vec4(1))
			if q[3] <= 0 || q[2] < 0 || q[2] > q[3] || abs32(q[0]) > 0.9*q[3] || abs32(q[1]) > 0.9*q[3] {
				return false
			}
		}
		return true
	}
	good, bad := far, far*0.2
	for i := 0; i < 24; i++ {
		mid := (good + bad) / 2
		if inside(cam(mid)) {
			good = mid
		} else {
			bad = mid
		}
	}
	return cam(good)
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
