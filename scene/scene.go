package scene

import (
	"fmt"
	"math"
	"slices"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/internal/enum"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// Limits of a scene.
const (
	MaxLights     = 4     // light slots of the shader ABI
	MaxResolution = 16384 // the rasterizer's guard-band range, in pixels per side
)

// AllowedSamples lists the supported sample counts per pixel: every count
// from 1 to raster.MaxSamples (64). 1, 2, 4, 8 and 16 use the D3D standard
// patterns, the others a Hammersley pattern (raster.PatternFor).
func AllowedSamples() []int {
	out := make([]int, raster.MaxSamples)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func samplesAllowed(n int) bool { return n >= 1 && n <= raster.MaxSamples }

// samplesWant is the range samplesAllowed accepts, for error messages.
var samplesWant = fmt.Sprintf("want 1 to %d", raster.MaxSamples)

// Scene is one frame of work: render targets, camera, lights, resources and
// the ordered list of objects to draw. Slices are ordered (draw order is
// Objects order); objects refer to meshes, materials and textures by index.
type Scene struct {
	Name    string
	Source  string // the file it was loaded from, or "builtin:<name>"
	Width   int    // render-target size in pixels
	Height  int
	Samples int // samples per pixel: 1 to raster.MaxSamples (64)

	// Frames is the length of the scene's animation (1: a still) and Frame
	// the frame this Scene holds, in [0, Frames): keyframed fields, glTF
	// animations and the bats are evaluated at it (see FORMAT.md).
	Frames, Frame int
	// Blur scales the lens radius and all motion (objects and camera): 1 is
	// the scene as written, 0 no blur. Scene.LensRadius, Scene.EndTransform
	// and Scene.ViewProjectionEnd apply it; Camera and Object hold the
	// unscaled values.
	Blur float32

	Clear   Clear
	Camera  Camera
	Ambient geom.Vec3
	Lights  []Light // at most MaxLights

	Textures  []Texture
	Meshes    []*mesh.Mesh
	Materials []Material
	Objects   []Object
	// StreamBuffers are the stream-out buffers objects write and draw with DrawAuto.
	StreamBuffers []StreamBuffer
}

// Clear holds the values the render targets are cleared to at the start of
// the frame.
type Clear struct {
	Color   geom.Vec4
	Depth   float32 // in [0, 1]
	Stencil uint8
}

// Camera is a perspective camera with a thin lens and a shutter interval.
type Camera struct {
	Position, Target, Up geom.Vec3
	FovYDegrees          float32 // vertical field of view, in (0, 180)
	Near, Far            float32 // clip distances, 0 < Near < Far
	// Aperture is the lens radius in world units (0: a pinhole, no defocus);
	// FocusDistance is the distance from Position, along the view direction,
	// of the plane in focus.
	Aperture, FocusDistance float32
	// ShutterOpen and ShutterClose bound the exposure in normalised frame
	// time, 0 <= open <= close <= 1. Object transforms are given at these two
	// instants (Object.Transform and Object.EndTransform), and so is the
	// camera: Position, Target and Up at shutter open, PositionEnd, TargetEnd
	// and UpEnd at shutter close when Moving (they are ignored otherwise).
	ShutterOpen, ShutterClose float32

	PositionEnd, TargetEnd, UpEnd geom.Vec3
	Moving                        bool
}

// View returns the world-to-view matrix (right-handed, looking down -Z) at
// shutter open.
func (c Camera) View() geom.Mat4 { return geom.LookAt(c.Position, c.Target, c.Up) }

// ViewEnd returns the world-to-view matrix at shutter close (View when the
// camera does not move).
func (c Camera) ViewEnd() geom.Mat4 {
	if !c.Moving {
		return c.View()
	}
	return geom.LookAt(c.PositionEnd, c.TargetEnd, c.UpEnd)
}

// Projection returns the D3D-style projection (z/w in [0, 1]) for the aspect
// ratio width/height.
func (c Camera) Projection(aspect float32) geom.Mat4 {
	return geom.Perspective(c.FovYDegrees*math.Pi/180, aspect, c.Near, c.Far)
}

// Aspect returns Width/Height.
func (s *Scene) Aspect() float32 { return float32(s.Width) / float32(s.Height) }

// ViewProjection returns Projection(Aspect()) * View().
func (s *Scene) ViewProjection() geom.Mat4 {
	return s.Camera.Projection(s.Aspect()).Mul(s.Camera.View())
}

// ViewProjectionEnd returns the view-projection at shutter close with the
// blur applied: Projection(Aspect()) * BlurLerp(View(), ViewEnd(), Blur).
func (s *Scene) ViewProjectionEnd() geom.Mat4 {
	return s.Camera.Projection(s.Aspect()).Mul(BlurLerp(s.Camera.View(), s.Camera.ViewEnd(), s.Blur))
}

// EndTransform returns object o's model matrix at shutter close with the
// blur applied: BlurLerp(o.Transform, o.EndTransform, Blur).
func (s *Scene) EndTransform(o *Object) geom.Mat4 {
	return BlurLerp(o.Transform, o.EndTransform, s.Blur)
}

// LensRadius returns the lens radius with the blur applied: Aperture * Blur.
func (s *Scene) LensRadius() float32 { return s.Camera.Aperture * s.Blur }

// LensShear returns the clip-space shear of the lens per unit of w - F, the
// Kx and Ky of the driver's SetLens (command.Lens): Kx = P00*R/F and Ky =
// P11*R/F, with P the projection at the scene's aspect, R = LensRadius() and
// F the focus distance; 0, 0 for a pinhole.
func (s *Scene) LensShear() (kx, ky float32) {
	p := s.Camera.Projection(s.Aspect())
	r, f := s.LensRadius(), s.Camera.FocusDistance
	return p[0][0] * r / f, p[1][1] * r / f
}

// checkLens refuses a lens whose shear (LensShear) is not a finite float32:
// a wide aperture (times the blur) over a short focus distance seen through
// a narrow field of view, which the command stream cannot carry.
func (s *Scene) checkLens() error {
	if kx, ky := s.LensShear(); !geom.AllFinite(kx, ky) {
		return fmt.Errorf("aperture %v (times blur %v) over focus_distance %v with fov_y %v at %dx%d pixels shears the image by (%v, %v) per unit of depth, "+
			"more than a 32-bit float holds: make the aperture or the blur smaller, or focus_distance or fov_y larger",
			s.Camera.Aperture, s.Blur, s.Camera.FocusDistance, s.Camera.FovYDegrees, s.Width, s.Height, kx, ky)
	}
	return nil
}

// BlurLerp scales the motion from a to b by k: a + k*(b - a), element by
// element (what linear per-vertex motion between the two matrices does). It
// returns a exactly for k = 0 or a == b, and b exactly for k = 1.
func BlurLerp(a, b geom.Mat4, k float32) geom.Mat4 {
	switch {
	case k == 0 || a == b:
		return a
	case k == 1:
		return b
	}
	var m geom.Mat4
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			m[r][c] = a[r][c] + k*(b[r][c]-a[r][c])
		}
	}
	return m
}

// SetBlur sets the blur scale (>= 0, finite; 1 is the scene as written).
func (s *Scene) SetBlur(k float32) error {
	if !(k >= 0) || !geom.AllFinite(k) {
		return fmt.Errorf("blur %v must be non-negative and finite", k)
	}
	s.Blur = k
	return nil
}

// LightKind says how a light's position-or-direction is read.
type LightKind uint8

// Light kinds.
const (
	PointLight       LightKind = iota // Position is where the light is
	DirectionalLight                  // Direction is where the light travels
)

var lightKindNames = enum.Names[LightKind]{Type: "LightKind", Names: []string{"point", "directional"}}

func (k LightKind) String() string { return lightKindNames.String(k) }

// Light is a point or directional light. Color already includes the
// intensity. Direction (directional lights) is the unit direction in which the
// light travels, from the light towards the scene; a shader that wants the
// direction towards the light uses -Direction.
type Light struct {
	Kind      LightKind
	Position  geom.Vec3
	Direction geom.Vec3
	Color     geom.Vec3
}

// Filter is a texture filter; the values match functional/texture's.
type Filter uint8

// Texture filters.
const (
	FilterPoint Filter = iota
	FilterBilinear
	FilterTrilinear
	FilterAnisotropic
)

var filterNames = []string{"point", "bilinear", "trilinear", "anisotropic"}

func (f Filter) String() string { return enumString(filterNames, int(f), "Filter") }

// AddressMode is a texture addressing mode; the values match
// functional/texture's.
type AddressMode uint8

// Address modes.
const (
	AddressWrap AddressMode = iota
	AddressClamp
	AddressMirror
	AddressBorder
	AddressMirrorOnce
)

var addressNames = []string{"wrap", "clamp", "mirror", "border", "mirror_once"}

func (a AddressMode) String() string { return enumString(addressNames, int(a), "AddressMode") }

// TextureType is the kind of texture; the values match functional/texture's.
type TextureType uint8

// Texture types.
const (
	Texture2D TextureType = iota
	TextureArray
	TextureCube
	Texture3D
)

var textureTypeNames = []string{"2d", "array", "cube", "3d"}

func (t TextureType) String() string { return enumString(textureTypeNames, int(t), "TextureType") }

// TextureFormat is the format the driver stores a texture in; the values
// match functional/texture's Format. Images are RGBA8; the driver converts
// them (and compresses the BC formats) on load.
type TextureFormat uint8

// Texture formats.
const (
	FormatRGBA8 TextureFormat = iota
	FormatRGBA8SRGB
	FormatR8
	FormatRG8
	FormatRGBA16F
	FormatRGBA32F
	FormatBC1
	FormatBC2
	FormatBC3
	FormatBC4
	FormatBC5
)

var textureFormatNames = []string{"rgba8", "rgba8_srgb", "r8", "rg8", "rgba16f", "rgba32f", "bc1", "bc2", "bc3", "bc4", "bc5"}

func (f TextureFormat) String() string {
	return enumString(textureFormatNames, int(f), "TextureFormat")
}

// TextureFormatNames lists the format names of scene files, in value order.
func TextureFormatNames() []string { return append([]string(nil), textureFormatNames...) }

// ParseTextureFormat returns the format called name (a TextureFormatNames entry).
func ParseTextureFormat(name string) (TextureFormat, bool) {
	i := slices.Index(textureFormatNames, name)
	return TextureFormat(max(i, 0)), i >= 0
}

// Texture is an RGBA8 image, or a stack of them, with its storage format and
// sampler settings. Pix holds Width*Height*4 bytes per slice, row-major, top
// row first, straight alpha (see package teximage), slice after slice:
// Slices() slices (a cube's faces in the order +X, -X, +Y, -Y, +Z, -Z). When
// Mipmaps is set the driver builds the mip chain. LOD values are in levels;
// MaxAnisotropy (1..16) applies to the anisotropic filter; Border is the
// colour the border address mode reads.
type Texture struct {
	Name               string
	Width, Height      int
	Pix                []byte
	Mipmaps            bool
	Filter             Filter
	AddressU, AddressV AddressMode

	Type                    TextureType
	Depth                   int // layers of an array, slices of a 3D texture; 0 or 1 otherwise
	Format                  TextureFormat
	AddressW                AddressMode
	MaxAnisotropy           int
	Border                  geom.Vec4
	LODBias, MinLOD, MaxLOD float32
}

// Texture sampler defaults of scene files.
const (
	DefaultMaxLOD        = 1000 // every level
	DefaultMaxAnisotropy = 16
)

// Slices returns the number of images of the texture: 1 for 2D, 6 for a
// cube, Depth for arrays and 3D textures.
func (t *Texture) Slices() int {
	switch t.Type {
	case TextureCube:
		return 6
	case TextureArray, Texture3D:
		return t.Depth
	}
	return 1
}

// CullMode selects which faces are culled; the values match geom.CullMode.
type CullMode uint8

// Cull modes.
const (
	CullNone CullMode = iota
	CullFront
	CullBack
)

var cullNames = []string{"none", "front", "back"}

func (c CullMode) String() string { return enumString(cullNames, int(c), "CullMode") }

// CompareFunc is a depth comparison; the values match functional/depth's.
type CompareFunc uint8

// Depth comparison functions.
const (
	CompareNever CompareFunc = iota
	CompareLess
	CompareEqual
	CompareLessEqual
	CompareGreater
	CompareNotEqual
	CompareGreaterEqual
	CompareAlways
)

var compareNames = []string{"never", "less", "equal", "lessequal", "greater", "notequal", "greaterequal", "always"}

func (c CompareFunc) String() string { return enumString(compareNames, int(c), "CompareFunc") }

// BlendMode is a colour blend preset. With src the shader output and dst the
// render target:
//
//	opaque:        no blending, src replaces dst
//	alpha:         rgb = src.rgb*src.a + dst.rgb*(1-src.a); a = src.a + dst.a*(1-src.a)
//	additive:      rgba = src + dst
//	premultiplied: rgba = src + dst*(1-src.a)
type BlendMode uint8

// Blend presets.
const (
	BlendOpaque BlendMode = iota
	BlendAlpha
	BlendAdditive
	BlendPremultiplied
)

var blendNames = []string{"opaque", "alpha", "additive", "premultiplied"}

func (b BlendMode) String() string { return enumString(blendNames, int(b), "BlendMode") }

func enumString(names []string, v int, typ string) string {
	if v >= 0 && v < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// State is the fixed-function state a material draws with.
type State struct {
	Cull       CullMode
	FrontCCW   bool // counter-clockwise on screen is the front face (D3D FrontCounterClockwise)
	DepthTest  bool
	DepthWrite bool
	DepthFunc  CompareFunc
	Blend      BlendMode
}

// DefaultState is the state of a material that sets nothing: back faces
// culled, counter-clockwise front faces (FrontCCW: meshes are authored
// counter-clockwise, OpenGL style, and stay counter-clockwise on screen, see
// docs/design-functional.md), depth test "less" with writes, no blending.
func DefaultState() State {
	return State{Cull: CullBack, FrontCCW: true, DepthTest: true, DepthWrite: true, DepthFunc: CompareLess, Blend: BlendOpaque}
}

// DecoupleMode is a material's decoupled-sampling mode; the values match
// functional/command's DecouplingMode.
type DecoupleMode uint8

// Decoupled-sampling modes.
const (
	DecoupleOff         DecoupleMode = iota // MSAA shading (today's pipeline)
	DecoupleOn                              // shading memoized per (primitive, shading quad)
	DecoupleSupersample                     // per-sample shading: each sample index of a pixel quad shaded as a 2x2 quad (helper lanes included)
)

var decoupleNames = []string{"off", "on", "supersample"}

func (m DecoupleMode) String() string { return enumString(decoupleNames, int(m), "DecoupleMode") }

// MinDecoupleRate and MaxDecoupleRate bound Decoupling.Rate
// (command.MinDecouplingRate and command.MaxDecouplingRate).
const (
	MinDecoupleRate = 1.0 / 65536
	MaxDecoupleRate = 64
)

// decoupleRateOK reports whether r is a shading rate the driver can send.
func decoupleRateOK(r float32) bool { return r >= MinDecoupleRate && r <= MaxDecoupleRate }

// decoupleRateWant is the range decoupleRateOK accepts, for error messages.
var decoupleRateWant = fmt.Sprintf("[1/%d, %d]", int(1/MinDecoupleRate), MaxDecoupleRate)

// Decoupling is a material's decoupled-sampling setting (FORMAT.md,
// `decoupled`): the mode, the shading-grid density Rate in shading points
// per pixel along each axis, in [MinDecoupleRate, MaxDecoupleRate], adaptive spacing by
// circle of confusion and bilinear reconstruction. The driver sends it as
// command.SetDecoupling.
type Decoupling struct {
	Mode     DecoupleMode
	Rate     float32
	Adaptive bool
	Bilinear bool
}

// DefaultDecoupling is decoupled sampling off, rate 1.
func DefaultDecoupling() Decoupling { return Decoupling{Mode: DecoupleOff, Rate: 1} }

// Material is a library shader with its parameters, texture bindings and
// fixed-function state.
type Material struct {
	Name     string
	Shader   string    // one of ShaderNames()
	Params   []Param   // the parameters given, in the shader's declaration order; the others keep the library defaults
	Textures []Binding // one per sampler of the shader, in declaration order
	State    State
	// Decoupled is the decoupled-sampling setting; materials without one
	// take the scene's `decoupled` (DefaultDecoupling when absent).
	Decoupled Decoupling
}

// Param is a material parameter value.
type Param struct {
	Name  string
	Value geom.Vec4
}

// Binding binds a shader sampler to Scene.Textures[Texture].
type Binding struct {
	Sampler string
	Texture int
}

// Param returns the value of parameter name, if the material sets it.
func (m *Material) Param(name string) (geom.Vec4, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return geom.Vec4{}, false
}

// Object is one draw: a mesh with a material and a model transform.
// Transform is the model-to-world matrix at ShutterOpen and EndTransform at
// ShutterClose; they are equal (and Moving is false) for a static object.
// Motion between them is linear in the transform components (see FORMAT.md).
type Object struct {
	Name         string
	Mesh         int // index in Scene.Meshes
	Material     int // index in Scene.Materials
	Transform    geom.Mat4
	EndTransform geom.Mat4
	Moving       bool
	// Geometry shaders and stream-out (parse_streamout.go): how the mesh is
	// drawn, its stream-out (nil: none), and DrawAuto: 1 + the index in
	// Scene.StreamBuffers of the buffer drawn instead of a mesh (Mesh is
	// then -1), 0 when the mesh is drawn.
	Topology  Topology
	StreamOut *StreamOut
	DrawAuto  int
}

// TriangleCount returns the number of triangles the objects draw.
func (s *Scene) TriangleCount() int {
	n := 0
	for _, o := range s.Objects {
		if o.Mesh >= 0 && o.Mesh < len(s.Meshes) {
			n += s.Meshes[o.Mesh].TriangleCount()
		}
	}
	return n
}

// TextureIndex returns the index of the texture called name, or -1.
func (s *Scene) TextureIndex(name string) int {
	return slices.IndexFunc(s.Textures, func(x Texture) bool { return x.Name == name })
}

// MeshIndex returns the index of the mesh called name, or -1.
func (s *Scene) MeshIndex(name string) int {
	return slices.IndexFunc(s.Meshes, func(x *mesh.Mesh) bool { return x.Name == name })
}

// MaterialIndex returns the index of the material called name, or -1.
func (s *Scene) MaterialIndex(name string) int {
	return slices.IndexFunc(s.Materials, func(x Material) bool { return x.Name == name })
}

// SetResolution overrides the render-target size and the sample count; zero
// arguments keep the current values.
func (s *Scene) SetResolution(width, height, samples int) error {
	w, h, n := s.Width, s.Height, s.Samples
	if width != 0 {
		w = width
	}
	if height != 0 {
		h = height
	}
	if samples != 0 {
		n = samples
	}
	if w < 1 || h < 1 || w > MaxResolution || h > MaxResolution {
		return fmt.Errorf("resolution %dx%d out of range [1, %d]", w, h, MaxResolution)
	}
	if !samplesAllowed(n) {
		return fmt.Errorf("samples %d not supported (%s)", n, samplesWant)
	}
	s.Width, s.Height, s.Samples = w, h, n
	return nil
}

// Validate checks that the scene is complete and consistent, so that a driver
// can encode it without further checks: sizes and sample count, camera, at
// most MaxLights finite lights, texture sizes, valid meshes, materials whose
// shader, parameters and samplers exist in the shader table with every
// sampler bound, and objects whose indices are in range with texture
// coordinates where their material samples textures.
func (s *Scene) Validate() error {
	errf := func(format string, a ...any) error {
		return fmt.Errorf("scene %s: %s", inputs.Quote(s.Name), fmt.Sprintf(format, a...))
	}
	if s.Width < 1 || s.Height < 1 || s.Width > MaxResolution || s.Height > MaxResolution {
		return errf("resolution %dx%d out of range [1, %d]", s.Width, s.Height, MaxResolution)
	}
	if !samplesAllowed(s.Samples) {
		return errf("samples %d not supported (%s)", s.Samples, samplesWant)
	}
	if !geom.AllFinite(s.Clear.Color[:]...) || !(s.Clear.Depth >= 0 && s.Clear.Depth <= 1) {
		return errf("clear colour %v or depth %v invalid", s.Clear.Color, s.Clear.Depth)
	}
	if err := s.Camera.validate(); err != nil {
		return errf("camera: %v", err)
	}
	if err := s.checkLens(); err != nil {
		return errf("camera: %v", err)
	}
	if s.Frames < 1 || s.Frame < 0 || s.Frame >= s.Frames {
		return errf("frame %d of %d: want 0 <= frame < frames", s.Frame, s.Frames)
	}
	if !(s.Blur >= 0) || !geom.AllFinite(s.Blur) {
		return errf("blur %v must be non-negative and finite", s.Blur)
	}
	if !geom.AllFinite(s.Ambient[:]...) {
		return errf("ambient %v is not finite", s.Ambient)
	}
	if len(s.Lights) > MaxLights {
		return errf("%d lights, at most %d", len(s.Lights), MaxLights)
	}
	for i, l := range s.Lights {
		if l.Kind > DirectionalLight || !geom.AllFinite(l.Position[:]...) || !geom.AllFinite(l.Direction[:]...) || !geom.AllFinite(l.Color[:]...) {
			return errf("lights[%d] invalid: %+v", i, l)
		}
		if l.Kind == DirectionalLight && l.Direction.Length() == 0 {
			return errf("lights[%d]: zero direction", i)
		}
	}
	for i := range s.Textures {
		t := &s.Textures[i]
		if t.Type > Texture3D || t.Format > FormatBC5 {
			return errf("textures[%d] %s: bad type %d or format %d", i, inputs.Quote(t.Name), t.Type, t.Format)
		}
		if (t.Type == TextureArray || t.Type == Texture3D) && (t.Depth < 1 || t.Depth > 2048) {
			return errf("textures[%d] %s: depth %d out of range [1, 2048]", i, inputs.Quote(t.Name), t.Depth)
		}
		if t.Type == TextureCube && t.Width != t.Height {
			return errf("textures[%d] %s: cube faces %dx%d are not square", i, inputs.Quote(t.Name), t.Width, t.Height)
		}
		if t.Width < 1 || t.Height < 1 || len(t.Pix) != t.Width*t.Height*4*t.Slices() {
			return errf("textures[%d] %s: %dx%d with %d slices and %d bytes", i, inputs.Quote(t.Name), t.Width, t.Height, t.Slices(), len(t.Pix))
		}
		if t.Filter > FilterAnisotropic || t.AddressU > AddressMirrorOnce || t.AddressV > AddressMirrorOnce ||
			t.AddressW > AddressMirrorOnce || t.MaxAnisotropy < 0 || t.MaxAnisotropy > 16 ||
			!geom.AllFinite(t.Border[:]...) || !geom.AllFinite(t.LODBias) || math.IsNaN(float64(t.MinLOD)) || math.IsNaN(float64(t.MaxLOD)) {
			return errf("textures[%d] %s: bad sampler settings", i, inputs.Quote(t.Name))
		}
	}
	for i, m := range s.Meshes {
		if m == nil {
			return errf("meshes[%d] is nil", i)
		}
		if err := m.Validate(); err != nil {
			return errf("meshes[%d]: %v", i, err)
		}
	}
	for i := range s.Materials {
		m := &s.Materials[i]
		info, ok := LookupShader(m.Shader)
		if !ok {
			return errf("materials[%d] %s: unknown shader %s", i, inputs.Quote(m.Name), inputs.Quote(m.Shader))
		}
		for _, p := range m.Params {
			if !slices.Contains(info.Params, p.Name) {
				return errf("materials[%d] %s: shader %s has no parameter %s", i, inputs.Quote(m.Name), m.Shader, inputs.Quote(p.Name))
			}
			if !geom.AllFinite(p.Value[:]...) {
				return errf("materials[%d] %s: parameter %s %v is not finite", i, inputs.Quote(m.Name), inputs.Quote(p.Name), p.Value)
			}
		}
		for _, smp := range info.Samplers {
			found := false
			for _, b := range m.Textures {
				if b.Sampler == smp {
					found = true
					if b.Texture < 0 || b.Texture >= len(s.Textures) {
						return errf("materials[%d] %s: sampler %s bound to texture %d of %d", i, inputs.Quote(m.Name), smp, b.Texture, len(s.Textures))
					}
					if want, ok := SamplerType(m.Shader, smp); ok && want != s.Textures[b.Texture].Type {
						return errf("materials[%d] %s: sampler %s samples %v textures, texture %s is %v", i, inputs.Quote(m.Name), smp,
							want, s.Textures[b.Texture].Name, s.Textures[b.Texture].Type)
					}
				}
			}
			if !found {
				return errf("materials[%d] %s: sampler %s of shader %s is not bound", i, inputs.Quote(m.Name), smp, m.Shader)
			}
		}
		for _, b := range m.Textures {
			if !slices.Contains(info.Samplers, b.Sampler) {
				return errf("materials[%d] %s: shader %s has no sampler %s", i, inputs.Quote(m.Name), m.Shader, inputs.Quote(b.Sampler))
			}
		}
		st := m.State
		if st.Cull > CullBack || st.DepthFunc > CompareAlways || st.Blend > BlendPremultiplied {
			return errf("materials[%d] %s: bad state %+v", i, inputs.Quote(m.Name), st)
		}
		if d := m.Decoupled; d.Mode > DecoupleSupersample || !decoupleRateOK(d.Rate) {
			return errf("materials[%d] %q: decoupled mode %v, rate %v: want off, on or supersample and a rate in %s",
				i, m.Name, d.Mode, d.Rate, decoupleRateWant)
		}
	}
	for i, o := range s.Objects {
		if o.DrawAuto != 0 {
			if o.Mesh != -1 || o.DrawAuto < 0 || o.DrawAuto > len(s.StreamBuffers) || o.Topology != TopologyPoints {
				return errf("objects[%d] %s: DrawAuto %d of %d stream buffers (mesh %d, topology %v): want a buffer, no mesh, points",
					i, inputs.Quote(o.Name), o.DrawAuto, len(s.StreamBuffers), o.Mesh, o.Topology)
			}
		} else if o.Mesh < 0 || o.Mesh >= len(s.Meshes) {
			return errf("objects[%d] %s: mesh %d of %d", i, inputs.Quote(o.Name), o.Mesh, len(s.Meshes))
		}
		if so := o.StreamOut; so != nil && (so.Buffer < 0 || so.Buffer >= len(s.StreamBuffers)) {
			return errf("objects[%d] %s: stream-out buffer %d of %d", i, inputs.Quote(o.Name), so.Buffer, len(s.StreamBuffers))
		}
		if o.Material < 0 || o.Material >= len(s.Materials) {
			return errf("objects[%d] %s: material %d of %d", i, inputs.Quote(o.Name), o.Material, len(s.Materials))
		}
		if !finiteMat(o.Transform) || !finiteMat(o.EndTransform) {
			return errf("objects[%d] %s: transform is not finite", i, inputs.Quote(o.Name))
		}
		if !finiteMat(s.EndTransform(&o)) {
			return errf("objects[%d] %s: its motion times blur %v is not finite: it overflows a 32-bit float (make the motion or the blur smaller)",
				i, inputs.Quote(o.Name), s.Blur)
		}
		if o.Moving != (o.Transform != o.EndTransform) {
			return errf("objects[%d] %s: Moving is %v but the transforms are %s", i, o.Name, o.Moving, map[bool]string{true: "equal", false: "different"}[o.Moving])
		}
		if o.Mesh < 0 {
			continue
		}
		if err := needsTexCoords(&s.Materials[o.Material], s.Meshes[o.Mesh]); err != nil {
			return errf("objects[%d] %s: %v", i, inputs.Quote(o.Name), err)
		}
	}
	return nil
}

func (c Camera) validate() error {
	if !geom.AllFinite(c.Position[:]...) || !geom.AllFinite(c.Target[:]...) || !geom.AllFinite(c.Up[:]...) ||
		!geom.AllFinite(c.FovYDegrees, c.Near, c.Far, c.Aperture, c.FocusDistance, c.ShutterOpen, c.ShutterClose) {
		return fmt.Errorf("a value is not finite")
	}
	if !(c.FovYDegrees > 0 && c.FovYDegrees < 180) {
		return fmt.Errorf("fov_y %v out of range (0, 180)", c.FovYDegrees)
	}
	if !(c.Near > 0 && c.Far > c.Near) {
		return fmt.Errorf("near %v and far %v: want 0 < near < far", c.Near, c.Far)
	}
	dir := c.Target.Sub(c.Position)
	if dir.Length() == 0 {
		return fmt.Errorf("position and target are the same point %v", c.Position)
	}
	if !geom.AllFinite(dir[:]...) {
		return fmt.Errorf("target %v is too far from position %v: their difference overflows a 32-bit float", c.Target, c.Position)
	}
	if dir.Normalize().Cross(c.Up.Normalize()).Length() < 1e-4 {
		return fmt.Errorf("up %v is parallel to the view direction %v", c.Up, dir)
	}
	if c.Moving {
		if !geom.AllFinite(c.PositionEnd[:]...) || !geom.AllFinite(c.TargetEnd[:]...) || !geom.AllFinite(c.UpEnd[:]...) {
			return fmt.Errorf("an end pose value is not finite")
		}
		d := c.TargetEnd.Sub(c.PositionEnd)
		if d.Length() == 0 {
			return fmt.Errorf("position_end and target_end are the same point %v", c.PositionEnd)
		}
		if !geom.AllFinite(d[:]...) {
			return fmt.Errorf("target_end %v is too far from position_end %v: their difference overflows a 32-bit float", c.TargetEnd, c.PositionEnd)
		}
		if d.Normalize().Cross(c.UpEnd.Normalize()).Length() < 1e-4 {
			return fmt.Errorf("up_end %v is parallel to the view direction at shutter close %v", c.UpEnd, d)
		}
	}
	if !(c.Aperture >= 0) {
		return fmt.Errorf("aperture %v is negative", c.Aperture)
	}
	if !(c.FocusDistance > 0) {
		return fmt.Errorf("focus_distance %v must be positive", c.FocusDistance)
	}
	if !(c.ShutterOpen >= 0 && c.ShutterOpen <= c.ShutterClose && c.ShutterClose <= 1) {
		return fmt.Errorf("shutter [%v, %v]: want 0 <= open <= close <= 1", c.ShutterOpen, c.ShutterClose)
	}
	return nil
}

// needsTexCoords reports an error when the material samples textures but the
// mesh has no texture coordinates.
func needsTexCoords(m *Material, me *mesh.Mesh) error {
	info, _ := LookupShader(m.Shader)
	if len(info.Samplers) > 0 && len(me.TexCoords) == 0 {
		return fmt.Errorf("material %s (shader %s) samples textures but mesh %s has no texture coordinates", inputs.Quote(m.Name), m.Shader, inputs.Quote(me.Name))
	}
	return nil
}
