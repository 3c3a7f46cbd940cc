package mesh

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/qmuntal/gltf"
)

// MaxGLTFInstances bounds the node instances of a glTF scene: a node reached
// by several paths (shared children) is one instance per path, so a small
// file can describe exponentially many. The count is taken before the
// hierarchy is expanded.
const MaxGLTFInstances = 1 << 16

// MaxGLTFPrimitives bounds the primitive instances of a glTF scene: each
// mesh's primitives once per node instance that uses it (a primitive becomes
// a part and a draw even when it has no vertices). Counted before the
// hierarchy is expanded.
const MaxGLTFPrimitives = 1 << 16

// glbMagic is "glTF" read as a little-endian uint32.
const glbMagic = 0x46546c67

// gltfJSONBytesPerObject bounds what the glTF library allocates per JSON
// object (a node, accessor or primitive struct and its pointer).
const gltfJSONBytesPerObject = 512

// checkGLTFSizes checks, before the JSON is decoded, every size it would
// allocate: a GLB's declared length and chunk lengths against the file's
// real size, the byteLength of the GLB's binary buffer against its BIN
// chunk, and the JSON decoding memory (estimated from the JSON's size and its
// number of objects) against the budget; then the enumerated fields the
// loader uses (checkGLTFEnums). It returns the JSON and the GLB's BIN chunk
// (nil: none).
// glbJSONStart is the byte of a .glb at which its JSON chunk's data starts:
// after the 12-byte header and the chunk's 8-byte header.
const glbJSONStart = 20

func checkGLTFSizes(name string, data []byte, b *inputs.Budget) (js, bin []byte, err error) {
	js = data
	if err := checkGLBMagic(name, data); err != nil {
		return nil, nil, err
	}
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		if len(data) < 20 {
			return nil, nil, fmt.Errorf("%s: glb: header of %d bytes, want at least 20", name, len(data))
		}
		if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
			return nil, nil, fmt.Errorf("%s: glb: byte 4: version %d, want 2 (glTF 2.0)", name, v)
		}
		total := int64(binary.LittleEndian.Uint32(data[8:]))
		if total != int64(len(data)) {
			return nil, nil, fmt.Errorf("%s: glb: header length %d differs from the file's %d bytes", name, total, len(data))
		}
		jl := int64(binary.LittleEndian.Uint32(data[12:]))
		if binary.LittleEndian.Uint32(data[16:]) != 0x4e4f534a { // "JSON"
			return nil, nil, fmt.Errorf("%s: glb: byte 16: the first chunk is not JSON", name)
		}
		if 20+jl > total {
			return nil, nil, fmt.Errorf("%s: glb: byte 12: JSON chunk of %d bytes exceeds the file's %d bytes", name, jl, total)
		}
		if jl%4 != 0 {
			// The next chunk would be read from the wrong place.
			return nil, nil, fmt.Errorf("%s: glb: byte 12: JSON chunk of %d bytes, not a multiple of 4 (chunks are padded to 4 bytes)", name, jl)
		}
		js = data[glbJSONStart : glbJSONStart+jl]
		if rest := total - 20 - jl; rest >= 8 {
			at := 20 + jl
			bl := int64(binary.LittleEndian.Uint32(data[at:]))
			isBIN := binary.LittleEndian.Uint32(data[at+4:]) == 0x004e4942 // "BIN\0"
			if at+8+bl > total {
				what := "BIN chunk"
				if !isBIN {
					what = "chunk after the JSON chunk"
				}
				return nil, nil, fmt.Errorf("%s: glb: byte %d: %s of %d bytes exceeds the file's %d bytes", name, at, what, bl, total)
			}
			if isBIN {
				bin = data[at+8 : at+8+bl]
			}
		}
	}
	objects := int64(bytes.Count(js, []byte{'{'}))
	need := 8*int64(len(js)) + gltfJSONBytesPerObject*objects
	if err := b.Check("decoding the glTF JSON", need); err != nil {
		return nil, nil, fmt.Errorf("%s: gltf: %v", name, err)
	}
	var head gltfHead
	if err := json.Unmarshal(js, &head); err != nil {
		return js, bin, nil // the decoder reports it, with its position
	}
	for i, buf := range head.Buffers {
		if buf.ByteLength < 0 {
			return nil, nil, fmt.Errorf("%s: gltf: buffers[%d].byteLength: %d is negative", name, i, buf.ByteLength)
		}
		if i == 0 && buf.URI == "" && bin != nil && buf.ByteLength > int64(len(bin)) {
			return nil, nil, fmt.Errorf("%s: gltf: buffers[0].byteLength: %d bytes, more than the GLB's BIN chunk of %d bytes", name, buf.ByteLength, len(bin))
		}
		if i == 0 && buf.URI == "" && bin == nil && buf.ByteLength > 0 {
			return nil, nil, fmt.Errorf("%s: gltf: buffers[0]: no uri and no GLB BIN chunk for its %d bytes", name, buf.ByteLength)
		}
		if buf.ByteLength > inputs.BufferFile.Cap {
			return nil, nil, fmt.Errorf("%s: gltf: buffers[%d].byteLength: %d bytes, more than %s (the cap of a %s)",
				name, i, buf.ByteLength, inputs.Bytes(inputs.BufferFile.Cap), inputs.BufferFile.Name)
		}
	}
	if err := head.checkEnums(); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", name, err)
	}
	return js, bin, nil
}

// gltfHead is what checkGLTFSizes reads of the JSON before the gltf library
// decodes it: the buffers' sizes, and the enumerated fields the loader uses
// as written (the library takes a value it does not know for the field's
// default: a mode of 99 for TRIANGLES, a componentType of 5130 for FLOAT).
type gltfHead struct {
	Buffers []struct {
		ByteLength int64  `json:"byteLength"`
		URI        string `json:"uri"`
	} `json:"buffers"`
	Accessors []*struct {
		ComponentType *json.Number `json:"componentType"`
		Sparse        *struct {
			Indices struct {
				ComponentType *json.Number `json:"componentType"`
			} `json:"indices"`
		} `json:"sparse"`
	} `json:"accessors"`
	Meshes []*struct {
		Primitives []*struct {
			Mode *json.Number `json:"mode"`
		} `json:"primitives"`
	} `json:"meshes"`
	Samplers []*struct {
		WrapS *json.Number `json:"wrapS"`
		WrapT *json.Number `json:"wrapT"`
	} `json:"samplers"`
	Materials []*struct {
		AlphaMode *string `json:"alphaMode"`
	} `json:"materials"`
	Animations []*struct {
		Channels []*struct {
			Target struct {
				Path *string `json:"path"`
			} `json:"target"`
		} `json:"channels"`
		Samplers []*struct {
			Interpolation *string `json:"interpolation"`
		} `json:"samplers"`
	} `json:"animations"`
}

// The values glTF 2.0 allows for the enumerated fields gltfHead reads.
var (
	gltfComponentTypes = []string{"5120", "5121", "5122", "5123", "5125", "5126"}
	gltfIndexTypes     = []string{"5121", "5123", "5125"}
	gltfModes          = []string{"0", "1", "2", "3", "4", "5", "6"}
	gltfWraps          = []string{"33071", "33648", "10497"}
	gltfAlphaModes     = []string{"OPAQUE", "MASK", "BLEND"}
	gltfPaths          = []string{"translation", "rotation", "scale", "weights"}
	gltfInterpolations = []string{"LINEAR", "STEP", "CUBICSPLINE"}
)

// checkEnums refuses a value of an enumerated field that glTF 2.0 does not
// allow, naming the field and the values it allows.
func (h *gltfHead) checkEnums() error {
	var err error
	check := func(field string, v *string, allowed []string) {
		if err == nil && v != nil && !slices.Contains(allowed, *v) {
			err = fmt.Errorf("%s: %s is not one of %s", field, inputs.Quote(*v), strings.Join(allowed, ", "))
		}
	}
	code := func(field string, n *json.Number, allowed []string) {
		if n == nil {
			return
		}
		v := n.String()
		if i, e := n.Int64(); e == nil && err == nil && !slices.Contains(allowed, v) {
			err = fmt.Errorf("%s: %d is not one of %s", field, i, strings.Join(allowed, ", "))
		}
		check(field, &v, allowed) // not an integer: quoted
	}
	for i, a := range h.Accessors {
		if a != nil {
			code(fmt.Sprintf("accessors[%d].componentType", i), a.ComponentType, gltfComponentTypes)
			if a.Sparse != nil {
				code(fmt.Sprintf("accessors[%d].sparse.indices.componentType", i), a.Sparse.Indices.ComponentType, gltfIndexTypes)
			}
		}
	}
	for i, m := range h.Meshes {
		if m == nil {
			continue
		}
		for j, p := range m.Primitives {
			if p != nil {
				code(fmt.Sprintf("meshes[%d].primitives[%d].mode", i, j), p.Mode, gltfModes)
			}
		}
	}
	for i, s := range h.Samplers {
		if s != nil {
			code(fmt.Sprintf("samplers[%d].wrapS", i), s.WrapS, gltfWraps)
			code(fmt.Sprintf("samplers[%d].wrapT", i), s.WrapT, gltfWraps)
		}
	}
	for i, m := range h.Materials {
		if m != nil {
			check(fmt.Sprintf("materials[%d].alphaMode", i), m.AlphaMode, gltfAlphaModes)
		}
	}
	for i, a := range h.Animations {
		if a == nil {
			continue
		}
		for j, c := range a.Channels {
			if c != nil {
				check(fmt.Sprintf("animations[%d].channels[%d].target.path", i, j), c.Target.Path, gltfPaths)
			}
		}
		for j, s := range a.Samplers {
			if s != nil {
				check(fmt.Sprintf("animations[%d].samplers[%d].interpolation", i, j), s.Interpolation, gltfInterpolations)
			}
		}
	}
	return err
}

// checkGLBMagic refuses data that is neither a binary glTF (starting with
// "glTF") nor JSON (starting with '{' after white space and a byte-order
// mark), saying what it starts with, instead of the JSON decoder's message
// about its first byte; a file named .glb must be binary.
func checkGLBMagic(name string, data []byte) error {
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		return nil
	}
	head := data[:min(4, len(data))]
	if strings.EqualFold(filepath.Ext(name), ".glb") {
		return fmt.Errorf("%s: glb: byte 0: not a binary glTF file (starts with %s, want \"glTF\")", name, inputs.QuoteBytes(head))
	}
	if js := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n"); len(js) > 0 && js[0] != '{' {
		return fmt.Errorf("%s: gltf: byte 0: neither glTF JSON (starting with '{') nor binary glTF (starting with \"glTF\"); starts with %s", name, inputs.QuoteBytes(head))
	}
	return nil
}

// instCount is what a node instance brings: node instances, primitive
// instances, vertices and indices.
type instCount struct{ nodes, prims, verts, indices int64 }

// add returns c + d, each count saturated at 2^50.
func (c instCount) add(d instCount) instCount {
	sat := func(v int64) int64 { return min(v, 1<<50) }
	return instCount{sat(c.nodes + d.nodes), sat(c.prims + d.prims), sat(c.verts + d.verts), sat(c.indices + d.indices)}
}

// checkInstances checks, before the node hierarchy is walked, the nodes the
// walk will reach from roots: it refuses a missing node, a cycle or a
// hierarchy deeper than maxNodeDepth levels with the walk's own message, and
// counts the node instances (one per path from a root), the primitive
// instances and the vertices and indices of all mesh instances after
// merging; it refuses a scene with more than MaxGLTFInstances node instances,
// MaxGLTFPrimitives primitive instances or MaxVertices vertices, or whose
// meshes exceed the memory budget. With allNodes (a file without scenes),
// nodes no root reaches are in or below a cycle, which is reported.
func (l *gltfLoader) checkInstances(roots []int, allNodes bool) error {
	doc := l.doc
	const (
		visiting = 1
		done     = 2
	)
	state := make([]uint8, len(doc.Nodes))
	memo := make([]instCount, len(doc.Nodes))
	height := make([]int, len(doc.Nodes)) // levels below a done node
	meshCount := map[int]instCount{}
	var visit func(i, depth int) (instCount, error)
	visit = func(i, depth int) (instCount, error) {
		if i < 0 || i >= len(doc.Nodes) || doc.Nodes[i] == nil {
			return instCount{}, l.errf("node %d does not exist (%d nodes)", i, len(doc.Nodes))
		}
		switch state[i] {
		case visiting:
			return instCount{}, l.errf("nodes[%d]: cycle in the node hierarchy", i)
		case done:
			// Reached again by another path: its subtree is counted, but
			// may be too deep at this depth; name the node the walk would.
			for depth+height[i] > maxNodeDepth && depth <= maxNodeDepth {
				for _, ch := range doc.Nodes[i].Children {
					if depth+1+height[ch] > maxNodeDepth {
						i = ch
						break
					}
				}
				depth++
			}
			if depth > maxNodeDepth {
				return instCount{}, l.errf("nodes[%d]: hierarchy deeper than %d levels", i, maxNodeDepth)
			}
			return memo[i], nil
		}
		if depth > maxNodeDepth {
			return instCount{}, l.errf("nodes[%d]: hierarchy deeper than %d levels", i, maxNodeDepth)
		}
		state[i] = visiting
		c := instCount{nodes: 1}
		if n := doc.Nodes[i]; n.Mesh != nil {
			mc, ok := meshCount[*n.Mesh]
			if !ok {
				mc = l.meshCount(*n.Mesh)
				meshCount[*n.Mesh] = mc
			}
			c = c.add(mc)
		}
		for _, ch := range doc.Nodes[i].Children {
			cc, err := visit(ch, depth+1)
			if err != nil {
				return instCount{}, err
			}
			c = c.add(cc)
			height[i] = max(height[i], 1+height[ch])
		}
		state[i], memo[i] = done, c
		return c, nil
	}
	var total instCount
	for _, r := range roots {
		c, err := visit(r, 0)
		if err != nil {
			return err
		}
		total = total.add(c)
	}
	for i := range doc.Nodes {
		if allNodes && state[i] == 0 {
			if _, err := visit(i, 0); err != nil {
				return err
			}
		}
	}
	switch {
	case total.nodes > MaxGLTFInstances:
		return l.errf("nodes: the scene's node hierarchy has %d node instances (nodes shared by several parents count once per path), more than %d", total.nodes, MaxGLTFInstances)
	case total.prims > MaxGLTFPrimitives:
		return l.errf("meshes: the scene's node instances draw %d primitives (each mesh's primitives once per node instance that uses it), more than %d", total.prims, MaxGLTFPrimitives)
	case total.verts > MaxVertices:
		return l.errf("meshes: the scene's mesh instances have %d vertices after merging, more than %d", total.verts, MaxVertices)
	}
	if err := l.opt.Budget.Reserve("the meshes of "+l.name, 64*total.verts+8*total.indices); err != nil {
		return l.errf("meshes: %v", err)
	}
	return nil
}

// meshCount estimates what glTF mesh mi becomes: its primitives (every one,
// points and lines too, which the walk passes over), and the vertices and
// indices, per triangle primitive: the POSITION count, or three vertices per triangle
// when it has no normals (flat shading), and three indices per triangle.
func (l *gltfLoader) meshCount(mi int) (c instCount) {
	doc := l.doc
	if mi < 0 || mi >= len(doc.Meshes) || doc.Meshes[mi] == nil {
		return
	}
	c.prims = int64(len(doc.Meshes[mi].Primitives))
	accCount := func(ai int) int64 {
		if ai < 0 || ai >= len(doc.Accessors) || doc.Accessors[ai] == nil {
			return 0
		}
		return max(0, int64(doc.Accessors[ai].Count))
	}
	for _, p := range doc.Meshes[mi].Primitives {
		if p == nil {
			continue
		}
		pi, ok := p.Attributes[gltf.POSITION]
		if !ok {
			continue
		}
		n := accCount(pi)
		corners := n
		if p.Indices != nil {
			corners = accCount(*p.Indices)
		}
		var tris int64
		switch p.Mode {
		case gltf.PrimitiveTriangles:
			tris = corners / 3
		case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
			tris = max(0, corners-2)
		default:
			continue
		}
		v := n
		if _, ok := p.Attributes[gltf.NORMAL]; !ok {
			v = 3 * tris
		}
		c.verts += v
		c.indices += 3 * tris
	}
	return
}

// gltfFileReader reads the external buffers and images of a glTF file in dir:
// a URI must be a relative file name inside roots (no scheme but data:, which
// the decoder handles itself), a regular file within the buffer cap; its bytes
// are reserved in the budget.
func gltfFileReader(roots *inputs.Roots, dir string, b *inputs.Budget) func(string) ([]byte, error) {
	return func(uri string) ([]byte, error) {
		p, err := roots.Resolve(dir, filepath.FromSlash(uri))
		if err != nil {
			return nil, err
		}
		data, err := roots.ReadFile(p, inputs.BufferFile)
		if err != nil {
			return nil, err
		}
		if err := b.Reserve("glTF file "+filepath.Base(p), int64(len(data))); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		return data, nil
	}
}
