package texturesampler_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
)

// newFormatFixture is newFixture for any descriptor: d.Slices() slices of
// pseudo-random RGBA8 texels converted to d.Format (texture.FromRGBA8).
func newFormatFixture(t *testing.T, s texture.SamplerState, d texture.Descriptor) *fixture {
	t.Helper()
	pix := make([]byte, d.Width*d.Height*d.Slices()*4)
	for i := range pix {
		pix[i] = byte(i*7 + i/13 + i/1000)
	}
	t0, err := texture.FromRGBA8(d, pix)
	if err != nil {
		t.Fatal(err)
	}
	img := command.NewImage()
	img.Alloc(1000, 1)
	data := img.Put(t0.Bytes(), texture.LevelAlign)
	td := t0.Descriptor()
	desc := img.Put(command.TextureDescriptor{Format: uint32(td.Format), Width: uint32(td.Width), Height: uint32(td.Height),
		Levels: uint32(td.Levels), Layout: uint32(td.Layout), Data: data, Size: uint32(t0.SizeBytes()),
		Type: uint32(td.Type), Depth: uint32(td.Depth)}.Encode(), 64)
	view, _ := img.Slice(data, t0.SizeBytes())
	tex, err := texture.NewFromBytes(td, view)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{image: img, binding: &state.TextureBinding{Texture: tex, Sampler: s, Desc: desc}, data: data}
}

func desc2D(f texture.Format, l texture.Layout) texture.Descriptor {
	return texture.Descriptor{Format: f, Width: 64, Height: 64, Layout: l}
}

// TestDecodedFill pins the fill path of one bilinear quad reading texels
// (1,1)-(2,2) (all in the first 4x4 tile/block) for several formats: which
// decoded L1 lines it needs, which stored bytes each line is filled from, and
// what the fill converts.
func TestDecodedFill(t *testing.T) {
	tests := []struct {
		name          string
		d             texture.Descriptor
		fetch         int
		reads         []uint64 // offsets from the texture data
		bytes         float64
		lines         float64
		decodes       float64
		responseCycle uint64
	}{
		// RGBA8 tiled: the decoded line is the stored tile, one 64-byte read.
		{"rgba8 tiled", desc2D(texture.RGBA8, texture.Tiled), 64, []uint64{0}, 64, 1, 0, 35},
		// A linear layout reads the tile's four rows of 16 bytes (pitch 256), one per cycle:
		// sent 3..6, taken by the L2 4..7, received 25..28: filled 28, filter 29, response 37, taken 38.
		{"rgba8 linear", desc2D(texture.RGBA8, texture.Linear), 64, []uint64{0, 256, 512, 768}, 64, 1, 0, 38},
		// BC1: an 8-byte block fills a 64-byte line of 16 decoded texels.
		{"bc1", desc2D(texture.BC1, texture.Tiled), 64, []uint64{0}, 8, 1, 1, 35},
		// BC3: a 16-byte block.
		{"bc3", desc2D(texture.BC3, texture.Linear), 64, []uint64{0}, 16, 1, 1, 35},
		// sRGB texels take 8 bytes in the L1: rows 0-1 and rows 2-3 of the tile are
		// two lines, each filled from 32 stored bytes; 8 texels converted each.
		// Reads sent 3, 4, received 25, 26: filled 25 and 26, response 35, taken 36.
		{"srgb", desc2D(texture.RGBA8SRGB, texture.Tiled), 64, []uint64{0, 32}, 64, 2, 16, 36},
		// RGBA32F: one 64-byte row of 4 texels per line; rows 1 and 2.
		{"rgba32f", desc2D(texture.RGBA32F, texture.Tiled), 64, []uint64{64, 128}, 128, 2, 0, 36},
		// FetchBytes 16 splits the tile into four reads.
		{"fetch 16", desc2D(texture.RGBA8, texture.Tiled), 16, []uint64{0, 16, 32, 48}, 64, 1, 0, 38},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFormatFixture(t, bilinear(), tc.d)
			r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(texturesampler.DefaultConfig(), func(c *texturesampler.Config) { c.FetchBytes = tc.fetch }), fx, 20)
			reqs := []scripted{{msg: lodRequest(fx.binding, 0, quadAt(1, 1)...)}}
			r.run(t, reqs...)
			checkResults(t, r, reqs)
			if len(r.l2.reads) != len(tc.reads) {
				t.Fatalf("L2 reads %x, want offsets %v from 0x%x", r.l2.reads, tc.reads, fx.data)
			}
			for i, off := range tc.reads {
				if r.l2.reads[i] != fx.data+off {
					t.Errorf("read %d at 0x%x, want 0x%x", i, r.l2.reads[i], fx.data+off)
				}
			}
			if r.core.at[0] != tc.responseCycle {
				t.Errorf("response taken at %d, want %d", r.core.at[0], tc.responseCycle)
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{
				"l1_misses": tc.lines, "fill_lines": tc.lines, "bytes_read_l2": tc.bytes, "fill_bytes": 64 * tc.lines,
				"fill_decodes": tc.decodes, "l2_reads": float64(len(tc.reads)), "texels": 16, "footprints": 4,
				"texel_hits": 16 - tc.lines, // each missed line's first tap misses
			})
		})
	}
}

// TestEvictionOfDecodedLines: a one-set, two-way L1 of 64-byte lines holds two
// decoded BC1 blocks; a third block evicts the least recently used one.
func TestEvictionOfDecodedLines(t *testing.T) {
	fx := newFormatFixture(t, bilinear(), desc2D(texture.BC1, texture.Tiled))
	r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(texturesampler.DefaultConfig(), func(c *texturesampler.Config) { c.L1Size, c.L1Ways, c.L1LineSize = 128, 2, 64 }), fx, 20)
	block := func(k int) []scripted {
		return []scripted{{msg: lodRequest(fx.binding, 0, quadAt(4*k+1, 1)...)}}
	}
	var reqs []scripted
	for i, k := range []int{0, 1, 2, 0, 2, 1} { // misses 0, 1, 2 (evicts 0), 0 (evicts 1), hit 2, miss 1
		s := block(k)[0]
		s.at = uint64(100 * i)
		reqs = append(reqs, s)
	}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	want := []uint64{0, 8, 16, 0, 8}
	if len(r.l2.reads) != len(want) {
		t.Fatalf("reads %x", r.l2.reads)
	}
	for i, off := range want {
		if r.l2.reads[i] != fx.data+off {
			t.Errorf("read %d at 0x%x, want block at +%d", i, r.l2.reads[i], off)
		}
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{
		"l1_hits": 1, "l1_misses": 5, "fill_lines": 5, "fill_decodes": 5, "bytes_read_l2": 40, "fill_bytes": 320,
	})
}

// TestBorderTapsReadNothing: a quad entirely outside a Border-addressed
// texture reads the border colour without any lookup.
func TestBorderTapsReadNothing(t *testing.T) {
	s := bilinear()
	s.AddressU, s.AddressV, s.BorderColor = texture.Border, texture.Border, geom.Vec4{0.25, 0.5, 0.75, 1}
	fx := newFixture(t, s, texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), texturesampler.DefaultConfig(), fx, 20)
	reqs := []scripted{{msg: lodRequest(fx.binding, 0, [2]float32{-0.5, 0.5}, [2]float32{-0.5, 0.5}, [2]float32{1.5, 0.5}, [2]float32{0.5, 2})}}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	if r.core.got[0].Results[0] != (geom.Vec4{0.25, 0.5, 0.75, 1}) || len(r.l2.reads) != 0 {
		t.Errorf("result %v with %d reads", r.core.got[0].Results[0], len(r.l2.reads))
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{"border_texels": 16, "texels": 0, "l1_lookups": 0})
}

// TestTextureTypesEqualFunctional runs random requests of every LOD mode on
// an array, a cube map and a volume, compressed and not, with anisotropic
// filtering, through a small L1, and checks every result and the counters.
func TestTextureTypesEqualFunctional(t *testing.T) {
	aniso := texture.DefaultSamplerState()
	aniso.Filter, aniso.MaxAnisotropy = texture.Anisotropic, 8
	aniso.AddressU, aniso.AddressV, aniso.AddressW = texture.Mirror, texture.Wrap, texture.Border
	tests := []struct {
		name string
		d    texture.Descriptor
	}{
		{"array srgb", texture.Descriptor{Format: texture.RGBA8SRGB, Width: 32, Height: 32, Depth: 3, Type: texture.Tex2DArray, Layout: texture.Tiled}},
		{"cube bc3", texture.Descriptor{Format: texture.BC3, Width: 16, Height: 16, Type: texture.TexCube, Layout: texture.Tiled}},
		{"volume r8", texture.Descriptor{Format: texture.R8, Width: 16, Height: 16, Depth: 8, Type: texture.Tex3D, Layout: texture.Linear}},
		{"bc5 2d", texture.Descriptor{Format: texture.BC5, Width: 64, Height: 32, Layout: texture.Tiled}},
		{"half 2d", texture.Descriptor{Format: texture.RGBA16F, Width: 32, Height: 64, Layout: texture.Linear}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFormatFixture(t, aniso, tc.d)
			r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(texturesampler.DefaultConfig(), func(c *texturesampler.Config) { c.L1Size, c.L1Ways, c.L1LineSize = 1024, 2, 64; c.MissQueue = 8 }), fx, 25)
			var reqs []scripted
			rnd := uniform(777, 2, -0.5)
			for i := 0; i < 24; i++ {
				lanes := make([]shader.TexRequest, 4*(1+i%4))
				for l := range lanes {
					d := (rnd() + 0.6) / 8
					lanes[l] = shader.TexRequest{Mode: texModes[i%4], Coord: geom.Vec4{rnd(), rnd(), rnd() * 3, rnd() * 2},
						DDX: geom.Vec4{d, 0, d / 4}, DDY: geom.Vec4{0, d / 5, d}, LODOrBias: rnd()}
				}
				reqs = append(reqs, scripted{msg: protocol.NewTexRequest(nil, uint64(i), fx.binding, lanes), at: uint64(2 * i)})
			}
			r.run(t, reqs...)
			checkResults(t, r, reqs)
			st := testpeer.StatMap(r.s)
			p := "GPU.TextureSampler[0]."
			if st[p+"fill_lines"] != st[p+"l1_misses"]-st[p+"merged_misses"] || st[p+"fill_lines"] == 0 ||
				st[p+"bytes_read_l2"] != st[p+"l2.bytes_read"] || st[p+"l1_hits"] == 0 {
				t.Errorf("inconsistent counters %v", st)
			}
			conv := tc.d.Format.Compressed() || tc.d.Format == texture.RGBA8SRGB
			if (st[p+"fill_decodes"] > 0) != conv || st[p+"fill_units"] < st[p+"fill_lines"] {
				t.Errorf("fill decodes %v of %v units", st[p+"fill_decodes"], st[p+"fill_units"])
			}
		})
	}
}
