package scene

// The scene file parser: stream-out buffers, and the objects' topology,
// stream_out, draw_auto and ping_pong keys (geometry shaders, stream-out and
// DrawAuto; see FORMAT.md).

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/names"
)

// Limits of stream-out buffers in a scene.
const (
	maxStreamBuffers    = 16
	maxStreamBufferSize = 64 << 20
	maxPingPong         = 1000
)

// Topology is how an object's mesh is drawn.
type Topology uint8

// The topologies: the mesh's triangles, its vertices as points, or its
// triangles with adjacency (each triangle with the vertex across each edge;
// a boundary edge repeats the triangle's own opposite vertex).
const (
	TopologyTriangles Topology = iota
	TopologyPoints
	TopologyTrianglesAdj
)

var topologyNames = []string{"triangles", "points", "triangles_adj"}

func (t Topology) String() string { return topologyNames[t] }

// StreamBuffer is a stream-out buffer of the scene: Size bytes in memory,
// with its filled-size counter.
type StreamBuffer struct {
	Name string
	Size uint32
}

// StreamOut is an object's stream-out: every output of its last shader
// stage before the pixel shader (o0, o1, ... 16 bytes each, Stride bytes per
// vertex) is written to Scene.StreamBuffers[Buffer] from byte Offset (or
// after what it holds, Append), and the object is rasterized only when
// Rasterize is set.
type StreamOut struct {
	Buffer    int
	Stride    uint32
	Offset    uint32
	Append    bool
	Rasterize bool
}

// streamOutput returns the number of output registers of the material's
// last stage before the pixel shader (what stream-out writes).
func streamOutputs(shaderName string) (int, error) {
	lm, err := library.Get(shaderName)
	if err != nil {
		return 0, err
	}
	if lm.GS != nil {
		return lm.GS.NumOutputRegisters(), nil
	}
	return lm.VS.NumOutputRegisters(), nil
}

// streamBuffers parses the top-level stream_buffers mapping.
func (p *parser) streamBuffers(n *yaml.Node) error {
	w := p.w
	es, err := w.entries(n, "stream_buffers")
	if err != nil {
		return err
	}
	if len(es) > maxStreamBuffers {
		return w.errAt(n, "stream_buffers", "%d buffers, at most %d", len(es), maxStreamBuffers)
	}
	for _, e := range es {
		f := "stream_buffers." + e.key
		r := p.reader(e.v, f, "size")
		if r.err == nil && r.node("size") == nil {
			return w.errAt(e.v, f, "missing size (bytes)")
		}
		size := r.int("size", 0, 16, maxStreamBufferSize)
		if r.err != nil {
			return r.err
		}
		if size%4 != 0 {
			return w.errAt(r.node("size"), f+".size", "%d bytes is not a multiple of 4", size)
		}
		p.s.StreamBuffers = append(p.s.StreamBuffers, StreamBuffer{Name: e.key, Size: uint32(size)})
	}
	return nil
}

// StreamBufferIndex returns the index of the stream buffer called name, or -1.
func (s *Scene) StreamBufferIndex(name string) int {
	return slices.IndexFunc(s.StreamBuffers, func(x StreamBuffer) bool { return x.Name == name })
}

// streamKeys are the object keys of this file.
var streamKeys = []string{"topology", "stream_out", "draw_auto", "ping_pong"}

// streamObject reads an object's topology, stream_out, draw_auto and
// ping_pong keys into tmpl and returns the objects it stands for (one, or
// the passes of a ping_pong).
func (p *parser) streamObject(o *object, field string, tmpl Object) ([]Object, error) {
	w := p.w
	mat := &p.s.Materials[tmpl.Material]
	if err := enumField(w, o, "topology", topologyNames, &tmpl.Topology); err != nil {
		return nil, err
	}
	outputs, err := streamOutputs(mat.Shader)
	if err != nil {
		return nil, w.errAt(o.get("material"), o.path("material"), "%v", err)
	}
	if n := o.get("stream_out"); n != nil {
		so, err := p.streamOut(n, o.path("stream_out"), outputs)
		if err != nil {
			return nil, err
		}
		tmpl.StreamOut = so
	}
	if n := o.get("draw_auto"); n != nil {
		name, err := w.str(n, o.path("draw_auto"))
		if err != nil {
			return nil, err
		}
		b := p.s.StreamBufferIndex(name)
		if b < 0 {
			return nil, w.errAt(n, o.path("draw_auto"), "unknown stream buffer %s", inputs.Quote(name))
		}
		if !p.streamed[b] {
			return nil, w.errAt(n, o.path("draw_auto"), "DrawAuto from %s without a preceding stream-out: no earlier object streams out to it", inputs.Quote(name))
		}
		if tmpl.Topology != TopologyPoints {
			return nil, w.errAt(n, o.path("draw_auto"), "draw_auto draws points (topology: points), not %v", tmpl.Topology)
		}
		tmpl.DrawAuto = b + 1
		if tmpl.StreamOut != nil && tmpl.StreamOut.Buffer == b && o.get("ping_pong") == nil {
			return nil, w.errAt(n, o.path("draw_auto"), "draw_auto reads %s, which this object's stream_out writes: a buffer is not "+
				"both a draw's input and its stream-out target (Direct3D 11 unbinds it); stream out to another buffer, or use ping_pong",
				inputs.Quote(name))
		}
	}
	if tmpl.StreamOut != nil {
		p.streamed[tmpl.StreamOut.Buffer] = true
	}
	if tmpl.Topology != TopologyTriangles && mat.GeometryShader() == "" && (tmpl.StreamOut == nil || tmpl.StreamOut.Rasterize) {
		return nil, w.errAt(o.get("topology"), o.path("topology"), "%v need a geometry shader material or stream_out with rasterize: false (the rasterizer draws triangles)", tmpl.Topology)
	}
	if g := mat.GeometryShader(); g != "" {
		lm, _ := library.Get(mat.Shader)
		want := map[Topology]string{TopologyTriangles: "triangle", TopologyPoints: "point", TopologyTrianglesAdj: "triangle_adj"}[tmpl.Topology]
		if lm.GS.Geometry.Input.String() != want {
			return nil, w.errAt(o.get("material"), o.path("material"), "material %s's geometry shader reads %v primitives; set topology to match (this object draws %v)",
				inputs.Quote(mat.Name), lm.GS.Geometry.Input, tmpl.Topology)
		}
	}
	n := o.get("ping_pong")
	if n == nil {
		return []Object{tmpl}, nil
	}
	if tmpl.DrawAuto == 0 || tmpl.StreamOut == nil || tmpl.StreamOut.Buffer == tmpl.DrawAuto-1 {
		return nil, w.errAt(n, o.path("ping_pong"), "ping_pong needs draw_auto from one buffer and stream_out to another")
	}
	r := p.reader(n, o.path("ping_pong"), "count", "per_frame")
	count := r.int("count", 1, 0, maxPingPong)
	perFrame := r.int("per_frame", 0, 0, maxPingPong)
	if r.err != nil {
		return nil, r.err
	}
	rounds := count + perFrame*w.frame
	if rounds > maxPingPong {
		return nil, w.errAt(n, o.path("ping_pong"), "%d rounds at frame %d, at most %d", rounds, w.frame, maxPingPong)
	}
	a, b := tmpl.DrawAuto-1, tmpl.StreamOut.Buffer
	var out []Object
	for i := 0; i < rounds; i++ {
		for k, pair := range [2][2]int{{a, b}, {b, a}} {
			x := tmpl
			so := *tmpl.StreamOut
			so.Buffer, so.Offset, so.Append = pair[1], 0, false
			x.StreamOut, x.DrawAuto = &so, pair[0]+1
			x.Name = fmt.Sprintf("%s[%d]", tmpl.Name, 2*i+k)
			out = append(out, x)
		}
	}
	p.streamed[a] = true
	return out, nil
}

// streamOut parses an object's stream_out mapping.
func (p *parser) streamOut(n *yaml.Node, field string, outputs int) (*StreamOut, error) {
	w := p.w
	r := p.reader(n, field, "buffer", "stride", "offset", "rasterize")
	if r.err != nil {
		return nil, r.err
	}
	bn := r.node("buffer")
	if bn == nil {
		return nil, w.errAt(n, field, "missing buffer (a stream_buffers name)")
	}
	name, err := w.str(bn, field+".buffer")
	if err != nil {
		return nil, err
	}
	so := &StreamOut{Buffer: p.s.StreamBufferIndex(name)}
	if so.Buffer < 0 {
		return nil, w.errAt(bn, field+".buffer", "unknown stream buffer %s", inputs.Quote(name))
	}
	size := p.s.StreamBuffers[so.Buffer].Size
	so.Stride = uint32(r.int("stride", 16*outputs, 4, 2048))
	if r.err == nil && (so.Stride%4 != 0 || so.Stride < uint32(16*outputs)) {
		return nil, w.errAt(r.node("stride"), field+".stride", "%d bytes does not fit the %d outputs of the material's last stage (%d bytes; a multiple of 4)",
			so.Stride, outputs, 16*outputs)
	}
	if on := r.node("offset"); on != nil && on.Kind == yaml.ScalarNode && on.Value == "append" {
		so.Append = true
	} else {
		so.Offset = uint32(r.int("offset", 0, 0, maxStreamBufferSize))
		if r.err == nil && (so.Offset%4 != 0 || so.Offset > size) {
			return nil, w.errAt(r.node("offset"), field+".offset", "byte %d does not fit buffer %s of %d bytes (a multiple of 4, at most its size, or append)",
				so.Offset, inputs.Quote(name), size)
		}
	}
	so.Rasterize = true
	if rn := r.node("rasterize"); rn != nil && r.err == nil {
		if so.Rasterize, err = w.boolean(rn, field+".rasterize"); err != nil {
			return nil, err
		}
	}
	return so, r.err
}

// geometryObject parses an object with any of the keys of this file: a
// static object (no motion, repeat or animation) that draws a mesh, or with
// draw_auto what a stream-out wrote.
func (p *parser) geometryObject(n *yaml.Node, o *object, field string) error {
	w := p.w
	for _, k := range []string{"motion", "repeat", "animation"} {
		if o.get(k) != nil {
			return w.errAt(o.get(k), o.path(k), "%s is not allowed with %v", k, streamKeys)
		}
	}
	ma, matNode, err := p.requiredMaterial(n, o, field)
	if err != nil {
		return err
	}
	obj := Object{Mesh: -1, Material: ma}
	mn := o.get("mesh")
	switch {
	case mn != nil && o.get("draw_auto") != nil:
		return w.errAt(mn, o.path("mesh"), "an object draws a mesh or draw_auto, not both")
	case mn != nil:
		meshName, err := w.str(mn, o.path("mesh"))
		if err != nil {
			return err
		}
		if obj.Mesh = p.s.MeshIndex(meshName); obj.Mesh < 0 || p.b.isPart(obj.Mesh) {
			return w.errAt(mn, o.path("mesh"), "unknown mesh %s%s", inputs.Quote(meshName), names.DidYouMean(meshName, p.meshNames()))
		}
		if err := needsTexCoords(&p.s.Materials[ma], p.s.Meshes[obj.Mesh]); err != nil {
			return w.errAt(matNode, o.path("material"), "%v", err)
		}
		obj.Name = meshName
	case o.get("draw_auto") == nil:
		return w.errAt(n, field, "missing mesh (or draw_auto)")
	default:
		obj.Name = "draw_auto"
	}
	if nn := o.get("name"); nn != nil {
		if obj.Name, err = w.str(nn, o.path("name")); err != nil {
			return err
		}
	}
	t := identityTRS
	if tn := o.get("transform"); tn != nil {
		if t, err = p.trs(tn, o.path("transform"), identityTRS); err != nil {
			return err
		}
	}
	obj.Transform = t.matrix()
	obj.EndTransform = obj.Transform
	objs, err := p.streamObject(o, field, obj)
	if err != nil {
		return err
	}
	if len(p.s.Objects)+len(objs) > maxInstances {
		return w.errAt(n, field, "more than %d objects in the scene", maxInstances)
	}
	p.s.Objects = append(p.s.Objects, objs...)
	return nil
}

// NeedsGeometryStage reports whether the scene draws with a geometry
// shader, stream-out, DrawAuto or a topology other than triangles.
func (s *Scene) NeedsGeometryStage() bool {
	for i := range s.Objects {
		o := &s.Objects[i]
		if o.Topology != TopologyTriangles || o.StreamOut != nil || o.DrawAuto != 0 || s.Materials[o.Material].GeometryShader() != "" {
			return true
		}
	}
	return false
}
