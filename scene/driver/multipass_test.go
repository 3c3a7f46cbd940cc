package driver

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/scene"
)

func pinScene(t *testing.T, w, h int) *scene.Scene {
	t.Helper()
	s, err := scene.Builtin("bowlingpin")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResolution(w, h, 1); err != nil {
		t.Fatal(err)
	}
	return s
}

func renderRef(t *testing.T, f *Frame) *reference.Result {
	t.Helper()
	r, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, reference.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMultipassImage renders the bowling-pin scene single pass and split on
// every pipeline configuration: the images are equal byte for byte (the
// intermediates are float32, and no derivative reads a restored value).
func TestMultipassImage(t *testing.T) {
	s := pinScene(t, 96, 72)
	single, err := Encode(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if single.Draws != 3 || len(single.Multipass) != 0 {
		t.Fatalf("single pass: %d draws, multipass %v", single.Draws, single.Multipass)
	}
	want := renderRef(t, single)
	// Passes of each pin (and of the floor's textured shader, 43
	// instructions, on the 6-operation machines).
	cases := []struct {
		pc              string
		pin, floor      int
		draws, textures int
	}{
		{"PC1", 20, 13, 53, 6},
		{"PC2", 4, 0, 9, 3},
		{"PC3", 3, 0, 7, 2},
		{"PC4", 3, 0, 7, 2},
		{"PC5", 20, 13, 53, 6},
		{"PC6", 4, 3, 11, 3},
		{"PC7", 0, 0, 3, 0},
		{"PC8", 0, 0, 3, 0},
	}
	for _, c := range cases {
		pc, _ := multipass.PipelineConfig(c.pc)
		o := DefaultOptions()
		o.Multipass.Limits = pc
		f, err := Encode(s, o)
		if err != nil {
			t.Fatalf("%s: %v", c.pc, err)
		}
		checkEstimates(t, f, 96*72) // one per pass
		passes := map[string]int{}
		for _, m := range f.Multipass {
			passes[m.Material] = m.Passes
		}
		if passes["pin"] != c.pin || passes["floor"] != c.floor || f.Draws != c.draws {
			t.Errorf("%s: passes %v, %d draws; want pin %d floor %d, %d draws", c.pc, passes, f.Draws, c.pin, c.floor, c.draws)
		}
		inter := 0
		for _, tx := range f.Textures {
			if strings.HasPrefix(tx.Name, "multipass/") {
				inter++
			}
		}
		if inter != c.textures {
			t.Errorf("%s: %d intermediate textures, want %d", c.pc, inter, c.textures)
		}
		if got := renderRef(t, f); !bytes.Equal(got.Image.Pix, want.Image.Pix) {
			t.Errorf("%s: the multipass image differs from the single pass", c.pc)
		}
	}
}

// TestMultipassCommands pins the command sequence of one split draw: the
// first pass tests depth as the material says, the later ones Equal without
// writes; intermediate passes render opaque into RGBA32F targets; a sync
// token separates the passes; the last pass renders into the colour target.
func TestMultipassCommands(t *testing.T) {
	s := pinScene(t, 32, 24)
	s.Objects = s.Objects[1:2] // the front pin alone
	o := DefaultOptions()
	o.Multipass.Limits, _ = multipass.PipelineConfig("PC3")
	f, err := Encode(s, o)
	if err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, c := range decode(t, f) {
		switch x := c.Command.(type) {
		case command.SetColorTarget:
			if framebuffer.ColorFormat(x.Format) == framebuffer.RGBA32F {
				seq = append(seq, "target float")
			} else {
				seq = append(seq, "target colour")
			}
		case command.SetDepthStencil:
			if x.DepthFunc == uint32(depth.Equal) && x.Flags&command.DepthWrite == 0 {
				seq = append(seq, "depth equal")
			} else if x.Flags&command.DepthWrite != 0 {
				seq = append(seq, "depth write")
			}
		case command.DrawIndexed:
			seq = append(seq, "draw")
		case command.SyncToken:
			seq = append(seq, "sync")
		}
	}
	want := "target colour, target float, depth write, draw, sync, target float, depth equal, draw, sync, target colour, draw, sync"
	if got := strings.Join(seq, ", "); got != want {
		t.Errorf("commands:\n %s\nwant\n %s", got, want)
	}
	if len(f.Multipass) != 1 || f.Multipass[0].Passes != 3 || f.Multipass[0].Object != 0 || f.Multipass[0].Shader != "bowlingpin.ps.gsa" {
		t.Errorf("multipass draws %+v", f.Multipass)
	}
}

// TestMultipassErrors: a frame the machine's passes cannot render is an
// error naming the scene, the object and the machine's limits (a
// configuration's file and line: configs.TestMultipassErrorNamesFile); they
// said "on this machine" and named no scene.
func TestMultipassErrors(t *testing.T) {
	pc1, _ := multipass.PipelineConfig("PC1")
	o := DefaultOptions()
	o.Multipass.Limits = pc1
	msaa := pinScene(t, 32, 24)
	if err := msaa.SetResolution(32, 24, 4); err != nil {
		t.Fatal(err)
	}
	noDepthWrite := pinScene(t, 32, 24)
	noDepthWrite.Materials[noDepthWrite.MaterialIndex("pin")].State.DepthWrite = false
	noDepthWrite.Objects = noDepthWrite.Objects[1:]
	// A shader that discards cannot be split: on a machine too small for it,
	// an error; on one it fits, a single pass.
	kil := pinScene(t, 32, 24)
	m := &kil.Materials[kil.MaterialIndex("floor")]
	m.Shader = "alphatest"
	m.Params = []scene.Param{{Name: "tint", Value: [4]float32{1, 1, 1, 1}}, {Name: "cutoff", Value: [4]float32{0.5, 0.5, 0.5, 0.5}}}
	kil.Objects = kil.Objects[:1]
	for _, tc := range []struct {
		name string
		s    *scene.Scene
		want string
	}{
		{"MSAA", msaa, `builtin:bowlingpin: driver: objects[0]: material "floor": shader "textured": multipass rendering on PC1 ` +
			`needs 1 sample per pixel (the scene has 4): a pass saves one value per pixel`},
		{"no depth writes", noDepthWrite, `builtin:bowlingpin: driver: objects[0]: material "pin": shader "bowlingpin": multipass rendering on PC1 ` +
			`needs depth writes when the depth test is on (the later passes test Equal against the first pass's depth)`},
		{"KIL", kil, `builtin:bowlingpin: driver: objects[0]: material "floor": shader "alphatest": needs 44 operations (limit 6) on PC1 ` +
			`and cannot be split: alphatest.ps.gsa:22: kil r10.x: multipass: KIL is not supported (a pass cannot discard the fragment for the other passes)`},
	} {
		if _, err := Encode(tc.s, o); err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got  %v\n want %s", tc.name, err, tc.want)
		}
	}
	o.Multipass.Limits = multipass.Limits{Ops: 100}
	if f, err := Encode(kil, o); err != nil || f.Draws != 1 || len(f.Multipass) != 0 {
		t.Errorf("KIL shader that fits: %v", err)
	}
}
