package configs

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// stripIndices is the index list of both strip draws of stripFrame (X: the
// cut index): strips 0-3 (two triangles), 4-7 (two), 8 (too short: none),
// an empty one, 9-11 (one), 3 (none).
var stripIndices = []uint32{0, 1, 2, 3, 0xFFFFFFFF, 4, 5, 6, 7, 0xFFFFFFFF, 8, 0xFFFFFFFF, 0xFFFFFFFF, 9, 10, 11, 0xFFFFFFFF, 3}

// stripFrame is a 32x32 frame (its targets and fence from the driver's
// triangle scene, whose draws it replaces) of two indexed triangle strips
// with cut indices, 16-bit indices over vertices 0-11 (the upper half) and
// 32-bit ones with BaseVertex 12 (the lower half). Vertex i has colour
// (i/32, 0, 0, 1), interpolated flat. With streamOut, every primitive is
// streamed out (the colour of each of its vertices) to so, with
// rasterization.
func stripFrame(t *testing.T, c *Config, streamOut bool) (f *driver.Frame, so uint64) {
	t.Helper()
	_, f = frameWith(t, "triangle", 32, 32, 1, c.DriverOptions())
	m := f.Memory
	var enc command.Encoder
	bind := func(stage command.Stage, src string) {
		p, err := shader.Assemble("strip.gsa", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		b := p.Encode()
		enc.Append(command.BindShader{Stage: stage, Addr: m.Put(b, 16), Size: uint32(len(b))})
	}
	enc.Append(command.SetColorTarget{Slot: 0, Target: f.Color})
	enc.Append(command.SetDepthTarget{Target: f.Depth})
	enc.Append(command.SetViewport{Viewport: geom.Viewport{Width: 32, Height: 32, MaxZ: 1}})
	enc.Append(command.SetRaster{CullMode: uint32(geom.CullNone)})
	enc.Append(command.Clear{Flags: command.ClearColor | command.ClearDepth, Color: [4]float32{0, 0, 1, 1}, Depth: 1})
	bind(command.VertexStage, ".vs\n.input v0 position\n.input v1 color\n.output o0 position\n.output o1 color\nmov o0, v0\nmov o1, v1\n")
	bind(command.PixelStage, ".ps\n.input v0 color flat\n.output o0 color\nmov o0, v0\n")
	// Two rows of 6 columns per half: vertex 2k at the top of column k,
	// 2k+1 at its bottom, so that the strip 0 1 2 3 ... is a row of quads.
	var vb []byte
	for i := 0; i < 24; i++ {
		k, half := (i%12)/2, float32(i/12)
		y := 0.9 - 0.8*float32(i%2) - half
		for _, x := range []float32{-1 + 0.4*float32(k), y, 0.5, 1, float32(i) / 32, 0, 0, 1} {
			vb = binary.LittleEndian.AppendUint32(vb, math.Float32bits(x))
		}
	}
	enc.Append(command.SetInputLayout{Stride: 32, Attributes: []command.Attribute{
		{Semantic: command.SemPosition, Components: 4}, {Semantic: command.SemColor, Offset: 16, Components: 4}}})
	enc.Append(command.BindVertexBuffer{Addr: m.Put(vb, 16), Size: uint32(len(vb))})
	if streamOut {
		so = m.Alloc(4096, 16)
		enc.Append(command.BindStreamOut{Slot: 0, Addr: so, Size: 4096, Stride: 16, FilledAddr: m.Alloc(4, 4),
			Elements: []command.StreamOutElement{{Register: 1, Components: 4}}})
		enc.Append(command.SetStreamOut{Flags: command.StreamOutEnable})
	}
	enc.Append(command.SetTopology{Topology: command.TriangleStrip})
	var ib16, ib32 []byte
	for _, i := range stripIndices {
		ib16 = binary.LittleEndian.AppendUint16(ib16, uint16(i))
		ib32 = binary.LittleEndian.AppendUint32(ib32, i)
	}
	enc.Append(command.BindIndexBuffer{Addr: m.Put(ib16, 16), Format: 16, Size: uint32(len(ib16))})
	enc.Append(command.DrawIndexed{IndexCount: uint32(len(stripIndices))})
	enc.Append(command.BindIndexBuffer{Addr: m.Put(ib32, 16), Format: 32, Size: uint32(len(ib32))})
	enc.Append(command.DrawIndexed{IndexCount: uint32(len(stripIndices)), BaseVertex: 12})
	enc.Append(command.Present{Slot: 0})
	enc.Append(command.SyncToken{Value: f.SyncValue, Addr: f.SyncAddr})
	enc.Append(command.End{})
	f.Stream, f.StreamBytes = m.Put(enc.Bytes(), 4096), uint64(enc.Len())
	f.Draws, f.DrawEstimates, f.Triangles = 2, make([]driver.DrawEstimate, 2), 10
	return f, so
}

// TestStripCutsTimedEqualsReference: indexed triangle strips with cut
// indices (16- and 32-bit) give D3D's primitives, (0,1,2), (1,3,2), (4,5,6),
// (5,7,6), (9,10,11) per draw, streamed out in that vertex order, with the
// flat colour of each triangle's leading vertex; the timed machines make
// the same primitives, image and memory as the reference renderer, reading
// every index once (the cuts too); SAGE, without stream-out (a draw that
// streams out goes whole to one pipe), cuts the strips into chunks of 2
// triangles across its pipes.
func TestStripCutsTimedEqualsReference(t *testing.T) {
	var want []uint32
	for _, base := range []uint32{0, 12} {
		for _, v := range []uint32{0, 1, 2, 1, 3, 2, 4, 5, 6, 5, 7, 6, 9, 10, 11} {
			want = append(want, base+v)
		}
	}
	for _, m := range []struct {
		name, yaml string
		streamOut  bool
	}{
		{"default", "", true},
		{"sortmiddle", "machine: sortmiddle\n", true},
		{"sage three pipes, chunks of 2", "machine: sage\nsage: {pipes: 3, distribution: {chunk_triangles: 2}}\n", false},
	} {
		t.Run(m.name, func(t *testing.T) {
			cfg := machine(t, m.name, m.yaml)
			f, so := stripFrame(t, cfg, m.streamOut)
			g, _ := stripFrame(t, cfg, m.streamOut)
			res := timed(t, cfg, f)
			ref := referenceRender(t, cfg, g)
			if ref.Counters.Triangles != 10 {
				t.Errorf("reference: %d triangles, want 10", ref.Counters.Triangles)
			}
			if m.streamOut {
				var got []uint32
				for k := range want {
					got = append(got, uint32(command.ReadF32(g.Memory, so+16*uint64(k))*32))
				}
				if !slices.Equal(got, want) || ref.Counters.SOPrimitivesWritten != 10 {
					t.Errorf("reference streamed out %d primitives, vertices\n%v\nwant 10,\n%v", ref.Counters.SOPrimitivesWritten, got, want)
				}
				if got := sum(res.Stats, "GPU.", "so_primitives_written"); got != 10 {
					t.Errorf("so_primitives_written %v timed, want 10", got)
				}
				if got := sum(res.Stats, "GPU.", "index_reads"); got != 2*float64(len(stripIndices)) {
					t.Errorf("index_reads %v timed, want every index once: %d", got, 2*len(stripIndices))
				}
			} else if pipes := len(pipesReadingIndices(res.Stats)); pipes < 2 {
				t.Errorf("%d pipes read indices: the strips were not cut into chunks", pipes)
			}
			// Triangle (1,3,2) covers pixel (5, 12): vertex 1's flat red.
			if px := ref.Image.Pix[ref.Image.PixOffset(5, 12):]; px[0] != 8 || px[2] != 0 {
				t.Errorf("pixel (5,12) = %v, want vertex 1's red 8", px[:4])
			}
			if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
				t.Error("the timed image differs from the reference image")
			}
			if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
				t.Error("the memory images (targets, stream-out buffer) differ after the frame")
			}
		})
	}
}

// pipesReadingIndices returns the SAGE pipes whose input assembler read indices.
func pipesReadingIndices(st map[string]float64) []string {
	var out []string
	for k, v := range st {
		if strings.HasPrefix(k, "GPU.Pipe[") && strings.HasSuffix(k, ".InputAssembler.index_reads") && v > 0 {
			out = append(out, k)
		}
	}
	return out
}
