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
// burst that hits the open row, stand for all of them. heads keeps those two
// for every bank in one flat array, so that the scan reads neither the lists
// nor their rows.
type bankQueues struct {
	lists   [][]bankEntry
	heads   []bankHead // capacity 64 at least (fastScan)
	busy    uint64     // bit b: bank b has a burst (banks < 64; see fastScan)
	colSlot uint8      // the slot of channelState.next of this queue's column command: slotRD or slotWR
}

// bankHead is what the scan needs of one bank's list: its oldest burst (seq,
// row), its oldest burst of the open row (hit; noHit when none), and the
// command the bank waits for with the burst it serves (kind, key): FR-FCFS
// serves the open row's bursts first (headCol, key hit), opens a closed bank
// for its oldest burst (headACT) and closes a row that no burst hits for it
// (headPRE).
type bankHead struct {
	seq, hit, key uint64
	row           int32
	kind          uint8
	slot          uint8  // the slot of channelState.next for the command of kind
	group         uint16 // the bank's group (flat index; fastScan's banks are fewer than 64)
}

const noHit = ^uint64(0)

// The kinds of command a bank waits for, in the scan's order of preference
// among commands ready at once (column commands first; ACT and PRE alike).
const (
	headCol uint8 = iota
	headACT
	headPRE
)

// settle sets the bank's command from its bursts and its open row; colSlot
// is the queue's column command's slot.
func (h *bankHead) settle(open int32, colSlot uint8) {
	switch {
	case open >= 0 && h.hit != noHit:
		h.kind, h.key, h.slot = headCol, h.hit, colSlot
	case open < 0:
		h.kind, h.key, h.slot = headACT, h.seq, slotACT
	default:
		h.kind, h.key, h.slot = headPRE, h.seq, slotPRE
	}
}

func newBankQueues(s *channelState, write bool) bankQueues {
	banks := len(s.openRow)
	q := bankQueues{lists: make([][]bankEntry, banks), heads: make([]bankHead, banks, max(banks, 64)), colSlot: slotRD}
	if write {
		q.colSlot = slotWR
	}
	for b := range q.heads {
		q.heads[b] = bankHead{hit: noHit, group: uint16(s.bankGroup[b])}
	}
	return q
}

// add appends burst seq of row to bank b's list; open is the bank's open row.
func (q *bankQueues) add(b int32, seq uint64, row, open int32) {
	q.lists[b] = append(q.lists[b], bankEntry{seq, row})
	h := &q.heads[b]
	if len(q.lists[b]) == 1 {
		h.seq, h.row = seq, row
	}
	if row == open && h.hit == noHit {
		h.hit = seq
	}
	h.settle(open, q.colSlot)
	if b < 64 {
		q.busy |= 1 << uint(b)
	}
}

// remove deletes the burst seq from bank b's list; open is the bank's open
// row.
func (q *bankQueues) remove(b int32, seq uint64, open int32) {
	l := q.lists[b]
	for i := range l {
		if l[i].seq == seq {
			q.lists[b] = append(l[:i], l[i+1:]...)
			break
		}
	}
	l = q.lists[b]
	h := &q.heads[b]
	if len(l) == 0 {
		*h = bankHead{hit: noHit, group: h.group}
		if b < 64 {
			q.busy &^= 1 << uint(b)
		}
		return
	}
	h.seq, h.row = l[0].seq, l[0].row
	if h.hit == seq {
		h.hit = q.firstHit(b, open)
	}
	h.settle(open, q.colSlot)
}

// reopen records that row open is now bank b's open row (-1: the bank
// closed) and returns how many of the bank's bursts hit it.
func (q *bankQueues) reopen(b, open int32) int32 {
	n := int32(0)
	h := &q.heads[b]
	h.hit = noHit
	if open >= 0 {
		for _, e := range q.lists[b] {
			if e.row == open {
				if n == 0 {
					h.hit = e.seq
				}
				n++
			}
		}
	}
	h.settle(open, q.colSlot)
	return n
}

// firstHit returns the sequence number of bank b's oldest burst of row
// (noHit when none).
func (q *bankQueues) firstHit(b, row int32) uint64 {
	for _, e := range q.lists[b] {
		if e.row == row {
			return e.seq
		}
	}
	return noHit
}

// candidate is a bank whose bursts wait for a command: the sequence number of
// the burst it serves, the cycle the command may issue, and the bank.
type candidate struct {
	seq   uint64
	ready int64
	bank  int32
}

// fastScan is scan's common case, bank by bank: FR-FCFS, q's oldest burst not
// starved (so none is), no rank blocked by its refresh, at most 64 banks and
// q's bursts within 2^25 sequence numbers of each other. It returns what scan would, and besides, when nothing is ready, the
// command that would issue at the returned cycle if nothing changed before it
// (pred, predOK): the oldest burst's column command among those ready then,
// else the oldest burst's ACT or PRE. The returned cycle is q's oldest
// burst's starvation deadline when that comes first, and then there is no
// prediction.
//
// Every busy bank offers one command (its head's kind) for one burst (its
// key), ready at the later of the bank's own term and its bank group's term
// for that kind. The scan orders the banks by (d, column before row command,
// burst), where d is 0 for a command ready at t and the cycles it waits
// otherwise: the least is the oldest ready column command, else the oldest
// ready ACT or PRE, else the earliest command, a column command first, then
// the oldest. The order is one key below 2^63 per bank, so that the scan
// takes the least without a branch: d (below 2^31: every timing is below 2^24
// cycles), the kind, the burst's place after q's oldest (below 2^25, see
// scan) and the bank (below 64). A bank's own term is its next[b] entry of
// the head's slot; the loop reads it, the head and the group's terms as
// arrays of 64, without bounds checks.
func (c *Comp) fastScan(q []burst, bq *bankQueues, t int64) (ch choice, ok bool, next int64, pred choice, predOK bool) {
	s := c.state
	write := c.writeMode
	k := &c.terms
	s.fill(k, write)
	base := q[0].seq
	best := uint64(1<<63 - 1)
	heads := (*[64]bankHead)(bq.heads[:64])
	own := (*[64][4]int64)(s.next[:64])
	terms := (*[64][4]int64)(k.byGroup[:64])
	for m := bq.busy; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m) & 63
		h := &heads[b]
		wait := maxBF(own[b][h.slot&3], terms[h.group&63][h.kind&3]) - t
		d := uint64(minBF(maxBF(wait, 0), 1<<31-1))
		key := d<<32 | uint64(h.kind+1)>>1<<31 | (h.key-base)<<6 | uint64(b)
		best = uint64(minBF(int64(best), int64(key)))
	}
	b := int32(best & 63)
	h := &bq.heads[b]
	cand := candidate{seq: h.key, bank: b, ready: t + int64(best>>32)}
	col := h.kind == headCol
	if best>>32 == 0 { // ready at t
		if col {
			return c.columnChoice(q, cand, write), true, 0, choice{}, false
		}
		return c.rowChoice(bq, cand), true, 0, choice{}, false
	}
	deadline := q[0].arrive + int64(c.cfg.StarvationCap)
	next = min(cand.ready, deadline)
	switch {
	case next == deadline:
		return choice{}, false, next, choice{}, false
	case col:
		return choice{}, false, next, c.columnChoice(q, cand, write), true
	default:
		return choice{}, false, next, c.rowChoice(bq, cand), true
	}
}

// columnChoice is the RD or WR of candidate k's burst.
func (c *Comp) columnChoice(q []burst, k candidate, write bool) choice {
	kind := CmdRD
	if write {
		kind = CmdWR
	}
	return choice{kind: kind, bank: k.bank, row: c.state.openRow[k.bank], entry: int32(entryOf(q, k.seq))}
}

// rowChoice is the ACT (closed bank: of its oldest burst's row) or PRE (open
// bank) of candidate k.
func (c *Comp) rowChoice(bq *bankQueues, k candidate) choice {
	if open := c.state.openRow[k.bank]; open >= 0 {
		return choice{kind: CmdPRE, bank: k.bank, row: open, entry: -1}
	}
	return choice{kind: CmdACT, bank: k.bank, row: bq.heads[k.bank].row, entry: -1}
}

// entryOf returns the index in q (ordered by sequence number) of burst seq.
func entryOf(q []burst, seq uint64) int {
	return sort.Search(len(q), func(i int) bool { return q[i].seq >= seq })
}

// maxBF and minBF are max and min without a branch: the compiler branches on
// the scan's comparisons, which go either way at random and cost a mispredict
// each time. a-b must not overflow (the scan's cycles and keys are below
// 2^63 and at least -2^24).
func maxBF(a, b int64) int64 { d := a - b; return a - d&(d>>63) }

func minBF(a, b int64) int64 { d := a - b; return b + d&(d>>63) }
