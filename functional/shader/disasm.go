package shader

import (
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
)

const componentLetters = "xyzw"

// Disassemble returns the text form of the program. Assembling it gives back
// the program (with Line fields numbering the lines of this text).
func (p *Program) Disassemble() string {
	var b strings.Builder
	b.WriteString("." + p.Stage.String() + "\n")
	if p.Stage == GeometryStage {
		g := p.Geometry
		b.WriteString(".input_primitive " + g.Input.String() + "\n.output_topology " + g.Output.String() +
			"\n.max_vertices " + strconv.Itoa(g.MaxVertices) + "\n")
		if g.Instances > 0 {
			b.WriteString(".instances " + strconv.Itoa(g.Instances) + "\n")
		}
	}
	for _, d := range p.Inputs {
		b.WriteString(".input v" + strconv.Itoa(d.Reg) + " " + d.Semantic)
		if p.Stage == GeometryStage && !d.IsSystemValue() {
			b.WriteString(" " + strconv.Itoa(d.Vertex))
		}
		if p.Stage == PixelStage && !d.IsSystemValue() {
			b.WriteString(" " + d.Interp.String())
			if d.Centroid {
				b.WriteString(" centroid")
			}
		}
		b.WriteByte('\n')
	}
	for _, d := range p.Outputs {
		b.WriteString(".output " + regName(d.File, d.Index) + " " + d.Semantic + "\n")
	}
	for _, c := range p.Consts {
		b.WriteString(".const c" + strconv.Itoa(c.Reg) + " " + c.Name + " " + strconv.Itoa(c.Count) + "\n")
	}
	for _, c := range p.Params {
		b.WriteString(".param c" + strconv.Itoa(c.Reg) + " " + c.Name + formatVec(c.Default) + "\n")
	}
	for _, c := range p.Defs {
		b.WriteString(".def c" + strconv.Itoa(c.Reg) + formatVec(c.Value) + "\n")
	}
	for _, s := range p.Samplers {
		b.WriteString(".sampler s" + strconv.Itoa(s.Unit) + " " + s.Name)
		if s.Type != Sampler2D {
			b.WriteString(" " + s.Type.String())
		}
		b.WriteByte('\n')
	}
	for i := range p.Code {
		b.WriteString(p.Code[i].String())
		b.WriteByte('\n')
	}
	return b.String()
}

func formatVec(v geom.Vec4) string {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(" " + strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	return b.String()
}

// String returns the instruction in assembler syntax.
func (in *Instr) String() string {
	var b strings.Builder
	b.WriteString(in.Op.String())
	if in.Sat {
		b.WriteString("_sat")
	}
	sep := " "
	if in.Op.HasDest() {
		b.WriteString(sep + regName(in.Dst.File, in.Dst.Index))
		if in.Dst.Mask != MaskXYZW && in.Dst.File != FileDepth {
			b.WriteByte('.')
			for c := 0; c < 4; c++ {
				if in.Dst.Mask&(1<<c) != 0 {
					b.WriteByte(componentLetters[c])
				}
			}
		}
		sep = ", "
	}
	for s := 0; s < in.Op.NumSources(); s++ {
		src := &in.Src[s]
		b.WriteString(sep)
		sep = ", "
		if src.Neg {
			b.WriteByte('-')
		}
		if src.Abs {
			b.WriteByte('|')
		}
		b.WriteString(regName(src.File, src.Index))
		if src.Swizzle != IdentitySwizzle {
			// The shortest form: trailing repeats of the last letter are implied.
			n := 4
			for n > 1 && src.Swizzle[n-1] == src.Swizzle[n-2] {
				n--
			}
			b.WriteByte('.')
			for c := 0; c < n; c++ {
				b.WriteByte(componentLetters[src.Swizzle[c]&3])
			}
		}
		if src.Abs {
			b.WriteByte('|')
		}
	}
	if in.Op.UsesSampler() {
		b.WriteString(sep + "s" + strconv.Itoa(in.Sampler))
	}
	return b.String()
}
