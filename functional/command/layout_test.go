package command

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// TestDocumentedPayloadWords pins the payload layouts of the package comment:
// each fixed-size command's words, as the table names them (a 64-bit address
// is two words, a colour four floats), number what the encoder writes and what
// the decoder requires, and each opcode has its documented number.
func TestDocumentedPayloadWords(t *testing.T) {
	border := geom.Vec4{0, 0, 0, 1}
	for _, tc := range []struct {
		op     Opcode
		num    int
		layout string // the doc table's payload words
		c      Command
	}{
		{OpSetViewport, 1, "x y width height minZ maxZ", SetViewport{}},
		{OpSetScissor, 2, "enable x0 y0 x1 y1", SetScissor{}},
		{OpSetRaster, 3, "cullMode frontCCW", SetRaster{}},
		{OpSetDepthStencil, 4, "flags depthFunc refMasks front back", SetDepthStencil{}},
		{OpSetBlend, 5, "target enableMask rgb alpha c0 c1 c2 c3", SetBlend{}},
		{OpSetColorTarget, 6, "slot addrLo addrHi width height samples format layout tileW tileH", SetColorTarget{}},
		{OpSetDepthTarget, 7, "addrLo addrHi width height samples format layout tileW tileH", SetDepthTarget{}},
		{OpBindShader, 8, "stage addrLo addrHi sizeBytes", BindShader{}},
		{OpSetConstants, 9, "stage firstRegister count addrLo addrHi", SetConstants{}},
		{OpBindTexture, 10, "stage slot descAddrLo descAddrHi filter addressU addressV lodBias minLOD maxLOD addressW maxAnisotropy b0 b1 b2 b3",
			BindTexture{Border: border}},
		{OpBindVertexBuffer, 12, "addrLo addrHi sizeBytes", BindVertexBuffer{}},
		{OpBindIndexBuffer, 13, "addrLo addrHi format sizeBytes", BindIndexBuffer{}},
		{OpSetTopology, 14, "topology", SetTopology{}},
		{OpDraw, 15, "vertexCount startVertex", Draw{}},
		{OpDrawIndexed, 16, "indexCount startIndex baseVertex", DrawIndexed{}},
		{OpClear, 17, "flags c0 c1 c2 c3 depth stencil", Clear{}},
		{OpSyncToken, 18, "value addrLo addrHi", SyncToken{}},
		{OpPresent, 19, "slot", Present{}},
		{OpEnd, 20, "", End{}},
		{OpSetLens, 21, "kx ky f", SetLens{}},
		{OpSetDecoupling, 22, "mode rate flags", SetDecoupling{}},
		{OpBindStreamOut, 23, "slot addrLo addrHi sizeBytes stride offset filledAddrLo filledAddrHi count", BindStreamOut{}},
		{OpSetStreamOut, 24, "flags statsAddrLo statsAddrHi", SetStreamOut{}},
		{OpDrawAuto, 25, "filledAddrLo filledAddrHi", DrawAuto{}},
	} {
		want := len(strings.Fields(tc.layout))
		if int(tc.op) != tc.num {
			t.Errorf("%v: opcode %d, documented %d", tc.op, tc.op, tc.num)
		}
		if tc.c.Opcode() != tc.op {
			t.Fatalf("%v: test case holds a %v", tc.op, tc.c.Opcode())
		}
		var e Encoder
		e.Append(tc.c)
		hdr := binary.LittleEndian.Uint32(e.Bytes())
		if got := int(hdr >> 8); got != want || e.Len() != 4+4*want {
			t.Errorf("%v: encoder writes %d payload words (%d bytes in all), documented %d", tc.op, got, e.Len(), want)
		}
		if pw := payloadWords[tc.op]; pw >= 0 && pw != want {
			t.Errorf("%v: decoder wants %d payload words, documented %d", tc.op, pw, want)
		}
	}
	// The variable layouts: SetInputLayout's 2 + 3 per attribute,
	// BindStreamOut's 9 + 3 per element, BindTexture's first version's 10.
	var e Encoder
	e.Append(SetInputLayout{Stride: 16, Attributes: make([]Attribute, 3)})
	e.Append(BindStreamOut{Elements: make([]StreamOutElement, 2)})
	for i, want := range []int{2 + 3*3, 9 + 3*2} {
		if got := int(binary.LittleEndian.Uint32(e.Bytes()[i*4*(1+2+3*3):]) >> 8); got != want {
			t.Errorf("variable command %d: %d payload words, documented %d", i, got, want)
		}
	}
	if OpNop != 0 || OpSetInputLayout != 11 {
		t.Errorf("Nop is opcode %d and SetInputLayout %d, documented 0 and 11", OpNop, OpSetInputLayout)
	}
	if bindTextureWordsV1 != 10 || bindTextureWords != 16 {
		t.Errorf("BindTexture payloads %d and %d, documented 16 and 10", bindTextureWords, bindTextureWordsV1)
	}
}
