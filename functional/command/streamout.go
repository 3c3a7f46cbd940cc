package command

import "fmt"

// Stream-out (Giesen, "A trip through the Graphics Pipeline 2011", part 11):
// the primitives leaving the geometry stage (the geometry shader's, or the
// vertex shader's when none is bound) are written to up to MaxStreamOutBuffers
// buffers in memory, in API order, each vertex as the elements its
// declaration lists. Each buffer has a filled-size counter in memory (a u32,
// the bytes written from the start of the buffer), which DrawAuto reads.

// Stream-out limits.
const (
	MaxStreamOutBuffers  = 4
	MaxStreamOutElements = 16
	MaxStreamOutStride   = 2048
	// StreamOutAppend as a BindStreamOut offset continues after the bytes the
	// buffer's filled-size counter holds (D3D's offset -1).
	StreamOutAppend = 0xFFFFFFFF
)

// StreamOutElement is one element of a stream-out vertex: components
// (1 to 4) floats of output register Register (oN), at byte Offset of the
// vertex.
type StreamOutElement struct {
	Register, Components, Offset uint32
}

// SetStreamOut flag bits.
const (
	StreamOutEnable       = 1 // the following draws stream out to the bound buffers
	StreamOutNoRasterizer = 2 // and are not rasterized
)

type (
	// BindStreamOut binds stream-out buffer Slot: Size bytes at Addr, vertices
	// of Stride bytes written from byte Offset (or StreamOutAppend), its
	// filled-size counter at FilledAddr, and the vertex's elements. Addr 0
	// unbinds the slot.
	BindStreamOut struct {
		Slot       uint32
		Addr       uint64
		Size       uint32
		Stride     uint32
		Offset     uint32
		FilledAddr uint64
		Elements   []StreamOutElement
	}
	// SetStreamOut turns stream-out on or off for the following draws
	// (Flags), and names where its statistics live: two u32 at StatsAddr,
	// primitives written and primitives needed (D3D's SO statistics query),
	// which every streaming draw adds to (0: not kept).
	SetStreamOut struct {
		Flags     uint32
		StatsAddr uint64
	}
	// DrawAuto draws, non-indexed from vertex 0 of the bound vertex buffer,
	// as many vertices as the filled-size counter at FilledAddr says the last
	// stream-out wrote (bytes / the input layout's stride). The command
	// processor reads the counter from memory: no host round trip.
	DrawAuto struct {
		FilledAddr uint64
	}
)

func (BindStreamOut) Opcode() Opcode { return OpBindStreamOut }
func (SetStreamOut) Opcode() Opcode  { return OpSetStreamOut }
func (DrawAuto) Opcode() Opcode      { return OpDrawAuto }

func (c BindStreamOut) encode(w *wordWriter) {
	w.u(c.Slot)
	w.addr(c.Addr)
	w.u(c.Size)
	w.u(c.Stride)
	w.u(c.Offset)
	w.addr(c.FilledAddr)
	w.u(uint32(len(c.Elements)))
	for _, e := range c.Elements {
		w.u(e.Register)
		w.u(e.Components)
		w.u(e.Offset)
	}
}
func (c SetStreamOut) encode(w *wordWriter) { w.u(c.Flags); w.addr(c.StatsAddr) }
func (c DrawAuto) encode(w *wordWriter)     { w.addr(c.FilledAddr) }

// bindStreamOutWords is the fixed part of BindStreamOut's payload.
const bindStreamOutWords = 9

// decodeStreamOut decodes the payload of the stream-out commands; msg is
// empty on success, else field names what is wrong.
func decodeStreamOut(op Opcode, n int, r *wordReader) (c Command, field, msg string) {
	switch op {
	case OpSetStreamOut:
		s := SetStreamOut{Flags: r.u(), StatsAddr: r.addr()}
		if s.Flags&^(StreamOutEnable|StreamOutNoRasterizer) != 0 {
			return nil, "flags", fmt.Sprintf("unknown bits 0x%x", s.Flags&^(StreamOutEnable|StreamOutNoRasterizer))
		}
		if s.StatsAddr%4 != 0 {
			return nil, "statsAddr", fmt.Sprintf("0x%x is not 4-byte aligned", s.StatsAddr)
		}
		return s, "", ""
	case OpDrawAuto:
		d := DrawAuto{FilledAddr: r.addr()}
		if d.FilledAddr == 0 || d.FilledAddr%4 != 0 {
			return nil, "filledAddr", fmt.Sprintf("0x%x is not a 4-byte aligned counter address", d.FilledAddr)
		}
		return d, "", ""
	}
	if n < bindStreamOutWords {
		return nil, "length", fmt.Sprintf("payload of %d words, want at least %d", n, bindStreamOutWords)
	}
	b := BindStreamOut{Slot: r.u(), Addr: r.addr(), Size: r.u(), Stride: r.u(), Offset: r.u(), FilledAddr: r.addr()}
	cnt := r.u()
	if cnt > MaxStreamOutElements {
		return nil, "count", fmt.Sprintf("%d elements exceed the limit of %d", cnt, MaxStreamOutElements)
	}
	if n != bindStreamOutWords+3*int(cnt) {
		return nil, "length", fmt.Sprintf("payload of %d words does not match %d elements", n, cnt)
	}
	for i := uint32(0); i < cnt; i++ {
		b.Elements = append(b.Elements, StreamOutElement{Register: r.u(), Components: r.u(), Offset: r.u()})
	}
	if field, msg := b.check(); msg != "" {
		return nil, field, msg
	}
	return b, "", ""
}

// check returns the field and message of the first rule b breaks.
func (b *BindStreamOut) check() (field, msg string) {
	if b.Slot >= MaxStreamOutBuffers {
		return "slot", fmt.Sprintf("stream-out buffer %d out of range [0, %d)", b.Slot, MaxStreamOutBuffers)
	}
	if b.Addr == 0 {
		return "", "" // unbinds
	}
	switch {
	case b.Stride == 0 || b.Stride%4 != 0 || b.Stride > MaxStreamOutStride:
		return "stride", fmt.Sprintf("%d bytes: want a multiple of 4 in [4, %d]", b.Stride, MaxStreamOutStride)
	case b.Offset != StreamOutAppend && (b.Offset%4 != 0 || b.Offset > b.Size):
		return "offset", fmt.Sprintf("byte %d does not fit the %d-byte buffer (a multiple of 4 up to its size, or append)", b.Offset, b.Size)
	case b.FilledAddr == 0 || b.FilledAddr%4 != 0:
		return "filledAddr", fmt.Sprintf("0x%x is not a 4-byte aligned counter address", b.FilledAddr)
	case len(b.Elements) == 0:
		return "count", "no elements"
	}
	for i, e := range b.Elements {
		f := fmt.Sprintf("elements[%d]", i)
		switch {
		case e.Register >= 16:
			return f + ".register", fmt.Sprintf("o%d out of range o0..o15", e.Register)
		case e.Components < 1 || e.Components > 4:
			return f + ".components", fmt.Sprintf("%d not in [1, 4]", e.Components)
		case e.Offset%4 != 0 || uint64(e.Offset)+4*uint64(e.Components) > uint64(b.Stride):
			return f + ".offset", fmt.Sprintf("element at byte %d (%d floats) does not fit the %d-byte stride", e.Offset, e.Components, b.Stride)
		}
	}
	return "", ""
}
