package command

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// MaxAttributes bounds the attributes of an input layout.
const MaxAttributes = 16

// BindTexture payload lengths: the current one, and the first version's
// (without addressW, maxAnisotropy and the border colour).
const (
	bindTextureWords   = 16
	bindTextureWordsV1 = 10
)

// MaxPayloadWords bounds the payload of one command (a sanity limit for the
// decoder; no command comes close).
const MaxPayloadWords = 1 + 2 + 3*MaxAttributes + 64

type wordWriter struct{ w []uint32 }

func (w *wordWriter) u(v uint32)  { w.w = append(w.w, v) }
func (w *wordWriter) i(v int32)   { w.w = append(w.w, uint32(v)) }
func (w *wordWriter) f(v float32) { w.w = append(w.w, math.Float32bits(v)) }
func (w *wordWriter) b(v bool) {
	if v {
		w.u(1)
	} else {
		w.u(0)
	}
}
func (w *wordWriter) addr(a uint64) { w.u(uint32(a)); w.u(uint32(a >> 32)) }
func (w *wordWriter) vec(v geom.Vec4) {
	for _, c := range v {
		w.f(c)
	}
}

func (c Nop) encode(w *wordWriter) {
	for i := uint32(0); i < c.Words; i++ {
		w.u(0)
	}
}
func (c SetViewport) encode(w *wordWriter) {
	v := c.Viewport
	w.f(v.X)
	w.f(v.Y)
	w.f(v.Width)
	w.f(v.Height)
	w.f(v.MinZ)
	w.f(v.MaxZ)
}
func (c SetScissor) encode(w *wordWriter) {
	w.b(c.Enable)
	w.i(c.X0)
	w.i(c.Y0)
	w.i(c.X1)
	w.i(c.Y1)
}
func (c SetRaster) encode(w *wordWriter) { w.u(c.CullMode); w.b(c.FrontCCW) }
func packFace(f StencilFace) uint32 {
	return uint32(f.Func) | uint32(f.Fail)<<8 | uint32(f.DepthFail)<<16 | uint32(f.Pass)<<24
}
func unpackFace(v uint32) StencilFace {
	return StencilFace{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)}
}
func (c SetDepthStencil) encode(w *wordWriter) {
	w.u(c.Flags)
	w.u(c.DepthFunc)
	w.u(uint32(c.Ref) | uint32(c.ReadMask)<<8 | uint32(c.WriteMask)<<16)
	w.u(packFace(c.Front))
	w.u(packFace(c.Back))
}
func (c SetBlend) encode(w *wordWriter) {
	w.u(c.Target)
	en := uint32(0)
	if c.Enable {
		en = 1
	}
	w.u(en | uint32(c.WriteMask)<<8)
	w.u(uint32(c.SrcRGB) | uint32(c.DstRGB)<<8 | uint32(c.OpRGB)<<16)
	w.u(uint32(c.SrcA) | uint32(c.DstA)<<8 | uint32(c.OpA)<<16)
	w.vec(c.Constant)
}
func (t Target) encode(w *wordWriter) {
	w.addr(t.Addr)
	w.u(t.Width)
	w.u(t.Height)
	w.u(t.Samples)
	w.u(t.Format)
	w.u(t.Layout)
	w.u(t.TileW)
	w.u(t.TileH)
}
func (c SetColorTarget) encode(w *wordWriter) { w.u(c.Slot); c.Target.encode(w) }
func (c SetDepthTarget) encode(w *wordWriter) { c.Target.encode(w) }
func (c BindShader) encode(w *wordWriter) {
	w.u(uint32(c.Stage))
	w.addr(c.Addr)
	w.u(c.Size)
}
func (c SetConstants) encode(w *wordWriter) {
	w.u(uint32(c.Stage))
	w.u(c.First)
	w.u(c.Count)
	w.addr(c.Addr)
}
func (c BindTexture) encode(w *wordWriter) {
	w.u(uint32(c.Stage))
	w.u(c.Slot)
	w.addr(c.Desc)
	w.u(c.Filter)
	w.u(c.AddressU)
	w.u(c.AddressV)
	w.f(c.LODBias)
	w.f(c.MinLOD)
	w.f(c.MaxLOD)
	w.u(c.AddressW)
	w.u(c.MaxAnisotropy)
	w.vec(c.Border)
}
func (c SetInputLayout) encode(w *wordWriter) {
	w.u(c.Stride)
	w.u(uint32(len(c.Attributes)))
	for _, a := range c.Attributes {
		w.u(uint32(a.Semantic))
		w.u(a.Offset)
		w.u(a.Components)
	}
}
func (c BindVertexBuffer) encode(w *wordWriter) { w.addr(c.Addr); w.u(c.Size) }
func (c BindIndexBuffer) encode(w *wordWriter) {
	w.addr(c.Addr)
	w.u(c.Format)
	w.u(c.Size)
}
func (c SetTopology) encode(w *wordWriter) { w.u(uint32(c.Topology)) }
func (c Draw) encode(w *wordWriter)        { w.u(c.VertexCount); w.u(c.StartVertex) }
func (c DrawIndexed) encode(w *wordWriter) {
	w.u(c.IndexCount)
	w.u(c.StartIndex)
	w.i(c.BaseVertex)
}
func (c Clear) encode(w *wordWriter) {
	w.u(c.Flags)
	w.vec(c.Color)
	w.f(c.Depth)
	w.u(uint32(c.Stencil))
}
func (c SyncToken) encode(w *wordWriter) { w.u(c.Value); w.addr(c.Addr) }
func (c Present) encode(w *wordWriter)   { w.u(c.Slot) }
func (End) encode(w *wordWriter)         {}
func (c SetLens) encode(w *wordWriter) {
	w.f(c.Kx)
	w.f(c.Ky)
	w.f(c.F)
}

// Decoupling flag bits of the SetDecoupling payload.
const (
	decoupleAdaptive = 1
	decoupleBilinear = 2
)

func (c SetDecoupling) encode(w *wordWriter) {
	w.u(uint32(c.Mode))
	w.f(c.Rate)
	var flags uint32
	if c.Adaptive {
		flags |= decoupleAdaptive
	}
	if c.Bilinear {
		flags |= decoupleBilinear
	}
	w.u(flags)
}

// Encoder builds a command stream.
type Encoder struct {
	buf []byte
	w   wordWriter
}

// Append encodes c at the end of the stream.
func (e *Encoder) Append(c Command) {
	e.w.w = e.w.w[:0]
	c.encode(&e.w)
	hdr := uint32(c.Opcode()) | uint32(len(e.w.w))<<8
	e.buf = binary.LittleEndian.AppendUint32(e.buf, hdr)
	for _, v := range e.w.w {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
	}
}

// Bytes returns the encoded stream.
func (e *Encoder) Bytes() []byte { return e.buf }

// Len returns the stream length in bytes.
func (e *Encoder) Len() int { return len(e.buf) }

// ErrIncomplete is returned by DecodeOne when the buffer ends inside a command; the
// caller fetches more bytes and tries again.
var ErrIncomplete = errors.New("command stream: incomplete command")

// DecodeError is a malformed command: Offset is the byte address of its header.
type DecodeError struct {
	Offset uint64
	Op     Opcode
	Field  string
	Msg    string
}

func (e *DecodeError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("command stream @0x%x: %v: %s", e.Offset, e.Op, e.Msg)
	}
	return fmt.Sprintf("command stream @0x%x: %v: %s: %s", e.Offset, e.Op, e.Field, e.Msg)
}

// payloadWords is the exact payload length of each fixed-size command; -1 means
// variable.
var payloadWords = [numOpcodes]int{
	OpNop: -1, OpSetViewport: 6, OpSetScissor: 5, OpSetRaster: 2, OpSetDepthStencil: 5,
	OpSetBlend: 8, OpSetColorTarget: 10, OpSetDepthTarget: 9, OpBindShader: 4,
	OpSetConstants: 5, OpBindTexture: -1, OpSetInputLayout: -1, OpBindVertexBuffer: 3,
	OpBindIndexBuffer: 4, OpSetTopology: 1, OpDraw: 2, OpDrawIndexed: 3, OpClear: 7,
	OpSyncToken: 3, OpPresent: 1, OpEnd: 0, OpSetLens: 3, OpSetDecoupling: 3,
	OpBindStreamOut: -1, OpSetStreamOut: 3, OpDrawAuto: 2,
}

type wordReader struct {
	p []byte
	i int
}

func (r *wordReader) u() uint32 {
	v := binary.LittleEndian.Uint32(r.p[r.i:])
	r.i += 4
	return v
}
func (r *wordReader) i32() int32   { return int32(r.u()) }
func (r *wordReader) f() float32   { return math.Float32frombits(r.u()) }
func (r *wordReader) addr() uint64 { lo := r.u(); return uint64(lo) | uint64(r.u())<<32 }
func (r *wordReader) vec() geom.Vec4 {
	return geom.Vec4{r.f(), r.f(), r.f(), r.f()}
}
func (r *wordReader) target() Target {
	return Target{Addr: r.addr(), Width: r.u(), Height: r.u(), Samples: r.u(), Format: r.u(),
		Layout: r.u(), TileW: r.u(), TileH: r.u()}
}

// DecodeOne decodes the command at the start of buf, whose first byte is at
// address base. It returns the command and its size in bytes. It returns
// ErrIncomplete when buf ends inside the command and a *DecodeError when the
// command is malformed.
func DecodeOne(buf []byte, base uint64) (Command, int, error) {
	if len(buf) < 4 {
		return nil, 0, ErrIncomplete
	}
	hdr := binary.LittleEndian.Uint32(buf)
	op := Opcode(hdr & 0xff)
	n := int(hdr >> 8)
	fail := func(field, format string, args ...any) (Command, int, error) {
		return nil, 0, &DecodeError{Offset: base, Op: op, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if op >= numOpcodes {
		return fail("opcode", "unknown opcode %d", uint8(op))
	}
	if n > MaxPayloadWords {
		return fail("length", "payload of %d words exceeds the limit of %d", n, MaxPayloadWords)
	}
	if want := payloadWords[op]; want >= 0 && n != want {
		return fail("length", "payload of %d words, want %d", n, want)
	}
	size := 4 + 4*n
	if len(buf) < size {
		return nil, 0, ErrIncomplete
	}
	r := &wordReader{p: buf[:size], i: 4}
	var c Command
	switch op {
	case OpNop:
		c = Nop{Words: uint32(n)}
	case OpSetViewport:
		v := geom.Viewport{X: r.f(), Y: r.f(), Width: r.f(), Height: r.f(), MinZ: r.f(), MaxZ: r.f()}
		if !(v.Width > 0) || !(v.Height > 0) || v.Width > 1<<15 || v.Height > 1<<15 {
			return fail("width/height", "viewport %gx%g out of range (0, 32768]", v.Width, v.Height)
		}
		if !(v.MinZ >= 0 && v.MinZ <= 1 && v.MaxZ >= 0 && v.MaxZ <= 1) {
			return fail("minZ/maxZ", "depth range [%g, %g] outside [0, 1]", v.MinZ, v.MaxZ)
		}
		if isNaNOrInf(v.X) || isNaNOrInf(v.Y) {
			return fail("x/y", "viewport origin (%g, %g) is not finite", v.X, v.Y)
		}
		c = SetViewport{Viewport: v}
	case OpSetScissor:
		en := r.u()
		if en > 1 {
			return fail("enable", "%d is not 0 or 1", en)
		}
		c = SetScissor{Enable: en == 1, X0: r.i32(), Y0: r.i32(), X1: r.i32(), Y1: r.i32()}
	case OpSetRaster:
		cm := r.u()
		ccw := r.u()
		if ccw > 1 {
			return fail("frontCCW", "%d is not 0 or 1", ccw)
		}
		c = SetRaster{CullMode: cm, FrontCCW: ccw == 1}
	case OpSetDepthStencil:
		d := SetDepthStencil{Flags: r.u(), DepthFunc: r.u()}
		m := r.u()
		d.Ref, d.ReadMask, d.WriteMask = uint8(m), uint8(m>>8), uint8(m>>16)
		d.Front, d.Back = unpackFace(r.u()), unpackFace(r.u())
		if d.Flags&^7 != 0 {
			return fail("flags", "unknown bits 0x%x", d.Flags&^7)
		}
		c = d
	case OpSetBlend:
		b := SetBlend{Target: r.u()}
		en := r.u()
		b.Enable, b.WriteMask = en&1 == 1, uint8(en>>8)
		rgb, a := r.u(), r.u()
		b.SrcRGB, b.DstRGB, b.OpRGB = uint8(rgb), uint8(rgb>>8), uint8(rgb>>16)
		b.SrcA, b.DstA, b.OpA = uint8(a), uint8(a>>8), uint8(a>>16)
		b.Constant = r.vec()
		if b.Target >= 8 {
			return fail("target", "render target %d out of range [0, 8)", b.Target)
		}
		c = b
	case OpSetColorTarget:
		slot := r.u()
		t := r.target()
		if slot >= 8 {
			return fail("slot", "render target %d out of range [0, 8)", slot)
		}
		if f, msg := checkTarget(t); msg != "" {
			return fail(f, "%s", msg)
		}
		c = SetColorTarget{Slot: slot, Target: t}
	case OpSetDepthTarget:
		t := r.target()
		if f, msg := checkTarget(t); msg != "" {
			return fail(f, "%s", msg)
		}
		c = SetDepthTarget{Target: t}
	case OpBindShader:
		s := BindShader{Stage: Stage(r.u()), Addr: r.addr(), Size: r.u()}
		if s.Stage >= NumStages {
			return fail("stage", "unknown stage %d", uint32(s.Stage))
		}
		if (s.Addr == 0 || s.Size == 0) && !(s.Stage == GeometryStage && s.Addr == 0 && s.Size == 0) {
			return fail("addr/size", "no shader code (address 0x%x, %d bytes)", s.Addr, s.Size)
		}
		c = s
	case OpSetConstants:
		s := SetConstants{Stage: Stage(r.u()), First: r.u(), Count: r.u(), Addr: r.addr()}
		if s.Stage >= NumStages {
			return fail("stage", "unknown stage %d", uint32(s.Stage))
		}
		if s.First >= 256 || s.Count > 256-s.First {
			return fail("first/count", "registers [%d, %d) outside c0..c255", s.First, uint64(s.First)+uint64(s.Count))
		}
		c = s
	case OpBindTexture:
		if n != bindTextureWords && n != bindTextureWordsV1 {
			return fail("length", "payload of %d words, want %d (or %d)", n, bindTextureWords, bindTextureWordsV1)
		}
		t := BindTexture{Stage: Stage(r.u()), Slot: r.u(), Desc: r.addr(), Filter: r.u(),
			AddressU: r.u(), AddressV: r.u(), LODBias: r.f(), MinLOD: r.f(), MaxLOD: r.f()}
		if n == bindTextureWords {
			t.AddressW, t.MaxAnisotropy, t.Border = r.u(), r.u(), r.vec()
		}
		if t.MaxAnisotropy > 16 {
			return fail("maxAnisotropy", "%d out of range [0, 16]", t.MaxAnisotropy)
		}
		for _, c := range t.Border {
			if isNaNOrInf(c) {
				return fail("border", "colour %v is not finite", t.Border)
			}
		}
		if t.Stage >= NumStages {
			return fail("stage", "unknown stage %d", uint32(t.Stage))
		}
		if t.Slot >= 16 {
			return fail("slot", "texture unit %d out of range [0, 16)", t.Slot)
		}
		if isNaNOrInf(t.LODBias) || math.IsNaN(float64(t.MinLOD)) || math.IsNaN(float64(t.MaxLOD)) {
			return fail("lodBias/minLOD/maxLOD", "not a number")
		}
		c = t
	case OpSetInputLayout:
		if n < 2 {
			return fail("length", "payload of %d words, want at least 2", n)
		}
		l := SetInputLayout{Stride: r.u()}
		cnt := r.u()
		if cnt > MaxAttributes {
			return fail("count", "%d attributes exceed the limit of %d", cnt, MaxAttributes)
		}
		if n != 2+3*int(cnt) {
			return fail("length", "payload of %d words does not match %d attributes", n, cnt)
		}
		if l.Stride == 0 || l.Stride > 1024 {
			return fail("stride", "%d bytes out of range [1, 1024]", l.Stride)
		}
		for i := uint32(0); i < cnt; i++ {
			a := Attribute{Semantic: Semantic(r.u()), Offset: r.u(), Components: r.u()}
			field := fmt.Sprintf("attributes[%d]", i)
			if a.Semantic >= NumSemantics {
				return fail(field+".semantic", "unknown semantic %d", uint32(a.Semantic))
			}
			if a.Components < 1 || a.Components > 4 {
				return fail(field+".components", "%d not in [1, 4]", a.Components)
			}
			if uint64(a.Offset)+4*uint64(a.Components) > uint64(l.Stride) {
				return fail(field+".offset", "attribute at byte %d (%d floats) overruns the %d-byte vertex", a.Offset, a.Components, l.Stride)
			}
			l.Attributes = append(l.Attributes, a)
		}
		c = l
	case OpBindVertexBuffer:
		c = BindVertexBuffer{Addr: r.addr(), Size: r.u()}
	case OpBindIndexBuffer:
		b := BindIndexBuffer{Addr: r.addr(), Format: r.u(), Size: r.u()}
		if b.Format != 16 && b.Format != 32 {
			return fail("format", "%d bits per index, want 16 or 32", b.Format)
		}
		c = b
	case OpSetTopology:
		t := Topology(r.u())
		if t >= numTopologies {
			return fail("topology", "unknown topology %d", uint32(t))
		}
		c = SetTopology{Topology: t}
	case OpDraw:
		c = Draw{VertexCount: r.u(), StartVertex: r.u()}
	case OpDrawIndexed:
		c = DrawIndexed{IndexCount: r.u(), StartIndex: r.u(), BaseVertex: r.i32()}
	case OpClear:
		cl := Clear{Flags: r.u(), Color: r.vec(), Depth: r.f()}
		st := r.u()
		if cl.Flags&^7 != 0 {
			return fail("flags", "unknown bits 0x%x", cl.Flags&^7)
		}
		if st > 255 {
			return fail("stencil", "%d out of range [0, 255]", st)
		}
		if !(cl.Depth >= 0 && cl.Depth <= 1) {
			return fail("depth", "%g outside [0, 1]", cl.Depth)
		}
		cl.Stencil = uint8(st)
		c = cl
	case OpSyncToken:
		c = SyncToken{Value: r.u(), Addr: r.addr()}
	case OpPresent:
		slot := r.u()
		if slot >= 8 {
			return fail("slot", "render target %d out of range [0, 8)", slot)
		}
		c = Present{Slot: slot}
	case OpEnd:
		c = End{}
	case OpSetLens:
		l := Lens{Kx: r.f(), Ky: r.f(), F: r.f()}
		if isNaNOrInf(l.Kx) || isNaNOrInf(l.Ky) {
			return fail("kx/ky", "shear (%g, %g) is not finite", l.Kx, l.Ky)
		}
		if !(l.F > 0) || isNaNOrInf(l.F) {
			return fail("f", "focus distance %g must be positive and finite", l.F)
		}
		c = SetLens{Lens: l}
	case OpSetDecoupling:
		d := Decoupling{Mode: DecouplingMode(r.u()), Rate: r.f()}
		flags := r.u()
		if d.Mode >= numDecouplingModes {
			return fail("mode", "unknown mode %d (want 0 off, 1 on, 2 supersample)", uint32(d.Mode))
		}
		if !(d.Rate >= MinDecouplingRate && d.Rate <= MaxDecouplingRate) {
			return fail("rate", "%g out of range [1/%d, %d]", d.Rate, int(1/MinDecouplingRate), MaxDecouplingRate)
		}
		if flags&^(decoupleAdaptive|decoupleBilinear) != 0 {
			return fail("flags", "unknown bits 0x%x", flags&^(decoupleAdaptive|decoupleBilinear))
		}
		d.Adaptive, d.Bilinear = flags&decoupleAdaptive != 0, flags&decoupleBilinear != 0
		c = SetDecoupling{Decoupling: d}
	case OpBindStreamOut, OpSetStreamOut, OpDrawAuto:
		var field, msg string
		c, field, msg = decodeStreamOut(op, n, r)
		if msg != "" {
			return fail(field, "%s", msg)
		}
	}
	return c, size, nil
}

func checkTarget(t Target) (field, msg string) {
	switch {
	case t.Addr == 0:
		return "addr", "render target at address 0"
	case t.Width == 0 || t.Height == 0 || t.Width > 1<<14 || t.Height > 1<<14:
		return "width/height", fmt.Sprintf("%dx%d out of range [1, 16384]", t.Width, t.Height)
	case t.Samples < 1 || t.Samples > raster.MaxSamples:
		return "samples", fmt.Sprintf("%d samples per pixel, want 1 to %d", t.Samples, raster.MaxSamples)
	case t.TileW == 0 || t.TileH == 0 || t.TileW > 256 || t.TileH > 256:
		return "tileW/tileH", fmt.Sprintf("tile %dx%d out of range [1, 256]", t.TileW, t.TileH)
	}
	return "", ""
}

func isNaNOrInf(f float32) bool {
	return math.IsNaN(float64(f)) || math.IsInf(float64(f), 0)
}

// Located is a decoded command and the address of its header.
type Located struct {
	Addr uint64
	Command
}

// DecodeStream reads the size-byte command stream at address stream of mem
// and decodes it (DecodeAll).
func DecodeStream(mem Memory, stream, size uint64) ([]Located, error) {
	buf := make([]byte, size)
	mem.ReadAt(buf, stream)
	return DecodeAll(buf, stream)
}

// DecodeAll decodes a whole stream that starts at address base and ends with End
// (or at the end of buf). A stream without End is an error.
func DecodeAll(buf []byte, base uint64) ([]Located, error) {
	var out []Located
	off := 0
	for off < len(buf) {
		c, n, err := DecodeOne(buf[off:], base+uint64(off))
		if err == ErrIncomplete {
			return nil, &DecodeError{Offset: base + uint64(off), Op: Opcode(buf[off]), Field: "length",
				Msg: fmt.Sprintf("command runs past the end of the stream (%d bytes left)", len(buf)-off)}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Located{Addr: base + uint64(off), Command: c})
		off += n
		if _, ok := c.(End); ok {
			return out, nil
		}
	}
	return nil, &DecodeError{Offset: base + uint64(off), Op: OpEnd, Msg: "stream ends without an End command"}
}
