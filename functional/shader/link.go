package shader

import "fmt"

// LinkSource says where the value of a pixel-shader input comes from.
type LinkSource uint8

// The sources.
const (
	LinkVarying   LinkSource = iota // the vertex-shader output VSReg, interpolated
	LinkPosition                    // the sv_position system value
	LinkFrontFace                   // the sv_isfrontface system value
)

func (s LinkSource) String() string {
	switch s {
	case LinkVarying:
		return "varying"
	case LinkPosition:
		return SemanticPosition
	case LinkFrontFace:
		return SemanticFrontFace
	}
	return fmt.Sprintf("LinkSource(%d)", uint8(s))
}

// LinkedInput connects one pixel-shader input register to its source.
type LinkedInput struct {
	PSReg    int // pixel-shader input register vN
	Semantic string
	Source   LinkSource
	VSReg    int // LinkVarying: the vertex-shader output register oN
	Interp   Interpolation
	Centroid bool
}

// Link maps each pixel-shader input (in ps.Inputs order) to the vertex-shader
// output (or, when vs is a geometry shader, its output) with the same semantic, or to a system value. The error names the
// input whose semantic no vertex-shader output provides.
func Link(vs, ps *Program) ([]LinkedInput, error) {
	if vs == nil || ps == nil {
		return nil, fmt.Errorf("shader: link: missing program")
	}
	if vs.Stage != VertexStage && vs.Stage != GeometryStage {
		return nil, fmt.Errorf("shader: link: %s is not a vertex or geometry shader", vs.Name)
	}
	if ps.Stage != PixelStage {
		return nil, fmt.Errorf("shader: link: %s is not a pixel shader", ps.Name)
	}
	links := make([]LinkedInput, 0, len(ps.Inputs))
	for _, in := range ps.Inputs {
		l := LinkedInput{PSReg: in.Reg, Semantic: in.Semantic, Interp: in.Interp, Centroid: in.Centroid}
		switch in.Semantic {
		case SemanticPosition:
			l.Source = LinkPosition
		case SemanticFrontFace:
			l.Source = LinkFrontFace
		default:
			out, ok := vs.Output(in.Semantic)
			if !ok || out.File != FileOutput {
				return nil, fmt.Errorf("shader: link %s -> %s: pixel shader input v%d semantic %q: no vertex shader output has this semantic",
					vs.Name, ps.Name, in.Reg, in.Semantic)
			}
			l.VSReg = out.Index
		}
		links = append(links, l)
	}
	return links, nil
}
