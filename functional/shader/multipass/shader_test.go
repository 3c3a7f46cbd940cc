package multipass

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
)

func assemble(t testing.TB, src string) *shader.Program {
	t.Helper()
	p, err := shader.Assemble("t.gsa", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func analyze(t testing.TB, src string, o Options) *Shader {
	t.Helper()
	sh, err := Analyze(assemble(t, src), o)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

func testShader(t testing.TB, name string, o Options) *Shader {
	t.Helper()
	m, err := library.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Analyze(m.PS, o)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// TestTable1 pins the test shaders' figures (the document's Table 1).
func TestTable1(t *testing.T) {
	cases := []struct {
		name string
		want Stats
	}{
		{"bowlingpin", Stats{Nodes: 84, Operations: 65, Leaves: 19, MR: 9, MRLeaves: 10, NonTexture: 56, Texture: 9,
			Registers: 8, TexUnits: 9, Interpolants: 7, TexDepth: 1}},
		{"bumppin", Stats{Nodes: 78, Operations: 62, Leaves: 16, MR: 13, MRLeaves: 7, NonTexture: 58, Texture: 4,
			Registers: 9, TexUnits: 4, Interpolants: 4, TexDepth: 1}},
		{"wood", Stats{Nodes: 208, Operations: 178, Leaves: 30, MR: 42, MRLeaves: 23, NonTexture: 159, Texture: 19,
			Registers: 9, TexUnits: 6, Interpolants: 5, TexDepth: 11}},
	}
	for _, c := range cases {
		sh := testShader(t, c.name, Options{})
		if got := sh.Stats(); got != c.want {
			t.Errorf("%s: Stats = %+v, want %+v", c.name, got, c.want)
		}
		if sh.Removed != 0 || sh.Appended {
			t.Errorf("%s: removed %d, appended %v; the test shaders have no dead code and one output write", c.name, sh.Removed, sh.Appended)
		}
	}
}

// TestPartitionsCompute runs every algorithm on every test shader and
// pipeline configuration: every pass fits, and the passes compute the single
// pass's value bit for bit.
func TestPartitionsCompute(t *testing.T) {
	h := newHarness(1)
	for _, name := range []string{"bowlingpin", "bumppin", "wood"} {
		sh := testShader(t, name, Options{})
		for _, pc := range PipelineConfigs() {
			pr := sh.Problem(pc, CostModels()[0])
			algs := []struct {
				alg string
				run func() (*Partition, error)
			}{{"RDS", pr.RDS}, {"RDSh", pr.RDSh}, {"greedy", pr.Greedy}}
			for _, a := range algs {
				part, err := a.run()
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, pc.Name, a.alg, err)
				}
				checkPartition(t, name+" "+pc.Name+" "+a.alg, sh, part, pc, h)
			}
		}
	}
}

// TestExactDerivatives stores garbage in the helper lanes' intermediates
// (pixel (1,1) of each quad): with ExactDerivatives every stored lane still
// equals the single pass, because no derivative reads a restored value.
func TestExactDerivatives(t *testing.T) {
	h := newHarness(2)
	h.helper = 0x8888
	for _, name := range []string{"bowlingpin", "bumppin", "wood"} {
		sh := testShader(t, name, Options{ExactDerivatives: true})
		for _, pc := range []Limits{{Name: "PC5", Ops: 6, Registers: 4, TexUnits: 4, Interpolants: 4},
			{Name: "PC6", Ops: 24, Registers: 8, TexUnits: 8, Interpolants: 8}, {Name: "PC7", Ops: 128, Registers: 12, TexUnits: 16, Interpolants: 12},
			{Name: "T5", TexUnits: 5}} {
			part, err := sh.Problem(pc, CostModels()[0]).RDS()
			if name == "wood" && (pc.Name == "PC5" || pc.Name == "PC6") {
				// The turbulence octaves are chained through their
				// coordinates: the 8 fetches and their coordinates
				// (26 operations) must share a pass.
				var ie *ImpossibleError
				if !errors.As(err, &ie) {
					t.Errorf("wood on PC5 with exact derivatives: err = %v, want impossible", err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %s: %v", name, pc.Name, err)
			}
			for _, ps := range part.Passes {
				for _, r := range ps.Restored {
					if sh.Graph.NoSave[r] {
						t.Fatalf("%s %s: node %d restored but may not be saved", name, pc.Name, r)
					}
				}
			}
			checkPartition(t, name+" "+pc.Name+" exact", sh, part, pc, h)
		}
	}
}

// threeSamplers declares a pixel shader reading a texture coordinate and a
// normal through three samplers.
const threeSamplers = `.ps
.input v0 texcoord perspective
.input v1 normal perspective
.output o0 color
.sampler s0 a
.sampler s1 b
.sampler s2 c
`

// TestDerivativeOfRestoredValue shows why ExactDerivatives exists: without
// it, a texture coordinate saved in one pass and restored in the next takes
// its LOD from helper lanes holding another fragment's value.
func TestDerivativeOfRestoredValue(t *testing.T) {
	src := threeSamplers + `mul r0, v0, v1
add r0, r0, v0
tex r1, r0, s0
tex r2, v1, s1
tex r3, v0, s2
mad r1, r1, r2, r3
add o0, r1, r0
`
	lim := Limits{Name: "ops8", Ops: 8}
	h := newHarness(3)
	h.helper = 0x8888
	loose := analyze(t, src, Options{})
	// Save the coordinate (node 1) and restore it for the fetch.
	part, err := loose.Problem(lim, CostModels()[0]).Partition([]bool{false, true, false, false, false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	progs, err := loose.Programs(part)
	if err != nil {
		t.Fatal(err)
	}
	want := h.run(t, loose.Source, nil)
	got := h.runPasses(t, progs, part)
	same := true
	for l := 0; l < lanes; l++ {
		if h.helper&(1<<l) == 0 && !sameBits(got[l], want[l]) {
			same = false
		}
	}
	if same {
		t.Fatalf("without ExactDerivatives the restored coordinate should change some lane; passes:\n%v", progs)
	}
	exact := analyze(t, src, Options{ExactDerivatives: true})
	if !exact.Graph.NoSave[0] || !exact.Graph.NoSave[1] || exact.Graph.NoSave[2] {
		t.Fatalf("NoSave = %v, want the coordinate's two nodes only", exact.Graph.NoSave[:3])
	}
	part, err = exact.Problem(lim, CostModels()[0]).RDS()
	if err != nil {
		t.Fatal(err)
	}
	checkPartition(t, "exact", exact, part, lim, h)
}

func TestAnalyzeErrors(t *testing.T) {
	head := ".ps\n.input v0 texcoord perspective\n.output o0 color\n"
	cases := []struct {
		name, src, want string
	}{
		{"kil", head + "kil v0\nmov o0, v0\n", "t.gsa:4: kil v0: multipass: KIL is not supported"},
		{"depth", ".ps\n.input v0 texcoord perspective\n.output o0 color\n.output oDepth depth\nmov oDepth.x, v0\nmov o0, v0\n",
			"t.gsa:5: mov oDepth, v0: multipass: writing oDepth is not supported"},
		{"two targets", ".ps\n.input v0 texcoord perspective\n.output o0 color\n.output o1 color\nmov o1, v0\nmov o0, v0\n",
			"t.gsa:5: mov o1, v0: multipass: only one output (o0) per shader is supported"},
		{"no output", head + "mov r0, v0\n", "t.gsa: multipass: the program never writes o0"},
		{"vertex shader", ".vs\n.input v0 position\n.output o0 position\nmov o0, v0\n", "t.gsa: multipass: a vs shader; only pixel shaders are partitioned"},
	}
	for _, c := range cases {
		_, err := Analyze(assemble(t, c.src), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want prefix %q", c.name, err, c.want)
		}
	}
	// o0 written in parts with every temporary in use.
	var b strings.Builder
	b.WriteString(head)
	for r := 0; r < shader.MaxTemps; r++ {
		b.WriteString("mov r" + strconv.Itoa(r) + ", v0\n")
	}
	b.WriteString("mov o0.x, r0\nmov o0.y, r31\n")
	_, err := Analyze(assemble(t, b.String()), Options{})
	if err == nil || !strings.Contains(err.Error(), "no free temporary is left") {
		t.Errorf("all temps used: err = %v", err)
	}
}

// TestNormalize: an output written in parts is assembled in a free
// temporary and moved to o0 once; dead code is removed.
func TestNormalize(t *testing.T) {
	sh := analyze(t, `.ps
.input v0 texcoord perspective
.output o0 color
mul r1, v0, v0
add r2, v0, v0
mov o0.xyz, r1
mov o0.w, v0
mov r5, v0
`, Options{})
	if !sh.Appended || sh.Removed != 2 {
		t.Errorf("appended %v removed %d, want true and 2 (add r2 and mov r5)", sh.Appended, sh.Removed)
	}
	want := "mul r1, v0, v0\nmov r0.xyz, r1\nmov r0.w, v0\nmov o0, r0\n"
	var got strings.Builder
	for i := range sh.Prog.Code {
		got.WriteString(sh.Prog.Code[i].String() + "\n")
	}
	if got.String() != want {
		t.Errorf("normalized code:\n%s\nwant:\n%s", got.String(), want)
	}
	if g := sh.Graph; len(g.Kids[3]) != 2 || g.Kids[3][0] != 1 || g.Kids[3][1] != 2 || len(g.Kids[1]) != 1 {
		t.Errorf("kids = %v", g.Kids)
	}
	checkPartition(t, "normalized", sh, mustPart(t, sh.Problem(Limits{Ops: 4}, CostModels()[0]).RDS), Limits{Ops: 4}, newHarness(4))
}

func mustPart(t *testing.T, f func() (*Partition, error)) *Partition {
	t.Helper()
	p, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPassUsage pins VALID's code generation on a small program: the
// resources of hand-chosen passes.
func TestPassUsage(t *testing.T) {
	sh := analyze(t, `.ps
.input v0 texcoord perspective
.input v1 normal perspective
.input v2 sv_position
.output o0 color
.sampler s0 a
.sampler s1 b
mul r0.x, v0.x, v0.y      ; 0
mul r0.y, v1.x, v1.y      ; 1
tex r1, r0, s0            ; 2: reads r0.xy from nodes 0 and 1
tex r2, r1, s1            ; 3: dependent
add r3, r2, v2            ; 4: r3.w reads nothing written? no: add writes all
mad o0, r3, r1, r0.w      ; 5: r0.w never written: initial zero
`, Options{})
	g := sh.Graph
	wantKids := [][]int{nil, nil, {0, 1}, {2}, {3}, {2, 4}}
	for i, k := range wantKids {
		if len(g.Kids[i]) != len(k) {
			t.Fatalf("kids = %v, want %v", g.Kids, wantKids)
		}
		for j := range k {
			if g.Kids[i][j] != k[j] {
				t.Fatalf("kids = %v, want %v", g.Kids, wantKids)
			}
		}
	}
	gen := newGen(sh)
	cases := []struct {
		name             string
		root             int
		region, restored []int
		want             Usage
	}{
		// Whole program: r0 (x, y, and the zero w) lives from the start to
		// the end; r1 from node 2 to 5; r2, r3 short.
		{"single pass", 5, []int{0, 1, 2, 3, 4, 5}, nil,
			Usage{Ops: 6, TexFetches: 2, Registers: 3, TexUnits: 2, Interpolants: 2, Inputs: 3, TexDepth: 2}},
		// Node 2 restored: mul of the address, texl; node 3's fetch is now
		// dependent on a restore (depth 2); no varying is read, the restore
		// counts the screen position as the one interpolant (v2, declared
		// as sv_position, is the only input).
		{"restore node 2", 5, []int{3, 4, 5}, []int{2},
			Usage{Ops: 5, TexFetches: 2, Restores: 1, Registers: 3, TexUnits: 2, Interpolants: 1, Inputs: 1, TexDepth: 2}},
		// Pass of node 2 alone restoring nothing.
		{"pass of node 2", 2, []int{0, 1, 2}, nil,
			Usage{Ops: 3, TexFetches: 1, Registers: 1, TexUnits: 1, Interpolants: 2, Inputs: 2, TexDepth: 1}},
		// Node 5 with 2 and 4 restored: address, two texl, mad (r0.w zero).
		{"minimal root", 5, []int{5}, []int{2, 4},
			Usage{Ops: 4, TexFetches: 2, Restores: 2, Registers: 3, TexUnits: 2, Interpolants: 1, Inputs: 1, TexDepth: 1}},
	}
	for _, c := range cases {
		got := gen.Pass(c.root, c.region, c.restored)
		if got != c.want {
			t.Errorf("%s: usage %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestImpossible: a node that needs more than the machine gives even with
// every operand restored is reported with its instruction and the limit.
func TestImpossible(t *testing.T) {
	sh := analyze(t, threeSamplers+`tex r0, v0, s0
tex r1, v1, s1
tex r2, v0, s2
mad o0, r0, r1, r2
`, Options{})
	for _, run := range []func(*Problem) error{
		func(p *Problem) error { return p.Possible() },
		func(p *Problem) error { _, err := p.RDS(); return err },
		func(p *Problem) error { _, err := p.RDSh(); return err },
		func(p *Problem) error { _, err := p.Greedy(); return err },
		func(p *Problem) error { _, _, err := p.Optimal(SearchOptions{}); return err },
	} {
		err := run(sh.Problem(Limits{Name: "T2", TexUnits: 2}, CostModels()[0]))
		var ie *ImpossibleError
		if !errors.As(err, &ie) {
			t.Fatalf("err = %v, want an ImpossibleError", err)
		}
		want := "t.gsa:11: mad o0, r0, r1, r2: fits in no pass on T2: with its operands restored it needs 3 texture units (limit 2)"
		if err.Error() != want {
			t.Errorf("err = %q\nwant  %q", err, want)
		}
	}
	// Three texture units suffice.
	if _, err := sh.Problem(Limits{TexUnits: 3}, CostModels()[0]).RDS(); err != nil {
		t.Errorf("3 units: %v", err)
	}
	if err := sh.Problem(Limits{TexUnits: 3}, CostModels()[0]).Possible(); err != nil {
		t.Errorf("3 units: Possible: %v", err)
	}
}

// TestSamplerTypes: a pass keeps the declared type of the samplers it uses
// (a cube map's fetch reads xyz) and restores from 2D intermediates.
func TestSamplerTypes(t *testing.T) {
	sh := analyze(t, `.ps
.input v0 normal perspective
.input v1 texcoord perspective
.output o0 color
.sampler s0 sky cube
.sampler s1 albedo
tex r0, v0, s0
tex r1, v1, s1
mul r2, r0, r1
add r2, r2, r0
mad o0, r2, r1, v1
`, Options{})
	lim := Limits{Name: "T2", TexUnits: 2}
	part := mustPart(t, sh.Problem(lim, CostModels()[0]).RDS)
	progs, err := sh.Programs(part)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range progs {
		for _, d := range p.Samplers {
			if d.Name == "sky" {
				found = true
				if d.Type != shader.SamplerCube {
					t.Errorf("%s: sky declared %v", p.Name, d.Type)
				}
			}
		}
	}
	if !found {
		t.Fatal("no pass samples the cube map")
	}
	checkPartition(t, "sampler types", sh, part, lim, newHarness(5))
}
