package dramctl

import (
	"math/bits"
	"sort"
)

// bankEntry is a queued burst in its bank's list: its sequence number (the
// queue's order) and its row.
type bankEntry struct {
	seq uint64
	row int32
}

// bankQueues indexes one queue by bank: every bank's bursts, oldest first,
// and the set of banks that have any. The scheduler's common case (FR-FCFS,
// no burst starved, no rank waiting for its refresh) then looks at each busy
// bank once instead of at every queued burst: every burst of a bank needs the
// same command at the same cycle, so a bank's oldest burst, and its oldest
// burst that hits the open row, stand for all of them.
type bankQueues struct {
	lists [][]bankEntry
	busy  uint64 // bit b: bank b has a burst (banks < 64; see fastScan)
}

func newBankQueues(banks int) bankQueues { return bankQueues{lists: make([][]bankEntry, banks)} }

func (q *bankQueues) add(b int32, seq uint64, row int32) {
	q.lists[b] = append(q.lists[b], bankEntry{seq, row})
	if b < 64 {
		q.busy |= 1 << uint(b)
	}
}

// remove deletes the burst seq from bank b's list.
func (q *bankQueues) remove(b int32, seq uint64) {
	l := q.lists[b]
	for i := range l {
		if l[i].seq == seq {
			q.lists[b] = append(l[:i], l[i+1:]...)
			break
		}
	}
	if len(q.lists[b]) == 0 && b < 64 {
		q.busy &^= 1 << uint(b)
	}
}

// hits counts bank b's bursts of row.
func (q *bankQueues) hits(b, row int32) int32 {
	n := int32(0)
	for _, e := range q.lists[b] {
		if e.row == row {
			n++
		}
	}
	return n
}

// firstHit returns the sequence number of bank b's oldest burst of row.
func (q *bankQueues) firstHit(b, row int32) (uint64, bool) {
	for _, e := range q.lists[b] {
		if e.row == row {
			return e.seq, true
		}
	}
	return 0, false
}

// candidate is a bank whose bursts wait for a command: the oldest such
// burst's sequence number, the cycle the command may issue, and the bank.
type candidate struct {
	seq   uint64
	ready int64
	bank  int32
}

// better reports whether a is to be preferred to b among candidates of one
// kind: the earlier cycle, then the older burst.
func (a candidate) better(b candidate) bool {
	return a.ready < b.ready || a.ready == b.ready && a.seq < b.seq
}

var noCandidate = candidate{seq: ^uint64(0), ready: forever, bank: -1}

// fastScan is scan's common case, bank by bank: FR-FCFS, q's oldest burst not
// starved (so none is), no rank blocked by its refresh and at most 64 banks.
// It returns what scan would, and besides, when nothing is ready, the
// command that would issue at the returned cycle if nothing changed before it
// (pred, predOK): the oldest burst's column command among those ready then,
// else the oldest burst's ACT or PRE. The returned cycle is q's oldest
// burst's starvation deadline when that comes first, and then there is no
// prediction.
func (c *Comp) fastScan(q []burst, bq *bankQueues, pend []int32, t int64) (ch choice, ok bool, next int64, pred choice, predOK bool) {
	s := c.state
	write := c.writeMode
	k := &c.terms
	s.fill(k, write)
	readyCol, readyRow := noCandidate, noCandidate // ready at t: the oldest burst
	waitCol, waitRow := noCandidate, noCandidate   // not ready: the earliest, then the oldest
	for m := bq.busy; m != 0; m &= m - 1 {
		b := int32(bits.TrailingZeros64(m))
		open := s.openRow[b]
		var cand candidate
		if open >= 0 && pend[b] > 0 { // FR-FCFS serves the open row's bursts; the others wait
			seq, hit := bq.firstHit(b, open)
			if !hit {
				continue
			}
			cand = candidate{seq: seq, bank: b, ready: s.colReadyFrom(k, b, write)}
			if cand.ready <= t {
				if cand.seq < readyCol.seq {
					readyCol = cand
				}
			} else if cand.better(waitCol) {
				waitCol = cand
			}
			continue
		}
		cand = candidate{seq: bq.lists[b][0].seq, bank: b}
		if open < 0 {
			cand.ready = s.actReadyFrom(k, b)
		} else { // the open row has no burst: close it for the oldest one
			cand.ready = s.preReady(b)
		}
		if cand.ready <= t {
			if cand.seq < readyRow.seq {
				readyRow = cand
			}
		} else if cand.better(waitRow) {
			waitRow = cand
		}
	}
	switch {
	case readyCol.bank >= 0:
		return c.columnChoice(q, readyCol, write), true, 0, choice{}, false
	case readyRow.bank >= 0:
		return c.rowChoice(bq, readyRow), true, 0, choice{}, false
	}
	deadline := q[0].arrive + int64(c.cfg.StarvationCap)
	next = min(waitCol.ready, waitRow.ready, deadline)
	switch {
	case next == deadline:
		return choice{}, false, next, choice{}, false
	case waitCol.ready == next:
		return choice{}, false, next, c.columnChoice(q, waitCol, write), true
	default:
		return choice{}, false, next, c.rowChoice(bq, waitRow), true
	}
}

// columnChoice is the RD or WR of candidate k's burst.
func (c *Comp) columnChoice(q []burst, k candidate, write bool) choice {
	kind := CmdRD
	if write {
		kind = CmdWR
	}
	return choice{kind: kind, bank: k.bank, row: c.state.openRow[k.bank], entry: entryOf(q, k.seq)}
}

// rowChoice is the ACT (closed bank: of its oldest burst's row) or PRE (open
// bank) of candidate k.
func (c *Comp) rowChoice(bq *bankQueues, k candidate) choice {
	if open := c.state.openRow[k.bank]; open >= 0 {
		return choice{kind: CmdPRE, bank: k.bank, row: open, entry: -1}
	}
	return choice{kind: CmdACT, bank: k.bank, row: bq.lists[k.bank][0].row, entry: -1}
}

// entryOf returns the index in q (ordered by sequence number) of burst seq.
func entryOf(q []burst, seq uint64) int {
	return sort.Search(len(q), func(i int) bool { return q[i].seq >= seq })
}
