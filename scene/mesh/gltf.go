package mesh

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/teximage"
)

// maxIndices bounds the index count of one glTF primitive.
const maxIndices = 3 * MaxVertices

// LoadGLTF reads a glTF 2.0 file (.gltf JSON with external or data-URI
// buffers and images, or binary .glb); external files are resolved relative to
// the file's directory.
func LoadGLTF(path string, opt LoadOptions) (*Model, error) {
	data, err := opt.read(path, inputs.GLTFFile)
	if err != nil {
		return nil, err
	}
	roots, err := opt.roots(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	resolve := func(uri string) error {
		_, err := roots.Resolve(dir, filepath.FromSlash(uri))
		return err
	}
	return decodeGLTF(path, data, gltfFileReader(roots, dir, opt.Budget), resolve, opt)
}

// DecodeGLTF decodes glTF 2.0 data (JSON or GLB). name labels errors and names
// the model; readFile reads external buffers and images by URI (nil: external
// files are an error).
//
// What is loaded: the default scene (or scene 0, or, without scenes, every root
// node), walking the node hierarchy and applying each node's world transform
// (matrix, or translation * rotation * scale) to its meshes; every primitive in
// TRIANGLES, TRIANGLE_STRIP or TRIANGLE_FAN mode becomes one Part (POINTS and
// LINES primitives are skipped); attributes POSITION (required), NORMAL,
// TEXCOORD_0, TANGENT and COLOR_0, indexed or not, any component type the
// specification allows (normalised integers are converted), sparse accessors
// included. Missing normals are replaced by flat normals (each triangle gets
// its own vertices), as the specification requires; missing tangents are
// generated with Mesh.GenerateTangents (Lengyel's method, not MikkTSpace) when
// there are texture coordinates. Materials: baseColorFactor and
// baseColorTexture, normalTexture, alphaMode (MASK -> AlphaCutoff, BLEND ->
// Blend), doubleSided; images PNG or JPEG, from files, data URIs or buffer
// views; sampler wrap CLAMP_TO_EDGE -> clamp, REPEAT and MIRRORED_REPEAT ->
// wrap. Skins, morph targets, cameras and other material properties are
// ignored. An accessor without a bufferView reads as zeros with its sparse
// values substituted, as the specification defines.
//
// Extensions: the loader implements none. A file whose extensionsRequired
// names one is refused (the specification forbids loading it, and its data
// would read wrong: a KHR_draco_mesh_compression file's accessors have no
// bufferView, so its positions would read as zeros); extensions that are
// only used (extensionsUsed) are ignored, and the core data is read.
//
// Animations (animation.go): Model.Nodes keeps the node hierarchy with each
// node's rest transform, Model.PartNodes the node of each part, and
// Model.Animations the animations, whose channels drive node translation,
// rotation (slerp for LINEAR) and scale with LINEAR, STEP or CUBICSPLINE
// samplers over input times in seconds; Model.Motion gives the transform that
// moves a part from its rest pose (the pose its mesh was built in) to its
// pose at a time. A channel on morph-target weights, on a node given as a
// matrix, or with bad keys is an error.
//
// With opt.SkipMaterials the materials the primitives use are checked as
// without it (their textures, samplers and images must exist, an image's
// buffer view must be in range, an image file must be readable) but no image
// is decoded and every part has Material -1: a file drawn in a scene's own
// material fails as it does alone.
func DecodeGLTF(name string, data []byte, readFile func(uri string) ([]byte, error), opt LoadOptions) (model *Model, err error) {
	return decodeGLTF(name, data, readFile, nil, opt)
}

// decodeGLTF is DecodeGLTF with resolve, which checks that an external file
// exists, under the path rule, without reading it (SkipMaterials checks image
// files with it; nil: they are read with readFile, not decoded).
func decodeGLTF(name string, data []byte, readFile func(uri string) ([]byte, error), resolve func(uri string) error, opt LoadOptions) (model *Model, err error) {
	defer func() {
		// The JSON decoding is the gltf library's; do not let a bug there
		// panic through to the user.
		if r := recover(); r != nil {
			model, err = nil, fmt.Errorf("%s: gltf: malformed file (%v)", name, r)
		}
	}()
	js, bin, err := checkGLTFSizes(name, data, opt.Budget)
	if err != nil {
		return nil, err
	}
	// The library's own decoder would also read the buffers; its messages
	// name no buffer and quote URIs raw. The JSON alone is decoded with the
	// library's types, the buffers by loadBuffers. Library messages may
	// quote the file: they are escaped and cut.
	doc := new(gltf.Document)
	if err := json.NewDecoder(bytes.NewReader(js)).Decode(doc); err != nil {
		// A glTF 1.0 file (meshes and accessors keyed by name) fails with
		// a type error: say what it is instead.
		if err := checkGLTFVersion(name, glTFVersion(js)); err != nil {
			return nil, err
		}
		msg := inputs.Clip(err.Error())
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read, the bad one included.
			return nil, fmt.Errorf("%s: gltf: %s", jsonSpot(name, data, js, se.Offset-1), msg)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: gltf: field %s: %s", jsonSpot(name, data, js, te.Offset), inputs.Clip(te.Field), msg)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("%s: gltf: the JSON ends inside an unfinished value: the file is cut short",
				jsonSpot(name, data, js, int64(len(js))))
		}
		return nil, fmt.Errorf("%s: gltf: %s", name, msg)
	}
	// One that decodes (a 1.0 file without meshes) would load as an empty
	// scene.
	if err := checkGLTFVersion(name, doc.Asset.Version); err != nil {
		return nil, err
	}
	if err := checkGLTFExtensions(name, data, js, doc.ExtensionsRequired); err != nil {
		return nil, err
	}
	l := &gltfLoader{name: name, doc: doc, opt: opt, readFile: readFile, resolve: resolve,
		model:  &Model{Name: modelName(name)},
		matMap: map[int]int{}, texMap: map[int]*Texture{}, imgMap: map[int]*teximage.Image{}, files: map[string][]byte{}, decoded: map[[sha256.Size]byte]*teximage.Image{},
		animTimes: map[int][]float64{}, animValues: map[[2]int][][4]float64{}}
	if err := l.loadBuffers(bin); err != nil {
		return nil, err
	}
	if err := l.load(); err != nil {
		return nil, err
	}
	return l.model, nil
}

// glTFVersion returns the asset.version string of JSON js ("" when it has
// none or does not decode).
func glTFVersion(js []byte) string {
	var head struct {
		Asset struct {
			Version any `json:"version"`
		} `json:"asset"`
	}
	if json.Unmarshal(js, &head) != nil {
		return ""
	}
	v, _ := head.Asset.Version.(string)
	return v
}

// checkGLTFVersion refuses an asset.version v other than 2.x ("" passes: the
// decoder's own error, or the missing field, says more).
func checkGLTFVersion(name, v string) error {
	if v != "" && !strings.HasPrefix(v, "2.") {
		return fmt.Errorf("%s: asset.version: %s: gfxsim reads glTF 2.0 files (convert it to 2.0, e.g. with gltf-pipeline)", name, inputs.Quote(v))
	}
	return nil
}

// supportedGLTFExtensions are the glTF extensions the loader implements:
// none. A file that only uses an extension (extensionsUsed) is read without
// it, as the specification allows; one that requires it is refused.
var supportedGLTFExtensions []string

// maxListedExtensions bounds how many refused extensions an error names.
const maxListedExtensions = 8

// checkGLTFExtensions refuses a file whose extensionsRequired names an
// extension the loader does not implement: the specification forbids
// loading it, and without the extension its data reads wrong (a
// KHR_draco_mesh_compression file's accessors have no bufferView, so its
// positions would all read as zero).
func checkGLTFExtensions(name string, data, js []byte, required []string) error {
	var missing []string
	for _, e := range required {
		if !slices.Contains(supportedGLTFExtensions, e) && !slices.Contains(missing, e) {
			missing = append(missing, e)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var quoted []string
	for _, e := range missing[:min(len(missing), maxListedExtensions)] {
		quoted = append(quoted, inputs.Quote(e))
	}
	list := strings.Join(quoted, ", ")
	if n := len(missing) - len(quoted); n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	supported := "gfxsim supports no glTF extension"
	if len(supportedGLTFExtensions) > 0 {
		supported = "gfxsim supports only " + strings.Join(supportedGLTFExtensions, ", ")
	}
	it := "it"
	if len(missing) > 1 {
		it = "them"
	}
	return fmt.Errorf("%s: extensionsRequired: the file cannot be read without %s: %s (export the file without %s)",
		jsonKeySpot(name, data, js, "extensionsRequired"), list, supported, it)
}

// jsonKeySpot names the place of the top-level member key of a glTF file's
// JSON js (see jsonSpot), or the file alone when it is not found.
func jsonKeySpot(name string, data, js []byte, key string) string {
	dec := json.NewDecoder(bytes.NewReader(js))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return name
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return name
		}
		if k, _ := t.(string); k == key {
			return jsonSpot(name, data, js, dec.InputOffset()-int64(len(key))-2)
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return name
		}
	}
	return name
}

// jsonSpot names the place of byte off of a glTF file's JSON js: the line and
// the byte of a .gltf (data is the JSON), the file's byte of a .glb (whose
// JSON chunk starts at byte 20).
func jsonSpot(name string, data, js []byte, off int64) string {
	off = min(max(off, 0), int64(len(js)))
	if len(js) != len(data) {
		return fmt.Sprintf("%s: byte %d", name, glbJSONStart+off)
	}
	return fmt.Sprintf("%s:%d: byte %d", name, 1+bytes.Count(js[:off], []byte("\n")), off)
}

// The media types glTF 2.0 gives data URIs of buffers and of images.
var (
	bufferMediaTypes = []string{"application/octet-stream", "application/gltf-buffer"}
	imageMediaTypes  = []string{"image/png", "image/jpeg"}
)

// loadBuffers sets the bytes of every buffer, cut to its byteLength (a
// shorter one is caught where a bufferView uses it): the GLB's BIN chunk
// (bin) for a first buffer without uri, or what its uri names (uriData).
func (l *gltfLoader) loadBuffers(bin []byte) error {
	for i, b := range l.doc.Buffers {
		field := fmt.Sprintf("buffers[%d]", i)
		switch {
		case b == nil:
			return l.errf("%s: null buffer", field)
		case b.ByteLength < 1:
			return l.errf("%s.byteLength: %d, want at least 1", field, b.ByteLength)
		case b.URI == "" && i == 0 && bin != nil:
			b.Data = bin
		case b.URI == "":
			return l.errf("%s: no uri (only the first buffer of a GLB file, stored in its BIN chunk, has none)", field)
		default:
			data, err := l.uriData(b.URI, field+".uri", bufferMediaTypes)
			if err != nil {
				return err
			}
			b.Data = data
		}
		if len(b.Data) > b.ByteLength {
			b.Data = b.Data[:b.ByteLength:b.ByteLength]
		}
	}
	return nil
}

// uriData returns the bytes a buffer's or image's uri names (field labels
// errors): a base64 data URI of one of mediaTypes, or a file read with
// readFile once per load, its percent escapes decoded and '\' taken as '/'
// (as the gltf library does).
func (l *gltfLoader) uriData(uri, field string, mediaTypes []string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		head, b64, _ := strings.Cut(rest, ",")
		mt, base64Data := strings.CutSuffix(head, ";base64")
		if !base64Data || !slices.Contains(mediaTypes, mt) {
			return nil, l.errf("%s: data URI %s is not base64 of type %s", field, inputs.Quote(uri), strings.Join(mediaTypes, " or "))
		}
		data, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, l.errf("%s: data URI: %v", field, err)
		}
		return data, nil
	}
	file, err := l.uriFile(uri, field)
	if err != nil {
		return nil, err
	}
	if data, ok := l.files[file]; ok {
		return data, nil
	}
	data, err := l.readFile(file)
	if err != nil {
		return nil, l.errf("%s: %v", field, err)
	}
	l.files[file] = data
	return data, nil
}

// uriFile returns the file name of an external uri (field labels errors):
// its percent escapes decoded and '\' taken as '/' (as the gltf library
// does); an error when external files are not available.
func (l *gltfLoader) uriFile(uri, field string) (string, error) {
	file, err := url.PathUnescape(strings.ReplaceAll(uri, `\`, "/"))
	if err != nil {
		return "", l.errf("%s: %s: %v", field, inputs.QuotePath(uri), err)
	}
	if _, ok := l.files[file]; !ok && l.readFile == nil {
		return "", l.errf("%s: %s: external files are not available", field, inputs.QuotePath(uri))
	}
	return file, nil
}

type gltfLoader struct {
	name     string
	doc      *gltf.Document
	opt      LoadOptions
	readFile func(string) ([]byte, error)
	resolve  func(string) error // nil: SkipMaterials reads image files to check them
	model    *Model
	matMap   map[int]int // glTF material -> Model.Materials index
	texMap   map[int]*Texture
	imgMap   map[int]*teximage.Image
	files    map[string][]byte                     // external files by URI (uriData)
	decoded  map[[sha256.Size]byte]*teximage.Image // images by the SHA-256 of their PNG or JPEG bytes
	// Animation keys (animation.go): times and values by accessor (and
	// components), read once; the keys of all channels so far.
	animTimes  map[int][]float64
	animValues map[[2]int][][4]float64
	animKeys   int
}

func (l *gltfLoader) errf(format string, a ...any) error {
	return fmt.Errorf("%s: %s", l.name, fmt.Sprintf(format, a...))
}

type mat64 [4][4]float64

func (a mat64) mul(b mat64) mat64 {
	var r mat64
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			r[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j] + a[i][3]*b[3][j]
		}
	}
	return r
}

var ident64 = mat64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}

// localMatrix returns a node's transform relative to its parent.
func localMatrix(n *gltf.Node) (mat64, error) {
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
		var m mat64
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				m[r][c] = n.Matrix[c*4+r] // column-major
			}
		}
		return m, checkFinite64(n.Matrix[:]...)
	}
	t, q, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	if err := checkFinite64(append(append(t[:], q[:]...), s[:]...)...); err != nil {
		return mat64{}, err
	}
	if q[0]*q[0]+q[1]*q[1]+q[2]*q[2]+q[3]*q[3] == 0 {
		return mat64{}, fmt.Errorf("zero rotation quaternion")
	}
	return trsMatrix(t, q, s), nil
}

func checkFinite64(vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("value %v is not finite", v)
		}
	}
	return nil
}

func (l *gltfLoader) load() error {
	doc := l.doc
	var roots []int
	allNodes := false // no scenes: every root node, and no node may be left out
	switch {
	case doc.Scene != nil || len(doc.Scenes) > 0:
		si := 0
		if doc.Scene != nil {
			si = *doc.Scene
		}
		if si < 0 || si >= len(doc.Scenes) || doc.Scenes[si] == nil {
			return l.errf("scene %d does not exist (%d scenes)", si, len(doc.Scenes))
		}
		roots = doc.Scenes[si].Nodes
	default:
		allNodes = true
		child := make([]bool, len(doc.Nodes))
		for _, n := range doc.Nodes {
			if n == nil {
				continue
			}
			for _, c := range n.Children {
				if c >= 0 && c < len(child) {
					child[c] = true
				}
			}
		}
		for i := range doc.Nodes {
			if !child[i] {
				roots = append(roots, i)
			}
		}
	}
	if err := l.checkInstances(roots, allNodes); err != nil {
		return err
	}
	l.model.Nodes = make([]Node, len(doc.Nodes))
	for i, n := range doc.Nodes {
		nd := Node{Name: fmt.Sprintf("node%d", i), Parent: -1}
		if n != nil {
			if n.Name != "" {
				nd.Name = n.Name
			}
			nd.T, nd.R, nd.S = n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
			if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
				nd.HasMatrix = true
				nd.matrix, _ = localMatrix(n)
			}
		}
		l.model.Nodes[i] = nd
	}
	onPath := make([]bool, len(doc.Nodes))
	var walk func(i, parentNode int, parent mat64, depth int) error
	walk = func(i, parentNode int, parent mat64, depth int) error {
		if i < 0 || i >= len(doc.Nodes) || doc.Nodes[i] == nil {
			return l.errf("node %d does not exist (%d nodes)", i, len(doc.Nodes))
		}
		if onPath[i] {
			return l.errf("nodes[%d]: cycle in the node hierarchy", i)
		}
		if depth > maxNodeDepth {
			return l.errf("nodes[%d]: hierarchy deeper than 64 levels", i)
		}
		n := doc.Nodes[i]
		local, err := localMatrix(n)
		if err != nil {
			return l.errf("nodes[%d]: %v", i, err)
		}
		world := parent.mul(local)
		l.model.Nodes[i].Parent = parentNode
		if n.Mesh != nil {
			if err := l.addMesh(*n.Mesh, i, world); err != nil {
				return err
			}
		}
		onPath[i] = true
		for _, c := range n.Children {
			if err := walk(c, i, world, depth+1); err != nil {
				return err
			}
		}
		onPath[i] = false
		return nil
	}
	for _, r := range roots {
		if err := walk(r, -1, ident64, 0); err != nil {
			return err
		}
	}
	if len(l.model.Parts) == 0 {
		return l.errf("no triangles in the scene")
	}
	if err := l.animations(); err != nil {
		return err
	}
	if len(l.model.Parts) == 1 {
		l.model.Parts[0].Mesh.Name = l.model.Name
	}
	if l.opt.SkipMaterials {
		l.model.Materials = nil // checked by addMesh, not used
	}
	return nil
}

func (l *gltfLoader) addMesh(mi, node int, world mat64) error {
	doc := l.doc
	if mi < 0 || mi >= len(doc.Meshes) || doc.Meshes[mi] == nil {
		return l.errf("mesh %d does not exist (%d meshes)", mi, len(doc.Meshes))
	}
	gm := doc.Meshes[mi]
	var xf geom.Mat4
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			xf[r][c] = float32(world[r][c])
		}
	}
	for pi, prim := range gm.Primitives {
		if prim == nil {
			return l.errf("meshes[%d].primitives[%d]: null primitive", mi, pi)
		}
		switch prim.Mode {
		case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		default:
			continue // points and lines
		}
		field := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
		m, err := l.primitive(prim, field)
		if err != nil {
			return err
		}
		m.Name = fmt.Sprintf("%s/%s[%d]", l.model.Name, meshName(gm, mi), pi)
		m.Transform(xf)
		if err := m.Validate(); err != nil {
			return l.errf("nodes[%d]: %s: %v (after the node's world transform)", node, field, err)
		}
		part := Part{Mesh: m, Material: -1}
		if prim.Material != nil {
			// With SkipMaterials too: the material is checked (its images
			// are not decoded), then dropped.
			j, err := l.material(*prim.Material)
			if err != nil {
				return err
			}
			if !l.opt.SkipMaterials {
				part.Material = j
			}
		}
		l.model.Parts = append(l.model.Parts, part)
		l.model.PartNodes = append(l.model.PartNodes, node)
	}
	return nil
}

func meshName(m *gltf.Mesh, i int) string {
	if m.Name != "" {
		return m.Name
	}
	return fmt.Sprintf("mesh%d", i)
}

func (l *gltfLoader) primitive(prim *gltf.Primitive, field string) (*Mesh, error) {
	pi, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return nil, l.errf("%s: no POSITION attribute", field)
	}
	posv, n, err := l.readVec(pi, 3, 3, MaxVertices, field+".attributes.POSITION")
	if err != nil {
		return nil, err
	}
	m := &Mesh{Positions: make([]geom.Vec3, n)}
	for i := range m.Positions {
		m.Positions[i] = geom.Vec3{posv[3*i], posv[3*i+1], posv[3*i+2]}
	}
	attr := func(key string, minC, maxC int) ([]float32, int, error) {
		ai, ok := prim.Attributes[key]
		if !ok {
			return nil, 0, nil
		}
		if ai >= 0 && ai < len(l.doc.Accessors) && l.doc.Accessors[ai] != nil && l.doc.Accessors[ai].Count != n {
			return nil, 0, l.errf("%s.attributes.%s: accessors[%d] has %d elements, POSITION has %d", field, key, ai, l.doc.Accessors[ai].Count, n)
		}
		v, cnt, err := l.readVec(ai, minC, maxC, n, field+".attributes."+key)
		if err != nil {
			return nil, 0, err
		}
		return v, len(v) / max(1, cnt), nil
	}
	m.Normals = vertexAttr(&err, attr, gltf.NORMAL, 3, 3, n, func(v []float32) geom.Vec3 {
		return unit(geom.Vec3{v[0], v[1], v[2]}, geom.Vec3{0, 1, 0})
	})
	m.TexCoords = vertexAttr(&err, attr, gltf.TEXCOORD_0, 2, 2, n, func(v []float32) geom.Vec2 { return geom.Vec2{v[0], v[1]} })
	m.Tangents = vertexAttr(&err, attr, gltf.TANGENT, 4, 4, n, func(v []float32) geom.Vec4 {
		w := float32(1)
		if v[3] < 0 {
			w = -1
		}
		return unit(geom.Vec3{v[0], v[1], v[2]}, geom.Vec3{1, 0, 0}).Vec4(w)
	})
	m.Colors = vertexAttr(&err, attr, gltf.COLOR_0, 3, 4, n, func(v []float32) geom.Vec4 {
		c := geom.Vec4{v[0], v[1], v[2], 1}
		if len(v) == 4 {
			c[3] = v[3]
		}
		return c
	})
	if err != nil {
		return nil, err
	}
	// Indices, then the primitive mode.
	var idx []uint32
	if prim.Indices != nil {
		idx, err = l.readIndices(*prim.Indices, n, field+".indices")
		if err != nil {
			return nil, err
		}
	} else {
		idx = make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	switch prim.Mode {
	case gltf.PrimitiveTriangles:
		if len(idx)%3 != 0 {
			return nil, l.errf("%s: %d indices is not a whole number of triangles", field, len(idx))
		}
		m.Indices = idx
	case gltf.PrimitiveTriangleStrip:
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				m.Indices = append(m.Indices, idx[i], idx[i+1], idx[i+2])
			} else {
				m.Indices = append(m.Indices, idx[i], idx[i+2], idx[i+1])
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 1; i+1 < len(idx); i++ {
			m.Indices = append(m.Indices, idx[i], idx[i+1], idx[0])
		}
	}
	if m.Normals == nil {
		m = flatShaded(m)
	}
	if m.TexCoords != nil && m.Tangents == nil {
		m.GenerateTangents()
	}
	return m, nil
}

// flatShaded gives every triangle its own three vertices with the triangle's
// normal (glTF's rule for primitives without normals).
func flatShaded(m *Mesh) *Mesh {
	out := &Mesh{}
	for t := 0; t+2 < len(m.Indices); t += 3 {
		a, b, c := m.Indices[t], m.Indices[t+1], m.Indices[t+2]
		p0, p1, p2 := m.Positions[a], m.Positions[b], m.Positions[c]
		n := unit(p1.Sub(p0).Cross(p2.Sub(p0)), geom.Vec3{0, 1, 0})
		for _, v := range [3]uint32{a, b, c} {
			out.Indices = append(out.Indices, uint32(len(out.Positions)))
			out.Positions = append(out.Positions, m.Positions[v])
			out.Normals = append(out.Normals, n)
			if m.TexCoords != nil {
				out.TexCoords = append(out.TexCoords, m.TexCoords[v])
			}
			if m.Tangents != nil {
				out.Tangents = append(out.Tangents, m.Tangents[v])
			}
			if m.Colors != nil {
				out.Colors = append(out.Colors, m.Colors[v])
			}
		}
	}
	return out
}

// accessorData is a validated accessor: every byte range it reads has been
// checked, so value never reads out of bounds.
type accessorData struct {
	acc          *gltf.Accessor
	comps, count int
	csize, elem  int
	buf          []byte // nil: no bufferView, the base values are zero
	stride       int
	sparse       map[int]int // element -> sparse value index
	values       []byte      // sparse values
}

// value returns component c of element i (normalised when the accessor is).
func (a *accessorData) value(i, c int) float64 {
	if k, ok := a.sparse[i]; ok {
		return decodeComponent(a.values[k*a.elem+c*a.csize:], a.acc.ComponentType, a.acc.Normalized)
	}
	if a.buf == nil {
		return 0
	}
	return decodeComponent(a.buf[a.acc.ByteOffset+i*a.stride+c*a.csize:], a.acc.ComponentType, a.acc.Normalized)
}

// accessor validates accessor ai: its type, component type, count (at most
// maxCount), buffer view ranges, stride and sparse substitution.
func (l *gltfLoader) accessor(ai, maxCount int, field string) (*accessorData, error) {
	doc := l.doc
	if ai < 0 || ai >= len(doc.Accessors) || doc.Accessors[ai] == nil {
		return nil, l.errf("%s: accessor %d does not exist (%d accessors)", field, ai, len(doc.Accessors))
	}
	acc := doc.Accessors[ai]
	a := &accessorData{acc: acc}
	at := fmt.Sprintf("accessors[%d]", ai)
	switch acc.Type {
	case gltf.AccessorScalar:
		a.comps = 1
	case gltf.AccessorVec2:
		a.comps = 2
	case gltf.AccessorVec3:
		a.comps = 3
	case gltf.AccessorVec4:
		a.comps = 4
	default:
		return nil, l.errf("%s: %s: matrix accessors are not vertex data", field, at)
	}
	var ok bool
	if a.csize, ok = componentSize(acc.ComponentType); !ok {
		return nil, l.errf("%s: %s: unknown component type %d", field, at, acc.ComponentType)
	}
	a.elem = a.csize * a.comps
	a.count = acc.Count
	if a.count < 0 || a.count > maxCount {
		return nil, l.errf("%s: %s: count %d out of range [0, %d]", field, at, a.count, maxCount)
	}
	if acc.BufferView != nil {
		buf, stride, err := l.bufferView(*acc.BufferView, field+": "+at)
		if err != nil {
			return nil, err
		}
		if stride == 0 {
			stride = a.elem
		}
		if stride < a.elem {
			return nil, l.errf("%s: %s: byteStride %d smaller than the element size %d", field, at, stride, a.elem)
		}
		if acc.ByteOffset < 0 {
			return nil, l.errf("%s: %s: negative byteOffset %d", field, at, acc.ByteOffset)
		}
		if acc.ByteOffset > len(buf) {
			return nil, l.errf("%s: %s.byteOffset: %d beyond bufferView %d of %d bytes", field, at, acc.ByteOffset, *acc.BufferView, len(buf))
		}
		if a.count > 0 {
			// count and stride are bounded: the span does not overflow.
			if span := stride*(a.count-1) + a.elem; span > len(buf)-acc.ByteOffset {
				return nil, l.errf("%s: %s: bytes [%d, %d) of bufferView %d exceed its %d bytes",
					field, at, acc.ByteOffset, acc.ByteOffset+span, *acc.BufferView, len(buf))
			}
		}
		a.buf, a.stride = buf, stride
	}
	if sp := acc.Sparse; sp != nil {
		if sp.Count < 0 || sp.Count > a.count {
			return nil, l.errf("%s: %s.sparse: count %d out of range [0, %d]", field, at, sp.Count, a.count)
		}
		ibuf, _, err := l.bufferView(sp.Indices.BufferView, field+": "+at+".sparse.indices")
		if err != nil {
			return nil, err
		}
		it := sp.Indices.ComponentType
		if it != gltf.ComponentUbyte && it != gltf.ComponentUshort && it != gltf.ComponentUint {
			return nil, l.errf("%s: %s.sparse.indices: component type must be an unsigned integer", field, at)
		}
		isize, _ := componentSize(it)
		vbuf, _, err := l.bufferView(sp.Values.BufferView, field+": "+at+".sparse.values")
		if err != nil {
			return nil, err
		}
		for _, r := range []struct {
			what       string
			off, n     int
			view, size int
		}{
			{"indices", sp.Indices.ByteOffset, sp.Count * isize, sp.Indices.BufferView, len(ibuf)},
			{"values", sp.Values.ByteOffset, sp.Count * a.elem, sp.Values.BufferView, len(vbuf)},
		} {
			if r.off < 0 {
				return nil, l.errf("%s: %s.sparse.%s.byteOffset: %d is negative", field, at, r.what, r.off)
			}
			if r.off > r.size {
				return nil, l.errf("%s: %s.sparse.%s.byteOffset: %d beyond bufferView %d of %d bytes", field, at, r.what, r.off, r.view, r.size)
			}
			if r.n > r.size-r.off {
				return nil, l.errf("%s: %s.sparse.%s: %d %s at byte %d exceed the bufferView's %d bytes", field, at, r.what, sp.Count, r.what, r.off, r.size)
			}
		}
		a.sparse = make(map[int]int, sp.Count)
		a.values = vbuf[sp.Values.ByteOffset:]
		for k := 0; k < sp.Count; k++ {
			ix := int(decodeComponent(ibuf[sp.Indices.ByteOffset+k*isize:], it, false))
			if ix >= a.count {
				return nil, l.errf("%s: %s.sparse.indices[%d] = %d out of range (count %d)", field, at, k, ix, a.count)
			}
			a.sparse[ix] = k
		}
	}
	return a, nil
}

// bufferView returns the bytes of buffer view bi and its stride.
func (l *gltfLoader) bufferView(bi int, field string) ([]byte, int, error) {
	doc := l.doc
	if bi < 0 || bi >= len(doc.BufferViews) || doc.BufferViews[bi] == nil {
		return nil, 0, l.errf("%s: bufferView %d does not exist (%d bufferViews)", field, bi, len(doc.BufferViews))
	}
	bv := doc.BufferViews[bi]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) || doc.Buffers[bv.Buffer] == nil {
		return nil, 0, l.errf("%s: bufferViews[%d]: buffer %d does not exist (%d buffers)", field, bi, bv.Buffer, len(doc.Buffers))
	}
	data := doc.Buffers[bv.Buffer].Data
	switch {
	case bv.ByteOffset < 0:
		return nil, 0, l.errf("%s: bufferViews[%d].byteOffset: %d is negative", field, bi, bv.ByteOffset)
	case bv.ByteLength < 1:
		return nil, 0, l.errf("%s: bufferViews[%d].byteLength: %d, want at least 1", field, bi, bv.ByteLength)
	case bv.ByteOffset > len(data):
		return nil, 0, l.errf("%s: bufferViews[%d].byteOffset: %d beyond buffer %d of %d bytes", field, bi, bv.ByteOffset, bv.Buffer, len(data))
	case bv.ByteLength > len(data):
		return nil, 0, l.errf("%s: bufferViews[%d].byteLength: %d beyond buffer %d of %d bytes", field, bi, bv.ByteLength, bv.Buffer, len(data))
	case bv.ByteLength > len(data)-bv.ByteOffset:
		return nil, 0, l.errf("%s: bufferViews[%d]: bytes [%d, %d) exceed buffer %d of %d bytes",
			field, bi, bv.ByteOffset, bv.ByteOffset+bv.ByteLength, bv.Buffer, len(data))
	}
	if bv.ByteStride < 0 || bv.ByteStride > 252 {
		return nil, 0, l.errf("%s: bufferViews[%d]: byteStride %d out of range [0, 252]", field, bi, bv.ByteStride)
	}
	return data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv.ByteStride, nil
}

func componentSize(ct gltf.ComponentType) (int, bool) {
	switch ct {
	case gltf.ComponentByte, gltf.ComponentUbyte:
		return 1, true
	case gltf.ComponentShort, gltf.ComponentUshort:
		return 2, true
	case gltf.ComponentUint, gltf.ComponentFloat:
		return 4, true
	}
	return 0, false
}

// decodeComponent reads one little-endian component at the start of b.
func decodeComponent(b []byte, ct gltf.ComponentType, normalized bool) float64 {
	switch ct {
	case gltf.ComponentByte:
		v := float64(int8(b[0]))
		if normalized {
			return math.Max(v/127, -1)
		}
		return v
	case gltf.ComponentUbyte:
		v := float64(b[0])
		if normalized {
			return v / 255
		}
		return v
	case gltf.ComponentShort:
		v := float64(int16(binary.LittleEndian.Uint16(b)))
		if normalized {
			return math.Max(v/32767, -1)
		}
		return v
	case gltf.ComponentUshort:
		v := float64(binary.LittleEndian.Uint16(b))
		if normalized {
			return v / 65535
		}
		return v
	case gltf.ComponentUint:
		v := float64(binary.LittleEndian.Uint32(b))
		if normalized {
			return v / 4294967295
		}
		return v
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}

// readVec reads a vertex attribute of minC..maxC components and at most
// maxCount elements as float32 values; it returns them with the element count.
func (l *gltfLoader) readVec(ai, minC, maxC, maxCount int, field string) ([]float32, int, error) {
	a, err := l.accessor(ai, maxCount, field)
	if err != nil {
		return nil, 0, err
	}
	if a.comps < minC || a.comps > maxC {
		return nil, 0, l.errf("%s: accessors[%d] has %d components, want %d to %d", field, ai, a.comps, minC, maxC)
	}
	out := make([]float32, a.count*a.comps)
	for i := 0; i < a.count; i++ {
		for c := 0; c < a.comps; c++ {
			v := a.value(i, c)
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > math.MaxFloat32 {
				return nil, 0, l.errf("%s: accessors[%d] element %d is not finite", field, ai, i)
			}
			out[i*a.comps+c] = float32(v)
		}
	}
	return out, a.count, nil
}

// readIndices reads an index accessor; every index must be below n.
func (l *gltfLoader) readIndices(ai, n int, field string) ([]uint32, error) {
	a, err := l.accessor(ai, maxIndices, field)
	if err != nil {
		return nil, err
	}
	if a.comps != 1 {
		return nil, l.errf("%s: accessors[%d] has %d components, want a scalar", field, ai, a.comps)
	}
	switch a.acc.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, l.errf("%s: accessors[%d]: index component type must be an unsigned integer", field, ai)
	}
	if a.acc.Normalized {
		return nil, l.errf("%s: accessors[%d]: indices cannot be normalized", field, ai)
	}
	out := make([]uint32, a.count)
	for i := range out {
		v := a.value(i, 0)
		if v >= float64(n) {
			return nil, l.errf("%s: accessors[%d] index %d = %d out of range (%d vertices)", field, ai, i, uint64(v), n)
		}
		out[i] = uint32(v)
	}
	return out, nil
}

// material converts glTF material mi (once) and returns its Model index.
func (l *gltfLoader) material(mi int) (int, error) {
	if j, ok := l.matMap[mi]; ok {
		return j, nil
	}
	doc := l.doc
	if mi < 0 || mi >= len(doc.Materials) || doc.Materials[mi] == nil {
		return 0, l.errf("material %d does not exist (%d materials)", mi, len(doc.Materials))
	}
	gm := doc.Materials[mi]
	field := fmt.Sprintf("materials[%d]", mi)
	mat := Material{
		Name:        gm.Name,
		Diffuse:     geom.Vec4{1, 1, 1, 1},
		Specular:    geom.Vec4{0.2, 0.2, 0.2, 32},
		DoubleSided: gm.DoubleSided,
	}
	if mat.Name == "" {
		mat.Name = fmt.Sprintf("material%d", mi)
	}
	if pbr := gm.PBRMetallicRoughness; pbr != nil {
		f := pbr.BaseColorFactorOrDefault()
		if err := checkFinite64(f[:]...); err != nil {
			return 0, l.errf("%s.pbrMetallicRoughness.baseColorFactor: %v", field, err)
		}
		mat.Diffuse = geom.Vec4{float32(f[0]), float32(f[1]), float32(f[2]), float32(f[3])}
		if pbr.BaseColorTexture != nil {
			t, err := l.texture(pbr.BaseColorTexture.Index, field+".pbrMetallicRoughness.baseColorTexture")
			if err != nil {
				return 0, err
			}
			mat.Albedo = t
		}
	}
	if nt := gm.NormalTexture; nt != nil && nt.Index != nil {
		t, err := l.texture(*nt.Index, field+".normalTexture")
		if err != nil {
			return 0, err
		}
		mat.Normal = t
	}
	switch gm.AlphaMode {
	case gltf.AlphaMask:
		c := gm.AlphaCutoffOrDefault()
		if !(c >= 0 && c <= 1) {
			return 0, l.errf("%s.alphaCutoff: %v out of range [0, 1]", field, c)
		}
		mat.AlphaCutoff = float32(c)
	case gltf.AlphaBlend:
		mat.Blend = true
	}
	j := len(l.model.Materials)
	l.model.Materials = append(l.model.Materials, mat)
	l.matMap[mi] = j
	return j, nil
}

func (l *gltfLoader) texture(ti int, field string) (*Texture, error) {
	if t, ok := l.texMap[ti]; ok {
		return t, nil
	}
	doc := l.doc
	if ti < 0 || ti >= len(doc.Textures) || doc.Textures[ti] == nil {
		return nil, l.errf("%s: texture %d does not exist (%d textures)", field, ti, len(doc.Textures))
	}
	gt := doc.Textures[ti]
	if gt.Source == nil {
		return nil, l.errf("%s: textures[%d] has no source image", field, ti)
	}
	im, name, err := l.image(*gt.Source, fmt.Sprintf("%s: textures[%d]", field, ti))
	if err != nil {
		return nil, err
	}
	t := &Texture{Name: name, Image: im}
	if gt.Sampler != nil {
		si := *gt.Sampler
		if si < 0 || si >= len(doc.Samplers) || doc.Samplers[si] == nil {
			return nil, l.errf("%s: textures[%d]: sampler %d does not exist (%d samplers)", field, ti, si, len(doc.Samplers))
		}
		s := doc.Samplers[si]
		t.ClampU = s.WrapS == gltf.WrapClampToEdge
		t.ClampV = s.WrapT == gltf.WrapClampToEdge
	}
	l.texMap[ti] = t
	return t, nil
}

func (l *gltfLoader) image(ii int, field string) (*teximage.Image, string, error) {
	doc := l.doc
	if ii < 0 || ii >= len(doc.Images) || doc.Images[ii] == nil {
		return nil, "", l.errf("%s: image %d does not exist (%d images)", field, ii, len(doc.Images))
	}
	gi := doc.Images[ii]
	name := fmt.Sprintf("images[%d]", ii)
	if im, ok := l.imgMap[ii]; ok {
		if gi.URI != "" && !strings.HasPrefix(gi.URI, "data:") {
			name = gi.URI
		}
		return im, name, nil
	}
	var data []byte
	var err error
	switch {
	case gi.BufferView != nil:
		data, _, err = l.bufferView(*gi.BufferView, field+": "+name)
	case gi.URI != "" && l.opt.SkipMaterials && l.resolve != nil && !strings.HasPrefix(gi.URI, "data:"):
		// Checked, not read: the image is not decoded.
		name = gi.URI
		uf := fmt.Sprintf("%s: images[%d].uri", field, ii)
		file, err := l.uriFile(gi.URI, uf)
		if err != nil {
			return nil, "", err
		}
		if err := l.resolve(file); err != nil {
			return nil, "", l.errf("%s: %v", uf, err)
		}
		l.imgMap[ii] = nil
		return nil, name, nil
	case gi.URI != "":
		if !strings.HasPrefix(gi.URI, "data:") {
			name = gi.URI
		}
		data, err = l.uriData(gi.URI, fmt.Sprintf("%s: images[%d].uri", field, ii), imageMediaTypes)
	default:
		return nil, "", l.errf("%s: %s has neither uri nor bufferView", field, name)
	}
	if err != nil {
		return nil, "", err
	}
	if l.opt.SkipMaterials {
		l.imgMap[ii] = nil // checked, not decoded
		return nil, name, nil
	}
	// Images with the same bytes (one file named by several images, or
	// under several names) are decoded once.
	sum := sha256.Sum256(data)
	im, ok := l.decoded[sum]
	if !ok {
		label := name
		if name == gi.URI {
			label = inputs.QuotePath(name)
		}
		if im, err = teximage.DecodeWithin(label, data, l.opt.Budget); err != nil {
			return nil, "", l.errf("%s: %v", field, err)
		}
		im = im.Downscale(l.opt.MaxTextureSize)
		if err := l.opt.Budget.Reserve(field+": "+label, int64(len(im.Pix))); err != nil {
			return nil, "", l.errf("%s: %v", field, err)
		}
		l.decoded[sum] = im
	}
	l.imgMap[ii] = im
	return im, name, nil
}

// vertexAttr reads vertex attribute key (minC to maxC components) with read
// and converts the components of each of the n vertices with conv; nil when
// the primitive does not have it, or when *err is set (a read error is kept
// there).
func vertexAttr[T any](err *error, read func(key string, minC, maxC int) ([]float32, int, error),
	key string, minC, maxC, n int, conv func(v []float32) T) []T {
	if *err != nil {
		return nil
	}
	vals, comps, e := read(key, minC, maxC)
	if e != nil || vals == nil {
		*err = e
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = conv(vals[comps*i : comps*i+comps])
	}
	return out
}
