package mesh

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// OBJ is the geometry of a Wavefront OBJ file: one part per material named by
// usemtl (faces before any usemtl form a part with material ""), in the order
// the materials are first used.
type OBJ struct {
	Parts        []OBJPart
	MaterialLibs []OBJRef // mtllib statements, in file order
}

// OBJPart is the triangles of one material. Line is the line of the usemtl
// statement that first named the material (0 for material "").
type OBJPart struct {
	Material string
	Line     int
	Mesh     *Mesh
}

// OBJRef is a file name from an OBJ statement and the line it is on.
type OBJRef struct {
	File string
	Line int
}

// maxOBJIndices bounds the triangle list of one OBJ file.
const maxOBJIndices = 3 << 24

// objKey is a unified vertex: position, texcoord and normal indices (0-based,
// -1 when absent).
type objKey [3]int32

type objPart struct {
	material string
	line     int
	keys     map[objKey]uint32
	verts    []objKey
	indices  []uint32
}

// ParseOBJ parses OBJ text. name labels errors, which have the form
// "name:line: statement: message".
//
// Supported statements: v (x y z, optionally w, which is ignored, or x y z r g b
// vertex colours), vt (u [v [w]]), vn, f (3 or more vertices of the forms v,
// v/vt, v//vn, v/vt/vn, with 1-based or negative relative indices; polygons are
// split into a fan around their first vertex), usemtl, mtllib. The grouping and
// smoothing statements o, g, s and the free-form geometry, line and point
// statements are accepted and ignored; any other statement is an error.
//
// Each distinct (v, vt, vn) triple becomes one vertex, numbered in order of
// first use within its part. Texture coordinates are flipped to the D3D
// convention (v' = 1 - v). Missing normals are generated (area-weighted smooth
// normals over the part's triangles) and given normals are normalised; when
// any vertex of a part has texture coordinates, vertices without get (0, 0)
// and tangents are generated; when any v statement has colours, vertices
// without get white.
func ParseOBJ(name string, data []byte) (*OBJ, error) {
	var (
		pos    []geom.Vec3
		col    []geom.Vec4
		hasCol bool
		uv     []geom.Vec2
		nrm    []geom.Vec3
		parts  []*objPart
		cur    *objPart
		byName = map[string]int{}
		out    = &OBJ{}
		nums   [7]float32
		refs   []objKey
		nIndex int
		known  bool // a statement was recognised: the file is OBJ text
	)
	r := newLineReader(name, data)
	for r.scan() {
		f := r.fields
		kw := string(f[0])
		args := f[1:]
		switch kw {
		case "v":
			if len(args) != 3 && len(args) != 4 && len(args) != 6 {
				return nil, r.errf("expected 3, 4 or 6 numbers (x y z [w] or x y z r g b), got %d", len(args))
			}
			if err := r.vertexNumbers(args, nums[:], len(pos), "positions"); err != nil {
				return nil, err
			}
			pos = append(pos, geom.Vec3{nums[0], nums[1], nums[2]})
			c := geom.Vec4{1, 1, 1, 1}
			if len(args) == 6 {
				c = geom.Vec4{nums[3], nums[4], nums[5], 1}
				hasCol = true
			}
			col = append(col, c)
		case "vt":
			if len(args) < 1 || len(args) > 3 {
				return nil, r.errf("expected 1 to 3 numbers (u [v [w]]), got %d", len(args))
			}
			nums[1] = 0
			if err := r.vertexNumbers(args, nums[:], len(uv), "texture coordinates"); err != nil {
				return nil, err
			}
			uv = append(uv, geom.Vec2{nums[0], 1 - nums[1]})
		case "vn":
			if len(args) != 3 {
				return nil, r.errf("expected 3 numbers, got %d", len(args))
			}
			if err := r.vertexNumbers(args, nums[:], len(nrm), "normals"); err != nil {
				return nil, err
			}
			nrm = append(nrm, geom.Vec3{nums[0], nums[1], nums[2]})
		case "f":
			if len(args) < 3 {
				return nil, r.errf("a face needs at least 3 vertices, got %d", len(args))
			}
			refs = refs[:0]
			for i, a := range args {
				k, err := parseFaceVertex(a, len(pos), len(uv), len(nrm))
				if err != nil {
					return nil, r.errf("vertex %d %s: %v", i+1, inputs.QuoteBytes(a), err)
				}
				if i > 0 && (k[1] < 0) != (refs[0][1] < 0) || i > 0 && (k[2] < 0) != (refs[0][2] < 0) {
					return nil, r.errf("vertex %d %s: format differs from the face's first vertex %s", i+1, inputs.QuoteBytes(a), inputs.QuoteBytes(args[0]))
				}
				refs = append(refs, k)
			}
			if cur == nil {
				cur = &objPart{keys: map[objKey]uint32{}}
				byName[""] = len(parts)
				parts = append(parts, cur)
			}
			nIndex += 3 * (len(refs) - 2)
			if nIndex > maxOBJIndices {
				return nil, r.errf("more than %d triangles", maxOBJIndices/3)
			}
			var ids [3]uint32
			for i := 2; i < len(refs); i++ {
				for j, k := range [3]objKey{refs[0], refs[i-1], refs[i]} {
					id, ok := cur.keys[k]
					if !ok {
						if len(cur.verts) >= MaxVertices {
							return nil, r.errf("more than %d vertices in one part", MaxVertices)
						}
						id = uint32(len(cur.verts))
						cur.keys[k] = id
						cur.verts = append(cur.verts, k)
					}
					ids[j] = id
				}
				cur.indices = append(cur.indices, ids[0], ids[1], ids[2])
			}
		case "usemtl":
			if len(args) == 0 {
				return nil, r.errf("missing material name")
			}
			mat := joinFields(args)
			if i, ok := byName[mat]; ok {
				cur = parts[i]
			} else {
				cur = &objPart{material: mat, line: r.line, keys: map[objKey]uint32{}}
				byName[mat] = len(parts)
				parts = append(parts, cur)
			}
		case "mtllib":
			if len(args) == 0 {
				return nil, r.errf("missing file name")
			}
			for _, a := range args {
				out.MaterialLibs = append(out.MaterialLibs, OBJRef{File: string(a), Line: r.line})
			}
		case "o", "g", "s", "mg", "l", "p", "vp", "cstype", "deg", "bmat", "step", "curv", "curv2",
			"surf", "parm", "trim", "hole", "scrv", "sp", "end", "con", "lod", "usemap", "maplib",
			"shadow_obj", "trace_obj", "ctech", "stech", "bevel", "c_interp", "d_interp", "call", "csh":
			// Grouping, smoothing, free-form geometry, lines and points: ignored.
		default:
			if !known {
				// Nothing of this file was OBJ yet: quote none of it.
				return nil, notFormat(name, r.line, "OBJ")
			}
			return nil, fmt.Errorf("%s:%d: unknown statement %s", name, r.line, inputs.QuoteBytes(f[0]))
		}
		known = true
	}
	if nIndex == 0 {
		return nil, fmt.Errorf("%s: no faces", name)
	}
	for _, p := range parts {
		if len(p.indices) == 0 {
			continue // a usemtl with no faces after it
		}
		m := &Mesh{Indices: p.indices}
		anyUV := false
		for _, k := range p.verts {
			anyUV = anyUV || k[1] >= 0
		}
		keep := make([]bool, len(p.verts))
		normals := make([]geom.Vec3, len(p.verts))
		for i, k := range p.verts {
			m.Positions = append(m.Positions, pos[k[0]])
			if hasCol {
				m.Colors = append(m.Colors, col[k[0]])
			}
			if anyUV {
				var t geom.Vec2
				if k[1] >= 0 {
					t = uv[k[1]]
				}
				m.TexCoords = append(m.TexCoords, t)
			}
			if k[2] >= 0 {
				if n := nrm[k[2]].Normalize(); n != (geom.Vec3{}) {
					normals[i], keep[i] = n, true
				}
			}
		}
		m.Normals = smoothNormals(m.Positions, m.Indices, normals, keep)
		m.GenerateTangents()
		out.Parts = append(out.Parts, OBJPart{Material: p.material, Line: p.line, Mesh: m})
	}
	return out, nil
}

// parseFaceVertex parses "v", "v/vt", "v//vn" or "v/vt/vn" into 0-based
// indices (-1 for absent ones), resolving negative (relative) indices against
// the current counts.
func parseFaceVertex(b []byte, nv, nt, nn int) (objKey, error) {
	k := objKey{-1, -1, -1}
	if bytes.Count(b, []byte{'/'}) > 2 {
		return k, fmt.Errorf("too many '/'")
	}
	counts := [3]int{nv, nt, nn}
	what := [3]string{"position", "texcoord", "normal"}
	field := 0
	start := 0
	for i := 0; i <= len(b); i++ {
		if i < len(b) && b[i] != '/' {
			continue
		}
		s := b[start:i]
		switch {
		case len(s) == 0 && field == 0:
			return k, fmt.Errorf("missing position index")
		case len(s) == 0 && field == 1:
			// v//vn
		case len(s) == 0:
			return k, fmt.Errorf("empty %s index", what[field])
		default:
			v, err := strconv.ParseInt(string(s), 10, 32)
			if err != nil {
				return k, fmt.Errorf("bad %s index %s", what[field], inputs.QuoteBytes(s))
			}
			n := int64(counts[field])
			switch {
			case v == 0:
				return k, fmt.Errorf("%s index 0 (indices start at 1)", what[field])
			case v > 0 && v <= n:
				k[field] = int32(v - 1)
			case v < 0 && -v <= n:
				k[field] = int32(n + v)
			default:
				return k, fmt.Errorf("%s index %d out of range (%d defined so far)", what[field], v, n)
			}
		}
		field++
		start = i + 1
	}
	return k, nil
}

func joinFields(fs [][]byte) string {
	n := len(fs) - 1
	for _, f := range fs {
		n += len(f)
	}
	b := make([]byte, 0, n)
	for i, f := range fs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, f...)
	}
	return string(b)
}

// vertexNumbers parses the numbers of a vertex statement into nums; have is
// how many vertices of its kind (what) were read before, at most MaxVertices.
func (r *lineReader) vertexNumbers(args [][]byte, nums []float32, have int, what string) error {
	if err := parseFloats(args, nums); err != nil {
		return r.errf("%v", err)
	}
	if have >= MaxVertices {
		return r.errf("more than %d %s", MaxVertices, what)
	}
	return nil
}
