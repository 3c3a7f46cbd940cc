package dramctl

// channelState is the timing state of one channel: for every bank, bank
// group and rank the earliest cycle each kind of command may issue, in flat
// arrays. Bank b of bank group g of rank r is index (r*BankGroups+g)*Banks+b;
// bank group g of rank r is index r*BankGroups+g. It knows nothing of
// requests: Scheduler decides, channelState says when and records.
type channelState struct {
	t          timingCycles
	banksPer   int        // banks per bank group
	groupsPer  int        // bank groups per rank
	banksRank  int        // banks per rank
	bankGroup  []int32    // bank -> group index
	bankRank   []int32    // bank -> rank
	openRow    []int32    // -1: closed
	next       [][4]int64 // per bank, by slot: RD (tRCD after the ACT), ACT, PRE (tRAS, tRTP, tWR), WR (tRCDWR)
	actAt      []int64    // cycle of the ACT that opened the row
	lastCol    []int64    // cycle of the last column command
	grpNextACT []int64    // tRRD_L
	grpNextCol []int64    // tCCD_L
	grpNextRD  []int64    // tWTR_L
	rkNextACT  []int64    // tRRD_S
	rkNextCol  []int64    // tCCD_S
	rkNextRD   []int64    // tWTR_S
	rkActs     [][4]int64
	rkNActs    []int
	refDue     []int64 // next all-bank refresh of the rank is due at this cycle
	busFree    int64   // the data bus is free from this cycle
	busRead    bool    // the last burst on the bus was a read
	busRank    int32   // rank of the last burst (-1: none yet)
	cmdFree    int64   // the command bus takes one command per cycle
}

// The slots of a bank's next-command cycles (channelState.next). The first
// three are the kinds of command a queued bank waits for (headCol for a read,
// headACT, headPRE), so that the scan indexes them by the bank's head.
const (
	slotRD  = headCol
	slotACT = headACT
	slotPRE = headPRE
	slotWR  = 3
)

// timingCycles is Timing in int64 cycles, with the burst length on the bus.
type timingCycles struct {
	cl, cwl, rcd, rcdwr, rp, ras, rc, ccds, ccdl, rrds, rrdl, faw int64
	wtrs, wtrl, rtp, wr, refi, rfc, rtw, rtrs, bc                 int64
}

func newTimingCycles(t Timing, g Geometry) timingCycles {
	return timingCycles{
		cl: int64(t.TCL), cwl: int64(t.TCWL), rcd: int64(t.TRCD), rcdwr: int64(t.TRCDWR),
		rp: int64(t.TRP), ras: int64(t.TRAS), rc: int64(t.TRC), ccds: int64(t.TCCDS), ccdl: int64(t.TCCDL),
		rrds: int64(t.TRRDS), rrdl: int64(t.TRRDL), faw: int64(t.TFAW), wtrs: int64(t.TWTRS),
		wtrl: int64(t.TWTRL), rtp: int64(t.TRTP), wr: int64(t.TWR), refi: int64(t.TREFI),
		rfc: int64(t.TRFC), rtw: int64(t.TRTW), rtrs: int64(t.TRTRS), bc: int64(g.BurstCycles()),
	}
}

func newChannelState(g Geometry, t Timing) *channelState {
	nb, ng, nr := g.TotalBanks(), g.Ranks*g.BankGroups, g.Ranks
	s := &channelState{t: newTimingCycles(t, g), banksPer: g.Banks, groupsPer: g.BankGroups,
		banksRank: g.BanksPerRank(), busRank: -1}
	s.bankGroup, s.bankRank, s.openRow = make([]int32, nb), make([]int32, nb), make([]int32, nb)
	s.next = make([][4]int64, nb, max(nb, 64)) // capacity 64: see fastScan
	for _, a := range []*[]int64{&s.actAt, &s.lastCol} {
		*a = make([]int64, nb)
	}
	for _, a := range []*[]int64{&s.grpNextACT, &s.grpNextCol, &s.grpNextRD} {
		*a = make([]int64, ng)
	}
	for _, a := range []*[]int64{&s.rkNextACT, &s.rkNextCol, &s.rkNextRD, &s.refDue} {
		*a = make([]int64, nr)
	}
	s.rkActs, s.rkNActs = make([][4]int64, nr), make([]int, nr)
	for b := range s.openRow {
		s.openRow[b] = -1
		s.actAt[b] = never
		s.bankGroup[b] = int32(b / g.Banks)
		s.bankRank[b] = int32(b / s.banksRank)
	}
	for r := range s.refDue {
		s.refDue[r] = s.t.refi
	}
	return s
}

// bankIndex returns the flat index of the bank at l.
func (s *channelState) bankIndex(l Location) int32 {
	return int32((l.Rank*s.groupsPer+l.BankGroup)*s.banksPer + l.Bank)
}

// location returns the rank, bank group and bank of flat bank b.
func (s *channelState) location(b int32) (rank, group, bank int) {
	return int(s.bankRank[b]), int(b) / s.banksPer % s.groupsPer, int(b) % s.banksPer
}

// actReady returns the earliest cycle bank b (closed) may be activated.
func (s *channelState) actReady(b int32) int64 {
	g, r := s.bankGroup[b], s.bankRank[b]
	t := max(s.next[b][slotACT], s.grpNextACT[g], s.rkNextACT[r], s.cmdFree)
	if s.t.faw > 0 && s.rkNActs[r] >= 4 {
		t = max(t, s.rkActs[r][s.rkNActs[r]%4]+s.t.faw)
	}
	return t
}

// readReady returns the earliest cycle a read of bank b's open row may issue.
func (s *channelState) readReady(b int32) int64 {
	g, r := s.bankGroup[b], s.bankRank[b]
	t := max(s.next[b][slotRD], s.grpNextCol[g], s.rkNextCol[r], s.grpNextRD[g], s.rkNextRD[r], s.cmdFree)
	if s.busRank >= 0 {
		t = max(t, s.busTerm(r, false))
	}
	return t
}

// writeReady returns the earliest cycle a write to bank b's open row may issue.
func (s *channelState) writeReady(b int32) int64 {
	g, r := s.bankGroup[b], s.bankRank[b]
	t := max(s.next[b][slotWR], s.grpNextCol[g], s.rkNextCol[r], s.cmdFree)
	if s.busRank >= 0 {
		t = max(t, s.busTerm(r, true))
	}
	return t
}

// readyTerms holds, for one scan, the parts of the bank readiness rules that
// do not depend on the bank: for each bank group (flat index) and each kind of
// command a bank may wait for (headCol: a read or a write, as asked; headACT;
// headPRE), the earliest cycle its bank group, its rank, the command bus and
// the data bus allow. readReady(b) is max(next[b][slotRD], byGroup[g][headCol]),
// and so on: the scan computes them once instead of once per bank.
type readyTerms struct {
	byGroup [][4]int64
}

func newReadyTerms(groups int) readyTerms {
	return readyTerms{byGroup: make([][4]int64, groups, max(groups, 64))} // capacity 64: see fastScan
}

// fill computes the terms of the channel's current state, for reads or
// writes.
func (s *channelState) fill(k *readyTerms, write bool) {
	g := 0
	for r := range s.rkNextCol {
		// The rank's terms, then each of its bank groups'.
		col := max(s.rkNextCol[r], s.cmdFree)
		if !write {
			col = max(col, s.rkNextRD[r])
		}
		if s.busRank >= 0 {
			col = max(col, s.busTerm(int32(r), write))
		}
		act := max(s.rkNextACT[r], s.cmdFree)
		if s.t.faw > 0 && s.rkNActs[r] >= 4 {
			act = max(act, s.rkActs[r][s.rkNActs[r]%4]+s.t.faw)
		}
		for end := g + s.groupsPer; g < end; g++ {
			e := &k.byGroup[g]
			gcol := s.grpNextCol[g]
			if !write {
				gcol = max(gcol, s.grpNextRD[g])
			}
			e[headCol], e[headACT], e[headPRE] = max(gcol, col), max(s.grpNextACT[g], act), s.cmdFree
		}
	}
}

// busTerm is the data bus's constraint on a column command of rank r: the
// bus must be free (after the turnaround between ranks, and from a read to a
// write) when the command's data starts.
func (s *channelState) busTerm(r int32, write bool) int64 {
	if !write {
		gap := int64(0)
		if s.busRank != r {
			gap = s.t.rtrs
		}
		return s.busFree + gap - s.t.cl
	}
	gap := int64(0)
	if s.busRead {
		gap = s.t.rtw
	}
	if s.busRank != r {
		gap = max(gap, s.t.rtrs)
	}
	return s.busFree + gap - s.t.cwl
}

// preReady returns the earliest cycle bank b (open) may be precharged.
func (s *channelState) preReady(b int32) int64 { return max(s.next[b][slotPRE], s.cmdFree) }

// refReady returns the earliest cycle rank r (all banks closed) may refresh.
func (s *channelState) refReady(r int) int64 {
	t := s.cmdFree
	for b := r * s.banksRank; b < (r+1)*s.banksRank; b++ {
		t = max(t, s.next[b][slotACT])
	}
	return t
}

// activate records an ACT of row in bank b at cycle t.
func (s *channelState) activate(b int32, row int32, t int64) {
	g, r := s.bankGroup[b], s.bankRank[b]
	s.openRow[b], s.actAt[b] = row, t
	s.next[b][slotRD], s.next[b][slotWR] = t+s.t.rcd, t+s.t.rcdwr
	s.next[b][slotPRE] = max(s.next[b][slotPRE], t+s.t.ras)
	s.next[b][slotACT] = t + s.t.rc
	s.grpNextACT[g], s.rkNextACT[r] = t+s.t.rrdl, t+s.t.rrds
	s.rkActs[r][s.rkNActs[r]%4] = t
	s.rkNActs[r]++
	s.cmdFree = t + 1
}

// precharge records a PRE of bank b at cycle t.
func (s *channelState) precharge(b int32, t int64) {
	s.openRow[b] = -1
	s.next[b][slotACT] = max(s.next[b][slotACT], t+s.t.rp)
	s.cmdFree = t + 1
}

// read records a RD of bank b at cycle t and returns the cycle its data ends.
func (s *channelState) read(b int32, t int64) int64 {
	g, r := s.bankGroup[b], s.bankRank[b]
	s.next[b][slotPRE] = max(s.next[b][slotPRE], t+s.t.rtp)
	s.grpNextCol[g], s.rkNextCol[r] = t+s.t.ccdl, t+s.t.ccds
	s.busFree, s.busRead, s.busRank = t+s.t.cl+s.t.bc, true, r
	s.lastCol[b] = t
	s.cmdFree = t + 1
	return s.busFree
}

// write records a WR of bank b at cycle t and returns the cycle its data ends.
func (s *channelState) write(b int32, t int64) int64 {
	g, r := s.bankGroup[b], s.bankRank[b]
	end := t + s.t.cwl + s.t.bc
	s.next[b][slotPRE] = max(s.next[b][slotPRE], end+s.t.wr)
	s.grpNextCol[g], s.rkNextCol[r] = t+s.t.ccdl, t+s.t.ccds
	s.grpNextRD[g] = max(s.grpNextRD[g], end+s.t.wtrl)
	s.rkNextRD[r] = max(s.rkNextRD[r], end+s.t.wtrs)
	s.busFree, s.busRead, s.busRank = end, false, r
	s.lastCol[b] = t
	s.cmdFree = t + 1
	return end
}

// refresh records a REF of rank r at cycle t.
func (s *channelState) refresh(r int, t int64) {
	for b := r * s.banksRank; b < (r+1)*s.banksRank; b++ {
		s.next[b][slotACT] = t + s.t.rfc
	}
	s.refDue[r] += s.t.refi
	s.cmdFree = t + 1
}
