package dramctl

import (
	"fmt"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// CommandKind is a DRAM command.
type CommandKind uint8

// DRAM commands.
const (
	CmdACT CommandKind = iota // activate a row
	CmdRD                     // read one burst from the open row
	CmdWR                     // write one burst to the open row
	CmdPRE                    // precharge (close) a bank
	CmdREF                    // all-bank refresh of a rank
)

var commandNames = enum.Names[CommandKind]{Type: "CommandKind", Names: []string{"ACT", "RD", "WR", "PRE", "REF"}}

func (k CommandKind) String() string { return commandNames.String(k) }

// Command is one issued command: its cycle (of the command clock), kind and
// address. REF uses only Rank; PRE and ACT no Column.
type Command struct {
	Cycle                              int64
	Kind                               CommandKind
	Rank, BankGroup, Bank, Row, Column int
}

func (c Command) String() string {
	switch c.Kind {
	case CmdREF:
		return fmt.Sprintf("REF rank %d", c.Rank)
	case CmdACT:
		return fmt.Sprintf("ACT rank %d bank group %d bank %d row %d", c.Rank, c.BankGroup, c.Bank, c.Row)
	case CmdPRE:
		return fmt.Sprintf("PRE rank %d bank group %d bank %d", c.Rank, c.BankGroup, c.Bank)
	}
	return fmt.Sprintf("%v rank %d bank group %d bank %d row %d column %d", c.Kind, c.Rank, c.BankGroup, c.Bank, c.Row, c.Column)
}

// Violation is a command that breaks a timing rule or the bank state: Rule
// names the rule ("tRCD", "data bus overlap", "read to a closed bank", ...).
type Violation struct {
	Rule    string
	Command Command
	Msg     string
}

func (v *Violation) Error() string {
	return fmt.Sprintf("DRAM protocol violation at cycle %d: %v: %s: %s", v.Command.Cycle, v.Command, v.Rule, v.Msg)
}

// RefreshPostponeLimit is how many all-bank refreshes JEDEC lets a controller
// postpone: two refreshes of a rank are at most (limit+1)*tREFI apart.
const RefreshPostponeLimit = 8

const never = -1 << 40

// Checker replays a channel's commands in issue order and reports the first
// one that breaks a rule of the timing: bank state (activate to an open bank,
// read or write to a closed bank or another row, refresh with a bank open),
// tRCD, tRAS, tRP, tRC, tCCD_S/L, tRRD_S/L, tFAW, tWTR_S/L, tRTP, tWR, tRFC,
// refresh overdue beyond the postponement limit, data bus overlap, read to
// write turnaround (tRTW), rank switch (tRTRS), and one command per cycle. It
// is independent of the controller's own bookkeeping: the rules are written
// as the datasheets state them, from the recorded history.
//
// Column-to-column spacing (tCCD) applies to every pair of column commands of
// a rank; a burst on the data bus must start after the previous burst's end.
type Checker struct {
	g       Geometry
	t       Timing
	refresh bool
	err     *Violation
	last    int64
	banks   []ckBank
	groups  []ckGroup
	ranks   []ckRank
	busEnd  int64 // end of the last burst on the data bus
	busRead bool
	busRank int
}

type ckBank struct {
	open                    bool
	row                     int
	act, pre, rd, wrDataEnd int64
}

type ckGroup struct {
	act, col, wrDataEnd int64
}

type ckRank struct {
	act, col, wrDataEnd, ref int64
	lastRefresh              int64    // for the overdue rule: 0 at the start
	acts                     [4]int64 // the last four activates, a ring
	nActs                    int
}

// NewChecker returns a checker for a channel of geometry g and timing t;
// refresh enables the refresh-overdue rule.
func NewChecker(g Geometry, t Timing, refresh bool) *Checker {
	c := &Checker{g: g, t: t, refresh: refresh, last: never, busEnd: never, busRank: -1}
	c.banks = make([]ckBank, g.TotalBanks())
	for i := range c.banks {
		c.banks[i] = ckBank{act: never, pre: never, rd: never, wrDataEnd: never}
	}
	c.groups = make([]ckGroup, g.Ranks*g.BankGroups)
	for i := range c.groups {
		c.groups[i] = ckGroup{act: never, col: never, wrDataEnd: never}
	}
	c.ranks = make([]ckRank, g.Ranks)
	for i := range c.ranks {
		c.ranks[i] = ckRank{act: never, col: never, wrDataEnd: never, ref: never}
	}
	return c
}

// Err returns the first violation recorded, or nil.
func (c *Checker) Err() error {
	if c.err == nil {
		return nil
	}
	return c.err
}

// Record checks cmd against the history and adds it. It returns the first
// violation of the run (this command's or an earlier one's), or nil.
func (c *Checker) Record(cmd Command) error {
	if c.err != nil {
		return c.err
	}
	if v := c.check(cmd); v != nil {
		c.err = v
		return v
	}
	c.apply(cmd)
	return nil
}

// Finish checks that no rank's refresh is overdue at cycle (the end of the
// run) and returns the first violation of the run, or nil.
func (c *Checker) Finish(cycle int64) error {
	if c.err == nil {
		if v := c.checkOverdue(Command{Cycle: cycle, Kind: CmdREF}); v != nil {
			c.err = v
		}
	}
	return c.Err()
}

func (c *Checker) violation(cmd Command, rule, format string, a ...any) *Violation {
	return &Violation{Rule: rule, Command: cmd, Msg: fmt.Sprintf(format, a...)}
}

// after reports a violation unless cmd comes at least need cycles after the
// earlier command at prev.
func (c *Checker) after(cmd Command, prev int64, need int, rule, what string) *Violation {
	if prev == never || cmd.Cycle-prev >= int64(need) {
		return nil
	}
	return c.violation(cmd, rule, "%d cycles after %s at cycle %d, need %d", cmd.Cycle-prev, what, prev, need)
}

func (c *Checker) checkOverdue(cmd Command) *Violation {
	if !c.refresh {
		return nil
	}
	limit := int64(RefreshPostponeLimit+1) * int64(c.t.TREFI)
	for r := range c.ranks {
		if last := c.ranks[r].lastRefresh; cmd.Cycle-last > limit {
			return c.violation(cmd, "refresh overdue", "rank %d not refreshed since cycle %d, more than %d x tREFI = %d cycles",
				r, last, RefreshPostponeLimit+1, limit)
		}
	}
	return nil
}

func (c *Checker) check(cmd Command) *Violation {
	g := c.g
	switch {
	case cmd.Cycle < c.last:
		return c.violation(cmd, "command order", "issued after a command of cycle %d", c.last)
	case cmd.Cycle == c.last:
		return c.violation(cmd, "command bus", "a second command in cycle %d", cmd.Cycle)
	case cmd.Rank < 0 || cmd.Rank >= g.Ranks || cmd.BankGroup < 0 || cmd.BankGroup >= g.BankGroups ||
		cmd.Bank < 0 || cmd.Bank >= g.Banks || cmd.Row < 0 || cmd.Row >= g.Rows || cmd.Column < 0 || cmd.Column >= g.Columns:
		return c.violation(cmd, "address", "outside the channel's geometry")
	case cmd.Kind > CmdREF:
		return c.violation(cmd, "command", "unknown command")
	}
	if v := c.checkOverdue(cmd); v != nil {
		return v
	}
	switch cmd.Kind {
	case CmdACT:
		return c.checkACT(cmd)
	case CmdRD, CmdWR:
		return c.checkColumn(cmd)
	case CmdPRE:
		return c.checkPRE(cmd)
	}
	return c.checkREF(cmd)
}

func (c *Checker) bankIndex(cmd Command) int {
	return (cmd.Rank*c.g.BankGroups+cmd.BankGroup)*c.g.Banks + cmd.Bank
}

func (c *Checker) checkACT(cmd Command) *Violation {
	t := c.t
	b := &c.banks[c.bankIndex(cmd)]
	gr := &c.groups[cmd.Rank*c.g.BankGroups+cmd.BankGroup]
	rk := &c.ranks[cmd.Rank]
	if b.open {
		return c.violation(cmd, "activate to an open bank", "row %d is open", b.row)
	}
	checks := []*Violation{
		c.after(cmd, b.act, t.TRC, "tRC", "the bank's ACT"),
		c.after(cmd, b.pre, t.TRP, "tRP", "the bank's PRE"),
		c.after(cmd, rk.ref, t.TRFC, "tRFC", "the rank's REF"),
		c.after(cmd, gr.act, t.TRRDL, "tRRD_L", "an ACT of the bank group"),
		c.after(cmd, rk.act, t.TRRDS, "tRRD_S", "an ACT of the rank"),
	}
	if t.TFAW > 0 && rk.nActs >= 4 {
		checks = append(checks, c.after(cmd, rk.acts[rk.nActs%4], t.TFAW, "tFAW", "the fourth ACT back"))
	}
	return first(checks)
}

func (c *Checker) checkColumn(cmd Command) *Violation {
	t := c.t
	b := &c.banks[c.bankIndex(cmd)]
	gr := &c.groups[cmd.Rank*c.g.BankGroups+cmd.BankGroup]
	rk := &c.ranks[cmd.Rank]
	read := cmd.Kind == CmdRD
	what := "write"
	if read {
		what = "read"
	}
	if !b.open {
		return c.violation(cmd, what+" to a closed bank", "no row is open")
	}
	if b.row != cmd.Row {
		return c.violation(cmd, what+" to another row", "row %d is open", b.row)
	}
	rcd, rcdName, lat := t.TRCD, "tRCD", t.TCL
	if !read {
		rcd, rcdName, lat = t.TRCDWR, "tRCDWR", t.TCWL
	}
	checks := []*Violation{
		c.after(cmd, b.act, rcd, rcdName, "the bank's ACT"),
		c.after(cmd, gr.col, t.TCCDL, "tCCD_L", "a column command of the bank group"),
		c.after(cmd, rk.col, t.TCCDS, "tCCD_S", "a column command of the rank"),
	}
	if read {
		checks = append(checks,
			c.after(cmd, gr.wrDataEnd, t.TWTRL, "tWTR_L", "the end of the bank group's write data"),
			c.after(cmd, rk.wrDataEnd, t.TWTRS, "tWTR_S", "the end of the rank's write data"))
	}
	if v := first(checks); v != nil {
		return v
	}
	start := cmd.Cycle + int64(lat)
	switch {
	case c.busEnd == never:
	case start < c.busEnd:
		return c.violation(cmd, "data bus overlap", "its data starts in cycle %d, the previous burst ends in cycle %d", start, c.busEnd)
	case c.busRank != cmd.Rank && start < c.busEnd+int64(t.TRTRS):
		return c.violation(cmd, "tRTRS", "its data starts %d cycles after rank %d's burst, need %d", start-c.busEnd, c.busRank, t.TRTRS)
	case !read && c.busRead && start < c.busEnd+int64(t.TRTW):
		return c.violation(cmd, "tRTW", "its data starts %d cycles after a read burst, need %d", start-c.busEnd, t.TRTW)
	}
	return nil
}

func (c *Checker) checkPRE(cmd Command) *Violation {
	b := &c.banks[c.bankIndex(cmd)]
	if !b.open {
		return nil // a precharge of a closed bank is a no-op
	}
	return first([]*Violation{
		c.after(cmd, b.act, c.t.TRAS, "tRAS", "the bank's ACT"),
		c.after(cmd, b.rd, c.t.TRTP, "tRTP", "the bank's RD"),
		c.after(cmd, b.wrDataEnd, c.t.TWR, "tWR", "the end of the bank's write data"),
	})
}

func (c *Checker) checkREF(cmd Command) *Violation {
	rk := &c.ranks[cmd.Rank]
	if v := c.after(cmd, rk.ref, c.t.TRFC, "tRFC", "the rank's REF"); v != nil {
		return v
	}
	n := c.g.BanksPerRank()
	for i := cmd.Rank * n; i < (cmd.Rank+1)*n; i++ {
		b := &c.banks[i]
		if b.open {
			return c.violation(cmd, "refresh with a bank open", "bank group %d bank %d has row %d open",
				i%n/c.g.Banks, i%c.g.Banks, b.row)
		}
		if v := first([]*Violation{
			c.after(cmd, b.pre, c.t.TRP, "tRP", fmt.Sprintf("bank group %d bank %d's PRE", i%n/c.g.Banks, i%c.g.Banks)),
			c.after(cmd, b.act, c.t.TRC, "tRC", fmt.Sprintf("bank group %d bank %d's ACT", i%n/c.g.Banks, i%c.g.Banks)),
		}); v != nil {
			return v
		}
	}
	return nil
}

func first(vs []*Violation) *Violation {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

func (c *Checker) apply(cmd Command) {
	c.last = cmd.Cycle
	t := c.t
	bc := int64(c.g.BurstCycles())
	b := &c.banks[c.bankIndex(cmd)]
	gr := &c.groups[cmd.Rank*c.g.BankGroups+cmd.BankGroup]
	rk := &c.ranks[cmd.Rank]
	switch cmd.Kind {
	case CmdACT:
		b.open, b.row, b.act = true, cmd.Row, cmd.Cycle
		gr.act, rk.act = cmd.Cycle, cmd.Cycle
		rk.acts[rk.nActs%4] = cmd.Cycle
		rk.nActs++
	case CmdRD:
		b.rd, gr.col, rk.col = cmd.Cycle, cmd.Cycle, cmd.Cycle
		c.busEnd, c.busRead, c.busRank = cmd.Cycle+int64(t.TCL)+bc, true, cmd.Rank
	case CmdWR:
		end := cmd.Cycle + int64(t.TCWL) + bc
		gr.col, rk.col = cmd.Cycle, cmd.Cycle
		b.wrDataEnd, gr.wrDataEnd, rk.wrDataEnd = end, end, end
		c.busEnd, c.busRead, c.busRank = end, false, cmd.Rank
	case CmdPRE:
		if b.open {
			b.open, b.pre = false, cmd.Cycle
		}
	case CmdREF:
		rk.ref, rk.lastRefresh = cmd.Cycle, cmd.Cycle
	}
}
