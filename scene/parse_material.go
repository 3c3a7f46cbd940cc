package scene

// The scene file parser, materials: shaders, parameters, bindings, state and
// decoupled sampling.

import (
	"slices"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/names"
)

func (p *parser) material(e entry) error {
	w := p.w
	field := "materials." + e.key
	if slices.Contains(reservedMaterials, e.key) {
		return w.errAt(e.kn, field, "%s is reserved (it draws a file mesh with its own materials)", inputs.Quote(e.key))
	}
	o, err := w.object(e.v, field, "shader", "params", "textures", "cull", "front_ccw", "depth_test", "depth_write", "depth_func", "blend", "decoupled")
	if err != nil {
		return err
	}
	sn := o.get("shader")
	if sn == nil {
		return w.errAt(e.v, field, "missing shader (one of %s)", strings.Join(ShaderNames(), ", "))
	}
	name, err := w.str(sn, o.path("shader"))
	if err != nil {
		return err
	}
	info, ok := LookupShader(name)
	if !ok {
		return w.errAt(sn, o.path("shader"), "unknown shader %s%s (want one of %s)", inputs.Quote(name), names.DidYouMean(name, ShaderNames()),
			strings.Join(ShaderNames(), ", "))
	}
	m := Material{Name: e.key, Shader: name, State: DefaultState(), Decoupled: p.decoupled}
	if n := o.get("decoupled"); n != nil {
		if m.Decoupled, err = p.decoupling(n, o.path("decoupled"), p.decoupled); err != nil {
			return err
		}
	}
	if n := o.get("params"); n != nil {
		es, err := w.entries(n, o.path("params"))
		if err != nil {
			return err
		}
		vals := map[string]geom.Vec4{}
		for _, pe := range es {
			pf := o.path("params") + "." + pe.key
			if !slices.Contains(info.Params, pe.key) {
				return w.errAt(pe.kn, pf, "unknown parameter of shader %s (want %s)", name, listOrNone(info.Params))
			}
			v, err := w.floats(pe.v, pf, 1, 4, true)
			if err != nil {
				return err
			}
			vals[pe.key] = toParam(v)
		}
		for _, pn := range info.Params {
			if v, ok := vals[pn]; ok {
				m.Params = append(m.Params, Param{pn, v})
			}
		}
	}
	bound := map[string]int{}
	if n := o.get("textures"); n != nil {
		es, err := w.entries(n, o.path("textures"))
		if err != nil {
			return err
		}
		for _, te := range es {
			tf := o.path("textures") + "." + te.key
			if !slices.Contains(info.Samplers, te.key) {
				return w.errAt(te.kn, tf, "unknown sampler of shader %s (want %s)", name, listOrNone(info.Samplers))
			}
			tn, err := w.str(te.v, tf)
			if err != nil {
				return err
			}
			ti := p.s.TextureIndex(tn)
			if ti < 0 {
				return w.errAt(te.v, tf, "unknown texture %s%s", inputs.Quote(tn), names.DidYouMean(tn, p.textureNames()))
			}
			if want, ok := SamplerType(name, te.key); ok && want != p.s.Textures[ti].Type {
				return w.errAt(te.v, tf, "texture %s is a %v texture, sampler %s of shader %s samples %v textures",
					inputs.Quote(tn), p.s.Textures[ti].Type, te.key, name, want)
			}
			bound[te.key] = ti
		}
	}
	for _, smp := range info.Samplers {
		ti, ok := bound[smp]
		if !ok {
			at, f := e.v, field
			if n := o.get("textures"); n != nil {
				at, f = n, o.path("textures")
			}
			return w.errAt(at, f, "shader %s needs a texture for sampler %s", name, smp)
		}
		m.Textures = append(m.Textures, Binding{smp, ti})
	}
	st := &m.State
	if err := enumField(w, o, "cull", cullNames, &st.Cull); err != nil {
		return err
	}
	for _, b := range []struct {
		key string
		dst *bool
	}{{"front_ccw", &st.FrontCCW}, {"depth_test", &st.DepthTest}, {"depth_write", &st.DepthWrite}} {
		if n := o.get(b.key); n != nil {
			if *b.dst, err = w.boolean(n, o.path(b.key)); err != nil {
				return err
			}
		}
	}
	if err := enumField(w, o, "depth_func", compareNames, &st.DepthFunc); err != nil {
		return err
	}
	if err := enumField(w, o, "blend", blendNames, &st.Blend); err != nil {
		return err
	}
	p.s.Materials = append(p.s.Materials, m)
	return nil
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// toParam widens 1 to 4 numbers to a parameter: one number is replicated, and
// missing components of 2 or 3 numbers are taken from (0, 0, 0, 1).
func toParam(v []float32) geom.Vec4 {
	switch len(v) {
	case 1:
		return geom.Vec4{v[0], v[0], v[0], v[0]}
	case 2:
		return geom.Vec4{v[0], v[1], 0, 1}
	case 3:
		return geom.Vec4{v[0], v[1], v[2], 1}
	}
	return geom.Vec4{v[0], v[1], v[2], v[3]}
}

// toColor widens 3 or 4 numbers to RGBA (alpha 1).
func toColor(v []float32) geom.Vec4 {
	if len(v) == 3 {
		return geom.Vec4{v[0], v[1], v[2], 1}
	}
	return geom.Vec4{v[0], v[1], v[2], v[3]}
}
