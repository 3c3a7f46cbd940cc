package mesh

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// MTLMaterial is one newmtl block of a Wavefront MTL file.
type MTLMaterial struct {
	Name string
	Line int // line of the newmtl statement

	Ka, Kd, Ks geom.Vec3 // defaults (0.2,0.2,0.2), (0.8,0.8,0.8), (0,0,0)
	Ns         float32   // specular exponent, default 0
	D          float32   // dissolve (opacity), default 1; "Tr t" sets D = 1-t
	Illum      int

	MapKd  MTLMap // diffuse colour map (albedo)
	MapD   MTLMap // dissolve map (alpha mask)
	Normal MTLMap // "norm": tangent-space normal map
}

// MTLMap is a texture map statement: the file name as written (relative to the
// MTL file), whether "-clamp on" was given, and its line (0 when absent).
type MTLMap struct {
	File  string
	Clamp bool
	Line  int
}

// mtlOptionArgs gives, for each texture map option, the minimum and maximum
// number of arguments it takes.
var mtlOptionArgs = map[string][2]int{
	"-blendu": {1, 1}, "-blendv": {1, 1}, "-boost": {1, 1}, "-mm": {2, 2},
	"-o": {1, 3}, "-s": {1, 3}, "-t": {1, 3}, "-texres": {1, 1}, "-clamp": {1, 1},
	"-bm": {1, 1}, "-imfchan": {1, 1}, "-type": {1, 1}, "-cc": {1, 1},
}

// ParseMTL parses MTL text. name labels errors ("name:line: statement:
// message").
//
// Supported statements: newmtl, Ka, Kd, Ks (r [g b]; g and b default to r),
// Ns, d, Tr, illum, map_Kd, map_d, norm (with the standard map options, of
// which only -clamp has an effect). Other material and map statements of
// the MTL specification and its PBR extension (Ke, Ni, Tf, Pr, Pm, Ps, Pc,
// Pcr, aniso, anisor, map_Ka, map_Ks, map_Ns, map_Ke, map_Pr, map_Pm, map_Ps,
// map_bump, bump, disp, decal, refl) are accepted and ignored; bump maps are
// height maps, not normal maps. Anything else, or a statement before the first
// newmtl, is an error; so are duplicate material names.
func ParseMTL(name string, data []byte) ([]MTLMaterial, error) {
	var (
		out  []MTLMaterial
		cur  *MTLMaterial
		seen = map[string]int{}
		nums [3]float32
	)
	r := newLineReader(name, data)
	for r.scan() {
		f := r.fields
		kw := string(f[0])
		args := f[1:]
		if kw == "newmtl" {
			if len(args) == 0 {
				return nil, r.errf("missing material name")
			}
			n := joinFields(args)
			if line, ok := seen[n]; ok {
				return nil, r.errf("duplicate material %s (first defined on line %d)", inputs.Quote(n), line)
			}
			seen[n] = r.line
			out = append(out, MTLMaterial{
				Name: n, Line: r.line,
				Ka: geom.Vec3{0.2, 0.2, 0.2}, Kd: geom.Vec3{0.8, 0.8, 0.8}, D: 1,
			})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			if !mtlStatements[kw] {
				// Nothing of this file was MTL yet: quote none of it.
				return nil, notFormat(name, r.line, "MTL")
			}
			return nil, r.errf("statement before the first newmtl")
		}
		switch kw {
		case "Ka", "Kd", "Ks":
			if len(args) > 0 && (string(args[0]) == "spectral" || string(args[0]) == "xyz") {
				return nil, r.errf("%s colours are not supported (use r g b)", args[0])
			}
			if len(args) != 1 && len(args) != 3 {
				return nil, r.errf("expected 1 or 3 numbers, got %d", len(args))
			}
			if err := parseFloats(args, nums[:]); err != nil {
				return nil, r.errf("%v", err)
			}
			c := geom.Vec3{nums[0], nums[0], nums[0]}
			if len(args) == 3 {
				c = geom.Vec3{nums[0], nums[1], nums[2]}
			}
			switch kw {
			case "Ka":
				cur.Ka = c
			case "Kd":
				cur.Kd = c
			default:
				cur.Ks = c
			}
		case "Ns", "d", "Tr":
			if kw == "d" && len(args) == 2 && string(args[0]) == "-halo" {
				args = args[1:]
			}
			if len(args) != 1 {
				return nil, r.errf("expected 1 number, got %d", len(args))
			}
			v, err := parseFloat(args[0])
			if err != nil {
				return nil, r.errf("%v", err)
			}
			switch kw {
			case "Ns":
				if v < 0 {
					return nil, r.errf("negative exponent %v", v)
				}
				cur.Ns = v
			case "d":
				if v < 0 || v > 1 {
					return nil, r.errf("dissolve %v out of range [0, 1]", v)
				}
				cur.D = v
			default:
				if v < 0 || v > 1 {
					return nil, r.errf("transparency %v out of range [0, 1]", v)
				}
				cur.D = 1 - v
			}
		case "illum":
			if len(args) != 1 {
				return nil, r.errf("expected 1 integer, got %d", len(args))
			}
			v, err := strconv.Atoi(string(args[0]))
			if err != nil || v < 0 || v > 10 {
				return nil, r.errf("bad illumination model %s (want 0 to 10)", inputs.QuoteBytes(args[0]))
			}
			cur.Illum = v
		case "map_Kd", "map_d", "norm":
			m, err := parseMTLMap(args)
			if err != nil {
				return nil, r.errf("%v", err)
			}
			m.Line = r.line
			switch kw {
			case "map_Kd":
				cur.MapKd = m
			case "map_d":
				cur.MapD = m
			default:
				cur.Normal = m
			}
		case "Ke", "Ni", "Tf", "Pr", "Pm", "Ps", "Pc", "Pcr", "aniso", "anisor", "sharpness",
			"map_Ka", "map_Ks", "map_Ns", "map_Ke", "map_Pr", "map_Pm", "map_Ps", "map_bump",
			"map_Bump", "bump", "disp", "decal", "refl", "map_refl", "map_aat":
			// Accepted and ignored.
		default:
			return nil, fmt.Errorf("%s:%d: unknown statement %s", name, r.line, inputs.QuoteBytes(f[0]))
		}
	}
	return out, nil
}

// parseMTLMap parses "[options] file". The file name is the rest of the line
// after the options (it may contain spaces).
func parseMTLMap(args [][]byte) (MTLMap, error) {
	var m MTLMap
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		opt := string(args[i])
		n, ok := mtlOptionArgs[opt]
		if !ok {
			return m, fmt.Errorf("unknown option %s", inputs.QuoteBytes(args[i]))
		}
		i++
		got := 0
		for got < n[1] && i < len(args) {
			if got >= n[0] {
				// Optional extra arguments must be numbers.
				if _, err := parseFloat(args[i]); err != nil {
					break
				}
			}
			if opt == "-clamp" {
				switch string(args[i]) {
				case "on":
					m.Clamp = true
				case "off":
					m.Clamp = false
				default:
					return m, fmt.Errorf("-clamp %s: want on or off", inputs.QuoteBytes(args[i]))
				}
			}
			got++
			i++
		}
		if got < n[0] {
			return m, fmt.Errorf("option %s needs %d argument(s)", opt, n[0])
		}
	}
	if i >= len(args) {
		return m, fmt.Errorf("missing file name")
	}
	// Exporters on Windows write "textures\\wood.png": a backslash is a
	// folder separator there, and in no file name a mesh would name.
	m.File = strings.ReplaceAll(joinFields(args[i:]), "\\", "/")
	return m, nil
}
