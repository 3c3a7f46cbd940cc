package multipass

import "math"

// subdivide is the document's Subdivide(T') (section 3.4) with the RDS
// replacement of its lines 6-8 (section 3.5): if the subregion of t is not
// valid, subdivide each child of t in the partial dominator tree in postorder
// of the DAG, and after each multiply-referenced child decide whether its
// subregion is saved (marked) or recomputed: as fixed by the search, or by
// the RECOMPUTE heuristic. Then apply greedy merging to the subregion of t.
func (s *solver) subdivide(t int) {
	if !s.valid(t) {
		for _, k := range s.pdt.Children[t] {
			s.subdivide(k)
			if !s.g.MR(k) {
				continue
			}
			switch {
			case s.marked[k]: // marked by a merge: saved
				s.locked[k] = true
			case !s.g.CanSave(k), s.fixed[k] < 0:
				// recomputed
			case s.fixed[k] > 0, !s.p.Limits.Recompute(s.pass(k)):
				s.marked[k], s.locked[k] = true, true
			}
		}
	}
	s.greedy(t)
}

// run partitions from scratch under the current fixed decisions (which
// apply when Subdivide reaches the node, as lines 14-16 of the document say).
func (s *solver) run() (*Partition, error) {
	s.reset()
	s.subdivide(s.g.Root())
	s.repair()
	return s.build()
}

// possible returns a solver of p once every node can fit a pass.
func (p *Problem) possible() (*solver, error) {
	s, err := newSolver(p)
	if err != nil {
		return nil, err
	}
	if err := s.checkPossible(); err != nil {
		return nil, err
	}
	return s, nil
}

// start returns a solver of p with its partial dominator tree (the RDS
// variants).
func (p *Problem) start() (*solver, error) {
	s, err := p.possible()
	if err != nil {
		return nil, err
	}
	s.pdt = s.g.PartialDominatorTree()
	return s, nil
}

// RDSh is the document's RDS_h (section 3.4): one traversal of the partial
// dominator tree, with the RECOMPUTE heuristic making every save-or-recompute
// decision.
func (p *Problem) RDSh() (*Partition, error) {
	s, err := p.start()
	if err != nil {
		return nil, err
	}
	return s.run()
}

// RDS is the document's RDS (section 3.5): for each multiply-referenced node
// M in postorder, partition twice with Subdivide, once with M fixed as saved
// and once fixed as recomputed (the other undecided nodes follow RECOMPUTE),
// and keep M fixed the cheaper way (saved only when strictly cheaper). The
// result is the partition of the last decision. Nodes that may not be saved
// are not searched.
func (p *Problem) RDS() (*Partition, error) {
	s, err := p.start()
	if err != nil {
		return nil, err
	}
	var list []int
	for _, m := range s.g.MRNodes() {
		if s.g.CanSave(m) {
			list = append(list, m)
		}
	}
	if len(list) == 0 {
		return s.run()
	}
	var result *Partition
	for _, m := range list {
		s.fixed[m] = 1
		ps, errS := s.run()
		s.fixed[m] = -1
		pr, errR := s.run()
		cs, cr := math.Inf(1), math.Inf(1)
		if errS == nil {
			cs = ps.Cost
		}
		if errR == nil {
			cr = pr.Cost
		}
		switch {
		case errS != nil && errR != nil:
			return nil, errS
		case cs < cr:
			s.fixed[m] = 1
			result = ps
		default:
			result = pr
		}
	}
	result.Evaluations = s.evals
	return result, nil
}
