package command

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func allCommands() []Command {
	return []Command{
		Nop{Words: 2},
		SetViewport{Viewport: geom.Viewport{X: 0, Y: 0, Width: 640, Height: 480, MinZ: 0, MaxZ: 1}},
		SetScissor{Enable: true, X0: 1, Y0: 2, X1: 300, Y1: 200},
		SetRaster{CullMode: 2, FrontCCW: true},
		SetDepthStencil{Flags: DepthEnable | DepthWrite | StencilEnable, DepthFunc: 1, Ref: 3, ReadMask: 0xf0, WriteMask: 0x0f,
			Front: StencilFace{1, 2, 3, 4}, Back: StencilFace{5, 6, 7, 0}},
		SetBlend{Target: 1, Enable: true, WriteMask: 0xf, SrcRGB: 4, DstRGB: 5, OpRGB: 0, SrcA: 1, DstA: 0, OpA: 2, Constant: geom.Vec4{0.5, 0.25, 1, 0}},
		SetColorTarget{Slot: 0, Target: Target{Addr: 0x1_0000_0000, Width: 640, Height: 480, Samples: 4, Format: 0, Layout: 1, TileW: 4, TileH: 4}},
		SetDepthTarget{Target: Target{Addr: 0x20000, Width: 640, Height: 480, Samples: 4, Format: 1, Layout: 2, TileW: 8, TileH: 8}},
		BindShader{Stage: PixelStage, Addr: 0x30000, Size: 512},
		SetConstants{Stage: VertexStage, First: 16, Count: 4, Addr: 0x40000},
		BindTexture{Stage: PixelStage, Slot: 3, Desc: 0x50000, Filter: 2, AddressU: 1, AddressV: 0, LODBias: -0.5, MinLOD: 0, MaxLOD: 12},
		BindTexture{Stage: VertexStage, Slot: 15, Desc: 0x50040, Filter: 3, AddressU: 2, AddressV: 3, LODBias: 1, MinLOD: -2, MaxLOD: 5,
			AddressW: 4, MaxAnisotropy: 16, Border: geom.Vec4{0.25, 0.5, 0.75, 1}},
		SetInputLayout{Stride: 48, Attributes: []Attribute{{SemPosition, 0, 3}, {SemNormal, 12, 3}, {SemTexcoord, 24, 2}, {SemTangent, 32, 4}}},
		BindVertexBuffer{Addr: 0x60000, Size: 4800},
		BindIndexBuffer{Addr: 0x70000, Format: 16, Size: 600},
		SetTopology{Topology: TriangleStrip},
		Draw{VertexCount: 3, StartVertex: 7},
		DrawIndexed{IndexCount: 300, StartIndex: 6, BaseVertex: -2},
		Clear{Flags: ClearColor | ClearDepth, Color: geom.Vec4{0.1, 0.2, 0.3, 1}, Depth: 1, Stencil: 9},
		SyncToken{Value: 42, Addr: 0x80000},
		Present{Slot: 0},
		SetLens{Lens: Lens{Kx: 0.125, Ky: -0.25, F: 6.5}},
		SetLens{Lens: Lens{F: 1}},
		SetDecoupling{Decoupling: Decoupling{Mode: DecoupleOn, Rate: 0.5, Adaptive: true}},
		SetDecoupling{Decoupling: Decoupling{Mode: DecoupleSupersample, Rate: 64, Bilinear: true}},
		SetDecoupling{Decoupling: DefaultDecoupling()},
		End{},
	}
}

func TestRoundTrip(t *testing.T) {
	var e Encoder
	cmds := allCommands()
	for _, c := range cmds {
		e.Append(c)
	}
	got, err := DecodeAll(e.Bytes(), 0x1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cmds) {
		t.Fatalf("decoded %d commands, want %d", len(got), len(cmds))
	}
	addr := uint64(0x1000)
	for i, c := range cmds {
		if !reflect.DeepEqual(got[i].Command, c) {
			t.Errorf("command %d: got %#v, want %#v", i, got[i].Command, c)
		}
		if got[i].Addr != addr {
			t.Errorf("command %d at 0x%x, want 0x%x", i, got[i].Addr, addr)
		}
		_, n, _ := DecodeOne(e.Bytes()[addr-0x1000:], addr)
		addr += uint64(n)
	}
}

func words(ws ...uint32) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

func hdr(op Opcode, n int) uint32 { return uint32(op) | uint32(n)<<8 }

func TestDecodeErrors(t *testing.T) {
	f1 := uint32(0x3f800000) // 1.0
	tests := []struct {
		name string
		buf  []byte
		want string
	}{
		{"unknown opcode", words(0x000000ee), "command stream @0x100: Opcode(238): opcode: unknown opcode 238"},
		{"bad length", words(hdr(OpDraw, 3), 1, 2, 3), "command stream @0x100: Draw: length: payload of 3 words, want 2"},
		{"truncated", words(hdr(OpDraw, 2), 1), "command stream @0x100: Draw: length: command runs past the end of the stream (8 bytes left)"},
		{"no end", words(hdr(OpDraw, 2), 1, 2), "command stream @0x10c: End: stream ends without an End command"},
		{"viewport size", words(hdr(OpSetViewport, 6), 0, 0, 0, f1, 0, f1), "command stream @0x100: SetViewport: width/height: viewport 0x1 out of range (0, 32768]"},
		{"samples", words(hdr(OpSetColorTarget, 10), 0, 0x1000, 0, 64, 64, 65, 0, 0, 4, 4), "command stream @0x100: SetColorTarget: samples: 65 samples per pixel, want 1 to 64"},
		{"index format", words(hdr(OpBindIndexBuffer, 4), 0x1000, 0, 8, 16), "command stream @0x100: BindIndexBuffer: format: 8 bits per index, want 16 or 32"},
		{"layout overrun", words(hdr(OpSetInputLayout, 5), 16, 1, 0, 8, 3), "command stream @0x100: SetInputLayout: attributes[0].offset: attribute at byte 8 (3 floats) overruns the 16-byte vertex"},
		{"layout semantic", words(hdr(OpSetInputLayout, 5), 16, 1, 9, 0, 3), "command stream @0x100: SetInputLayout: attributes[0].semantic: unknown semantic 9"},
		{"constants range", words(hdr(OpSetConstants, 5), 1, 250, 10, 0x1000, 0), "command stream @0x100: SetConstants: first/count: registers [250, 260) outside c0..c255"},
		{"clear depth", words(hdr(OpClear, 7), ClearDepth, 0, 0, 0, 0, 0x40000000, 0), "command stream @0x100: Clear: depth: 2 outside [0, 1]"},
		{"shader null", words(hdr(OpBindShader, 4), 1, 0, 0, 64), "command stream @0x100: BindShader: addr/size: no shader code (address 0x0, 64 bytes)"},
		{"second command", words(hdr(OpNop, 0), hdr(OpSetTopology, 1), 7), "command stream @0x104: SetTopology: topology: unknown topology 7"},
		{"bind texture length", words(hdr(OpBindTexture, 12), 1, 0, 0x1000, 0, 2, 0, 0, 0, 0, 0, 0, 0), "command stream @0x100: BindTexture: length: payload of 12 words, want 16 (or 10)"},
		{"anisotropy", words(hdr(OpBindTexture, 16), 1, 0, 0x1000, 0, 3, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 0), "command stream @0x100: BindTexture: maxAnisotropy: 17 out of range [0, 16]"},
		{"lens length", words(hdr(OpSetLens, 5), 0, 0, f1, 0, 1), "command stream @0x100: SetLens: length: payload of 5 words, want 3"},
		{"lens shear", words(hdr(OpSetLens, 3), 0x7f800000, 0, f1), "command stream @0x100: SetLens: kx/ky: shear (+Inf, 0) is not finite"},
		{"lens focus", words(hdr(OpSetLens, 3), 0, 0, 0), "command stream @0x100: SetLens: f: focus distance 0 must be positive and finite"},
		{"lens focus NaN", words(hdr(OpSetLens, 3), 0, 0, 0x7fc00000), "command stream @0x100: SetLens: f: focus distance NaN must be positive and finite"},
		{"decoupling length", words(hdr(OpSetDecoupling, 2), 1, f1), "command stream @0x100: SetDecoupling: length: payload of 2 words, want 3"},
		{"decoupling mode", words(hdr(OpSetDecoupling, 3), 3, f1, 0), "command stream @0x100: SetDecoupling: mode: unknown mode 3 (want 0 off, 1 on, 2 supersample)"},
		{"decoupling rate", words(hdr(OpSetDecoupling, 3), 1, 0, 0), "command stream @0x100: SetDecoupling: rate: 0 out of range [1/65536, 64]"},
		// A rate the decoupling map cannot space (a grid of 10^7 pixels):
		// it failed at the draw, not here.
		{"decoupling rate too coarse", words(hdr(OpSetDecoupling, 3), 1, 0x33d6bf95, 0), "command stream @0x100: SetDecoupling: rate: 1e-07 out of range [1/65536, 64]"},
		{"decoupling rate big", words(hdr(OpSetDecoupling, 3), 1, 0x42820000, 0), "command stream @0x100: SetDecoupling: rate: 65 out of range [1/65536, 64]"},
		{"decoupling flags", words(hdr(OpSetDecoupling, 3), 1, f1, 4), "command stream @0x100: SetDecoupling: flags: unknown bits 0x4"},
		{"border", words(hdr(OpBindTexture, 16), 1, 0, 0x1000, 0, 3, 0, 0, 0, 0, 0, 0, 1, 0, 0x7fc00000, 0, 0), "command stream @0x100: BindTexture: border: colour [0 NaN 0 0] is not finite"},
	}
	for _, tc := range tests {
		_, err := DecodeAll(tc.buf, 0x100)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, err, tc.want)
		}
	}
}

func TestImage(t *testing.T) {
	m := NewImage()
	a := m.Put([]byte{1, 2, 3}, 1)
	b := m.Alloc(4, 256)
	if a != BaseAddress || b != BaseAddress+256 {
		t.Fatalf("addresses 0x%x 0x%x", a, b)
	}
	if err := m.Write(b, []byte{9, 9, 9, 9}); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(b+2, []byte{1, 2, 3}); err == nil {
		t.Fatal("write past the end accepted")
	}
	p := make([]byte, 6)
	m.ReadAt(p, a-2)
	if !reflect.DeepEqual(p, []byte{0, 0, 1, 2, 3, 0}) {
		t.Fatalf("read straddling the start: %v", p)
	}
	m.ReadAt(p, b+2)
	if !reflect.DeepEqual(p, []byte{9, 9, 0, 0, 0, 0}) {
		t.Fatalf("read straddling the end: %v", p)
	}
	d := TextureDescriptor{Format: 1, Width: 64, Height: 32, Levels: 7, Layout: 1, Data: 0x1_2345_6780, Size: 11000, Type: 1, Depth: 6}
	enc := d.Encode()
	if len(enc) != TextureDescriptorBytes {
		t.Fatalf("descriptor of %d bytes", len(enc))
	}
	at := m.Put(enc, 32)
	if got := ReadTextureDescriptor(m, at); got != d {
		t.Fatalf("descriptor %+v, want %+v", got, d)
	}
	// A first-version (8-word) descriptor followed by zeros is a 2D texture.
	old := m.Put(append(words(6, 8, 8, 4, 0, 0x2000, 0, 128), make([]byte, 16)...), 32)
	if got := ReadTextureDescriptor(m, old); got != (TextureDescriptor{Format: 6, Width: 8, Height: 8, Levels: 4, Data: 0x2000, Size: 128}) {
		t.Fatalf("old descriptor %+v", got)
	}
}

func FuzzDecodeAll(f *testing.F) {
	var e Encoder
	for _, c := range allCommands() {
		e.Append(c)
	}
	f.Add(e.Bytes())
	f.Add(words(hdr(OpSetInputLayout, 5), 16, 1, 0, 8, 3))
	f.Add(words(hdr(OpSetLens, 3), 0x3e000000, 0x3e800000, 0x40d00000, hdr(OpSetDecoupling, 3), 1, 0x3f800000, 3, hdr(OpEnd, 0)))
	f.Fuzz(func(t *testing.T, b []byte) {
		cmds, err := DecodeAll(b, 0x100)
		if err != nil {
			return
		}
		// A valid stream survives an encode/decode round trip unchanged.
		var e Encoder
		for _, c := range cmds {
			e.Append(c.Command)
		}
		again, err := DecodeAll(e.Bytes(), 0x100)
		if err != nil {
			t.Fatalf("re-encoded stream does not decode: %v", err)
		}
		// Compared as the streams they encode to, so that a NaN (a blend
		// constant, a lens radius) equals itself.
		var e2 Encoder
		for i, c := range again {
			if i >= len(cmds) || c.Addr != cmds[i].Addr || reflect.TypeOf(c.Command) != reflect.TypeOf(cmds[i].Command) {
				t.Fatalf("round trip differs at command %d: %+v, was %+v", i, c, cmds[min(i, len(cmds)-1)])
			}
			e2.Append(c.Command)
		}
		if len(again) != len(cmds) || !bytes.Equal(e2.Bytes(), e.Bytes()) {
			t.Fatalf("round trip differs: %d commands, was %d; stream % x, was % x", len(again), len(cmds), e2.Bytes(), e.Bytes())
		}
	})
}

// TestBindTextureFirstVersion decodes the 10-word BindTexture payload.
func TestBindTextureFirstVersion(t *testing.T) {
	buf := words(hdr(OpBindTexture, 10), 1, 2, 0x5000, 0, 2, 1, 0, 0xbf000000, 0, 0x41400000, hdr(OpEnd, 0))
	cmds, err := DecodeAll(buf, 0x100)
	if err != nil {
		t.Fatal(err)
	}
	want := BindTexture{Stage: PixelStage, Slot: 2, Desc: 0x5000, Filter: 2, AddressU: 1, LODBias: -0.5, MaxLOD: 12}
	if !reflect.DeepEqual(cmds[0].Command, want) {
		t.Errorf("decoded %#v, want %#v", cmds[0].Command, want)
	}
}

func TestOpcodeNames(t *testing.T) {
	if OpSetLens.String() != "SetLens" || OpSetDecoupling.String() != "SetDecoupling" || OpSetLens != 21 || OpSetDecoupling != 22 {
		t.Errorf("opcodes %d %v, %d %v", OpSetLens, OpSetLens, OpSetDecoupling, OpSetDecoupling)
	}
	for m, want := range map[DecouplingMode]string{DecoupleOff: "off", DecoupleOn: "on", DecoupleSupersample: "supersample", 7: "DecouplingMode(7)"} {
		if m.String() != want {
			t.Errorf("%d: %q, want %q", uint32(m), m.String(), want)
		}
	}
}
