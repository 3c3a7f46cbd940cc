package multipass

import (
	"slices"
	"strings"
	"testing"
)

// figure3 is a DAG in the spirit of the document's Figure 3 (letters are
// node names, numbers their indices):
//
//	A8 -> B7;  B7 -> C5, D6;  C5 -> H0... (kids ascending by index)
//	C5 = f(H1, E4), D6 = f(E4, H1), E4 = f(G2, I3), G2 = f(K0), I3 = f(K0)
//
// K, E and H are multiply referenced. B dominates C, D, E and H; E
// dominates G, I and K.
var figure3 = [][]int{
	0: nil,    // K
	1: nil,    // H
	2: {0},    // G
	3: {0},    // I
	4: {2, 3}, // E
	5: {1, 4}, // C
	6: {1, 4}, // D
	7: {5, 6}, // B
	8: {7},    // A (root)
}

func TestGraph(t *testing.T) {
	g, err := NewGraph(figure3, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Depth-first from A, kids ascending: H, then E's subtree (K, G, I), E,
	// C, D, B, A.
	if got := g.Postorder(); !slices.Equal(got, []int{1, 0, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("postorder %v", got)
	}
	if got := g.MRNodes(); !slices.Equal(got, []int{1, 0, 4}) {
		t.Errorf("MR nodes %v, want H, K, E in postorder", got)
	}
	if got := g.Parents[4]; !slices.Equal(got, []int{5, 6}) {
		t.Errorf("parents of E %v", got)
	}
	if got := g.Dominators(); !slices.Equal(got, []int{4, 7, 4, 4, 7, 7, 7, 8, -1}) {
		t.Errorf("idom %v", got)
	}
	dt := g.DominatorTree()
	if !slices.Equal(dt.Children[7], []int{1, 4, 5, 6}) || !slices.Equal(dt.Children[4], []int{0, 2, 3}) ||
		!slices.Equal(dt.Children[8], []int{7}) {
		t.Errorf("dominator tree children: B %v E %v A %v", dt.Children[7], dt.Children[4], dt.Children[8])
	}
	// PDT: the MR nodes K, H, E, their immediate dominators E, B, and the
	// root A. H comes before E under B (postorder), as in the document's
	// Figure 3c.
	pdt := g.PartialDominatorTree()
	var in []int
	for i, ok := range pdt.In {
		if ok {
			in = append(in, i)
		}
	}
	if !slices.Equal(in, []int{0, 1, 4, 7, 8}) {
		t.Errorf("PDT nodes %v", in)
	}
	if !slices.Equal(pdt.Children[8], []int{7}) || !slices.Equal(pdt.Children[7], []int{1, 4}) ||
		!slices.Equal(pdt.Children[4], []int{0}) || pdt.Parent[0] != 4 || pdt.Parent[8] != -1 || pdt.Parent[5] != -1 {
		t.Errorf("PDT children A %v B %v E %v, parents %v", pdt.Children[8], pdt.Children[7], pdt.Children[4], pdt.Parent)
	}
}

// TestDominatorsSkipLevels: a node whose parents meet only at the root, and
// a PDT parent that is not the immediate dominator (an unkept node between).
func TestDominatorsSkipLevels(t *testing.T) {
	// 0 read by 1 and 3; 1 -> 2 -> 4 (root) and 3 -> 4.
	g, err := NewGraph([][]int{nil, {0}, {1}, {0}, {2, 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Dominators(); !slices.Equal(got, []int{4, 2, 4, 4, -1}) {
		t.Errorf("idom %v", got)
	}
	// 0 read by 1 and 2, both read by 3: the MR node 0's idom is 3; the
	// root 5 is over 4 over 3, and 4 is not kept.
	g, err = NewGraph([][]int{nil, {0}, {0}, {1, 2}, {3}, {4}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pdt := g.PartialDominatorTree()
	if pdt.Parent[0] != 3 || pdt.Parent[3] != 5 || pdt.In[4] || pdt.In[1] {
		t.Errorf("PDT parents %v in %v", pdt.Parent, pdt.In)
	}
}

func TestGraphErrors(t *testing.T) {
	cases := []struct {
		name   string
		kids   [][]int
		noSave []bool
		want   string
	}{
		{"empty", nil, nil, "multipass: empty graph"},
		{"self loop", [][]int{{0}}, nil, "multipass: node 0: kid 0 is not an earlier node"},
		{"forward kid", [][]int{{1}, nil}, nil, "multipass: node 0: kid 1 is not an earlier node"},
		{"negative kid", [][]int{nil, {-1}}, nil, "multipass: node 1: kid -1 is not an earlier node"},
		{"unreachable", [][]int{nil, nil, {1}}, nil, "multipass: node 0 is not reachable from the root 2"},
		{"no-save length", [][]int{nil, {0}}, []bool{false}, "multipass: NoSave has 1 entries for 2 nodes"},
	}
	for _, c := range cases {
		_, err := NewGraph(c.kids, c.noSave)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// Duplicate kids collapse.
	g, err := NewGraph([][]int{nil, {0, 0}}, nil)
	if err != nil || !slices.Equal(g.Kids[1], []int{0}) || g.MR(0) {
		t.Errorf("duplicates: %v %v", g, err)
	}
}

func TestLimits(t *testing.T) {
	pcs := PipelineConfigs()
	want := []string{"6o/infr/inft/infv", "info/4r/inft/infv", "info/infr/4t/infv", "info/infr/inft/4v",
		"6o/4r/4t/4v", "24o/8r/8t/8v", "128o/12r/16t/12v", "info/infr/inft/infv"}
	for i, pc := range pcs {
		if pc.String() != want[i] || pc.Name != "PC"+string(rune('1'+i)) {
			t.Errorf("%s = %s, want %s", pc.Name, pc, want[i])
		}
	}
	if !pcs[7].Unlimited() || pcs[6].Unlimited() {
		t.Error("Unlimited")
	}
	if l, ok := PipelineConfig("pc5"); !ok || l != pcs[4] {
		t.Errorf("PipelineConfig(pc5) = %v %v", l, ok)
	}
	if _, ok := PipelineConfig("PC9"); ok {
		t.Error("PC9 found")
	}
	if s := (Limits{Ops: 16, Registers: 6, TexUnits: 6, Interpolants: 6, TexDepth: 2}).String(); s != "16o/6r/6t/6v/2d" {
		t.Errorf("Radeon 8500 limits = %s", s)
	}
	if err := (Limits{Registers: -1}).Validate(); err == nil || err.Error() != "registers: -1 is negative (0 means unlimited)" {
		t.Errorf("Validate: %v", err)
	}
	pc5 := pcs[4]
	cases := []struct {
		u    Usage
		want string
	}{
		{Usage{Ops: 6, Registers: 4, TexUnits: 4, Interpolants: 4}, ""},
		{Usage{Ops: 7}, "7 operations (limit 6)"},
		{Usage{Registers: 5}, "5 registers (limit 4)"},
		{Usage{TexUnits: 5}, "5 texture units (limit 4)"},
		{Usage{Interpolants: 5}, "5 interpolants (limit 4)"},
		{Usage{Ops: 9, TexUnits: 9}, "9 operations (limit 6)"},
	}
	for _, c := range cases {
		if got := pc5.Exceeds(c.u); got != c.want {
			t.Errorf("Exceeds(%+v) = %q, want %q", c.u, got, c.want)
		}
	}
	// Exceeded names the Limits field of the limit Exceeds describes.
	for _, c := range []struct {
		u    Usage
		want string
	}{{cases[0].u, ""}, {cases[1].u, "Ops"}, {cases[2].u, "Registers"}, {cases[3].u, "TexUnits"}, {cases[4].u, "Interpolants"},
		{cases[5].u, "Ops"}, {Usage{Registers: 33}, "Registers"}} {
		if got := pc5.Exceeded(c.u); got != c.want {
			t.Errorf("Exceeded(%+v) = %q, want %q", c.u, got, c.want)
		}
	}
	if got := (Limits{TexDepth: 2}).Exceeded(Usage{TexDepth: 3}); got != "TexDepth" {
		t.Errorf("depth: Exceeded %q", got)
	}
	if got := (Limits{}).Exceeded(Usage{Registers: 33}); got != "" {
		t.Errorf("unlimited: Exceeded %q (only the ISA's limit is exceeded)", got)
	}
	isa := []struct {
		u    Usage
		want string
	}{
		{Usage{Registers: 33}, "33 registers (limit 32) of the ISA"},
		{Usage{TexUnits: 17}, "17 texture units (limit 16) of the ISA"},
		{Usage{Inputs: 17}, "17 input registers (limit 16) of the ISA"},
		{Usage{TexDepth: 3}, ""},
	}
	for _, c := range isa {
		if got := (Limits{}).Exceeds(c.u); got != c.want {
			t.Errorf("unlimited Exceeds(%+v) = %q, want %q", c.u, got, c.want)
		}
	}
	if got := (Limits{TexDepth: 2}).Exceeds(Usage{TexDepth: 3}); got != "3 levels of texture dependency (limit 2)" {
		t.Errorf("depth: %q", got)
	}
}

func TestRecompute(t *testing.T) {
	pc5 := Limits{Ops: 6, Registers: 4, TexUnits: 4, Interpolants: 4}
	cases := []struct {
		u    Usage
		want bool
	}{
		{Usage{Ops: 2, Registers: 1, TexUnits: 1, Interpolants: 1}, true},
		{Usage{Ops: 3}, false},       // 3 is not under half of 6
		{Usage{Registers: 2}, false}, // 2 of 4
		{Usage{Ops: 2, Registers: 1, TexUnits: 1, Interpolants: 2}, false},
		{Usage{}, true},
	}
	for _, c := range cases {
		if got := pc5.Recompute(c.u); got != c.want {
			t.Errorf("Recompute(%+v) = %v", c.u, got)
		}
	}
	if !(Limits{}).Recompute(Usage{Ops: 1000, Registers: 30}) {
		t.Error("unlimited resources must not prevent recomputation")
	}
}

func TestMergeOrder(t *testing.T) {
	l := Limits{Ops: 10, Registers: 4, TexUnits: 8, Interpolants: 8}
	cases := []struct {
		name string
		a, b Usage
		want bool
	}{
		{"dominated", Usage{Ops: 3, TexUnits: 1}, Usage{Ops: 3, TexUnits: 2}, true},
		{"dominating", Usage{Ops: 3, TexUnits: 2}, Usage{Ops: 3, TexUnits: 1}, false},
		{"equal", Usage{Ops: 3}, Usage{Ops: 3}, false},
		// The document's example (5 interpolants and 3 textures against 3
		// and 5): equal fractions of the limits (1 both), so fewer texture
		// units decide.
		{"tie by units", Usage{Interpolants: 5, TexUnits: 3}, Usage{Interpolants: 3, TexUnits: 5}, true},
		{"tie reversed", Usage{Interpolants: 3, TexUnits: 5}, Usage{Interpolants: 5, TexUnits: 3}, false},
		// 2/10 + 3/4 = 0.95 against 6/10 + 1/4 = 0.85.
		{"fractions", Usage{Registers: 3, Ops: 2}, Usage{Registers: 1, Ops: 6}, false},
		{"fractions reversed", Usage{Registers: 1, Ops: 6}, Usage{Registers: 3, Ops: 2}, true},
	}
	for _, c := range cases {
		if got := l.Less(c.a, c.b); got != c.want {
			t.Errorf("%s: Less(%+v, %+v) = %v, want %v", c.name, c.a, c.b, got, c.want)
		}
	}
}

func TestCostModels(t *testing.T) {
	want := []string{"15p+5t+i", "5p+3t+i", "3p+2t+i", "p+t+i", "t+i"}
	for i, c := range CostModels() {
		if c.String() != want[i] {
			t.Errorf("model %d = %s", i, c)
		}
	}
	u := Usage{Ops: 36, TexFetches: 9}
	// The document's RBP on PC8: 15 + 5*9 + 27 = 87.
	if c := CostModels()[0].PassCost(u); c != 87 {
		t.Errorf("RBP single pass cost %g, want 87", c)
	}
	if c := CostModels()[4].PassCost(u); c != 36 {
		t.Errorf("t+i cost %g, want 36", c)
	}
	if s := (CostModel{Pass: 2, Tex: 1.5, Inst: 1}).String(); s != "2p+1.5t+1i" {
		t.Errorf("unnamed model %q", s)
	}
	if !strings.Contains(Radeon8500Cost.String(), "15.7p") {
		t.Error("Radeon model")
	}
}
