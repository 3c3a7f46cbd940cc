package shader

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// The binary form (little-endian), as stored in simulated memory:
//
//	header   magic "GSHD", version u16 (= 4), stage u8 (0 vs, 1 ps, 2 gs), reserved u8 (= 0)
//	name     u16 length + bytes
//	geometry input primitive u8, output topology u8, max vertices u16, instances u8 (all 0 but in a gs)
//	inputs   u8 count, each: reg u8, semantic str8, interp u8, centroid u8 (0/1), vertex u8
//	outputs  u8 count, each: file u8, index u8, semantic str8
//	consts   u16 count, each: reg u8, count u16, name str8
//	params   u16 count, each: reg u8, name str8, default 4 x f32
//	defs     u16 count, each: reg u8, value 4 x f32
//	samplers u8 count, each: unit u8, name str8, type u8 (SamplerType)
//	code     u32 count, each InstrSize bytes:
//	           op u8, flags u8 (bit 0 saturate), dst file u8, dst index u8,
//	           dst mask u8, sampler u8, texcoords u8 (Instr.TexCoords), reserved u8 (= 0),
//	           3 sources x (file u8, index u8, swizzle u8 (2 bits per
//	           component, x in bits 0-1), modifiers u8 (bit 0 negate, bit 1 abs)),
//	           line u32 (debug information)
//
// str8 is a u8 length followed by the bytes. Nothing may follow the code.
//
// Version 1 (before sampler types) is still read: its samplers have no type
// byte (they are 2D) and the texcoords byte is part of a reserved u16 (= 0).
// Version 2 (before geometry shaders) has no geometry field and its inputs no
// vertex byte: Encode writes it for vertex and pixel programs (so their
// binaries, and every address after them in a frame's memory image, are
// what they were before geometry shaders) and version 3 for geometry
// programs; both are read. Version 3 (before geometry shader instancing) has
// no instances byte: Encode writes it for geometry programs that declare no
// .instances, and version 4 for those that do.
const (
	binaryMagic   = "GSHD"
	binaryVersion = 4
	// InstrSize is the size in bytes of one encoded instruction: a 20-byte
	// instruction word and a 4-byte source line.
	InstrSize = 24
)

const maxName = 255 // longest semantic, constant, parameter or sampler name

// Encode returns the binary form of a valid program. Decode(p.Encode())
// returns a program equal to p.
func (p *Program) Encode() []byte {
	b := make([]byte, 0, 64+len(p.Name)+len(p.Code)*InstrSize)
	b = append(b, binaryMagic...)
	geometry := p.Stage == GeometryStage
	version := uint16(2)
	switch {
	case geometry && p.Geometry.Instances > 0:
		version = binaryVersion
	case geometry:
		version = 3
	}
	b = binary.LittleEndian.AppendUint16(b, version)
	b = append(b, byte(p.Stage), 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(p.Name)))
	b = append(b, p.Name...)
	if geometry {
		b = append(b, byte(p.Geometry.Input), byte(p.Geometry.Output))
		b = binary.LittleEndian.AppendUint16(b, uint16(p.Geometry.MaxVertices))
		if version >= 4 {
			b = append(b, byte(p.Geometry.Instances))
		}
	}
	str8 := func(b []byte, s string) []byte {
		b = append(b, byte(len(s)))
		return append(b, s...)
	}
	vec := func(b []byte, v geom.Vec4) []byte {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	b = append(b, byte(len(p.Inputs)))
	for _, d := range p.Inputs {
		b = append(b, byte(d.Reg))
		b = str8(b, d.Semantic)
		b = append(b, byte(d.Interp), boolByte(d.Centroid))
		if geometry {
			b = append(b, byte(d.Vertex))
		}
	}
	b = append(b, byte(len(p.Outputs)))
	for _, d := range p.Outputs {
		b = append(b, byte(d.File), byte(d.Index))
		b = str8(b, d.Semantic)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(p.Consts)))
	for _, c := range p.Consts {
		b = append(b, byte(c.Reg))
		b = binary.LittleEndian.AppendUint16(b, uint16(c.Count))
		b = str8(b, c.Name)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(p.Params)))
	for _, c := range p.Params {
		b = append(b, byte(c.Reg))
		b = str8(b, c.Name)
		b = vec(b, c.Default)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(p.Defs)))
	for _, c := range p.Defs {
		b = append(b, byte(c.Reg))
		b = vec(b, c.Value)
	}
	b = append(b, byte(len(p.Samplers)))
	for _, s := range p.Samplers {
		b = append(b, byte(s.Unit))
		b = str8(b, s.Name)
		b = append(b, byte(s.Type))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.Code)))
	for i := range p.Code {
		in := &p.Code[i]
		var flags byte
		if in.Sat {
			flags = 1
		}
		b = append(b, byte(in.Op), flags, byte(in.Dst.File), byte(in.Dst.Index), in.Dst.Mask, byte(in.Sampler),
			byte(in.TexCoords), 0)
		for s := range in.Src {
			src := &in.Src[s]
			sw := src.Swizzle[0]&3 | (src.Swizzle[1]&3)<<2 | (src.Swizzle[2]&3)<<4 | (src.Swizzle[3]&3)<<6
			var mods byte
			if src.Neg {
				mods |= 1
			}
			if src.Abs {
				mods |= 2
			}
			b = append(b, byte(src.File), byte(src.Index), sw, mods)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(in.Line))
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// DecodeError is an error in a binary program: the byte offset and the field.
type DecodeError struct {
	Offset int
	Field  string
	Msg    string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("shader binary: offset %d: %s: %s", e.Offset, e.Field, e.Msg)
}

type decoder struct {
	b   []byte
	off int
	err *DecodeError
}

func (d *decoder) fail(off int, field, format string, args ...any) {
	if d.err == nil {
		d.err = &DecodeError{Offset: off, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) need(n int, field string) bool {
	if d.err != nil {
		return false
	}
	if len(d.b)-d.off < n {
		d.fail(d.off, field, "truncated: need %d bytes, have %d", n, len(d.b)-d.off)
		return false
	}
	return true
}

func (d *decoder) u8(field string) byte {
	if !d.need(1, field) {
		return 0
	}
	v := d.b[d.off]
	d.off++
	return v
}

func (d *decoder) u16(field string) int {
	if !d.need(2, field) {
		return 0
	}
	v := binary.LittleEndian.Uint16(d.b[d.off:])
	d.off += 2
	return int(v)
}

func (d *decoder) u32(field string) uint32 {
	if !d.need(4, field) {
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b[d.off:])
	d.off += 4
	return v
}

func (d *decoder) str(n int, field string) string {
	if !d.need(n, field) {
		return ""
	}
	s := string(d.b[d.off : d.off+n])
	d.off += n
	return s
}

func (d *decoder) str8(field string) string {
	n := int(d.u8(field + ".length"))
	return d.str(n, field)
}

func (d *decoder) vec(field string) geom.Vec4 {
	var v geom.Vec4
	for i := range v {
		v[i] = math.Float32frombits(d.u32(fmt.Sprintf("%s[%d]", field, i)))
	}
	return v
}

func (d *decoder) flag(field string) bool {
	off := d.off
	v := d.u8(field)
	if v > 1 {
		d.fail(off, field, "boolean is %d, want 0 or 1", v)
	}
	return v == 1
}

// decls reads the n declarations of section name (none when reading the
// count failed), recording each one's offset in declOff; read decodes one
// from its field prefix ("inputs[2]").
func decls[T any](d *decoder, declOff map[string][]int, name string, n int, read func(f string) T) []T {
	if d.err != nil {
		return nil
	}
	var out []T
	for i := 0; i < n && d.err == nil; i++ {
		declOff[name] = append(declOff[name], d.off)
		out = append(out, read(fmt.Sprintf("%s[%d]", name, i)))
	}
	return out
}

// Decode parses the binary form and validates the program. Errors are
// *DecodeError values naming the byte offset and the field.
func Decode(b []byte) (*Program, error) {
	d := &decoder{b: b}
	p := &Program{}
	if magic := d.str(4, "header.magic"); d.err == nil && magic != binaryMagic {
		d.fail(0, "header.magic", "bad magic %q, want %q", magic, binaryMagic)
	}
	version := d.u16("header.version")
	if d.err == nil && (version < 1 || version > binaryVersion) {
		d.fail(4, "header.version", "unsupported version %d, want 1 to %d", version, binaryVersion)
	}
	p.Stage = Stage(d.u8("header.stage"))
	if r := d.u8("header.reserved"); d.err == nil && r != 0 {
		d.fail(7, "header.reserved", "reserved byte is %d, want 0", r)
	}
	p.Name = d.str(d.u16("name.length"), "name")
	if version >= 3 {
		p.Geometry.Input = InputPrimitive(d.u8("geometry.input"))
		p.Geometry.Output = OutputTopology(d.u8("geometry.output"))
		p.Geometry.MaxVertices = d.u16("geometry.maxVertices")
	}
	if version >= 4 {
		p.Geometry.Instances = int(d.u8("geometry.instances"))
	}

	// Byte offsets of every declaration and instruction, to place validation errors.
	declOff := map[string][]int{}
	p.Inputs = decls(d, declOff, "inputs", int(d.u8("inputs.count")), func(f string) (in InputDecl) {
		in.Reg = int(d.u8(f + ".reg"))
		in.Semantic = d.str8(f + ".semantic")
		in.Interp = Interpolation(d.u8(f + ".interp"))
		in.Centroid = d.flag(f + ".centroid")
		if version >= 3 {
			in.Vertex = int(d.u8(f + ".vertex"))
		}
		return in
	})
	p.Outputs = decls(d, declOff, "outputs", int(d.u8("outputs.count")), func(f string) (out OutputDecl) {
		out.File = RegFile(d.u8(f + ".file"))
		out.Index = int(d.u8(f + ".index"))
		out.Semantic = d.str8(f + ".semantic")
		return out
	})
	p.Consts = decls(d, declOff, "consts", d.u16("consts.count"), func(f string) (c ConstDecl) {
		c.Reg = int(d.u8(f + ".reg"))
		c.Count = d.u16(f + ".count")
		c.Name = d.str8(f + ".name")
		return c
	})
	p.Params = decls(d, declOff, "params", d.u16("params.count"), func(f string) (c ParamDecl) {
		c.Reg = int(d.u8(f + ".reg"))
		c.Name = d.str8(f + ".name")
		c.Default = d.vec(f + ".default")
		return c
	})
	p.Defs = decls(d, declOff, "defs", d.u16("defs.count"), func(f string) (c DefDecl) {
		c.Reg = int(d.u8(f + ".reg"))
		c.Value = d.vec(f + ".value")
		return c
	})
	p.Samplers = decls(d, declOff, "samplers", int(d.u8("samplers.count")), func(f string) (s SamplerDecl) {
		s.Unit = int(d.u8(f + ".unit"))
		s.Name = d.str8(f + ".name")
		if version >= 2 {
			s.Type = SamplerType(d.u8(f + ".type"))
		}
		return s
	})
	codeOff := d.off
	n := d.u32("code.count")
	if d.err == nil && uint64(n)*InstrSize > uint64(len(b)-d.off) {
		d.fail(codeOff, "code.count", "%d instructions need %d bytes, have %d", n, uint64(n)*InstrSize, len(b)-d.off)
	}
	if d.err == nil && n > 0 {
		p.Code = make([]Instr, n)
	}
	codeOff = d.off
	for i := 0; d.err == nil && i < len(p.Code); i++ {
		in := &p.Code[i]
		f := fmt.Sprintf("code[%d]", i)
		in.Op = Opcode(d.u8(f + ".op"))
		off := d.off
		flags := d.u8(f + ".flags")
		if flags&^1 != 0 {
			d.fail(off, f+".flags", "undefined flag bits %#x", flags)
		}
		in.Sat = flags&1 != 0
		in.Dst.File = RegFile(d.u8(f + ".dst.file"))
		in.Dst.Index = int(d.u8(f + ".dst.index"))
		in.Dst.Mask = d.u8(f + ".dst.mask")
		in.Sampler = int(d.u8(f + ".sampler"))
		off = d.off
		if version >= 2 {
			in.TexCoords = int(d.u8(f + ".texcoords"))
			off = d.off
			if r := d.u8(f + ".reserved"); r != 0 {
				d.fail(off, f+".reserved", "reserved field is %d, want 0", r)
			}
		} else if r := d.u16(f + ".reserved"); r != 0 {
			d.fail(off, f+".reserved", "reserved field is %d, want 0", r)
		}
		for s := range in.Src {
			sf := fmt.Sprintf("%s.src[%d]", f, s)
			src := &in.Src[s]
			src.File = RegFile(d.u8(sf + ".file"))
			src.Index = int(d.u8(sf + ".index"))
			sw := d.u8(sf + ".swizzle")
			src.Swizzle = [4]uint8{sw & 3, sw >> 2 & 3, sw >> 4 & 3, sw >> 6 & 3}
			off = d.off
			mods := d.u8(sf + ".modifiers")
			if mods&^3 != 0 {
				d.fail(off, sf+".modifiers", "undefined modifier bits %#x", mods)
			}
			src.Neg, src.Abs = mods&1 != 0, mods&2 != 0
		}
		off = d.off
		line := d.u32(f + ".line")
		if line > math.MaxInt32 {
			d.fail(off, f+".line", "line %d out of range", line)
		}
		in.Line = int(line)
	}
	if d.err == nil && d.off != len(b) {
		d.fail(d.off, "end", "%d trailing bytes after the code", len(b)-d.off)
	}
	if d.err != nil {
		return nil, d.err
	}
	if perr := p.check(); perr != nil {
		e := &DecodeError{Offset: 0, Field: "program", Msg: perr.Msg}
		switch {
		case perr.Instr >= 0:
			e.Offset = codeOff + perr.Instr*InstrSize
			e.Field = fmt.Sprintf("code[%d]", perr.Instr)
		case perr.Decl != "":
			e.Offset = declOff[perr.Decl][perr.Index]
			e.Field = fmt.Sprintf("%s[%d]", perr.Decl, perr.Index)
		}
		return nil, e
	}
	p.build()
	return p, nil
}
