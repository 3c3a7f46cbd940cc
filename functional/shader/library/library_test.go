package library

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
)

func TestNames(t *testing.T) {
	want := []string{"alphatest", "blinnphong", "bowlingpin", "bumppin", "depthwrite", "envmap", "gouraud", "grass", "grass_instanced", "layered", "long",
		"normalmap", "particle_sprite", "particle_step", "silhouette", "textured", "unlit", "volume", "wood"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	wantFiles := []string{"alphatest.ps.gsa", "blinnphong.ps.gsa", "bowlingpin.ps.gsa", "bumppin.ps.gsa", "depthwrite.ps.gsa",
		"envmap.ps.gsa", "gouraud.ps.gsa", "gouraud.vs.gsa", "grass.gs.gsa", "grass_instanced.gs.gsa", "layered.ps.gsa", "long.ps.gsa", "normalmap.ps.gsa", "object.vs.gsa",
		"particle.vs.gsa", "particle_step.gs.gsa", "pin.vs.gsa", "silhouette.gs.gsa", "sprite.gs.gsa", "standard.vs.gsa", "textured.ps.gsa",
		"unlit.ps.gsa", "vcolor.ps.gsa", "volume.ps.gsa", "wood.ps.gsa"}
	if got := Files(); !reflect.DeepEqual(got, wantFiles) {
		t.Errorf("Files = %v, want %v", got, wantFiles)
	}
	if _, err := Get("bricks"); err == nil || err.Error() != `library: unknown material "bricks" (want one of alphatest, blinnphong, bowlingpin, bumppin, depthwrite, envmap, gouraud, grass, grass_instanced, layered, long, normalmap, particle_sprite, particle_step, silhouette, textured, unlit, volume, wood)` {
		t.Errorf("Get(bricks) error = %v", err)
	}
	if _, err := Load("nope.ps.gsa"); err == nil || err.Error() != `library: no shader file "nope.ps.gsa"` {
		t.Errorf("Load(nope) error = %v", err)
	}
}

// TestMaterialInterfaces pins the parameter and sampler names the scene
// files rely on, and the shader pairing.
func TestMaterialInterfaces(t *testing.T) {
	cases := []struct {
		name, vs, ps string
		params       []string
		samplers     []string
	}{
		{"unlit", "standard", "unlit", []string{"color"}, nil},
		{"gouraud", "gouraud", "gouraud", []string{"diffuse", "specular"}, nil},
		{"blinnphong", "standard", "blinnphong", []string{"diffuse", "specular"}, nil},
		{"textured", "standard", "textured", []string{"tint"}, []string{"albedo"}},
		{"normalmap", "standard", "normalmap", []string{"specular"}, []string{"albedo", "normal"}},
		{"alphatest", "standard", "alphatest", []string{"tint", "cutoff"}, []string{"albedo"}},
		{"depthwrite", "standard", "depthwrite", []string{"color", "amplitude", "frequency"}, nil},
		{"long", "standard", "long", []string{"color_a", "color_b", "specular"}, nil},
		{"bowlingpin", "pin", "bowlingpin", []string{"slide0_s", "slide0_t", "slide0_q", "slide0_pos", "slide1_s", "slide1_t",
			"slide1_q", "slide1_pos", "slide2_s", "slide2_t", "slide2_q", "slide2_pos", "slide3_s", "slide3_t", "slide3_q",
			"slide3_pos", "diffuse", "specular"},
			[]string{"pinbase", "bruns", "circle", "coated", "marks", "slide0", "slide1", "slide2", "slide3"}},
		{"bumppin", "object", "bumppin", []string{"diffuse", "specular"}, []string{"pinbase", "bruns", "marks", "bump"}},
		{"wood", "object", "wood", []string{"ringscale", "grainscale", "specular", "planks"},
			[]string{"noise", "turbulence", "grain", "palette", "planks", "varnish"}},
		{"envmap", "standard", "envmap", []string{"tint"}, []string{"env"}},
		{"layered", "standard", "layered", []string{"tint", "layer"}, []string{"layers"}},
		{"volume", "standard", "volume", []string{"tint", "scale", "offset"}, []string{"volume"}},
		// Geometry shader materials: the GS's parameters come between the VS's and the PS's.
		{"grass", "standard", "vcolor", []string{"ground", "base", "tip", "blade", "wind", "width"}, nil},
		{"grass_instanced", "standard", "vcolor", []string{"ground", "base", "tip", "blade", "wind", "width"}, nil},
		{"silhouette", "standard", "unlit", []string{"width", "bias", "color"}, nil},
		{"particle_step", "particle", "unlit", []string{"dt", "gravity", "lifetime", "spray", "color"}, nil},
		{"particle_sprite", "particle", "vcolor", []string{"size", "hot", "cold", "lifetime"}, nil},
	}
	if len(cases) != len(Names()) {
		t.Fatalf("%d cases for %d materials", len(cases), len(Names()))
	}
	for _, tc := range cases {
		m, err := Get(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != tc.name || m.VSName != tc.vs || m.PSName != tc.ps {
			t.Errorf("%s: names %q %q %q", tc.name, m.Name, m.VSName, m.PSName)
		}
		if m.VS.Stage != shader.VertexStage || m.PS.Stage != shader.PixelStage {
			t.Errorf("%s: stages %v %v", tc.name, m.VS.Stage, m.PS.Stage)
		}
		if m.VS.Name != tc.vs+".vs.gsa" || m.PS.Name != tc.ps+".ps.gsa" {
			t.Errorf("%s: program names %q %q", tc.name, m.VS.Name, m.PS.Name)
		}
		var params, samplers []string
		for _, p := range m.Params() {
			params = append(params, p.Name)
		}
		for _, s := range m.Samplers() {
			samplers = append(samplers, s.Name)
		}
		if !reflect.DeepEqual(params, tc.params) {
			t.Errorf("%s: params %v, want %v", tc.name, params, tc.params)
		}
		if !reflect.DeepEqual(samplers, tc.samplers) {
			t.Errorf("%s: samplers %v, want %v", tc.name, samplers, tc.samplers)
		}
		if len(m.Links) != len(m.PS.Inputs) {
			t.Errorf("%s: %d links for %d inputs", tc.name, len(m.Links), len(m.PS.Inputs))
		}
		// The ABI names are the only named constant blocks.
		abi := []string{"mvp", "mvp_end", "model", "normal_matrix", "camera_pos", "ambient", "light_count", "lights"}
		for _, p := range []*shader.Program{m.VS, m.PS} {
			for _, c := range p.Consts {
				if !slices.Contains(abi, c.Name) {
					t.Errorf("%s: %s declares non-ABI constant %q", tc.name, p.Name, c.Name)
				}
				if c.Name == "lights" && c.Count != 8 || (c.Name == "mvp" || c.Name == "model") && c.Count != 4 || c.Name == "normal_matrix" && c.Count != 3 {
					t.Errorf("%s: %s: constant %q has %d registers", tc.name, p.Name, c.Name, c.Count)
				}
			}
		}
	}
}

func TestStandardVertexShaderInterface(t *testing.T) {
	vs, err := Load("standard.vs.gsa")
	if err != nil {
		t.Fatal(err)
	}
	wantIn := []shader.InputDecl{{Reg: 0, Semantic: "position"}, {Reg: 1, Semantic: "normal"}, {Reg: 2, Semantic: "texcoord"}, {Reg: 3, Semantic: "tangent"}}
	if !reflect.DeepEqual(vs.Inputs, wantIn) {
		t.Errorf("inputs %+v", vs.Inputs)
	}
	var outs []string
	for _, o := range vs.Outputs {
		outs = append(outs, o.Semantic)
	}
	if want := []string{"position", "normal", "texcoord", "worldpos", "tangent", "position_end"}; !reflect.DeepEqual(outs, want) {
		t.Errorf("outputs %v, want %v", outs, want)
	}
	var consts []string
	for _, c := range vs.Consts {
		consts = append(consts, c.Name)
	}
	if want := []string{"mvp", "model", "normal_matrix", "mvp_end"}; !reflect.DeepEqual(consts, want) {
		t.Errorf("consts %v, want %v", consts, want)
	}
}

// TestResources pins every program's resource usage (hand-counted from the
// .gsa files: e.g. blinnphong = 10 prologue + 4 lights x 19 + 4 epilogue).
func TestResources(t *testing.T) {
	want := map[string]shader.Resources{
		"standard.vs.gsa":   {Instructions: 20, ALU: 20, Inputs: 4, Interpolants: 4, Outputs: 6, Constants: 15},
		"gouraud.vs.gsa":    {Instructions: 104, ALU: 104, SFU: 14, Temps: 11, MaxLiveTemps: 8, Inputs: 2, Interpolants: 1, Outputs: 3, Constants: 30},
		"gouraud.ps.gsa":    {Instructions: 1, ALU: 1, Inputs: 1, Interpolants: 1, Outputs: 1},
		"unlit.ps.gsa":      {Instructions: 1, ALU: 1, Outputs: 1, Constants: 1},
		"blinnphong.ps.gsa": {Instructions: 90, ALU: 90, SFU: 14, Temps: 9, MaxLiveTemps: 7, Inputs: 2, Interpolants: 2, Outputs: 1, Constants: 18},
		"textured.ps.gsa":   {Instructions: 42, ALU: 41, SFU: 5, TexFetches: 1, Temps: 10, MaxLiveTemps: 4, Inputs: 3, Interpolants: 3, Outputs: 1, Constants: 17, Samplers: 1, TexDependencyDepth: 1},
		"alphatest.ps.gsa":  {Instructions: 44, ALU: 43, SFU: 5, TexFetches: 1, Temps: 11, MaxLiveTemps: 5, Inputs: 3, Interpolants: 3, Outputs: 1, Constants: 18, Samplers: 1, Discards: true, TexDependencyDepth: 1},
		"depthwrite.ps.gsa": {Instructions: 45, ALU: 45, SFU: 7, Temps: 9, MaxLiveTemps: 4, Inputs: 4, Interpolants: 3, Outputs: 1, Constants: 19, WritesDepth: true},
		"normalmap.ps.gsa":  {Instructions: 109, ALU: 107, SFU: 16, TexFetches: 2, Temps: 13, MaxLiveTemps: 7, Inputs: 4, Interpolants: 4, Outputs: 1, Constants: 17, Samplers: 2, TexDependencyDepth: 1},
		"long.ps.gsa":       {Instructions: 120, ALU: 120, SFU: 22, Temps: 11, MaxLiveTemps: 8, Inputs: 2, Interpolants: 2, Outputs: 1, Constants: 29},
		// object = 4 + 4 + 2 + 3 + 4 + 3 + 2; pin = 4 + 4 + 2 + 3 + 1 + 4 + 4 + 1 + 4 slides x 9 (the
		// second 4: position_end, which is not an interpolant).
		"object.vs.gsa": {Instructions: 22, ALU: 22, Inputs: 4, Interpolants: 5, Outputs: 7, Constants: 15},
		"pin.vs.gsa":    {Instructions: 59, ALU: 59, SFU: 5, Temps: 3, MaxLiveTemps: 3, Inputs: 3, Interpolants: 7, Outputs: 9, Constants: 33},
		// bowlingpin: 3 + 10 (5 fetches) + 5 + 3 + 19 (point light: rsq x4, pow) + 4 slides x 4 (rcp, fetch) + 5.
		"bowlingpin.ps.gsa": {Instructions: 65, ALU: 56, SFU: 9, TexFetches: 9, Temps: 16, MaxLiveTemps: 8, Inputs: 7, Interpolants: 7, Outputs: 1, Constants: 18, Samplers: 9, TexDependencyDepth: 1},
		// bumppin: 15 (4 fetches) + 13 (N, T, B) + 7 + 15 (L, V, H) + 6 (pow) + 6; rsq x6.
		"bumppin.ps.gsa": {Instructions: 62, ALU: 58, SFU: 7, TexFetches: 4, Temps: 16, MaxLiveTemps: 9, Inputs: 4, Interpolants: 4, Outputs: 1, Constants: 18, Samplers: 4, TexDependencyDepth: 1},
		// wood: 9 (planks) + 24 (8 octaves) + 18 (rings) + 8 (grain) + 12 (4 octaves) + 6 + 24 (bump) + 2 + 5 + 4 lights x 16 + 4;
		// 19 fetches; rsq x5 + 4 x (2 rsq + pow); the turbulence, grain and palette chain is 11 fetches deep.
		// envmap: N (4, rsq) + V (5, rsq) + R (3) + fetch + tint; layered and volume: coordinates, fetch, tint.
		"envmap.ps.gsa":  {Instructions: 14, ALU: 13, SFU: 2, TexFetches: 1, Temps: 5, MaxLiveTemps: 3, Inputs: 2, Interpolants: 2, Outputs: 1, Constants: 17, Samplers: 1, TexDependencyDepth: 1},
		"layered.ps.gsa": {Instructions: 4, ALU: 3, TexFetches: 1, Temps: 2, MaxLiveTemps: 1, Inputs: 1, Interpolants: 1, Outputs: 1, Constants: 18, Samplers: 1, TexDependencyDepth: 1},
		"volume.ps.gsa":  {Instructions: 3, ALU: 2, TexFetches: 1, Temps: 2, MaxLiveTemps: 1, Inputs: 1, Interpolants: 1, Outputs: 1, Constants: 19, Samplers: 1, TexDependencyDepth: 1},
		// Geometry shaders (emit, emitc and cut count as ALU instructions here) and their companions.
		"grass.gs.gsa": {Instructions: 37, ALU: 37, SFU: 1, Temps: 7, MaxLiveTemps: 4, Inputs: 4, Outputs: 2, Constants: 12},
		// grass_instanced: grass's 21 for the centroid, height, tip and width, s = sv_gsinstanceid - 0.5, and per
		// vertex an add, one or two cmps and an emit (11); temps r0-r9.
		"grass_instanced.gs.gsa": {Instructions: 33, ALU: 33, SFU: 1, Temps: 10, MaxLiveTemps: 5, Inputs: 5, Outputs: 2, Constants: 12},
		"particle.vs.gsa":        {Instructions: 2, ALU: 2, Inputs: 2, Interpolants: 1, Outputs: 2},
		"particle_step.gs.gsa":   {Instructions: 28, ALU: 28, SFU: 3, Temps: 9, MaxLiveTemps: 4, Inputs: 3, Outputs: 2, Constants: 7},
		"silhouette.gs.gsa":      {Instructions: 106, ALU: 106, SFU: 6, Temps: 23, MaxLiveTemps: 8, Inputs: 9, Outputs: 1, Constants: 4},
		"sprite.gs.gsa":          {Instructions: 20, ALU: 20, SFU: 1, Temps: 6, MaxLiveTemps: 3, Inputs: 2, Outputs: 2, Constants: 10},
		"vcolor.ps.gsa":          {Instructions: 1, ALU: 1, Inputs: 1, Interpolants: 1, Outputs: 1},
		"wood.ps.gsa":            {Instructions: 178, ALU: 159, SFU: 17, TexFetches: 19, Temps: 30, MaxLiveTemps: 8, Inputs: 5, Interpolants: 5, Outputs: 1, Constants: 25, Samplers: 6, TexDependencyDepth: 11},
	}
	for _, f := range Files() {
		p, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[f]
		if !ok {
			t.Errorf("%s: no expected resources", f)
			continue
		}
		if got := p.Resources(); got != w {
			t.Errorf("%s:\n got  %+v\n want %+v", f, got, w)
		}
	}
	long, _ := Load("long.ps.gsa")
	if n := len(long.Code); n < 100 {
		t.Errorf("long shader has %d instructions, want >= 100", n)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, f := range Files() {
		p, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		q, err := shader.Decode(p.Encode())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Errorf("%s: Decode(Encode(p)) differs", f)
		}
	}
}

// lightingScene fills the constant ABI: a directional light straight along
// +z (enabled), a red point light at (5,0,0) that is disabled by
// light_count = 1, and two unused (zero) slots; camera at (0,0,4).
func lightingScene(t *testing.T, p *shader.Program, params map[string]geom.Vec4) []geom.Vec4 {
	t.Helper()
	c := p.InitConstants(nil)
	set := func(name string, vals ...geom.Vec4) {
		d, ok := p.ConstBlock(name)
		if !ok {
			t.Fatalf("%s: no constant block %q", p.Name, name)
		}
		copy(c[d.Reg:d.Reg+d.Count], vals)
	}
	set("camera_pos", geom.Vec4{0, 0, 4, 1})
	set("ambient", geom.Vec4{0.1, 0.1, 0.1, 0})
	set("light_count", geom.Vec4{1, 0, 0, 0})
	set("lights", geom.Vec4{0, 0, 1, 0}, geom.Vec4{1, 1, 1, 0}, geom.Vec4{5, 0, 0, 1}, geom.Vec4{1, 0, 0, 0})
	for name, v := range params {
		d, ok := p.Param(name)
		if !ok {
			t.Fatalf("%s: no param %q", p.Name, name)
		}
		c[d.Reg] = v
	}
	return c
}

// litColor is ambient*diffuse + diffuse*1 + specular*1 in the shader's
// float32 operation order, for N.L = N.H = 1 and a white light.
func litColor(ambient, diffuse, specular float32) float32 {
	a := ambient * diffuse
	a = diffuse + a
	return specular + a
}

type constTexture struct{ texel map[int]geom.Vec4 }

func (c constTexture) SampleTexture(r *shader.TexRequest) geom.Vec4 { return c.texel[r.Unit] }

func TestBlinnPhongShading(t *testing.T) {
	for _, name := range []string{"blinnphong", "gouraud"} {
		m, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]geom.Vec4{"diffuse": {0.5, 0.25, 1, 0.75}, "specular": {0.5, 0.5, 0.5, 32}}
		w := shader.NewWarp(4)
		var got geom.Vec4
		if name == "gouraud" {
			c := lightingScene(t, m.VS, params)
			identity := geom.Identity()
			for _, blk := range []string{"mvp", "model", "normal_matrix"} {
				d, _ := m.VS.ConstBlock(blk)
				for r := 0; r < d.Count; r++ {
					c[d.Reg+r] = identity.Row(r)
				}
			}
			w.Reset(m.VS, 1, c)
			w.SetInput(0, 0, geom.Vec4{0, 0, 0, 1})
			w.SetInput(0, 1, geom.Vec4{0, 0, 2, 0})
			w.Run(nil)
			if pos := w.Output(0, 0); pos != (geom.Vec4{0, 0, 0, 1}) {
				t.Errorf("gouraud position %v", pos)
			}
			got = w.Output(0, 1)
		} else {
			w.Reset(m.PS, 4, lightingScene(t, m.PS, params))
			w.SetInput(0, 0, geom.Vec4{0, 0, 2, 0}) // normal, normalized by the shader
			w.SetInput(0, 1, geom.Vec4{0, 0, 0, 1}) // world position
			w.Run(nil)
			got = w.Output(0, 0)
		}
		want := geom.Vec4{litColor(0.1, 0.5, 0.5), litColor(0.1, 0.25, 0.5), litColor(0.1, 1, 0.5), 0.75}
		if got != want {
			t.Errorf("%s: colour %v, want %v", name, got, want)
		}
	}
}

func TestNormalMapShading(t *testing.T) {
	m, err := Get("normalmap")
	if err != nil {
		t.Fatal(err)
	}
	c := lightingScene(t, m.PS, map[string]geom.Vec4{"specular": {0.5, 0.5, 0.5, 32}})
	albedo, _ := m.PS.SamplerUnit("albedo")
	normal, _ := m.PS.SamplerUnit("normal")
	// A flat normal-map texel (0.5, 0.5, 1) is the tangent-space normal (0,0,1).
	tex := constTexture{map[int]geom.Vec4{albedo: {0.5, 0.25, 1, 0.75}, normal: {0.5, 0.5, 1, 1}}}
	w := shader.NewWarp(4)
	w.Reset(m.PS, 4, c)
	w.SetInput(0, 0, geom.Vec4{0, 0, 2, 0})
	w.SetInput(0, 1, geom.Vec4{0, 0, 0, 1})
	w.SetInput(0, 3, geom.Vec4{1, 0, 0, 1})
	w.Run(tex)
	// albedo*(ambient + 1) + specular*1
	mix := func(a float32) float32 {
		s := float32(1) + float32(0.1)
		s = a * s
		return float32(0.5) + s
	}
	want := geom.Vec4{mix(0.5), mix(0.25), mix(1), 0.75}
	if got := w.Output(0, 0); got != want {
		t.Errorf("colour %v, want %v", got, want)
	}
}

func TestTexturedAndAlphaTest(t *testing.T) {
	for _, name := range []string{"textured", "alphatest"} {
		m, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]geom.Vec4{"tint": {1, 0.5, 1, 0.5}}
		if name == "alphatest" {
			params["cutoff"] = geom.Vec4{0.3, 0, 0, 0}
		}
		c := lightingScene(t, m.PS, params)
		w := shader.NewWarp(4)
		w.Reset(m.PS, 4, c)
		for lane := 0; lane < 4; lane++ {
			w.SetInput(lane, 0, geom.Vec4{0, 0, 1, 0})
			w.SetInput(lane, 1, geom.Vec4{0, 0, 0, 1})
		}
		// Texel alpha 0.8 * tint alpha 0.5 = 0.4 >= 0.3: kept.
		w.Run(constTexture{map[int]geom.Vec4{0: {0.5, 1, 0.25, 0.8}}})
		// (albedo*tint) * (1 + ambient)
		lit := func(a float32) float32 { return a * (float32(1) + float32(0.1)) }
		want := geom.Vec4{lit(0.5), lit(0.5), lit(0.25), 0.4}
		if got := w.Output(0, 0); got != want {
			t.Errorf("%s: colour %v, want %v", name, got, want)
		}
		if w.Killed != 0 {
			t.Errorf("%s: killed %b", name, w.Killed)
		}
		if name == "alphatest" {
			// Texel alpha 0.5 * 0.5 = 0.25 < 0.3: every lane is killed.
			w.Reset(m.PS, 4, c)
			w.Run(constTexture{map[int]geom.Vec4{0: {1, 1, 1, 0.5}}})
			if w.Killed != 0b1111 {
				t.Errorf("alphatest: killed %04b, want 1111", w.Killed)
			}
		}
	}
}

func TestDepthWrite(t *testing.T) {
	m, err := Get("depthwrite")
	if err != nil {
		t.Fatal(err)
	}
	c := lightingScene(t, m.PS, map[string]geom.Vec4{"amplitude": {0.25, 0, 0, 0}, "frequency": {1, 0, 0, 0}})
	pos, _ := m.PS.Input(shader.SemanticPosition)
	tc, _ := m.PS.Input("texcoord")
	w := shader.NewWarp(4)
	w.Reset(m.PS, 4, c)
	// (u, v, Z) -> Z + 0.25*sin(u)*cos(v), clamped.
	lanes := []struct {
		u, z, want float32
	}{
		{0, 0.5, 0.5},            // sin 0 = 0
		{math.Pi / 2, 0.5, 0.75}, // sin(float32(pi/2)) rounds to 1
		{math.Pi / 2, 0.9, 1},    // clamped
		{-math.Pi / 2, 0.125, 0}, // 0.125 - 0.25 clamped to 0
	}
	for i, l := range lanes {
		w.SetInput(i, tc.Reg, geom.Vec4{l.u, 0, 0, 0})
		w.SetInput(i, pos.Reg, geom.Vec4{0.5, 0.5, l.z, 1})
	}
	w.Run(nil)
	for i, l := range lanes {
		if got := w.Depth(i); got != l.want {
			t.Errorf("lane %d depth %v, want %v", i, got, l.want)
		}
	}
}

func TestUnlitAndLong(t *testing.T) {
	m, err := Get("unlit")
	if err != nil {
		t.Fatal(err)
	}
	w := shader.NewWarp(4)
	w.Reset(m.PS, 4, m.PS.InitConstants(nil))
	w.Run(nil)
	if got := w.Output(3, 0); got != (geom.Vec4{1, 1, 1, 1}) {
		t.Errorf("unlit default colour %v", got)
	}

	long, err := Get("long")
	if err != nil {
		t.Fatal(err)
	}
	w = shader.NewWarp(32)
	w.Reset(long.PS, 32, lightingScene(t, long.PS, nil))
	for i := 0; i < 32; i++ {
		w.SetInput(i, 0, geom.Vec4{0, 0, 1, 0})
		w.SetInput(i, 1, geom.Vec4{float32(i) * 0.1, float32(i%4) * 0.3, 0, 1})
	}
	w.Run(nil)
	for i := 0; i < 32; i++ {
		o := w.Output(i, 0)
		for _, x := range o {
			if x != x || x < 0 || x > 2 {
				t.Fatalf("lane %d colour %v", i, o)
			}
		}
		if o[3] != 1 {
			t.Errorf("lane %d alpha %v", i, o[3])
		}
	}
	if w.Stats.Instructions != 120 || w.Stats.LaneInstructions != 120*32 {
		t.Errorf("stats %+v", w.Stats)
	}
}

func TestSourcesAreDocumented(t *testing.T) {
	for _, f := range Files() {
		src, err := Source(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "; "+f+":") {
			t.Errorf("%s does not start with a header comment naming it", f)
		}
	}
}

// BenchmarkBlinnPhong shades 8 quads with the 90-instruction per-pixel
// lighting shader.
func BenchmarkBlinnPhong(b *testing.B) {
	m, err := Get("blinnphong")
	if err != nil {
		b.Fatal(err)
	}
	c := m.PS.InitConstants(nil)
	lights, _ := m.PS.ConstBlock("lights")
	count, _ := m.PS.ConstBlock("light_count")
	c[count.Reg] = geom.Vec4{4, 0, 0, 0}
	for i := 0; i < 4; i++ {
		c[lights.Reg+2*i] = geom.Vec4{float32(i), 3, 2, 1}
		c[lights.Reg+2*i+1] = geom.Vec4{0.5, 0.5, 0.5, 0}
	}
	w := shader.NewWarp(32)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(m.PS, 32, c)
		for i := 0; i < 32; i++ {
			w.SetInput(i, 0, geom.Vec4{0.1 * float32(i), 1, 0.3, 0})
			w.SetInput(i, 1, geom.Vec4{float32(i), 0, -5, 1})
		}
		w.Run(nil)
	}
	b.ReportMetric(float64(len(m.PS.Code)*32)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mlane-instr/s")
}

// TestPositionEnd runs every library vertex shader through the interpreter
// with different mvp and mvp_end matrices and checks that it writes
// position = mvp * position (o0) and position_end = mvp_end * position, in the
// DP4 order of rounding.
func TestPositionEnd(t *testing.T) {
	mvp := geom.Mat4{{1.5, 0, 0.25, 0.5}, {0, 2, 0, -1}, {0, 0, 1.01, -0.1}, {0, 0, -1, 3}}
	end := geom.Mat4{{1.25, 0.5, 0, 2}, {0.125, 2, 0, 0}, {0, 0.75, 1.01, -0.1}, {0, 0, -1, 4}}
	pos := geom.Vec4{0.5, -1.25, 2, 1}
	dp4 := func(a, b geom.Vec4) float32 {
		x, y, z, w := a[0]*b[0], a[1]*b[1], a[2]*b[2], a[3]*b[3]
		return x + y + z + w
	}
	for _, f := range Files() {
		if !strings.HasSuffix(f, ".vs.gsa") || f == "particle.vs.gsa" { // particle: no clip position (its GS makes one)
			continue
		}
		p, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		out, ok := p.Output(shader.SemanticPositionEnd)
		if !ok || out.Index == 0 || out.File != shader.FileOutput {
			t.Errorf("%s: no position_end output (%+v)", f, out)
			continue
		}
		c := p.InitConstants(nil)
		for name, m := range map[string]geom.Mat4{"mvp": mvp, "mvp_end": end} {
			d, ok := p.ConstBlock(name)
			if !ok || d.Count != 4 {
				t.Fatalf("%s: constant block %s: %+v", f, name, d)
			}
			for r := 0; r < 4; r++ {
				c[d.Reg+r] = m.Row(r)
			}
		}
		w := shader.NewWarp(1)
		w.Reset(p, 1, c)
		for _, in := range p.Inputs {
			if in.Semantic == "position" {
				w.SetInput(0, in.Reg, pos)
			} else {
				w.SetInput(0, in.Reg, geom.Vec4{0, 0, 1, 1})
			}
		}
		w.Run(constTexture{})
		if err := w.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, k := range []struct {
			reg int
			m   geom.Mat4
		}{{0, mvp}, {out.Index, end}} {
			want := geom.Vec4{dp4(k.m.Row(0), pos), dp4(k.m.Row(1), pos), dp4(k.m.Row(2), pos), dp4(k.m.Row(3), pos)}
			if got := w.Output(0, k.reg); got != want {
				t.Errorf("%s: o%d = %v, want %v", f, k.reg, got, want)
			}
		}
	}
}
