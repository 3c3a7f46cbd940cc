package scene

import "testing"

func TestStreamOutParseErrors(t *testing.T) {
	base := "meshes:\n  tri: {procedural: {kind: triangle}}\nmaterials:\n  step: {shader: particle_step}\n  red: {shader: unlit}\n" +
		"stream_buffers:\n  a: {size: 1024}\n  b: {size: 1024}\nobjects:\n"
	seed := "  - {mesh: tri, material: step, topology: points, stream_out: {buffer: a, rasterize: false}}\n"
	for _, tc := range []struct{ src, want string }{
		{"stream_buffers:\n  a: {size: 10}\n", "e.yaml:2: stream_buffers.a.size: 10 out of range [16, 67108864]"},
		{"stream_buffers:\n  a: {size: 1026}\n", "e.yaml:2: stream_buffers.a.size: 1026 bytes is not a multiple of 4"},
		{base + "  - {draw_auto: a, material: step, topology: points}\n",
			`e.yaml:10: objects[0].draw_auto: DrawAuto from "a" without a preceding stream-out: no earlier object streams out to it`},
		{base + seed + "  - {draw_auto: c, material: step, topology: points}\n", `e.yaml:11: objects[1].draw_auto: unknown stream buffer "c"`},
		{base + "  - {mesh: tri, material: step, topology: points, stream_out: {buffer: a, stride: 16, rasterize: false}}\n",
			"e.yaml:10: objects[0].stream_out.stride: 16 bytes does not fit the 2 outputs of the material's last stage (32 bytes; a multiple of 4)"},
		{base + "  - {mesh: tri, material: step, topology: points, stream_out: {buffer: a, offset: 2048, rasterize: false}}\n",
			`e.yaml:10: objects[0].stream_out.offset: byte 2048 does not fit buffer "a" of 1024 bytes (a multiple of 4, at most its size, or append)`},
		{base + "  - {mesh: tri, material: step, topology: points, stream_out: {buffer: a, offset: 6, rasterize: false}}\n",
			`e.yaml:10: objects[0].stream_out.offset: byte 6 does not fit buffer "a" of 1024 bytes (a multiple of 4, at most its size, or append)`},
		{base + "  - {mesh: tri, material: red, topology: points}\n",
			"e.yaml:10: objects[0].topology: points need a geometry shader material or stream_out with rasterize: false (the rasterizer draws triangles)"},
		{base + "  - {mesh: tri, material: step}\n",
			`e.yaml:10: objects[0].material: material "step"'s geometry shader reads point primitives; set topology to match (this object draws triangles)`},
		{base + seed + "  - {draw_auto: a, material: step, topology: points, stream_out: {buffer: a, rasterize: false}, ping_pong: {count: 1}}\n",
			"e.yaml:11: objects[1].ping_pong: ping_pong needs draw_auto from one buffer and stream_out to another"},
		{base + seed + "  - {draw_auto: a, material: step, topology: points, stream_out: {buffer: a, rasterize: false}}\n",
			`e.yaml:11: objects[1].draw_auto: draw_auto reads "a", which this object's stream_out writes: a buffer is not both a draw's input and its stream-out target (Direct3D 11 unbinds it); stream out to another buffer, or use ping_pong`},
		{base + "  - {draw_auto: a, material: step, topology: points, stream_out: {buffer: a, rasterize: false}}\n",
			`e.yaml:10: objects[0].draw_auto: DrawAuto from "a" without a preceding stream-out: no earlier object streams out to it`},
		{base + "  - {mesh: tri, material: step, topology: lines}\n", `e.yaml:10: objects[0].topology: unknown value "lines" (want one of triangles, points, triangles_adj)`},
		{base + seed + "  - {mesh: tri, draw_auto: a, material: step, topology: points}\n", "e.yaml:11: objects[1].mesh: an object draws a mesh or draw_auto, not both"},
	} {
		_, err := Parse("e.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

// ping_pong expands into 2*(count + per_frame*frame) passes that alternate
// buffers and end in the draw_auto buffer.
func TestPingPong(t *testing.T) {
	s, err := LoadFrame("particles", 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, o := range s.Objects {
		if o.DrawAuto != 0 && o.StreamOut != nil {
			got = append(got, o.DrawAuto-1, o.StreamOut.Buffer)
		}
	}
	if len(got) != 2*2*(4+2*3) {
		t.Fatalf("%d passes at frame 3, want %d", len(got)/2, 2*(4+2*3))
	}
	for i := 0; i < len(got); i += 2 {
		want := [2]int{0, 1}
		if i/2%2 == 1 {
			want = [2]int{1, 0}
		}
		if [2]int{got[i], got[i+1]} != want {
			t.Fatalf("pass %d streams %d -> %d, want %v", i/2, got[i], got[i+1], want)
		}
	}
}
