package multipass

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Backend is the compiler back end the partitioner calls (the document's
// section 4 interface): VALID's code generation and resource allocation for
// a candidate pass. The Shader type is the back end for gfxsim's ISA.
type Backend interface {
	// Pass generates the pass rooted at root that computes the nodes of
	// region (ascending, root included) and restores the saved values of the
	// nodes in restored (ascending), and returns what it uses.
	Pass(root int, region, restored []int) Usage
	// Node describes what computing node i adds to a pass. The exhaustive
	// search prunes with it, so Pass must honour it as a lower bound that
	// never decreases: a pass uses at least one operation per computed node
	// and per restore, one fetch per computed fetch and per restore, the
	// union of the computed nodes' texture units plus one unit per restore,
	// and the union of their varyings.
	Node(i int) NodeInfo
}

// NodeInfo is what one operation contributes to a pass.
type NodeInfo struct {
	Tex      bool   // a texture fetch
	Units    uint64 // texture units it samples (bit u: unit u)
	Varyings uint64 // varyings it reads (bit v: input register v)
}

// Problem is one partitioning problem: an operation DAG, its back end, the
// machine's per-pass limits and the cost model.
type Problem struct {
	Graph   *Graph
	Backend Backend
	Limits  Limits
	Cost    CostModel
}

// ImpossibleError reports a node that fits in no pass on the machine: even
// with every operand restored (and the derivative operands that must be
// recomputed, recomputed) its pass exceeds a limit.
type ImpossibleError struct {
	Node   int
	Usage  Usage
	Limits Limits
	Reason string // the limit exceeded, as Limits.Exceeds says
	Where  string // the instruction, when the back end can name it
}

func (e *ImpossibleError) Error() string {
	where := e.Where
	if where == "" {
		where = fmt.Sprintf("node %d", e.Node)
	}
	name := e.Limits.Name
	if name == "" {
		name = e.Limits.String()
	}
	return fmt.Sprintf("%s: fits in no pass on %s: with its operands restored it needs %s", where, name, e.Reason)
}

// Pass is one rendering pass of a partition.
type Pass struct {
	Root     int   // the node whose value the pass outputs
	Nodes    []int // the nodes it computes, ascending (Root included)
	Restored []int // the nodes whose saved values it fetches, ascending
	Usage    Usage
	Cost     float64
	// Output is the intermediate texture the pass writes its value to (-1
	// for the last pass, which writes the shader's output); Inputs[k] is the
	// intermediate texture holding Restored[k].
	Output int
	Inputs []int
}

// Partition is a solution of the multipass partitioning problem: the marked
// nodes (the roots of the passes) and the passes in execution order (every
// pass after the passes whose values it restores).
type Partition struct {
	Marked   []bool
	Passes   []Pass
	Cost     float64
	Textures int   // intermediate textures after colouring
	Total    Usage // summed over the passes (maximum for the per-pass resources)
	// Evaluations counts the VALID calls (pass generations) the algorithm made.
	Evaluations int
}

// NumPasses returns the number of passes.
func (p *Partition) NumPasses() int { return len(p.Passes) }

// Recomputed returns the number of operations computed more than once
// (counting each extra computation).
func (p *Partition) Recomputed() int {
	n := 0
	for _, ps := range p.Passes {
		n += len(ps.Nodes)
	}
	return n - len(p.Marked)
}

// solver holds the marking state shared by the algorithms.
type solver struct {
	p      *Problem
	g      *Graph
	marked []bool
	locked []bool // a save decision: greedy merging never touches it
	fixed  []int8 // RDS: +1 fixed as marked, -1 fixed as unmarked, 0 free
	pdt    *Tree

	subsetCache [][]uint32

	stamp    []int32
	epoch    int32
	stack    []int
	region   []int
	restored []int
	evals    int
}

func newSolver(p *Problem) (*solver, error) {
	if p.Graph == nil || p.Backend == nil {
		return nil, fmt.Errorf("multipass: problem without a graph or back end")
	}
	if err := p.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("multipass: limits: %w", err)
	}
	n := p.Graph.N()
	s := &solver{p: p, g: p.Graph, marked: make([]bool, n), locked: make([]bool, n), fixed: make([]int8, n),
		stamp: make([]int32, n)}
	return s, nil
}

// collect fills s.region and s.restored with the pass rooted at root under
// the current marks: root and, recursively, its unmarked kids; marked kids
// are restored.
func (s *solver) collect(root int) {
	s.epoch++
	if s.epoch == math.MaxInt32 {
		clear(s.stamp)
		s.epoch = 1
	}
	s.region, s.restored, s.stack = s.region[:0], s.restored[:0], s.stack[:0]
	s.stamp[root] = s.epoch
	s.stack = append(s.stack, root)
	for len(s.stack) > 0 {
		v := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		s.region = append(s.region, v)
		for _, k := range s.g.Kids[v] {
			if s.stamp[k] == s.epoch {
				continue
			}
			s.stamp[k] = s.epoch
			if s.marked[k] {
				s.restored = append(s.restored, k)
			} else {
				s.stack = append(s.stack, k)
			}
		}
	}
	slices.Sort(s.region)
	slices.Sort(s.restored)
}

// pass generates the pass rooted at root under the current marks.
func (s *solver) pass(root int) Usage {
	s.collect(root)
	s.evals++
	return s.p.Backend.Pass(root, s.region, s.restored)
}

// valid is VALID(subregion(root)).
func (s *solver) valid(root int) bool { return s.p.Limits.Fits(s.pass(root)) }

// reset unmarks every node except the root.
func (s *solver) reset() {
	for i := range s.marked {
		s.marked[i], s.locked[i] = false, false
	}
	r := s.g.Root()
	s.marked[r], s.locked[r] = true, true
}

// Possible reports, without searching, whether the shader can be partitioned
// on the machine: nil when it fits one pass or when every node fits a pass of
// its own with its operands restored (then every search finds a partition),
// else the *ImpossibleError of the first node that does not.
func (p *Problem) Possible() error {
	s, err := newSolver(p)
	if err != nil {
		return err
	}
	return s.checkPossible()
}

// checkPossible verifies, unless the whole shader fits one pass, that every
// node fits in a pass of its own with all its operands restored, except the
// operands that may not be saved (their subregions are recomputed). If every
// node does, marking every node that may be marked is a valid partition, so
// the algorithms always find one; if one does not, the machine is below the
// document's minimum (section 2) for this shader and no search is made.
func (s *solver) checkPossible() error {
	saved := slices.Clone(s.marked)
	defer copy(s.marked, saved)
	clear(s.marked)
	if s.valid(s.g.Root()) {
		return nil // one pass: nothing to split
	}
	for i := range s.marked {
		s.marked[i] = s.g.CanSave(i)
	}
	for _, v := range s.g.order {
		u := s.pass(v)
		if why := s.p.Limits.Exceeds(u); why != "" {
			e := &ImpossibleError{Node: v, Usage: u, Limits: s.p.Limits, Reason: why}
			if n, ok := s.p.Backend.(interface{ Describe(int) string }); ok {
				e.Where = n.Describe(v)
			}
			return e
		}
	}
	return nil
}

// build turns the current marks into a Partition: passes in postorder of
// their roots, costs, and the intermediate textures by graph colouring. It
// fails if a pass is not valid.
func (s *solver) build() (*Partition, error) {
	g := s.g
	part := &Partition{Marked: slices.Clone(s.marked)}
	index := make([]int, g.N()) // pass index of each root
	for _, v := range g.order {
		if !s.marked[v] {
			continue
		}
		u := s.pass(v)
		if why := s.p.Limits.Exceeds(u); why != "" {
			return nil, fmt.Errorf("multipass: internal error: pass rooted at node %d is not valid: %s", v, why)
		}
		index[v] = len(part.Passes)
		c := s.p.Cost.PassCost(u)
		part.Passes = append(part.Passes, Pass{Root: v, Nodes: slices.Clone(s.region), Restored: slices.Clone(s.restored),
			Usage: u, Cost: c, Output: -1})
		part.Cost += c
		if len(part.Passes) == 1 {
			part.Total = u
		} else {
			part.Total = part.Total.Add(u)
		}
	}
	part.Textures = assignTextures(part.Passes, index)
	part.Evaluations = s.evals
	return part, nil
}

// assignTextures gives every saved value an intermediate texture so that no
// two values live at the same time share one, by Chaitin's graph colouring:
// the interference graph of the values' lifetimes (from the pass that writes
// a value to the last pass that reads it; a pass never renders into a
// texture it reads) is simplified with k colours, k the largest number of
// values live at once, then coloured in reverse; lifetimes are intervals, so
// the graph is chordal and k colours always suffice. Textures are numbered in
// order of first use. It returns k.
func assignTextures(passes []Pass, index []int) int {
	n := len(passes)
	last := make([]int, n) // last pass reading the value of pass i
	for i := range last {
		last[i] = -1
	}
	for j, ps := range passes {
		for _, r := range ps.Restored {
			last[index[r]] = max(last[index[r]], j)
		}
	}
	var vals []int // passes whose value is saved
	for i := 0; i < n-1; i++ {
		if last[i] >= 0 {
			vals = append(vals, i)
		}
	}
	k := 0
	for j := 0; j < n; j++ {
		live := 0
		for _, v := range vals {
			if v <= j && j <= last[v] {
				live++
			}
		}
		k = max(k, live)
	}
	m := len(vals)
	adj := make([][]int, m)
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			va, vb := vals[a], vals[b]
			if va <= last[vb] && vb <= last[va] {
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
	}
	// Simplify: repeatedly remove a node of degree < k (the lowest such
	// index), then select colours in reverse removal order.
	removed := make([]bool, m)
	degree := make([]int, m)
	for a := range adj {
		degree[a] = len(adj[a])
	}
	stack := make([]int, 0, m)
	for len(stack) < m {
		pick := -1
		for a := 0; a < m; a++ {
			if !removed[a] && degree[a] < k {
				pick = a
				break
			}
		}
		if pick < 0 { // cannot happen for interval graphs; colour the least constrained
			for a := 0; a < m; a++ {
				if !removed[a] && (pick < 0 || degree[a] < degree[pick]) {
					pick = a
				}
			}
		}
		removed[pick] = true
		stack = append(stack, pick)
		for _, b := range adj[pick] {
			degree[b]--
		}
	}
	color := make([]int, m)
	for a := range color {
		color[a] = -1
	}
	used := 0
	for i := m - 1; i >= 0; i-- {
		a := stack[i]
		taken := make([]bool, m+1)
		for _, b := range adj[a] {
			if color[b] >= 0 {
				taken[color[b]] = true
			}
		}
		c := 0
		for taken[c] {
			c++
		}
		color[a] = c
		used = max(used, c+1)
	}
	// Number the textures in order of first use.
	renum := make([]int, used)
	for c := range renum {
		renum[c] = -1
	}
	next := 0
	for a, v := range vals {
		if renum[color[a]] < 0 {
			renum[color[a]] = next
			next++
		}
		passes[v].Output = renum[color[a]]
	}
	for j := range passes {
		ps := &passes[j]
		ps.Inputs = make([]int, len(ps.Restored))
		for k, r := range ps.Restored {
			ps.Inputs[k] = passes[index[r]].Output
		}
	}
	return used
}

// Partition evaluates a given marking (the document's section 3.1: a node is
// marked if and only if it is the root of a pass; the root is always marked):
// its passes, their validity and its cost.
func (p *Problem) Partition(marked []bool) (*Partition, error) {
	s, err := newSolver(p)
	if err != nil {
		return nil, err
	}
	if len(marked) != s.g.N() {
		return nil, fmt.Errorf("multipass: %d marks for %d nodes", len(marked), s.g.N())
	}
	copy(s.marked, marked)
	s.marked[s.g.Root()] = true
	for i, m := range s.marked {
		if m && !s.g.CanSave(i) {
			return nil, fmt.Errorf("multipass: node %d may not be saved", i)
		}
	}
	part, err := s.build()
	if err != nil {
		return nil, fmt.Errorf("multipass: %s", strings.TrimPrefix(err.Error(), "multipass: internal error: "))
	}
	return part, nil
}
