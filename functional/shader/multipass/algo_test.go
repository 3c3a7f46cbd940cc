package multipass

import (
	"errors"
	"math/bits"
	"math/rand"
	"slices"
	"testing"
)

// toy is an additive back end for hand-made DAGs: a pass uses one operation
// per computed node and per restore, one fetch per texture node and per
// restore, the union of the computed nodes' units plus one unit per restore,
// the union of their varyings, and one register per restore.
type toy struct {
	tex   []bool
	units []uint64
	vars  []uint64
}

func newToy(n int) *toy {
	return &toy{tex: make([]bool, n), units: make([]uint64, n), vars: make([]uint64, n)}
}

func (t *toy) Node(i int) NodeInfo {
	return NodeInfo{Tex: t.tex[i], Units: t.units[i], Varyings: t.vars[i]}
}

func (t *toy) Pass(root int, region, restored []int) Usage {
	u := Usage{Ops: len(region) + len(restored), TexFetches: len(restored), Restores: len(restored), Registers: len(restored)}
	var units, vars uint64
	for _, v := range region {
		if t.tex[v] {
			u.TexFetches++
		}
		units |= t.units[v]
		vars |= t.vars[v]
	}
	u.TexUnits = bits.OnesCount64(units) + len(restored)
	u.Interpolants = bits.OnesCount64(vars)
	return u
}

func toyProblem(t *testing.T, kids [][]int, l Limits, c CostModel) *Problem {
	t.Helper()
	g, err := NewGraph(kids, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Graph: g, Backend: newToy(len(kids)), Limits: l, Cost: c}
}

var unitCost = CostModel{Name: "10p+t+i", Pass: 10, Tex: 1, Inst: 1}

func marks(n int, m ...int) []bool {
	out := make([]bool, n)
	for _, v := range m {
		out[v] = true
	}
	return out
}

func markedNodes(p *Partition) []int {
	var out []int
	for i, m := range p.Marked {
		if m {
			out = append(out, i)
		}
	}
	return out
}

// TestHandPartitions: small DAGs whose optimal partitions are known by hand
// (derivations in the comments), against every algorithm.
func TestHandPartitions(t *testing.T) {
	type result struct {
		marked []int
		cost   float64
	}
	cases := []struct {
		name   string
		kids   [][]int
		lim    Limits
		cost   CostModel
		greedy result // plain greedy merging
		rdsh   result
		rds    result
		opt    result
	}{
		{
			// Chain 0-1-2-3-4, 2 operations per pass: a pass that restores
			// computes one node, so {0,1} then one node per pass: 4 passes,
			// 5 instructions, 3 restores: 40+5+3 = 48 (the only optimum).
			name: "chain", kids: [][]int{nil, {0}, {1}, {2}, {3}}, lim: Limits{Ops: 2}, cost: unitCost,
			greedy: result{[]int{1, 2, 3, 4}, 48}, rdsh: result{[]int{1, 2, 3, 4}, 48},
			rds: result{[]int{1, 2, 3, 4}, 48}, opt: result{[]int{1, 2, 3, 4}, 48},
		},
		{
			// Diamond: 0 read by 1 and 2, root 3 = f(1, 2), 3 operations per
			// pass. Saving 1 and 2 recomputes 0 in both: passes {0,1},
			// {0,2}, {3}+2 restores = 30+5+2 = 37. Saving 0 too costs 4
			// passes (48); every other marking has an invalid pass.
			name: "diamond", kids: [][]int{nil, {0}, {0}, {1, 2}}, lim: Limits{Ops: 3}, cost: unitCost,
			greedy: result{[]int{1, 2, 3}, 37}, rdsh: result{[]int{1, 2, 3}, 37},
			rds: result{[]int{1, 2, 3}, 37}, opt: result{[]int{1, 2, 3}, 37},
		},
		{
			// A heavy shared subregion: 2 = f(f(0)) read by 3 and 4, root
			// 5 = f(3, 4), 4 operations per pass. Saving 2: {0,1,2},
			// {3,4,5}+restore = 20+6+1 = 27. Recomputing it: {0,1,2,3},
			// {0,1,2,4}, {5}+2 restores = 30+9+2 = 41, which greedy merging
			// alone finds (it merges 2 into both parents before it sees the
			// root); RECOMPUTE saves 2 (3 operations is not under half of 4).
			name: "save beats recompute", kids: [][]int{nil, {0}, {1}, {2}, {2}, {3, 4}}, lim: Limits{Ops: 4}, cost: unitCost,
			greedy: result{[]int{3, 4, 5}, 41}, rdsh: result{[]int{2, 5}, 27},
			rds: result{[]int{2, 5}, 27}, opt: result{[]int{2, 5}, 27},
		},
		{
			// The same DAG on a machine where a restore costs more than
			// recomputing (fetches 20): recompute (30+9+2*20 = 79) against
			// save (20+6+20 = 46): still save. With passes free and fetches
			// at 20 (t+i with c_t = 20), recomputing costs 9+40 = 49 and
			// saving 6+20 = 26: save.
			name: "expensive fetches", kids: [][]int{nil, {0}, {1}, {2}, {2}, {3, 4}}, lim: Limits{Ops: 4},
			cost:   CostModel{Pass: 0, Tex: 20, Inst: 1},
			greedy: result{[]int{3, 4, 5}, 49}, rdsh: result{[]int{2, 5}, 26},
			rds: result{[]int{2, 5}, 26}, opt: result{[]int{2, 5}, 26},
		},
		{
			// Unlimited: one pass of 4 instructions.
			name: "one pass", kids: [][]int{nil, {0}, {0}, {1, 2}}, lim: Limits{}, cost: unitCost,
			greedy: result{[]int{3}, 14}, rdsh: result{[]int{3}, 14}, rds: result{[]int{3}, 14}, opt: result{[]int{3}, 14},
		},
	}
	for _, c := range cases {
		p := toyProblem(t, c.kids, c.lim, c.cost)
		check := func(alg string, part *Partition, err error, want result) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, alg, err)
			}
			if got := markedNodes(part); !slices.Equal(got, want.marked) || part.Cost != want.cost {
				t.Errorf("%s %s: marked %v cost %g, want %v cost %g", c.name, alg, got, part.Cost, want.marked, want.cost)
			}
		}
		part, err := p.Greedy()
		check("greedy", part, err, c.greedy)
		part, err = p.RDSh()
		check("RDSh", part, err, c.rdsh)
		part, err = p.RDS()
		check("RDS", part, err, c.rds)
		part, res, err := p.Optimal(SearchOptions{})
		check("optimal", part, err, c.opt)
		if !res.Complete {
			t.Errorf("%s: optimal search gave up", c.name)
		}
		// The marking of the optimum evaluates to the same cost.
		ev, err := p.Partition(marks(len(c.kids), c.opt.marked...))
		if err != nil || ev.Cost != c.opt.cost {
			t.Errorf("%s: Partition(optimum) = %v, %v", c.name, ev, err)
		}
	}
}

func TestPartitionOfMarking(t *testing.T) {
	p := toyProblem(t, [][]int{nil, {0}, {0}, {1, 2}}, Limits{Ops: 3}, unitCost)
	part, err := p.Partition(marks(4, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	// Passes in postorder of their roots (1, 2, 3); the two saved values
	// live together in pass 3: two intermediate textures.
	want := []Pass{
		{Root: 1, Nodes: []int{0, 1}, Usage: Usage{Ops: 2}, Cost: 12, Output: 0, Inputs: []int{}},
		{Root: 2, Nodes: []int{0, 2}, Usage: Usage{Ops: 2}, Cost: 12, Output: 1, Inputs: []int{}},
		{Root: 3, Nodes: []int{3}, Restored: []int{1, 2}, Cost: 13, Output: -1, Inputs: []int{0, 1},
			Usage: Usage{Ops: 3, TexFetches: 2, Restores: 2, Registers: 2, TexUnits: 2}},
	}
	if len(part.Passes) != len(want) {
		t.Fatalf("passes = %+v", part.Passes)
	}
	for i := range want {
		g, w := part.Passes[i], want[i]
		if g.Root != w.Root || !slices.Equal(g.Nodes, w.Nodes) || !slices.Equal(g.Restored, w.Restored) ||
			g.Usage != w.Usage || g.Cost != w.Cost || g.Output != w.Output || !slices.Equal(g.Inputs, w.Inputs) {
			t.Errorf("pass %d = %+v, want %+v", i, g, w)
		}
	}
	if part.Cost != 37 || part.Textures != 2 || part.Recomputed() != 1 {
		t.Errorf("cost %g textures %d recomputed %d", part.Cost, part.Textures, part.Recomputed())
	}
	if _, err := p.Partition(marks(4, 1)); err == nil || err.Error() != "multipass: pass rooted at node 3 is not valid: 4 operations (limit 3)" {
		t.Errorf("invalid marking: err = %v", err)
	}
	if _, err := p.Partition(marks(3)); err == nil {
		t.Error("wrong length accepted")
	}
}

// TestTextureColouring: a chain of saved values, each read only by the next
// pass, needs two textures (ping-pong); a value read by the last pass stays
// live and needs its own.
func TestTextureColouring(t *testing.T) {
	// 0 <- 1 <- 2 <- 3 <- 4, and 4 also reads 0.
	p := toyProblem(t, [][]int{nil, {0}, {1}, {2}, {0, 3}}, Limits{}, unitCost)
	part, err := p.Partition(marks(5, 0, 1, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	outs := []int{}
	for _, ps := range part.Passes {
		outs = append(outs, ps.Output)
	}
	// Value 0 lives from pass 0 to pass 4: texture 0; the chain 1, 2, 3
	// alternates between 1 and 2.
	if !slices.Equal(outs, []int{0, 1, 2, 1, -1}) || part.Textures != 3 {
		t.Errorf("outputs %v textures %d, want [0 1 2 1 -1] and 3", outs, part.Textures)
	}
	if in := part.Passes[4].Inputs; !slices.Equal(in, []int{0, 1}) {
		t.Errorf("last pass reads textures %v, want [0 1]", in)
	}
}

// TestRandomDAGs checks the algorithms against brute force on random small
// DAGs: the exhaustive search finds the cheapest valid marking, and every
// algorithm returns valid partitions no cheaper than it.
func TestRandomDAGs(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		n := 3 + rng.Intn(8)
		kids := make([][]int, n)
		for i := 1; i < n; i++ {
			for k := 0; k < 1+rng.Intn(3); k++ {
				kids[i] = append(kids[i], rng.Intn(i))
			}
		}
		// Keep every node reachable: an unread node becomes a kid of the root.
		read := make([]bool, n)
		for _, ks := range kids {
			for _, k := range ks {
				read[k] = true
			}
		}
		for i := 0; i < n-1; i++ {
			if !read[i] {
				kids[n-1] = append(kids[n-1], i)
			}
		}
		var noSave []bool
		if trial%3 == 0 {
			noSave = make([]bool, n)
			for i := 0; i < n-1; i++ {
				noSave[i] = rng.Intn(5) == 0
			}
		}
		g, err := NewGraph(kids, noSave)
		if err != nil {
			t.Fatal(err)
		}
		b := newToy(n)
		for i := 0; i < n; i++ {
			if rng.Intn(3) == 0 {
				b.tex[i] = true
				b.units[i] = 1 << uint(rng.Intn(4))
			}
			if rng.Intn(2) == 0 {
				b.vars[i] = 1 << uint(rng.Intn(4))
			}
		}
		lim := Limits{Ops: 2 + rng.Intn(5), TexUnits: rng.Intn(2) * (3 + rng.Intn(3)), Interpolants: rng.Intn(2) * (2 + rng.Intn(3))}
		cost := CostModels()[rng.Intn(5)]
		p := &Problem{Graph: g, Backend: b, Limits: lim, Cost: cost}
		best := -1.0
		for m := 0; m < 1<<(n-1); m++ {
			mk := make([]bool, n)
			ok := true
			for i := 0; i < n-1; i++ {
				mk[i] = m&(1<<i) != 0
				if mk[i] && !g.CanSave(i) {
					ok = false
				}
			}
			if !ok {
				continue
			}
			if part, err := p.Partition(mk); err == nil && (best < 0 || part.Cost < best) {
				best = part.Cost
			}
		}
		opt, res, err := p.Optimal(SearchOptions{})
		var ie *ImpossibleError
		if errors.As(err, &ie) {
			// Only when the all-marked partition is invalid too.
			all := make([]bool, n)
			for i := range all {
				all[i] = g.CanSave(i)
			}
			if _, err2 := p.Partition(all); err2 == nil {
				t.Fatalf("trial %d: impossible (%v) but marking every node is valid", trial, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !res.Complete || opt.Cost != best {
			t.Fatalf("trial %d (kids %v, %v, %s): optimal %g (complete %v), brute force %g", trial, kids, lim, cost, opt.Cost, res.Complete, best)
		}
		for _, alg := range []func() (*Partition, error){p.RDS, p.RDSh, p.Greedy} {
			part, err := alg()
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if part.Cost < best {
				t.Fatalf("trial %d: a heuristic found %g below the optimum %g", trial, part.Cost, best)
			}
			for _, ps := range part.Passes {
				if !lim.Fits(ps.Usage) {
					t.Fatalf("trial %d: invalid pass %+v", trial, ps)
				}
			}
			for i, m := range part.Marked {
				if m && !g.CanSave(i) && i != g.Root() {
					t.Fatalf("trial %d: node %d may not be saved", trial, i)
				}
			}
		}
	}
}

// TestSearchBudget: a search that runs out of steps says so and returns the
// best partition it knows.
func TestSearchBudget(t *testing.T) {
	sh := testShader(t, "wood", Options{})
	pc, _ := PipelineConfig("PC6")
	p := sh.Problem(pc, CostModels()[0])
	rds, err := p.RDS()
	if err != nil {
		t.Fatal(err)
	}
	part, res, err := p.Optimal(SearchOptions{MaxSteps: 1000, Incumbent: rds})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Steps != 1001 || part.Cost > rds.Cost {
		t.Errorf("result %+v cost %g (RDS %g)", res, part.Cost, rds.Cost)
	}
	stops := 0
	_, res, err = p.Optimal(SearchOptions{MaxSteps: -1, Incumbent: rds, Stop: func() bool { stops++; return stops == 3 }})
	if err != nil || res.Complete || res.Steps != 3*4096 {
		t.Errorf("stop callback: %+v %v", res, err)
	}
}
