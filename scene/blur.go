package scene

import (
	"gopkg.in/yaml.v3"
)

// sceneBlur reads the top-level frames, blur and decoupled fields and checks
// the frame being loaded against frames.
func (p *parser) sceneBlur(root *yaml.Node, top *object) error {
	w, s := p.w, p.s
	s.Frames, s.Frame, s.Blur = 1, p.opt.frame, 1
	if n := top.get("frames"); n != nil {
		v, err := w.integer(n, "frames", 1, maxFrames)
		if err != nil {
			return err
		}
		s.Frames = int(v)
	}
	if s.Frame >= s.Frames {
		at := top.get("frames")
		if at == nil {
			return w.errAt(root, "frames", "frame %d asked for, but the scene is not animated (no frames field: frame 0 only)", s.Frame)
		}
		return w.errAt(at, "frames", "frame %d out of range [0, %d]", s.Frame, s.Frames-1)
	}
	if n := top.get("blur"); n != nil {
		v, err := w.float(n, "blur", 0, 1e6)
		if err != nil {
			return err
		}
		s.Blur = v
	}
	p.decoupled = DefaultDecoupling()
	if n := top.get("decoupled"); n != nil {
		d, err := p.decoupling(n, "decoupled", p.decoupled)
		if err != nil {
			return err
		}
		p.decoupled = d
	}
	p.b.decoupled = p.decoupled
	return nil
}

// decoupling reads a `decoupled` mapping; keys not given keep def's values.
func (p *parser) decoupling(n *yaml.Node, field string, def Decoupling) (Decoupling, error) {
	w := p.w
	o, err := w.object(n, field, "mode", "rate", "adaptive", "bilinear")
	if err != nil {
		return def, err
	}
	d := def
	if mn := o.get("mode"); mn != nil {
		v, err := w.enum(mn, o.path("mode"), decoupleNames)
		if err != nil {
			return def, err
		}
		d.Mode = DecoupleMode(v)
	}
	if rn := o.get("rate"); rn != nil {
		v, err := w.float(rn, o.path("rate"), -1e30, 1e30)
		if err != nil {
			return def, err
		}
		if !decoupleRateOK(v) {
			return def, w.errAt(rn, o.path("rate"), "%v out of range %s", v, decoupleRateWant)
		}
		d.Rate = v
	}
	for _, b := range []struct {
		key string
		dst *bool
	}{{"adaptive", &d.Adaptive}, {"bilinear", &d.Bilinear}} {
		if bn := o.get(b.key); bn != nil {
			if *b.dst, err = w.boolean(bn, o.path(b.key)); err != nil {
				return def, err
			}
		}
	}
	return d, nil
}

// Blurred reports whether the scene shows lens or motion blur: a lens with a
// radius, or a moving camera or object, at a blur scale above 0.
func (s *Scene) Blurred() bool {
	if s.Blur <= 0 {
		return false
	}
	if s.LensRadius() > 0 || s.Camera.Moving {
		return true
	}
	for i := range s.Objects {
		if s.Objects[i].Moving {
			return true
		}
	}
	return false
}
