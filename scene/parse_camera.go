package scene

// The scene file parser, camera and lights: the camera (lens, shutter, end
// pose) and the lights of a scene file.

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func (p *parser) camera(n *yaml.Node) error {
	c := Camera{
		Position: geom.Vec3{0, 0, 5}, Up: geom.Vec3{0, 1, 0},
		FovYDegrees: 60, Near: 0.1, Far: 100, ShutterClose: 1,
	}
	field := "camera"
	if n != nil && !isNull(n) { // "camera:" alone: the default camera, as when absent
		r := p.reader(n, field, "position", "target", "up", "position_end", "target_end", "up_end",
			"fov_y", "near", "far", "aperture", "focus_distance", "shutter")
		c.Position = r.vec3("position", c.Position, false)
		c.Target = r.vec3("target", c.Target, false)
		c.Up = r.vec3("up", c.Up, false)
		c.PositionEnd = r.vec3("position_end", c.Position, false)
		c.TargetEnd = r.vec3("target_end", c.Target, false)
		c.UpEnd = r.vec3("up_end", c.Up, false)
		c.FovYDegrees = r.float("fov_y", c.FovYDegrees, 1e-3, 179.9)
		c.Near = r.float("near", c.Near, 1e-6, 1e30)
		c.Far = r.float("far", c.Far, 1e-6, 1e30)
		c.Aperture = r.float("aperture", 0, 0, 1e30)
		c.FocusDistance = r.float("focus_distance", 0, 1e-6, 1e30)
		sh := r.floats("shutter", []float32{0, 1}, 2, 2)
		if r.err != nil {
			return r.err
		}
		c.ShutterOpen, c.ShutterClose = sh[0], sh[1]
		o := r.o
		at := func(key string) *yaml.Node {
			if v := o.get(key); v != nil {
				return v
			}
			return n
		}
		if !(c.Far > c.Near) {
			return p.w.errAt(at("far"), o.path("far"), "%v must be greater than near %v", c.Far, c.Near)
		}
		if !(c.ShutterOpen >= 0 && c.ShutterOpen <= c.ShutterClose && c.ShutterClose <= 1) {
			return p.w.errAt(at("shutter"), o.path("shutter"), "[%v, %v]: want 0 <= open <= close <= 1", c.ShutterOpen, c.ShutterClose)
		}
		dir := c.Target.Sub(c.Position)
		if dir.Length() == 0 {
			return p.w.errAt(at("target"), o.path("target"), "equals the camera position %v", c.Position)
		}
		if !geom.AllFinite(dir[:]...) {
			return p.w.errAt(at("target"), o.path("target"), "%v is too far from the camera position %v: their difference overflows a 32-bit float", c.Target, c.Position)
		}
		if dir.Normalize().Cross(c.Up.Normalize()).Length() < 1e-4 {
			return p.w.errAt(at("up"), o.path("up"), "%v is parallel to the view direction %v", c.Up, dir)
		}
		if c.FocusDistance == 0 {
			c.FocusDistance = c.Target.Sub(c.Position).Length()
		}
		if err := p.cameraMotion(&c, o, at); err != nil {
			return err
		}
		p.s.Camera = c
		// At the resolution the scene will have: a resolution option
		// (render -width, -height) overrides the file's.
		w, h := p.s.Width, p.s.Height
		if p.opt.width > 0 && p.opt.height > 0 {
			p.s.Width, p.s.Height = p.opt.width, p.opt.height
		}
		err := p.s.checkLens()
		p.s.Width, p.s.Height = w, h
		if err != nil {
			return p.w.errAt(at("aperture"), o.path("aperture"), "%v", err)
		}
	}
	if c.FocusDistance == 0 {
		c.FocusDistance = c.Target.Sub(c.Position).Length()
	}
	p.s.Camera = c
	return nil
}

// cameraMotion checks the end pose (position_end, target_end, up_end: the
// pose at frame time 1) and replaces the two poses by those at shutter open
// and close, linearly interpolated as object poses are.
func (p *parser) cameraMotion(c *Camera, o *object, at func(string) *yaml.Node) error {
	if o.get("position_end") == nil && o.get("target_end") == nil && o.get("up_end") == nil {
		return nil
	}
	dir := c.TargetEnd.Sub(c.PositionEnd)
	if dir.Length() == 0 {
		return p.w.errAt(at("target_end"), o.path("target_end"), "equals position_end %v", c.PositionEnd)
	}
	if !geom.AllFinite(dir[:]...) {
		return p.w.errAt(at("target_end"), o.path("target_end"), "%v is too far from position_end %v: their difference overflows a 32-bit float", c.TargetEnd, c.PositionEnd)
	}
	if dir.Normalize().Cross(c.UpEnd.Normalize()).Length() < 1e-4 {
		return p.w.errAt(at("up_end"), o.path("up_end"), "%v is parallel to the view direction at frame time 1 %v", c.UpEnd, dir)
	}
	p0, t0, u0 := c.Position, c.Target, c.Up
	c.Position, c.PositionEnd = lerp3(p0, c.PositionEnd, c.ShutterOpen), lerp3(p0, c.PositionEnd, c.ShutterClose)
	c.Target, c.TargetEnd = lerp3(t0, c.TargetEnd, c.ShutterOpen), lerp3(t0, c.TargetEnd, c.ShutterClose)
	c.Up, c.UpEnd = lerp3(u0, c.UpEnd, c.ShutterOpen), lerp3(u0, c.UpEnd, c.ShutterClose)
	c.Moving = c.Position != c.PositionEnd || c.Target != c.TargetEnd || c.Up != c.UpEnd
	if err := c.validate(); err != nil {
		return p.w.errAt(o.node, o.field, "over the shutter: %v", err)
	}
	return nil
}

// lerp3 returns (1-u)*a + u*b, exactly a at u = 0 and b at u = 1.
func lerp3(a, b geom.Vec3, u float32) geom.Vec3 {
	switch {
	case u == 0 || a == b:
		return a
	case u == 1:
		return b
	}
	return geom.Vec3{(1-u)*a[0] + u*b[0], (1-u)*a[1] + u*b[1], (1-u)*a[2] + u*b[2]}
}

func (p *parser) lights(n *yaml.Node) error {
	items, err := p.w.list(n, "lights")
	if err != nil {
		return err
	}
	if len(items) > MaxLights {
		return p.w.errAt(n, "lights", "%d lights, at most %d", len(items), MaxLights)
	}
	for i, it := range items {
		field := fmt.Sprintf("lights[%d]", i)
		r := p.reader(it, field, "type", "position", "direction", "color", "intensity")
		if r.err != nil {
			return r.err
		}
		tn := r.o.get("type")
		if tn == nil {
			return p.w.errAt(it, field, "missing type (point or directional)")
		}
		kind, err := p.w.enum(tn, r.o.path("type"), []string{"point", "directional"})
		if err != nil {
			return err
		}
		l := Light{Kind: LightKind(kind)}
		if l.Kind == PointLight {
			if r.o.get("direction") != nil {
				return p.w.errAt(r.o.get("direction"), r.o.path("direction"), "a point light has a position, not a direction")
			}
			if r.o.get("position") == nil {
				return p.w.errAt(it, field, "missing position")
			}
			l.Position = r.vec3("position", geom.Vec3{}, false)
		} else {
			if r.o.get("position") != nil {
				return p.w.errAt(r.o.get("position"), r.o.path("position"), "a directional light has a direction, not a position")
			}
			dn := r.o.get("direction")
			if dn == nil {
				return p.w.errAt(it, field, "missing direction")
			}
			d := r.vec3("direction", geom.Vec3{}, false)
			if r.err == nil && d.Length() == 0 {
				return p.w.errAt(dn, r.o.path("direction"), "zero vector")
			}
			l.Direction = d.Normalize()
		}
		col := r.vec3("color", geom.Vec3{1, 1, 1}, false)
		l.Color = col.Scale(r.float("intensity", 1, 0, 1e30))
		if r.err != nil {
			return r.err
		}
		p.s.Lights = append(p.s.Lights, l)
	}
	return nil
}

// checkFrames runs the checks that join several keyframed values (the
// camera's pose and lens, a light's direction) at every frame of an animated
// scene besides the one being loaded, so that a frame that breaks them is
// refused whichever frame loads, before anything is simulated; the error
// says at which frame. Other keyframed values are checked key by key.
func (p *parser) checkFrames(top *object) error {
	s, w := p.s, p.w
	cam, lights := top.get("camera"), top.get("lights")
	if s.Frames == 1 || !keyframed(cam) && !keyframed(lights) {
		return nil
	}
	camera, lit, frame, visits := s.Camera, s.Lights, w.frame, w.visits
	defer func() { s.Camera, s.Lights, w.frame, w.visits = camera, lit, frame, visits }()
	walked := 0 // nodes walked by the frames' checks
	for f := range s.Frames {
		if f == frame {
			continue
		}
		w.frame, s.Lights, w.visits = f, nil, visits // a frame walks the nodes the loaded frame walked
		err := p.camera(cam)
		if err == nil && lights != nil {
			err = p.lights(lights)
		}
		if walked += w.visits - visits; err == nil && walked > maxFrameCheckVisits {
			return w.errAt(top.get("frames"), "frames", "%d frames: checking the keyframed camera and lights at every frame "+
				"walks more than %d YAML nodes", s.Frames, maxFrameCheckVisits)
		}
		if e, ok := err.(*Error); ok {
			e.Msg = fmt.Sprintf("at frame %d: %s", f, e.Msg)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// maxFrameCheckVisits bounds the work of checkFrames (a few seconds).
const maxFrameCheckVisits = 1 << 26

// keyframed reports whether YAML node n holds a keyframed value (a mapping
// with frames and values) anywhere.
func keyframed(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.MappingNode {
		keys := 0
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i].Value; k == "frames" || k == "values" {
				keys++
			}
		}
		if keys == 2 {
			return true
		}
	}
	for _, c := range n.Content {
		if keyframed(c) {
			return true
		}
	}
	return false
}
