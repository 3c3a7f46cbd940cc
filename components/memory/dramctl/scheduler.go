package dramctl

import "math"

const forever = math.MaxInt64

// fastScanHook, when set (by tests), is called with every fastScan result.
var fastScanHook func(c *Comp, q []burst, pend []int32, t int64, ch choice, ok bool, next int64)

// planHook, when set (by tests), is called with every decision taken from a
// plan instead of decide.
var planHook func(c *Comp, t int64, ch choice, ok bool, next int64)

// Row-buffer state of a burst's bank when the burst arrived.
const (
	arrivedHit      uint8 = iota // its row was open
	arrivedClosed                // the bank was closed
	arrivedConflict              // another row was open
)

// burst is one queue entry: one burst-sized piece of a request.
type burst struct {
	seq     uint64 // the controller's count of bursts queued before it
	req     int32  // request slot
	bank    int32  // flat bank index
	row     int32
	col     int32
	arrive  int64 // cycle the request was accepted
	arrived uint8 // row-buffer state at arrival
}

// choice is a command the scheduler picked: its kind, the bank, the row, and
// for a column command the queue entry it serves (-1 otherwise); refRank is
// the rank of a REF.
type choice struct {
	kind    CommandKind
	bank    int32
	row     int32
	entry   int32
	refRank int32
}

// decide returns the command to issue at cycle t, if any, and otherwise the
// next cycle at which one may issue or the decision may change (a refresh
// falling due, a burst reaching the starvation cap). It is the scheduler:
//
//  1. refresh: a rank whose refresh is due takes no new ACT or column
//     command; its open banks are precharged, then it is refreshed;
//  2. the active queue is the write queue while draining writes, the read
//     queue otherwise (see updateMode);
//  3. starvation: a burst that has waited StarvationCap cycles or more is
//     starved; the oldest starved burst of a bank holds that bank (no
//     younger burst's command issues in it, so younger row hits do not
//     overtake it, and its row conflict may precharge the open row), and the
//     starved bursts' ready commands issue first, oldest first. Other banks
//     go on being scheduled below, so serving starved bursts still overlaps
//     independent banks;
//  4. FR-FCFS: the oldest burst whose column command (a row hit) is ready,
//     else the oldest burst whose ACT or PRE is ready; a bank is not
//     precharged while a burst of the active queue hits its open row.
//     FCFS: the oldest ready command among the oldest bursts of each bank
//     (a bank serves its bursts in arrival order);
//  5. the page policy closes idle rows that no queued burst hits.
func (c *Comp) decide(t int64) (choice, bool, int64) {
	c.predOK, c.decidedFast = false, false
	s := c.state
	next := int64(forever)
	if c.cfg.Refresh {
		for r := range s.refDue {
			if s.refDue[r] > t {
				next = min(next, s.refDue[r])
				continue
			}
			ch, ready := c.refreshCommand(r)
			if ready <= t {
				return ch, true, 0
			}
			next = min(next, ready)
		}
	}
	c.updateMode(t)
	q, pend := c.reads, c.pendRead
	if c.writeMode {
		q, pend = c.writes, c.pendWrite
	}
	// Deadlines at which the mode or the starvation state changes (one already
	// passed changes nothing more).
	if other := c.reads; len(other) > 0 && c.writeMode || len(c.writes) > 0 && !c.writeMode {
		if !c.writeMode {
			other = c.writes
		}
		if deadline := other[0].arrive + int64(c.cfg.StarvationCap); deadline > t {
			next = min(next, deadline)
		}
	}
	ch, ok, n := c.scan(q, pend, t)
	fast := c.scannedFast
	if ok {
		c.decidedFast = fast && next > t
		return ch, true, 0
	}
	if c.cfg.PagePolicy != PageOpen {
		ch, ready, ok := c.pageClose()
		if ok && ready <= t {
			return ch, true, 0
		}
		if ok {
			next = min(next, ready)
		}
	}
	// The scan's prediction holds at n when nothing else can change before
	// or at n: no refresh falls due, the mode stays, no idle row closes.
	c.predOK = c.predOK && n < next
	c.decidedFast = fast && n < next
	return choice{}, false, min(next, n)
}

// bankReady memoizes, within one scan, a bank's ready cycles: every burst of
// a bank needs the same command at the same time (its open row's column
// command, or the ACT of a closed bank; or the PRE of another row). A bank
// whose heldStamp is the scan's is held by its oldest starved burst.
type bankReady struct {
	stamp, preStamp, seenStamp, heldStamp uint32
	ready, pre                            int64
}

// scan runs the starvation rule and FR-FCFS or FCFS over the active queue q
// (oldest first) at cycle t. The starved bursts (waited StarvationCap cycles
// or more) are a prefix of q: the first starved burst of each bank holds the
// bank, and the first of them whose command is ready issues it. Then FR-FCFS
// returns the oldest burst's ready column command, else the oldest ready
// ACT or PRE; FCFS the oldest ready command among each bank's oldest burst
// (bursts of one bank are served in arrival order); neither issues in a held
// bank. Without a command it returns the earliest cycle one becomes ready or
// the next burst starves. The common case (FR-FCFS, no burst starved, no rank
// waiting for its refresh, at most 64 banks, q's bursts within 2^25 sequence
// numbers of each other) goes bank by bank (fastScan), which also predicts
// the command of the returned cycle; the others scan the queue (scanQueue).
func (c *Comp) scan(q []burst, pend []int32, t int64) (choice, bool, int64) {
	s := c.state
	anyBlocked := false
	for r := range c.blocked {
		c.blocked[r] = c.cfg.Refresh && s.refDue[r] <= t
		anyBlocked = anyBlocked || c.blocked[r]
	}
	starvedBy := t - int64(c.cfg.StarvationCap) // a burst that arrived by this cycle is starved
	if c.cfg.Scheduler != FCFS && !anyBlocked && len(q) > 0 && q[0].arrive > starvedBy && len(s.openRow) <= 64 &&
		q[len(q)-1].seq-q[0].seq < 1<<25 {
		bq := &c.readBanks
		if c.writeMode {
			bq = &c.writeBanks
		}
		ch, ok, next, pred, predOK := c.fastScan(q, bq, t)
		c.pred, c.predOK, c.scannedFast = pred, predOK, true
		if fastScanHook != nil {
			fastScanHook(c, q, pend, t, ch, ok, next)
		}
		return ch, ok, next
	}
	c.scannedFast = false
	return c.scanQueue(q, pend, t, anyBlocked)
}

// scanQueue is scan over every queued burst, the general case.
func (c *Comp) scanQueue(q []burst, pend []int32, t int64, anyBlocked bool) (choice, bool, int64) {
	s := c.state
	fcfs := c.cfg.Scheduler == FCFS
	c.stamp++
	stamp := c.stamp
	write := c.writeMode
	next := int64(forever)
	starvedBy := t - int64(c.cfg.StarvationCap)
	fresh := false // a burst that has not starved was seen
	row, haveRow := choice{}, false
	for i := range q {
		e := &q[i]
		b := e.bank
		starved := e.arrive <= starvedBy
		if !starved && !fresh {
			fresh = true
			next = min(next, e.arrive+int64(c.cfg.StarvationCap))
		}
		if anyBlocked && c.blocked[s.bankRank[b]] {
			continue // the rank is waiting for its refresh
		}
		m := &c.memo[b]
		if m.heldStamp == stamp {
			continue // an older starved burst holds the bank
		}
		if starved {
			m.heldStamp = stamp
		}
		if fcfs {
			if m.seenStamp == stamp {
				continue // FCFS: only the oldest burst of each bank may issue
			}
			m.seenStamp = stamp
		}
		open := s.openRow[b]
		var ch choice
		var ready int64
		switch {
		case open == e.row:
			if m.stamp != stamp {
				m.stamp = stamp
				if write {
					m.ready = s.writeReady(b)
				} else {
					m.ready = s.readReady(b)
				}
			}
			ready = m.ready
			if ready <= t {
				kind := CmdRD
				if write {
					kind = CmdWR
				}
				return choice{kind: kind, bank: b, row: e.row, entry: int32(i)}, true, 0
			}
		case open < 0:
			if m.stamp != stamp {
				m.stamp, m.ready = stamp, s.actReady(b)
			}
			ready, ch = m.ready, choice{kind: CmdACT, bank: b, row: e.row, entry: -1}
		case starved || fcfs || pend[b] == 0:
			if m.preStamp != stamp {
				m.preStamp, m.pre = stamp, s.preReady(b)
			}
			ready, ch = m.pre, choice{kind: CmdPRE, bank: b, row: open, entry: -1}
		default:
			continue // FR-FCFS keeps the row open for the bursts that hit it
		}
		switch {
		case ready > t:
			next = min(next, ready)
		case starved || fcfs:
			return ch, true, 0 // the oldest ready command of a starved burst, or FCFS
		case !haveRow:
			row, haveRow = ch, true
		}
	}
	if haveRow {
		return row, true, 0
	}
	return choice{}, false, next
}

// refreshCommand returns rank r's next refresh step: the PRE of its open bank
// that may issue first, or the REF once all its banks are closed.
func (c *Comp) refreshCommand(r int) (choice, int64) {
	s := c.state
	best, bestAt := int32(-1), int64(forever)
	for b := int32(r * s.banksRank); b < int32((r+1)*s.banksRank); b++ {
		if s.openRow[b] >= 0 {
			if at := s.preReady(b); at < bestAt {
				best, bestAt = b, at
			}
		}
	}
	if best >= 0 {
		return choice{kind: CmdPRE, bank: best, row: s.openRow[best], entry: -1}, bestAt
	}
	return choice{kind: CmdREF, bank: int32(r * s.banksRank), entry: -1, refRank: int32(r)}, s.refReady(r)
}

// pageClose returns the PRE of an open row that no queued burst hits and whose
// idle time has run out (PageClosed: at once; PageTimeout: PageTimeout cycles
// after its last column command), the one that may issue first.
func (c *Comp) pageClose() (choice, int64, bool) {
	s := c.state
	timeout := int64(0)
	if c.cfg.PagePolicy == PageTimeout {
		timeout = int64(c.cfg.PageTimeout)
	}
	best, bestAt := int32(-1), int64(forever)
	for b := range s.openRow {
		if s.openRow[b] < 0 || c.pendRead[b]+c.pendWrite[b] > 0 {
			continue
		}
		at := max(s.preReady(int32(b)), s.lastCol[b]+timeout)
		if at < bestAt {
			best, bestAt = int32(b), at
		}
	}
	if best < 0 {
		return choice{}, 0, false
	}
	return choice{kind: CmdPRE, bank: best, row: s.openRow[best], entry: -1}, bestAt, true
}

// updateMode switches between serving reads and draining writes: to writes
// when WriteHigh writes are queued, when no read is, or when the oldest write
// has waited StarvationCap cycles; back to reads when the writes are gone, or
// when reads wait and WriteLow or fewer writes remain (or the oldest read has
// starved and the oldest write has not).
func (c *Comp) updateMode(t int64) { c.writeMode = c.modeAt(t) }

// modeAt returns the mode updateMode would set at cycle t (true: draining
// writes).
func (c *Comp) modeAt(t int64) bool {
	nr, nw := len(c.reads), len(c.writes)
	limit := int64(c.cfg.StarvationCap)
	if !c.writeMode {
		return nw > 0 && (nw >= c.cfg.WriteHigh || nr == 0 || t-c.writes[0].arrive >= limit)
	}
	return !(nw == 0 || nr > 0 && (nw <= c.cfg.WriteLow || t-c.reads[0].arrive >= limit && t-c.writes[0].arrive < limit))
}
