package state

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// StreamOutBuffer is one bound stream-out buffer of a draw.
type StreamOutBuffer struct {
	Slot       int
	Addr       uint64
	Size       uint32
	Stride     uint32
	FilledAddr uint64
	Elements   []command.StreamOutElement
	// Reset says the buffer was bound with an explicit offset since the
	// last streaming draw: the draw sets the filled-size counter to Offset
	// before writing. Otherwise it continues at the counter's value.
	Reset  bool
	Offset uint32
}

// StreamOut is the stream-out state of a draw: the bound buffers in slot
// order, whether the draw is also rasterized, and where its statistics live
// (0: not kept).
type StreamOut struct {
	Buffers   []StreamOutBuffer
	Rasterize bool
	StatsAddr uint64
}

// streamOutState is the tracker's stream-out state.
type streamOutState struct {
	bound     [command.MaxStreamOutBuffers]*command.BindStreamOut
	reset     [command.MaxStreamOutBuffers]bool
	enabled   bool
	rasterize bool
	statsAddr uint64
	// written holds the filled-size counters some streaming draw has
	// written: DrawAuto may read only those.
	written map[uint64]bool
}

func (t *Tracker) applyStreamOut(lc command.Located) (Action, error) {
	switch c := lc.Command.(type) {
	case command.BindStreamOut:
		if c.Addr == 0 {
			t.so.bound[c.Slot], t.so.reset[c.Slot] = nil, false
			break
		}
		b := c
		t.so.bound[c.Slot] = &b
		t.so.reset[c.Slot] = c.Offset != command.StreamOutAppend
	case command.SetStreamOut:
		t.so.enabled = c.Flags&command.StreamOutEnable != 0
		t.so.rasterize = c.Flags&command.StreamOutNoRasterizer == 0
		t.so.statsAddr = c.StatsAddr
	}
	return Action{}, nil
}

// streamOutDraw attaches the stream-out state to d and checks the draw's
// topology against what the pipeline can do with it.
func (t *Tracker) streamOutDraw(d *Draw) (field string, err error) {
	rasterize := true
	if t.so.enabled {
		so := &StreamOut{Rasterize: t.so.rasterize, StatsAddr: t.so.statsAddr}
		for slot, b := range t.so.bound {
			if b == nil {
				continue
			}
			so.Buffers = append(so.Buffers, StreamOutBuffer{Slot: slot, Addr: b.Addr, Size: b.Size, Stride: b.Stride,
				FilledAddr: b.FilledAddr, Elements: b.Elements, Reset: t.so.reset[slot], Offset: b.Offset})
			t.so.reset[slot] = false
			if t.so.written == nil {
				t.so.written = map[uint64]bool{}
			}
			t.so.written[b.FilledAddr] = true
		}
		if len(so.Buffers) == 0 {
			return "stream-out", fmt.Errorf("enabled with no buffer bound")
		}
		d.StreamOut = so
		rasterize = so.Rasterize
	}
	out := d.OutputPrimitive()
	if rasterize && out != shader.TopoTriangleStrip {
		return "topology", fmt.Errorf("draw %d sends %v primitives to the rasterizer, which draws triangles only (stream them out with rasterization off)",
			d.Index, out)
	}
	return "", nil
}

// OutputPrimitive returns the primitives that leave the draw's geometry
// stage, as a geometry shader output topology: the GS's, or the input
// topology's (triangles of a list or strip, with or without adjacency,
// are TopoTriangleStrip: triangles).
func (d *Draw) OutputPrimitive() shader.OutputTopology {
	if d.GS != nil {
		return d.GS.Geometry.Output
	}
	switch d.Stream.Topology {
	case command.PointList:
		return shader.TopoPoint
	case command.LineList, command.LineListAdj:
		return shader.TopoLineStrip
	}
	return shader.TopoTriangleStrip
}

// InputPrimitive returns the geometry shader input primitive of a topology.
func InputPrimitive(t command.Topology) shader.InputPrimitive {
	switch t {
	case command.PointList:
		return shader.PrimPoint
	case command.LineList:
		return shader.PrimLine
	case command.LineListAdj:
		return shader.PrimLineAdj
	case command.TriangleListAdj:
		return shader.PrimTriangleAdj
	}
	return shader.PrimTriangle
}

// The entries of Draw.GSInputs that are system values, not vertex shader
// output registers.
const (
	GSPrimitiveID = -1 // sv_primitiveid
	GSInstanceID  = -2 // sv_gsinstanceid
)

// geometryStage attaches the geometry shader gs (nil: none) to d: its input
// linkage, constants and textures.
func (t *Tracker) geometryStage(d *Draw, gs *shader.Program) error {
	if gs == nil {
		return nil
	}
	if want := InputPrimitive(d.Stream.Topology); gs.Geometry.Input != want {
		return fmt.Errorf("%s reads %v primitives, the draw's topology %v gives %v", gs.Name, gs.Geometry.Input, d.Stream.Topology, want)
	}
	if d.Decoupling.Mode != command.DecoupleOff {
		return fmt.Errorf("decoupled sampling with a geometry shader is not modelled")
	}
	d.GS = gs
	for _, in := range gs.Inputs {
		switch in.Semantic {
		case shader.SemanticPrimitiveID:
			d.GSInputs = append(d.GSInputs, GSPrimitiveID)
			continue
		case shader.SemanticGSInstanceID:
			d.GSInputs = append(d.GSInputs, GSInstanceID)
			continue
		}
		out, ok := d.VS.Output(in.Semantic)
		if !ok || out.File != shader.FileOutput {
			return fmt.Errorf("%s input v%d semantic %q: no output of vertex shader %s has this semantic", gs.Name, in.Reg, in.Semantic, d.VS.Name)
		}
		d.GSInputs = append(d.GSInputs, out.Index)
	}
	d.GSConstants = append([]geom.Vec4(nil), t.constants[command.GeometryStage][:gs.NumConstants()]...)
	d.GSTextures = t.textures[command.GeometryStage]
	return nil
}

// drawAuto turns a DrawAuto into a draw of the vertices the last stream-out
// to its counter wrote: the counter is read from memory.
func (t *Tracker) drawAuto(lc command.Located, c command.DrawAuto) (Action, error) {
	if !t.so.written[c.FilledAddr] {
		return Action{}, &Error{Addr: lc.Addr, Op: lc.Opcode(), Field: "filledAddr",
			Err: fmt.Errorf("DrawAuto (draw %d) without a preceding stream-out: no streaming draw wrote the counter at 0x%x", t.draws, c.FilledAddr)}
	}
	var b [4]byte
	t.mem.ReadAt(b[:], c.FilledAddr)
	filled := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	count := uint32(0)
	if t.layout.Stride > 0 {
		count = filled / t.layout.Stride
	}
	d, err := t.draw(lc, vertex.Stream{Start: 0, Count: count, Topology: t.topology})
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: ActDraw, Draw: d}, nil
}
