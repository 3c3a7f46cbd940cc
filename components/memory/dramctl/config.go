package dramctl

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/sarchlab/akita/v3/sim"
)

// Page policies (Config.PagePolicy).
const (
	PageOpen    = "open"    // a row stays open until another row of its bank is needed (or a refresh)
	PageClosed  = "closed"  // a row is closed as soon as no queued request hits it
	PageTimeout = "timeout" // a row is closed PageTimeout cycles after its last access
)

// Schedulers (Config.Scheduler).
const (
	FRFCFS = "frfcfs" // ready row hits first, then the oldest ready command
	FCFS   = "fcfs"   // each bank in arrival order; the oldest ready command among the banks
)

// Defaults applied by WithDefaults to zero fields.
const (
	DefaultPreset        = "GDDR6"
	DefaultMapping       = "row,column,bank,bankgroup"
	DefaultQueue         = 32   // read and write queue entries (bursts)
	DefaultStarvationCap = 1000 // cycles
	DefaultTopBuffer     = 1024 // requests
)

// Geometry is one channel's organisation. Every count is a power of two.
type Geometry struct {
	// BusWidth is the channel's data bus in bits.
	BusWidth int
	// BurstLength is the transfers of one burst (one column access).
	BurstLength int
	// DataRate is the transfers per command clock (tCK) on each data pin:
	// 2 for DDR (HBM2, LPDDR4), 4 for GDDR5 (DDR on WCK = 2 CK), 8 for GDDR6
	// (QDR on WCK = 2 CK, or DDR on WCK = 4 CK). A burst holds the data bus
	// BurstLength/DataRate cycles.
	DataRate int
	// Ranks per channel, BankGroups per rank, Banks per bank group, Rows per
	// bank, and Columns per row counted in bursts (a row is Columns bursts of
	// BurstBytes: the page size).
	Ranks, BankGroups, Banks, Rows, Columns int
}

// BurstBytes returns the bytes one burst moves (the access unit).
func (g Geometry) BurstBytes() uint64 { return uint64(g.BusWidth/8) * uint64(g.BurstLength) }

// BurstCycles returns the command clocks one burst holds the data bus.
func (g Geometry) BurstCycles() int { return g.BurstLength / max(1, g.DataRate) }

// BanksPerRank returns BankGroups*Banks.
func (g Geometry) BanksPerRank() int { return g.BankGroups * g.Banks }

// TotalBanks returns the channel's banks over all ranks.
func (g Geometry) TotalBanks() int { return g.Ranks * g.BanksPerRank() }

// Capacity returns the channel's bytes.
func (g Geometry) Capacity() uint64 {
	n := uint64(1)
	for _, f := range []uint64{uint64(g.TotalBanks()), uint64(g.Rows), uint64(g.Columns), g.BurstBytes()} {
		hi, lo := bits.Mul64(n, f)
		if hi != 0 {
			return math.MaxUint64 // saturated: the fields are checked, the product may not be
		}
		n = lo
	}
	return n
}

// longest returns the longest of the timings (in command clock cycles).
func (t Timing) longest() int {
	return max(t.TCL, t.TCWL, t.TRCD, t.TRCDWR, t.TRP, t.TRAS, t.TRC, t.TCCDS, t.TCCDL, t.TRRDS, t.TRRDL, t.TFAW,
		t.TWTRS, t.TWTRL, t.TRTP, t.TWR, t.TREFI, t.TRFC, t.TRTW, t.TRTRS)
}

// Timing holds the DRAM timing parameters in command clock cycles (tCK),
// except TCKps. Names are the datasheets' (tCCD_S is TCCDS).
type Timing struct {
	TCKps  int // command clock period in picoseconds
	TCL    int // read command to first data (CAS latency, RL)
	TCWL   int // write command to first data (CAS write latency, WL)
	TRCD   int // activate to read
	TRCDWR int // activate to write (GDDR and HBM define it separately; else tRCD)
	TRP    int // precharge to activate
	TRAS   int // activate to precharge
	TRC    int // activate to activate, same bank
	TCCDS  int // column command to column command, other bank group
	TCCDL  int // column command to column command, same bank group
	TRRDS  int // activate to activate, other bank group
	TRRDL  int // activate to activate, same bank group
	TFAW   int // window holding at most four activates of a rank (0: none)
	TWTRS  int // end of write data to read command, other bank group
	TWTRL  int // end of write data to read command, same bank group
	TRTP   int // read to precharge
	TWR    int // end of write data to precharge (write recovery)
	TREFI  int // average interval of all-bank refreshes
	TRFC   int // refresh to activate (or next refresh)
	TRTW   int // read to write: idle data-bus cycles between the read's last data and the write's first
	TRTRS  int // rank to rank: idle data-bus cycles when the next burst is another rank's
}

// Freq returns the command clock, 1/TCKps.
func (t Timing) Freq() sim.Freq { return sim.Freq(1e12 / float64(t.TCKps)) }

// Config configures one channel's controller. Zero fields take the preset's
// value (Geometry, Timing) or the defaults listed on each field (WithDefaults);
// Validate names the first bad field.
type Config struct {
	// Preset names the part whose geometry and timing fill zero fields: one of
	// PresetNames (default GDDR6).
	Preset string
	// Geometry overrides the preset's organisation field by field.
	Geometry Geometry
	// Timing overrides the preset's timing field by field.
	Timing Timing
	// Mapping orders the address fields from the highest bits to the lowest:
	// a comma-separated list of row, rank, bankgroup, bank and column, each at
	// most once; a field may be left out only when it has one value (default
	// DefaultMapping). The bits below the column select a byte of a burst.
	Mapping string
	// XORBankHash XORs the (bank group, bank) index with the low bits of the
	// row, so rows that conflict in one bank spread over the banks.
	XORBankHash bool
	// PagePolicy is PageOpen (default), PageClosed or PageTimeout.
	PagePolicy string
	// PageTimeout is the idle cycles after its last access before PageTimeout
	// closes a row (at least 1 with PageTimeout).
	PageTimeout int
	// Scheduler is FRFCFS (default) or FCFS.
	Scheduler string
	// StarvationCap: a burst waiting this many cycles or more is starved: no
	// younger burst's command issues in its bank until it is served, and its
	// ready commands go before the others' (default 1000). Other banks go on.
	StarvationCap int
	// ReadQueue and WriteQueue are the bursts each queue holds (default 32).
	// A request takes one entry per burst it touches and is accepted only when
	// all of them fit.
	ReadQueue, WriteQueue int
	// WriteHigh and WriteLow are the write-drain watermarks: the controller
	// turns to writes when WriteHigh bursts are queued (or no read is) and back
	// to reads when WriteLow or fewer remain (defaults, when WriteHigh is 0,
	// 3/4 and 1/4 of WriteQueue; with a WriteHigh, a WriteLow of 0 drains the
	// writes until none is left).
	WriteHigh, WriteLow int
	// Refresh issues an all-bank refresh to each rank every tREFI.
	Refresh bool
	// Check records every command into a protocol Checker; the first
	// violation stops the run with an error naming it.
	Check bool
	// TopBuffer is the requests the Top port buffers (default 1024).
	TopBuffer int
}

// FieldError is a configuration error: Field is the Go path of the offending
// field ("Timing.TRC") so that a configuration layer can map it to a file
// position.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// NewFieldError returns the FieldError of field with the message format and
// args (fmt.Sprintf).
func NewFieldError(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

var fieldErr = NewFieldError

// WithDefaults returns c with every zero field replaced by the preset's value
// or its default. Fields holding invalid values are left for Validate.
func (c Config) WithDefaults() Config {
	if c.Preset == "" {
		c.Preset = DefaultPreset
	}
	if p, ok := LookupPreset(c.Preset); ok {
		c.Preset = p.Name
		fill(geometryFields(&c.Geometry), geometryFields(&p.Geometry))
		fill(timingFields(&c.Timing), timingFields(&p.Timing))
	}
	if c.Timing.TRCDWR == 0 {
		c.Timing.TRCDWR = c.Timing.TRCD
	}
	if c.Mapping == "" {
		c.Mapping = DefaultMapping
	}
	if c.PagePolicy == "" {
		c.PagePolicy = PageOpen
	}
	if c.Scheduler == "" {
		c.Scheduler = FRFCFS
	}
	setDefault(&c.StarvationCap, DefaultStarvationCap)
	setDefault(&c.ReadQueue, DefaultQueue)
	setDefault(&c.WriteQueue, DefaultQueue)
	if c.WriteHigh == 0 { // the watermarks default together: a WriteLow of 0 beside a WriteHigh is kept
		c.WriteHigh = max(1, c.WriteQueue*3/4)
		setDefault(&c.WriteLow, c.WriteQueue/4)
	}
	setDefault(&c.TopBuffer, DefaultTopBuffer)
	return c
}

func setDefault(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}

type intField struct {
	name string
	v    *int
}

func fill(dst, src []intField) {
	for i := range dst {
		setDefault(dst[i].v, *src[i].v)
	}
}

func geometryFields(g *Geometry) []intField {
	return []intField{
		{"BusWidth", &g.BusWidth}, {"BurstLength", &g.BurstLength}, {"DataRate", &g.DataRate},
		{"Ranks", &g.Ranks}, {"BankGroups", &g.BankGroups}, {"Banks", &g.Banks},
		{"Rows", &g.Rows}, {"Columns", &g.Columns},
	}
}

func timingFields(t *Timing) []intField {
	return []intField{
		{"TCKps", &t.TCKps}, {"TCL", &t.TCL}, {"TCWL", &t.TCWL}, {"TRCD", &t.TRCD},
		{"TRCDWR", &t.TRCDWR}, {"TRP", &t.TRP}, {"TRAS", &t.TRAS}, {"TRC", &t.TRC},
		{"TCCDS", &t.TCCDS}, {"TCCDL", &t.TCCDL}, {"TRRDS", &t.TRRDS}, {"TRRDL", &t.TRRDL},
		{"TFAW", &t.TFAW}, {"TWTRS", &t.TWTRS}, {"TWTRL", &t.TWTRL}, {"TRTP", &t.TRTP},
		{"TWR", &t.TWR}, {"TREFI", &t.TREFI}, {"TRFC", &t.TRFC}, {"TRTW", &t.TRTW},
		{"TRTRS", &t.TRTRS},
	}
}

// GeometryFieldNames and TimingFieldNames list the Go names of the Geometry
// and Timing fields, in declaration order (for configuration layers that map
// FieldError paths to their own names).
func GeometryFieldNames() []string { return names(geometryFields(&Geometry{})) }

// TimingFieldNames lists the Go names of the Timing fields.
func TimingFieldNames() []string { return names(timingFields(&Timing{})) }

func names(fs []intField) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

func isPow2(v int) bool { return v > 0 && v&(v-1) == 0 }

// MaxRequestBursts returns the most bursts a request lying inside one aligned
// block of maxRequest bytes can touch.
func (c Config) MaxRequestBursts(maxRequest uint64) int {
	b := c.Geometry.BurstBytes()
	if b == 0 {
		return 1
	}
	return int(max(1, min((maxRequest+b-1)/b, 1<<20)))
}

// Validate checks c after defaults. maxRequest is the largest request a
// client may send (a power of two; requests never cross a maxRequest-aligned
// block): each queue must hold one. It returns a *FieldError naming the first
// bad field.
func (c Config) Validate(maxRequest uint64) error {
	c = c.WithDefaults()
	if _, ok := LookupPreset(c.Preset); !ok {
		return fieldErr("Preset", "unknown preset %q (want one of %s)", c.Preset, strings.Join(PresetNames(), ", "))
	}
	if err := c.Geometry.validate(); err != nil {
		return err
	}
	if err := c.Timing.validate(c.Geometry, c.Refresh); err != nil {
		return err
	}
	if _, err := ParseMapping(c.Mapping, c.Geometry); err != nil {
		return fieldErr("Mapping", "%v", err)
	}
	return c.validatePolicy(maxRequest)
}

func (c Config) validatePolicy(maxRequest uint64) error {
	switch c.PagePolicy {
	case PageOpen, PageClosed:
	case PageTimeout:
		if c.PageTimeout < 1 {
			return fieldErr("PageTimeout", "%d cycles: the timeout page policy needs at least 1", c.PageTimeout)
		}
	default:
		return fieldErr("PagePolicy", "unknown page policy %q (want %s, %s or %s)", c.PagePolicy, PageOpen, PageClosed, PageTimeout)
	}
	if c.PageTimeout < 0 || c.PageTimeout > 1<<30 {
		return fieldErr("PageTimeout", "%d cycles is outside [0, 2^30]", c.PageTimeout)
	}
	if c.Scheduler != FRFCFS && c.Scheduler != FCFS {
		return fieldErr("Scheduler", "unknown scheduler %q (want %s or %s)", c.Scheduler, FRFCFS, FCFS)
	}
	if c.StarvationCap < 1 || c.StarvationCap > 1<<30 {
		return fieldErr("StarvationCap", "%d cycles is outside [1, 2^30]", c.StarvationCap)
	}
	need := c.MaxRequestBursts(maxRequest)
	for _, q := range []struct {
		field string
		v     int
	}{{"ReadQueue", c.ReadQueue}, {"WriteQueue", c.WriteQueue}} {
		if q.v < need || q.v > 1<<16 {
			return fieldErr(q.field, "%d bursts is outside [%d, 65536]: a request of up to %d bytes needs %d bursts of %d bytes",
				q.v, need, maxRequest, need, c.Geometry.BurstBytes())
		}
	}
	if c.WriteHigh < 1 || c.WriteHigh > c.WriteQueue {
		return fieldErr("WriteHigh", "%d is outside [1, %d] (the write queue's size)", c.WriteHigh, c.WriteQueue)
	}
	if c.WriteLow < 0 || c.WriteLow >= c.WriteHigh {
		return fieldErr("WriteLow", "%d is not below the high watermark %d: the watermarks are out of order", c.WriteLow, c.WriteHigh)
	}
	if c.TopBuffer < 1 || c.TopBuffer > 1<<20 {
		return fieldErr("TopBuffer", "%d is outside [1, 2^20]", c.TopBuffer)
	}
	return nil
}

func (g Geometry) validate() error {
	for _, f := range geometryFields(&g) {
		if *f.v < 1 {
			return fieldErr("Geometry."+f.name, "%d: a channel needs at least 1", *f.v)
		}
		if *f.v > 1<<30 || !isPow2(*f.v) {
			return fieldErr("Geometry."+f.name, "%d is not a power of two up to 2^30", *f.v)
		}
	}
	switch {
	case g.BusWidth < 8:
		return fieldErr("Geometry.BusWidth", "%d bits is less than a byte", g.BusWidth)
	case g.BurstLength < g.DataRate:
		return fieldErr("Geometry.BurstLength", "%d transfers is less than one clock at %d transfers per clock", g.BurstLength, g.DataRate)
	case g.TotalBanks() > 1<<12:
		return fieldErr("Geometry.Banks", "Ranks*BankGroups*Banks = %d banks exceeds 4096", g.TotalBanks())
	case g.Capacity() == math.MaxUint64:
		return fieldErr("Geometry.Rows", "the channel holds more than 2^64 bytes, more than 2^40")
	case g.Capacity() > 1<<40 || g.Capacity() == 0:
		return fieldErr("Geometry.Rows", "the channel holds %d bytes, more than 2^40", g.Capacity())
	}
	return nil
}

// validate checks every timing against its range and the relations the
// datasheets state between them.
func (t Timing) validate(g Geometry, refresh bool) error {
	for _, f := range timingFields(&t) {
		if *f.v < 0 || *f.v > 1<<24 {
			return fieldErr("Timing."+f.name, "%d is outside [0, 2^24]", *f.v)
		}
	}
	bc := g.BurstCycles()
	rules := []struct {
		field string
		bad   bool
		msg   string
	}{
		{"TCKps", t.TCKps < 1, fmt.Sprintf("%d ps: the clock period must be at least 1 ps", t.TCKps)},
		{"TCL", t.TCL < 1, fmt.Sprintf("%d: the read latency must be at least 1 cycle", t.TCL)},
		{"TRCD", t.TRCD < 1, fmt.Sprintf("%d: tRCD must be at least 1 cycle", t.TRCD)},
		{"TRCDWR", t.TRCDWR < 1, fmt.Sprintf("%d: tRCDWR must be at least 1 cycle", t.TRCDWR)},
		{"TRP", t.TRP < 1, fmt.Sprintf("%d: tRP must be at least 1 cycle", t.TRP)},
		{"TRAS", t.TRAS < t.TRCD, fmt.Sprintf("%d is less than tRCD = %d (a row would close before it can be read)", t.TRAS, t.TRCD)},
		{"TRC", t.TRC < t.TRAS+t.TRP, fmt.Sprintf("%d is less than tRAS + tRP = %d + %d", t.TRC, t.TRAS, t.TRP)},
		{"TCCDS", t.TCCDS < bc, fmt.Sprintf("%d is less than a burst (%d cycles): bursts would overlap on the data bus", t.TCCDS, bc)},
		{"TCCDL", t.TCCDL < t.TCCDS, fmt.Sprintf("%d is less than tCCD_S = %d", t.TCCDL, t.TCCDS)},
		{"TRRDS", t.TRRDS < 1, fmt.Sprintf("%d: tRRD_S must be at least 1 cycle", t.TRRDS)},
		{"TRRDL", t.TRRDL < t.TRRDS, fmt.Sprintf("%d is less than tRRD_S = %d", t.TRRDL, t.TRRDS)},
		{"TWTRL", t.TWTRL < t.TWTRS, fmt.Sprintf("%d is less than tWTR_S = %d", t.TWTRL, t.TWTRS)},
		{"TRTP", t.TRTP < 1, fmt.Sprintf("%d: tRTP must be at least 1 cycle", t.TRTP)},
		{"TWR", t.TWR < 1, fmt.Sprintf("%d: tWR must be at least 1 cycle", t.TWR)},
		{"TRFC", refresh && t.TRFC < 1, fmt.Sprintf("%d: tRFC must be at least 1 cycle with refresh on", t.TRFC)},
		{"TREFI", refresh && t.TREFI <= t.TRFC, fmt.Sprintf("%d is not more than tRFC = %d (refresh would take all the time)", t.TREFI, t.TRFC)},
	}
	for _, r := range rules {
		if r.bad {
			return fieldErr("Timing."+r.field, "%s", r.msg)
		}
	}
	if refresh {
		// Every timing of a part is far shorter than its refresh interval; a
		// longer one holds a PRE, an ACT or the data bus past the refreshes
		// that fall due (the protocol checker then finds them overdue).
		for _, f := range timingFields(&t) {
			if f.name != "TCKps" && f.name != "TREFI" && *f.v >= t.TREFI {
				return fieldErr("Timing."+f.name, "%d cycles is not less than tREFI = %d: the refreshes would fall behind", *f.v, t.TREFI)
			}
		}
	}
	if f := t.Freq(); math.IsInf(float64(f), 0) || f > 1000*sim.GHz {
		return fieldErr("Timing.TCKps", "%d ps is a clock above 1 THz", t.TCKps)
	}
	return nil
}
