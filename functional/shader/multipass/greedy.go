package multipass

import (
	"math/bits"
	"slices"
)

// maxMergeCandidates bounds the kids Merge enumerates subsets of: an
// operation has at most 3 operands of 4 components, so at most 12 producers;
// beyond 10 (1024 subsets) the extra kids are marked.
const maxMergeCandidates = 10

// subsets returns the subsets of k candidates (bit masks) by decreasing size,
// ascending within a size.
func (s *solver) subsets(k int) []uint32 {
	if s.subsetCache == nil {
		s.subsetCache = make([][]uint32, maxMergeCandidates+1)
	}
	if s.subsetCache[k] == nil {
		out := make([]uint32, 0, 1<<k)
		for d := k; d >= 0; d-- {
			for set := uint32(0); set < 1<<k; set++ {
				if bits.OnesCount32(set) == d {
					out = append(out, set)
				}
			}
		}
		s.subsetCache[k] = out
	}
	return s.subsetCache[k]
}

// merge is the document's Merge(N) (section 3.2): try to merge N with the
// subregions of as many of its unmarked kids as possible, from all of them
// down to none; among the valid subsets of the largest size the MERGE
// heuristic (Limits.Less) picks the one using the fewest resources (ties: the
// first subset in order of its bit mask over the kids). The kids left out
// are marked. Kids that may not be saved are always merged. If no subset
// gives a valid pass, the pass of N is cut to its minimal form (every node of
// its subregion that may be saved is marked), which checkPossible proved
// valid.
func (s *solver) merge(n int) {
	var free []int // kids that may be merged or marked; the others stay merged
	for _, k := range s.g.Kids[n] {
		if !s.marked[k] && s.g.CanSave(k) {
			free = append(free, k)
		}
	}
	if len(free) == 0 {
		if !s.valid(n) {
			s.minimal(n)
		}
		return
	}
	if len(free) > maxMergeCandidates {
		for _, k := range free[maxMergeCandidates:] {
			s.marked[k] = true
		}
		free = free[:maxMergeCandidates]
	}
	size := -1
	best, found := uint32(0), false
	var bestUse Usage
	for _, set := range s.subsets(len(free)) {
		d := bits.OnesCount32(set)
		if found && d < size {
			break
		}
		for i, k := range free {
			s.marked[k] = set&(1<<i) == 0
		}
		u := s.pass(n)
		if !s.p.Limits.Fits(u) {
			continue
		}
		if !found || s.p.Limits.Less(u, bestUse) {
			best, bestUse, found, size = set, u, true, d
		}
	}
	if found {
		for i, k := range free {
			s.marked[k] = best&(1<<i) == 0
		}
		return
	}
	for _, k := range free {
		s.marked[k] = false
	}
	s.minimal(n)
}

// minimal marks every node that may be saved in the subregion of n, except n.
func (s *solver) minimal(n int) {
	s.collect(n)
	for _, v := range s.region {
		if v != n && s.g.CanSave(v) {
			s.marked[v] = true
		}
	}
}

// greedy applies greedy bottom-up merging to the subregion of t: Merge at
// each of its nodes in postorder.
func (s *solver) greedy(t int) {
	s.collect(t)
	nodes := slices.Clone(s.region)
	slices.SortFunc(nodes, func(a, b int) int { return s.g.post[a] - s.g.post[b] })
	for _, v := range nodes {
		s.merge(v)
	}
}

// repair makes every pass valid. A mark made late (a kid that a second
// parent could not merge) turns a value recomputed in an earlier pass into a
// restore there, which can push that pass over a limit; such a pass is merged
// again. Marks only grow and the all-marked partition is valid, so it ends.
func (s *solver) repair() {
	for changed := true; changed; {
		changed = false
		for _, v := range s.g.order {
			if s.marked[v] && !s.valid(v) {
				s.greedy(v)
				changed = true
			}
		}
	}
}

// Greedy partitions by greedy bottom-up merging alone (section 3.2) over the
// whole DAG: no dominator tree, multiply-referenced nodes recomputed whenever
// a parent can merge them. It is the baseline the RDS variants improve on.
func (p *Problem) Greedy() (*Partition, error) {
	s, err := p.possible()
	if err != nil {
		return nil, err
	}
	s.reset()
	s.greedy(s.g.Root())
	s.repair()
	return s.build()
}
