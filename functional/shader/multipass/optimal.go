package multipass

import (
	"math/bits"
	"slices"
)

// SearchOptions bound the exhaustive search.
type SearchOptions struct {
	// MaxSteps is the budget in search steps (one step decides one node);
	// 0 means DefaultSearchSteps, negative means unbounded.
	MaxSteps int64
	// Stop, when set, is polled every 4096 steps; returning true gives up
	// (for a wall-clock budget chosen by the caller).
	Stop func() bool
	// Incumbent is a known partition the search must beat (it prunes with
	// its cost); nil starts from RDS's.
	Incumbent *Partition
}

// DefaultSearchSteps is the default budget of the exhaustive search.
const DefaultSearchSteps = 50_000_000

// SearchResult says how the exhaustive search ended.
type SearchResult struct {
	Complete bool  // the whole space was searched: the partition is optimal
	Steps    int64 // nodes decided
	Improved bool  // the search found a partition cheaper than the incumbent
}

// Optimal is the exhaustive search of section 3.1 (every marking of the
// nodes), made tractable by branch and bound. Nodes are decided from the root
// down (every parent before its kids), so each decision adds a known cost:
// an unmarked node is computed in every pass that holds one of its parents, a
// marked node opens a pass and is restored once in each of those passes.
// Branches are cut when a pass exceeds a monotone limit (operations, texture
// units, interpolants), when a completed pass (all its nodes decided) fails
// VALID, and when the cost so far plus the cost of computing each undecided
// node once reaches the best partition known. When the budget runs out the
// result is the best partition found and Complete is false ("gave up").
func (p *Problem) Optimal(o SearchOptions) (*Partition, SearchResult, error) {
	s, err := p.start()
	if err != nil {
		return nil, SearchResult{}, err
	}
	inc := o.Incumbent
	if inc == nil {
		if inc, err = p.RDS(); err != nil {
			return nil, SearchResult{}, err
		}
	}
	x := newSearch(s, o, inc)
	x.dfs(0)
	res := SearchResult{Complete: !x.gaveUp, Steps: x.steps, Improved: x.bestMarks != nil}
	if x.bestMarks == nil {
		out := *inc
		out.Evaluations = s.evals
		return &out, res, nil
	}
	copy(s.marked, x.bestMarks)
	part, err := s.build()
	if err != nil {
		return nil, res, err
	}
	return part, res, nil
}

// passState is the running, monotone usage of a pass during the search.
type passState struct {
	ops, restores int
	units, vars   uint64
	cost          float64 // lower bound until the pass completes, then exact
}

type memoEntry struct {
	fits bool
	cost float64
}

// maxMemo bounds the memo of completed passes.
const maxMemo = 1 << 21

type undo struct {
	pass int
	old  passState
}

type search struct {
	s     *solver
	g     *Graph
	lim   Limits
	cost  CostModel
	info  []NodeInfo
	order []int // decision order: descending node number (parents first)
	words int
	sets  []uint64 // sets[x*words:]: the passes node x belongs to (unmarked) or {x} (marked)
	cons  []uint64 // scratch per depth: the passes consuming node order[depth]
	state []passState
	log   []undo
	pos   []int // position of each node in order
	// completeAt[d]: roots whose every descendant is decided at depth d.
	completeAt [][]int
	openCap    int // operations the open passes can still take (with an operation limit)
	memo       map[[2]uint64]memoEntry
	rest       []float64 // rest[d]: cost of computing nodes order[d:] once each
	sum        float64   // the cost of the passes so far (every unmarked node's state is zero)

	best      float64
	bestMarks []bool
	steps     int64
	maxSteps  int64
	stop      func() bool
	gaveUp    bool
}

func newSearch(s *solver, o SearchOptions, inc *Partition) *search {
	g := s.g
	n := g.N()
	x := &search{s: s, g: g, lim: s.p.Limits, cost: s.p.Cost, words: (n + 63) / 64, stop: o.Stop,
		best: inc.Cost, maxSteps: o.MaxSteps}
	if x.maxSteps == 0 {
		x.maxSteps = DefaultSearchSteps
	}
	x.info = make([]NodeInfo, n)
	for i := range x.info {
		x.info[i] = s.p.Backend.Node(i)
	}
	// Reverse postorder: every parent before its kids, and a subtree's nodes
	// close together, so passes complete (and are checked) early.
	x.order = make([]int, n)
	x.pos = make([]int, n)
	for i, v := range g.order {
		x.order[n-1-i] = v
		x.pos[v] = n - 1 - i
	}
	x.sets = make([]uint64, n*x.words)
	x.cons = make([]uint64, n*x.words)
	x.state = make([]passState, n)
	last := make([]int, n) // the last position among v and its descendants
	for v := 0; v < n; v++ {
		last[v] = x.pos[v]
		for _, k := range g.Kids[v] {
			last[v] = max(last[v], last[k])
		}
	}
	x.completeAt = make([][]int, n)
	for v := 0; v < n; v++ {
		x.completeAt[last[v]] = append(x.completeAt[last[v]], v)
	}
	x.memo = map[[2]uint64]memoEntry{}
	x.rest = make([]float64, n+1)
	for d := n - 1; d >= 0; d-- {
		x.rest[d] = x.rest[d+1] + x.cost.opCost(x.info[x.order[d]].Tex)
	}
	return x
}

func (x *search) set(v int) []uint64 { return x.sets[v*x.words : (v+1)*x.words] }

// fits reports whether pass q's monotone usage is within the limits.
func (x *search) fits(q int) bool {
	st := &x.state[q]
	ops := st.ops + st.restores
	units := bits.OnesCount64(st.units) + st.restores
	vars := bits.OnesCount64(st.vars)
	l := x.lim
	return (l.Ops == 0 || ops <= l.Ops) && (l.TexUnits == 0 || units <= l.TexUnits) &&
		(l.Interpolants == 0 || vars <= l.Interpolants) && units <= 16
}

func (x *search) save(q int) { x.log = append(x.log, undo{q, x.state[q]}) }

func (x *search) rollback(to int) {
	for len(x.log) > to {
		u := x.log[len(x.log)-1]
		x.sum += u.old.cost - x.state[u.pass].cost
		x.state[u.pass] = u.old
		x.log = x.log[:len(x.log)-1]
	}
}

// forEach calls f for every pass in the bit set b until f returns false.
func forEach(b []uint64, f func(q int) bool) bool {
	for w, word := range b {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			if !f(w*64 + t) {
				return false
			}
			word &= word - 1
		}
	}
	return true
}

func (x *search) dfs(depth int) {
	if x.gaveUp {
		return
	}
	n := x.g.N()
	if depth == n {
		if x.sum < x.best-1e-9 {
			x.best = x.sum
			x.bestMarks = slices.Clone(x.s.marked)
		}
		return
	}
	x.steps++
	if (x.maxSteps > 0 && x.steps > x.maxSteps) || (x.stop != nil && x.steps&4095 == 0 && x.stop()) {
		x.gaveUp = true
		return
	}
	v := x.order[depth]
	info := x.info[v]
	op := x.cost.opCost(info.Tex)
	cons := x.cons[depth*x.words : (depth+1)*x.words]
	clear(cons)
	for _, p := range x.g.Parents[v] {
		if x.s.marked[p] {
			cons[p/64] |= 1 << (p % 64)
		} else {
			for w, b := range x.set(p) {
				cons[w] |= b
			}
		}
	}
	nCons := 0
	for _, b := range cons {
		nCons += bits.OnesCount64(b)
	}
	root := v == x.g.Root()
	canMark := root || x.g.CanSave(v)
	canUnmark := !root
	// Try the option that adds less cost first.
	unmarkCost := float64(nCons) * op
	markCost := x.cost.Pass + op + float64(nCons)*x.cost.Tex
	first := []bool{false, true} // false: unmark
	if markCost < unmarkCost {
		first = []bool{true, false}
	}
	for _, mark := range first {
		if (mark && !canMark) || (!mark && !canUnmark) {
			continue
		}
		mark0, cap0 := len(x.log), x.openCap
		ok := true
		set := x.set(v)
		if mark {
			clear(set)
			set[v/64] |= 1 << (v % 64)
			x.s.marked[v] = true
			x.save(v)
			x.state[v] = passState{ops: 1, units: info.Units, vars: info.Varyings, cost: x.cost.Pass + op}
			x.sum += x.cost.Pass + op
			x.openCap += x.lim.Ops - 1 - nCons
			ok = x.fits(v) && forEach(cons, func(q int) bool {
				x.save(q)
				st := &x.state[q]
				st.restores++
				st.cost += x.cost.Tex
				x.sum += x.cost.Tex
				return x.fits(q)
			})
		} else {
			copy(set, cons)
			x.s.marked[v] = false
			x.openCap -= nCons
			ok = forEach(cons, func(q int) bool {
				x.save(q)
				st := &x.state[q]
				st.ops++
				st.units |= info.Units
				st.vars |= info.Varyings
				st.cost += op
				x.sum += op
				return x.fits(q)
			})
		}
		if ok {
			ok = x.complete(depth)
		}
		if ok && x.bound(depth) < x.best-1e-9 {
			x.dfs(depth + 1)
		}
		x.rollback(mark0)
		x.openCap = cap0
		x.s.marked[v] = false
		if x.gaveUp {
			return
		}
	}
}

// complete checks the passes whose nodes are all decided at this depth:
// their exact usage must be VALID, and their cost becomes exact.
func (x *search) complete(depth int) bool {
	for _, r := range x.completeAt[depth] {
		if !x.s.marked[r] {
			continue
		}
		st := &x.state[r]
		x.openCap -= x.lim.Ops - st.ops - st.restores
		e := x.evaluate(r)
		if !e.fits {
			return false
		}
		x.save(r)
		x.sum += e.cost - x.state[r].cost
		x.state[r].cost = e.cost
	}
	return true
}

// evaluate generates the pass rooted at r (through a memo of passes
// already generated: the same pass recurs in many branches).
func (x *search) evaluate(r int) memoEntry {
	x.s.collect(r)
	h := [2]uint64{14695981039346656037, 1099511628211}
	mix := func(v uint64) {
		h[0] = (h[0] ^ v) * 1099511628211
		h[1] = (h[1] + v*0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9
		h[1] ^= h[1] >> 31
	}
	mix(uint64(r))
	for _, v := range x.s.region {
		mix(uint64(v) + 1)
	}
	mix(1 << 40)
	for _, v := range x.s.restored {
		mix(uint64(v) + 1)
	}
	if e, ok := x.memo[h]; ok {
		return e
	}
	x.s.evals++
	u := x.s.p.Backend.Pass(r, x.s.region, x.s.restored)
	e := memoEntry{fits: x.lim.Fits(u), cost: x.cost.PassCost(u)}
	if len(x.memo) < maxMemo {
		x.memo[h] = e
	}
	return e
}

// bound is a lower bound of the cost of any completion of the current
// branch: the passes so far, each undecided node computed once, and with an
// operation limit, the passes the undecided nodes need beyond the room left
// in the open passes (each new pass costs a pass and at least one restore).
func (x *search) bound(depth int) float64 {
	b := x.sum + x.rest[depth+1]
	if x.lim.Ops > 0 {
		left := x.g.N() - depth - 1 - max(x.openCap, 0)
		if left > 0 {
			passes := (left + x.lim.Ops - 1) / x.lim.Ops
			b += float64(passes) * (x.cost.Pass + x.cost.Tex)
		}
	}
	return b
}
