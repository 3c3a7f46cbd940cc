package state

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/texture"
)

type fixture struct {
	mem          *command.Image
	color, depth command.Target
	vs, ps       command.BindShader
	consts       uint64
	constsB      uint64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	m := command.NewImage()
	f := &fixture{mem: m}
	g := framebuffer.Geometry{Width: 16, Height: 8, Samples: 4, Layout: framebuffer.Linear}
	ct, err := framebuffer.NewColorTarget(g, framebuffer.RGBA8)
	if err != nil {
		t.Fatal(err)
	}
	f.color = command.Target{Addr: m.Alloc(ct.SizeBytes(), 256), Width: 16, Height: 8, Samples: 4, TileW: 4, TileH: 4}
	ds, err := DepthTargetSize(g, depth.D24S8)
	if err != nil {
		t.Fatal(err)
	}
	f.depth = command.Target{Addr: m.Alloc(ds, 256), Width: 16, Height: 8, Samples: 4, TileW: 4, TileH: 4}
	mat, err := library.Get("unlit")
	if err != nil {
		t.Fatal(err)
	}
	vs, ps := mat.VS.Encode(), mat.PS.Encode()
	f.vs = command.BindShader{Stage: command.VertexStage, Addr: m.Put(vs, 256), Size: uint32(len(vs))}
	f.ps = command.BindShader{Stage: command.PixelStage, Addr: m.Put(ps, 256), Size: uint32(len(ps))}
	var b, c []byte
	for i := 0; i < 4*64; i++ {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(1))
		c = binary.LittleEndian.AppendUint32(c, math.Float32bits(2))
	}
	f.consts, f.constsB = m.Put(b, 256), m.Put(c, 256)
	return f
}

func (f *fixture) apply(t *testing.T, tr *Tracker, cmds ...command.Command) (Action, error) {
	t.Helper()
	var act Action
	for i, c := range cmds {
		var err error
		act, err = tr.Apply(command.Located{Addr: uint64(0x100 + 4*i), Command: c})
		if err != nil {
			return act, err
		}
	}
	return act, nil
}

func TestDrawErrors(t *testing.T) {
	f := newFixture(t)
	vp := command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 8, MaxZ: 1}}
	draw := command.DrawIndexed{IndexCount: 3}
	rt := command.SetColorTarget{Target: f.color}
	tests := []struct {
		name string
		cmds []command.Command
		want string
	}{
		{"no vertex shader", []command.Command{rt, vp, f.ps, draw}, "DrawIndexed: vertex shader: none bound"},
		{"no pixel shader", []command.Command{rt, vp, f.vs, draw}, "DrawIndexed: pixel shader: none bound"},
		{"no target", []command.Command{vp, f.vs, f.ps, draw}, "DrawIndexed: render target: none bound at slot 0"},
		{"no viewport", []command.Command{rt, f.vs, f.ps, draw}, "DrawIndexed: viewport: never set"},
		{"vs as ps", []command.Command{command.BindShader{Stage: command.PixelStage, Addr: f.vs.Addr, Size: f.vs.Size}},
			`BindShader: stage: program "standard.vs.gsa" is a vs shader, bound as pixel`},
		{"bad code", []command.Command{command.BindShader{Stage: command.PixelStage, Addr: f.consts, Size: 64}}, "BindShader: code:"},
		{"depth mismatch", []command.Command{rt, vp, f.vs, f.ps,
			command.SetDepthTarget{Target: command.Target{Addr: f.depth.Addr, Width: 8, Height: 8, Samples: 4, TileW: 4, TileH: 4}}, draw},
			"DrawIndexed: depth target: 8x8 with 4 samples does not match the 16x8 render target with 4 samples"},
		{"target outside memory", []command.Command{command.SetColorTarget{Target: command.Target{Addr: 0x7000_0000, Width: 16, Height: 8, Samples: 1, TileW: 4, TileH: 4}}},
			"SetColorTarget: target: 512 bytes at 0x70000000 are outside simulated memory"},
		{"bad depth func", []command.Command{command.SetDepthStencil{Flags: command.DepthEnable, DepthFunc: 9}}, "SetDepthStencil: state:"},
		{"clear without depth", []command.Command{rt, command.Clear{Flags: command.ClearDepth, Depth: 1}},
			"Clear: flags: depth/stencil clear with no depth target bound"},
		{"bad texture", []command.Command{command.BindTexture{Stage: command.PixelStage, Slot: 0, Desc: f.consts, MaxLOD: 10}}, "BindTexture: descriptor: at 0x"},
	}
	for _, tc := range tests {
		_, err := f.apply(t, NewTracker(f.mem), tc.cmds...)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "command stream @0x") {
			t.Errorf("%s:\n got  %v\n want ...%s", tc.name, err, tc.want)
		}
	}
}

func TestDrawSnapshot(t *testing.T) {
	f := newFixture(t)
	tr := NewTracker(f.mem)
	act, err := f.apply(t, tr,
		command.SetColorTarget{Target: f.color}, command.SetDepthTarget{Target: f.depth},
		command.SetViewport{Viewport: geom.Viewport{X: 2, Y: 1, Width: 10, Height: 20, MaxZ: 1}},
		command.SetScissor{Enable: true, X0: 0, Y0: 2, X1: 30, Y1: 6},
		f.vs, f.ps,
		command.SetConstants{Stage: command.PixelStage, First: 0, Count: 64, Addr: f.consts},
		command.DrawIndexed{IndexCount: 3})
	if err != nil {
		t.Fatal(err)
	}
	d := act.Draw
	if act.Kind != ActDraw || d == nil {
		t.Fatalf("action %+v", act)
	}
	// Bounds: target 16x8, viewport [2,12)x[1,21), scissor [0,30)x[2,6).
	if want := (struct{ X0, Y0, X1, Y1 int }{2, 2, 12, 6}); d.Bounds.X0 != want.X0 || d.Bounds.Y0 != want.Y0 || d.Bounds.X1 != want.X1 || d.Bounds.Y1 != want.Y1 {
		t.Errorf("bounds %+v, want %+v", d.Bounds, want)
	}
	if !d.EarlyZ {
		t.Error("unlit pixel shader should allow early Z")
	}
	if d.Samples.Count != 4 {
		t.Errorf("%d samples", d.Samples.Count)
	}
	first := d.PSConstants[0]
	if _, err := f.apply(t, tr, command.SetConstants{Stage: command.PixelStage, First: 0, Count: 64, Addr: f.constsB}); err != nil {
		t.Fatal(err)
	}
	if d.PSConstants[0] != first || first != (geom.Vec4{1, 1, 1, 1}) {
		t.Errorf("constants of an issued draw changed: %v (was %v)", d.PSConstants[0], first)
	}
	act2, _ := f.apply(t, tr, command.DrawIndexed{IndexCount: 3})
	if act2.Draw.PSConstants[0] != (geom.Vec4{2, 2, 2, 2}) || act2.Draw.Index != 1 {
		t.Errorf("second draw: constants %v, index %d", act2.Draw.PSConstants[0], act2.Draw.Index)
	}
	// Render targets are views of memory: a clear shows in the image.
	act.Draw.Color.Clear(geom.Vec4{1, 0, 0, 1})
	b, _ := f.mem.Slice(f.color.Addr, 4)
	if b[0] != 255 || b[1] != 0 || b[3] != 255 {
		t.Errorf("clear not visible in memory: %v", b)
	}
}

func TestNoDepthTargetDisablesDepth(t *testing.T) {
	f := newFixture(t)
	act, err := f.apply(t, NewTracker(f.mem), command.SetColorTarget{Target: f.color},
		command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 8, MaxZ: 1}}, f.vs, f.ps,
		command.SetDepthStencil{Flags: command.DepthEnable | command.DepthWrite | command.StencilEnable, DepthFunc: uint32(depth.Less)},
		command.Draw{VertexCount: 3})
	if err != nil {
		t.Fatal(err)
	}
	if d := act.Draw; d.Depth.DepthEnable || d.Depth.DepthWrite || d.Depth.StencilEnable || d.DepthBuf != nil {
		t.Errorf("depth state without a depth target: %+v", d.Depth)
	}
}

func TestTextureBindings(t *testing.T) {
	f := newFixture(t)
	mat, err := library.Get("textured")
	if err != nil {
		t.Fatal(err)
	}
	vs, ps := mat.VS.Encode(), mat.PS.Encode()
	bvs := command.BindShader{Stage: command.VertexStage, Addr: f.mem.Put(vs, 256), Size: uint32(len(vs))}
	bps := command.BindShader{Stage: command.PixelStage, Addr: f.mem.Put(ps, 256), Size: uint32(len(ps))}
	unit, _ := mat.PS.SamplerUnit("albedo")
	put := func(d texture.Descriptor) uint64 {
		tex, err := texture.FromRGBA8(d, make([]byte, 4*d.Width*d.Height*d.Slices()))
		if err != nil {
			t.Fatal(err)
		}
		data := f.mem.Put(tex.Bytes(), 256)
		td := tex.Descriptor()
		desc := command.TextureDescriptor{Format: uint32(td.Format), Width: uint32(td.Width), Height: uint32(td.Height),
			Levels: uint32(td.Levels), Layout: uint32(td.Layout), Data: data, Size: uint32(tex.SizeBytes()),
			Type: uint32(td.Type), Depth: uint32(td.Depth)}
		return f.mem.Put(desc.Encode(), 64)
	}
	flat := put(texture.Descriptor{Format: texture.BC3, Width: 8, Height: 8, Layout: texture.Tiled})
	cube := put(texture.Descriptor{Format: texture.RGBA8SRGB, Width: 4, Height: 4, Type: texture.TexCube})
	setup := []command.Command{command.SetColorTarget{Target: f.color},
		command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 8, MaxZ: 1}}, bvs, bps}
	bind := command.BindTexture{Stage: command.PixelStage, Slot: uint32(unit), Desc: flat, Filter: uint32(texture.Anisotropic),
		AddressU: uint32(texture.Mirror), AddressV: uint32(texture.Border), AddressW: uint32(texture.MirrorOnce),
		LODBias: 0.5, MinLOD: 1, MaxLOD: 3, MaxAnisotropy: 8, Border: geom.Vec4{0.1, 0.2, 0.3, 0.4}}
	act, err := f.apply(t, NewTracker(f.mem), append(setup, bind, command.Draw{VertexCount: 3})...)
	if err != nil {
		t.Fatal(err)
	}
	b := act.Draw.PSTextures[unit]
	want := texture.SamplerState{Filter: texture.Anisotropic, AddressU: texture.Mirror, AddressV: texture.Border,
		AddressW: texture.MirrorOnce, LODBias: 0.5, MinLOD: 1, MaxLOD: 3, MaxAnisotropy: 8, BorderColor: geom.Vec4{0.1, 0.2, 0.3, 0.4}}
	if b.Sampler != want || b.Desc != flat {
		t.Errorf("sampler %+v, want %+v", b.Sampler, want)
	}
	if tex := b.Texture; tex == nil || tex.Format != texture.BC3 || tex.Type != texture.Tex2D || len(tex.Levels) != 4 || tex.Layout != texture.Tiled {
		t.Errorf("texture %+v", b.Texture)
	}
	// A cube map bound to the 2D sampler "albedo" is an error at the draw.
	bind.Desc = cube
	_, err = f.apply(t, NewTracker(f.mem), append(setup, bind, command.Draw{VertexCount: 3})...)
	if err == nil || !strings.Contains(err.Error(), "Draw: texture: ps shader sampler s0 (albedo) is declared 2d, the bound texture is Cube") {
		t.Errorf("type mismatch: %v", err)
	}
	// Bad sampler state and descriptors name the field.
	bind.Desc, bind.AddressW = flat, 9
	if _, err = f.apply(t, NewTracker(f.mem), bind); err == nil || !strings.Contains(err.Error(), "BindTexture: sampler: AddressW: invalid value 9") {
		t.Errorf("address W: %v", err)
	}
	bad := f.mem.Put(command.TextureDescriptor{Format: 0, Width: 4, Height: 2, Levels: 1, Type: uint32(texture.TexCube), Data: f.consts, Size: 4096}.Encode(), 64)
	bind.Desc, bind.AddressW = bad, 0
	if _, err = f.apply(t, NewTracker(f.mem), bind); err == nil || !strings.Contains(err.Error(), "Height: cube faces must be square, got 4x2") {
		t.Errorf("bad descriptor: %v", err)
	}
}

// TestLensAndDecoupling checks that draws snapshot the lens and the
// decoupled-sampling setting in effect when they are issued.
func TestLensAndDecoupling(t *testing.T) {
	f := newFixture(t)
	tr := NewTracker(f.mem)
	setup := []command.Command{command.SetColorTarget{Target: f.color},
		command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 8, MaxZ: 1}}, f.vs, f.ps}
	act, err := f.apply(t, tr, append(setup, command.Draw{VertexCount: 3})...)
	if err != nil {
		t.Fatal(err)
	}
	if d := act.Draw; d.Lens != (command.Lens{}) || d.Decoupling != (command.Decoupling{Mode: command.DecoupleOff, Rate: 1}) {
		t.Errorf("defaults: lens %+v, decoupling %+v", d.Lens, d.Decoupling)
	}
	lens := command.Lens{Kx: 0.5, Ky: 0.75, F: 4}
	dec := command.Decoupling{Mode: command.DecoupleOn, Rate: 2, Bilinear: true}
	first, err := f.apply(t, tr, command.SetLens{Lens: lens}, command.SetDecoupling{Decoupling: dec}, command.Draw{VertexCount: 3})
	if err != nil {
		t.Fatal(err)
	}
	ss := command.Decoupling{Mode: command.DecoupleSupersample, Rate: 1}
	second, err := f.apply(t, tr, command.SetDecoupling{Decoupling: ss}, command.Draw{VertexCount: 3})
	if err != nil {
		t.Fatal(err)
	}
	if first.Draw.Lens != lens || first.Draw.Decoupling != dec {
		t.Errorf("first draw: lens %+v, decoupling %+v", first.Draw.Lens, first.Draw.Decoupling)
	}
	if second.Draw.Lens != lens || second.Draw.Decoupling != ss {
		t.Errorf("second draw: lens %+v, decoupling %+v", second.Draw.Lens, second.Draw.Decoupling)
	}
}
