package mesh

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
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

// checkGLTFSizes checks, before the glTF library sees the file, every size it
// would allocate: a GLB's declared length and chunk lengths against the
// file's real size, the byteLength of the GLB's binary buffer against its BIN
// chunk, and the library's decoding memory (estimated from the JSON's size
// and its number of objects) against the budget.
func checkGLTFSizes(name string, data []byte, b *inputs.Budget) error {
	js := data
	var bin int64 = -1 // the BIN chunk's length; -1: none
	if err := checkGLBMagic(name, data); err != nil {
		return err
	}
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		if len(data) < 20 {
			return fmt.Errorf("%s: glb: header of %d bytes, want at least 20", name, len(data))
		}
		if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
			return fmt.Errorf("%s: glb: byte 4: version %d, want 2 (glTF 2.0)", name, v)
		}
		total := int64(binary.LittleEndian.Uint32(data[8:]))
		if total != int64(len(data)) {
			return fmt.Errorf("%s: glb: header length %d differs from the file's %d bytes", name, total, len(data))
		}
		jl := int64(binary.LittleEndian.Uint32(data[12:]))
		if binary.LittleEndian.Uint32(data[16:]) != 0x4e4f534a { // "JSON"
			return fmt.Errorf("%s: glb: byte 16: the first chunk is not JSON", name)
		}
		if 20+jl > total {
			return fmt.Errorf("%s: glb: byte 12: JSON chunk of %d bytes exceeds the file's %d bytes", name, jl, total)
		}
		js = data[20 : 20+jl]
		if rest := total - 20 - jl; rest >= 8 {
			at := 20 + jl
			bl := int64(binary.LittleEndian.Uint32(data[at:]))
			if at+8+bl > total {
				return fmt.Errorf("%s: glb: byte %d: BIN chunk of %d bytes exceeds the file's %d bytes", name, at, bl, total)
			}
			bin = bl
		}
	}
	objects := int64(bytes.Count(js, []byte{'{'}))
	need := 8*int64(len(js)) + gltfJSONBytesPerObject*objects
	if err := b.Check("decoding the glTF JSON", need); err != nil {
		return fmt.Errorf("%s: gltf: %v", name, err)
	}
	var head struct {
		Buffers []struct {
			ByteLength int64  `json:"byteLength"`
			URI        string `json:"uri"`
		} `json:"buffers"`
	}
	if err := json.Unmarshal(js, &head); err != nil {
		return nil // the library reports it, with its position
	}
	for i, buf := range head.Buffers {
		if buf.ByteLength < 0 {
			return fmt.Errorf("%s: gltf: buffers[%d].byteLength: %d is negative", name, i, buf.ByteLength)
		}
		if i == 0 && buf.URI == "" && bin >= 0 && buf.ByteLength > bin {
			return fmt.Errorf("%s: gltf: buffers[0].byteLength: %d bytes, more than the GLB's BIN chunk of %d bytes", name, buf.ByteLength, bin)
		}
		if i == 0 && buf.URI == "" && bin < 0 && buf.ByteLength > 0 {
			return fmt.Errorf("%s: gltf: buffers[0]: no uri and no GLB BIN chunk for its %d bytes", name, buf.ByteLength)
		}
		if buf.ByteLength > inputs.BufferFile.Cap {
			return fmt.Errorf("%s: gltf: buffers[%d].byteLength: %d bytes, more than %s (the cap of a %s)",
				name, i, buf.ByteLength, inputs.Bytes(inputs.BufferFile.Cap), inputs.BufferFile.Name)
		}
	}
	return nil
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
		data, err := inputs.ReadFile(p, inputs.BufferFile)
		if err != nil {
			return nil, err
		}
		if err := b.Reserve("glTF file "+filepath.Base(p), int64(len(data))); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		return data, nil
	}
}
