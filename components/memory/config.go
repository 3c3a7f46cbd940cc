package memory

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/sarchlab/akita/v3/mem/dram"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory/dramctl"
)

// Memory controller kinds (Config.Type).
const (
	TypeDRAM    = "dram"    // Akita mem/dram: banks, command queues, DRAM timing
	TypeIdeal   = "ideal"   // Akita mem/idealmemcontroller: fixed latency, unlimited concurrency
	TypeDRAMCtl = "dramctl" // gfxsim's controller (dramctl): GDDR5/GDDR6/HBM2/LPDDR4 presets
)

// Defaults applied by Config.WithDefaults to zero fields.
const (
	DefaultNumChannels     = 4
	DefaultInterleaveBytes = 256
	DefaultDRAMFreq        = 1600 * sim.MHz // Akita's mem/dram default clock
	DefaultIdealFreq       = 1 * sim.GHz    // Akita's mem/idealmemcontroller default clock
	DefaultProtocol        = "GDDR5"
)

// Config describes the GPU's memory: NumChannels controllers, addresses
// interleaved across them every InterleaveBytes. Zero fields take the defaults
// listed on each field (WithDefaults); Validate names the first bad field. It is a
// plain struct so that the configuration layer can fill it.
type Config struct {
	// Type is TypeDRAM (default), TypeIdeal or TypeDRAMCtl.
	Type string
	// NumChannels is the number of memory controllers (default 4).
	NumChannels int
	// InterleaveBytes is the channel interleaving granule: address a belongs to
	// channel (a / InterleaveBytes) mod NumChannels. A power of two (default 256).
	InterleaveBytes uint64
	// Freq is the controllers' clock in Hz (default 1600 MHz for DRAM, the DRAM
	// command clock; 1 GHz for the ideal controller). Latencies are counted in
	// cycles of this clock. TypeDRAMCtl channels run at their part's command
	// clock (DRAMCtl.Timing.TCKps), which WithDefaults sets here.
	Freq sim.Freq
	// DRAM configures TypeDRAM channels.
	DRAM DRAMConfig
	// Ideal configures TypeIdeal channels.
	Ideal IdealConfig
	// DRAMCtl configures TypeDRAMCtl channels (one dramctl controller each).
	DRAMCtl dramctl.Config
}

// DRAMConfig configures one Akita DRAM controller, which drives one DRAM
// channel. Geometry fields must be powers of two.
type DRAMConfig struct {
	// Protocol is one of DDR3, DDR4, GDDR5 (default), GDDR5X, GDDR6, LPDDR,
	// LPDDR3, LPDDR4, HBM, HBM2 (case-insensitive). It sets the data transfers
	// per clock (GDDR5: 4, GDDR5X: 8, GDDR6: 16, others: 2), whether the
	// activate-to-read/write delays are tRCDRD/tRCDWR (GDDR and HBM) or tRCD,
	// and whether tPPD applies (GDDR, LPDDR4). Akita has one set of default
	// timings for every protocol (see Timing).
	Protocol string
	// BusWidth is the channel's data bus in bits (default 64).
	BusWidth int
	// BurstLength is the number of bus transfers per access (default 8). One
	// access moves BusWidth/8*BurstLength bytes (the access unit, 64 B by
	// default); a request is split into access units.
	BurstLength int
	// Ranks (default 2), BankGroups (default 1), Banks per bank group (default 8)
	// and Rows per bank (default 32768) are the channel's geometry.
	Ranks, BankGroups, Banks, Rows int
	// Columns per row, in bus-width words (default BurstLength: one access unit
	// per row, so that consecutive access units of a channel go to consecutive
	// banks; Akita's default is 1024). Akita closes the row after every access,
	// so the row size has no timing effect of its own, but Akita's address
	// mapping puts the column bits lowest: with 1024 columns a sequential stream
	// stays in one bank for 8 KiB. See the package documentation.
	Columns int
	// TransactionQueue is the number of access units the controller buffers
	// before turning them into commands (default 32, or InterleaveBytes/access
	// unit + 2 if larger: Akita panics on a request of TransactionQueue or more
	// access units, and any request inside one interleave granule must fit);
	// CommandQueue the commands per rank queue (default 8).
	TransactionQueue, CommandQueue int
	// Timing overrides Akita's default DRAM timing parameters.
	Timing Timing
}

// Timing holds DRAM timing parameters in DRAM clock cycles. A zero field takes
// Akita's default, given in brackets (Akita v3.1.0 uses the same defaults for
// every protocol), except TRCDWR for GDDR and HBM: there Akita keeps a bank busy
// with an activate for TRCDRD-TAL cycles but lets a write start TRCDWR cycles
// after it, and panics ("previous cmd is not completed") when TRCDWR is
// shorter; so its default is max(20, TRCDRD-TAL) and Validate rejects shorter
// values. Refresh is not modelled by Akita, so no refresh parameters are
// offered.
type Timing struct {
	TAL    int // additional latency [0]
	TCL    int // CAS (read) latency [11]
	TCWL   int // CAS write latency [8]
	TRCD   int // activate to read/write, non-GDDR/HBM [11]
	TRP    int // precharge [11]
	TRAS   int // activate to precharge [28]
	TCCDL  int // column to column, same bank group [4]
	TCCDS  int // column to column, other bank group [4]
	TRTRS  int // rank to rank switch [1]
	TRTP   int // read to precharge [6]
	TWTRL  int // write to read, same bank group [6]
	TWTRS  int // write to read, other bank group [6]
	TWR    int // write recovery [12]
	TPPD   int // precharge to precharge (GDDR, LPDDR4) [0]
	TRRDL  int // activate to activate, same bank group [5]
	TRRDS  int // activate to activate, other bank group [5]
	TRCDRD int // activate to read, GDDR/HBM [24]
	TRCDWR int // activate to write, GDDR/HBM [20, at least TRCDRD-TAL]
}

// IdealConfig configures the fixed-latency controller.
type IdealConfig struct {
	// Latency is the cycles from taking a request to sending its response
	// (default 100, Akita's).
	Latency int
	// Width is the requests taken from the port per cycle (default 1).
	Width int
	// TopBufferSize is the capacity of the Top port's incoming buffer (default 16).
	TopBufferSize int
	// BytesPerCycle limits the bytes a channel moves per cycle: a request is
	// taken only in the cycle its bytes start moving after those of the
	// requests taken before it (0: unlimited, Akita's controller).
	BytesPerCycle int
	// MaxOutstanding limits the requests a channel holds between taking them
	// and answering them (0: unlimited, Akita's controller).
	MaxOutstanding int
}

// Limited reports whether the ideal channel has a bandwidth or a concurrency
// limit (then it is gfxsim's limited ideal controller, else Akita's).
func (i IdealConfig) Limited() bool { return i.BytesPerCycle > 0 || i.MaxOutstanding > 0 }

// FieldError is a configuration error: Field is the Go path of the offending
// field (for example "DRAM.BusWidth") so that a configuration layer can map it to
// a file position. It is dramctl's, the one home of the type.
type FieldError = dramctl.FieldError

var fieldErr = dramctl.NewFieldError

var protocolNames = []struct {
	name string
	p    dram.Protocol
}{
	{"DDR3", dram.DDR3}, {"DDR4", dram.DDR4},
	{"GDDR5", dram.GDDR5}, {"GDDR5X", dram.GDDR5X}, {"GDDR6", dram.GDDR6},
	{"LPDDR", dram.LPDDR}, {"LPDDR3", dram.LPDDR3}, {"LPDDR4", dram.LPDDR4},
	{"HBM", dram.HBM}, {"HBM2", dram.HBM2},
}

// ProtocolNames returns the accepted DRAMConfig.Protocol names.
func ProtocolNames() []string {
	names := make([]string, len(protocolNames))
	for i, p := range protocolNames {
		names[i] = p.name
	}
	return names
}

// ParseProtocol maps a protocol name (case-insensitive) to Akita's protocol.
func ParseProtocol(name string) (dram.Protocol, error) {
	for _, p := range protocolNames {
		if strings.EqualFold(name, p.name) {
			return p.p, nil
		}
	}
	return 0, fmt.Errorf("unknown DRAM protocol %q (want one of %s)", name,
		strings.Join(ProtocolNames(), ", "))
}

// ParseType maps a controller type name (case-insensitive; "" is TypeDRAM) to
// TypeDRAM, TypeIdeal or TypeDRAMCtl.
func ParseType(name string) (string, error) {
	switch strings.ToLower(name) {
	case "", TypeDRAM:
		return TypeDRAM, nil
	case TypeIdeal:
		return TypeIdeal, nil
	case TypeDRAMCtl:
		return TypeDRAMCtl, nil
	}
	return "", fmt.Errorf("unknown memory type %q (want %q, %q or %q)", name, TypeDRAM, TypeIdeal, TypeDRAMCtl)
}

// transfersPerClock returns the data transfers per command clock of Akita's
// controller for protocol p (DRAMConfig.TransfersPerClock); it is also the
// smallest burst that lasts at least one clock.
func transfersPerClock(p dram.Protocol) int {
	switch p {
	case dram.GDDR5:
		return 4
	case dram.GDDR5X:
		return 8
	case dram.GDDR6:
		return 16
	}
	return 2
}

// WithDefaults returns c with every zero field replaced by its default. Fields
// holding invalid values are left for Validate to report.
func (c Config) WithDefaults() Config {
	if t, err := ParseType(c.Type); err == nil {
		c.Type = t
	}
	if c.NumChannels == 0 {
		c.NumChannels = DefaultNumChannels
	}
	if c.InterleaveBytes == 0 {
		c.InterleaveBytes = DefaultInterleaveBytes
	}
	if c.Freq == 0 {
		c.Freq = DefaultDRAMFreq
		if c.Type == TypeIdeal {
			c.Freq = DefaultIdealFreq
		}
	}
	c.DRAMCtl = c.DRAMCtl.WithDefaults()
	if c.Type == TypeDRAMCtl && c.DRAMCtl.Timing.TCKps > 0 {
		c.Freq = c.DRAMCtl.Timing.Freq()
	}
	d := &c.DRAM
	if d.Protocol == "" {
		d.Protocol = DefaultProtocol
	}
	setDefault(&d.BusWidth, 64)
	setDefault(&d.BurstLength, 8)
	setDefault(&d.Ranks, 2)
	setDefault(&d.BankGroups, 1)
	setDefault(&d.Banks, 8)
	setDefault(&d.Rows, 32768)
	setDefault(&d.Columns, d.BurstLength)
	if d.TransactionQueue == 0 {
		d.TransactionQueue = 32
		if u := d.AccessUnitBytes(); u > 0 && isPow2(c.InterleaveBytes) && c.InterleaveBytes/u < 1<<16 {
			d.TransactionQueue = max(32, int(c.InterleaveBytes/u)+2)
		}
	}
	setDefault(&d.CommandQueue, 8)
	d.Timing = d.Timing.withDefaults(d.Protocol)
	i := &c.Ideal
	setDefault(&i.Latency, 100)
	setDefault(&i.Width, 1)
	setDefault(&i.TopBufferSize, 16)
	return c
}

func setDefault(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}

func isPow2(v uint64) bool { return v != 0 && v&(v-1) == 0 }

func log2(v uint64) int { return bits.Len64(v) - 1 }

// AccessUnitBytes returns the bytes one DRAM access moves, BusWidth/8*BurstLength.
func (d DRAMConfig) AccessUnitBytes() uint64 {
	return uint64(d.BusWidth/8) * uint64(d.BurstLength)
}

// Validate checks the configuration after applying the defaults and returns a
// *FieldError naming the first bad field.
func (c Config) Validate() error {
	c = c.WithDefaults()
	if _, err := ParseType(c.Type); err != nil {
		return fieldErr("Type", "%v", err)
	}
	if c.NumChannels < 1 || c.NumChannels > 4096 {
		return fieldErr("NumChannels", "%d is outside [1, 4096]", c.NumChannels)
	}
	if !isPow2(c.InterleaveBytes) {
		return fieldErr("InterleaveBytes", "%d is not a power of two", c.InterleaveBytes)
	}
	if c.InterleaveBytes > 1<<40 {
		return fieldErr("InterleaveBytes", "%d exceeds 1 TiB", c.InterleaveBytes)
	}
	if !(c.Freq > 0) || math.IsInf(float64(c.Freq), 0) || c.Freq > 1000*sim.GHz {
		return fieldErr("Freq", "%v Hz is not a frequency in (0, 1 THz]", float64(c.Freq))
	}
	switch c.Type {
	case TypeIdeal:
		return c.Ideal.validate()
	case TypeDRAMCtl:
		return c.validateDRAMCtl()
	}
	return c.DRAM.validate(c.InterleaveBytes)
}

// validateDRAMCtl checks the dramctl configuration; a request lies inside one
// interleave granule, and a burst inside one too.
func (c Config) validateDRAMCtl() error {
	if err := c.DRAMCtl.Validate(c.InterleaveBytes); err != nil {
		var fe *dramctl.FieldError
		if errors.As(err, &fe) {
			return fieldErr("DRAMCtl."+fe.Field, "%s", fe.Msg)
		}
		return fieldErr("DRAMCtl", "%v", err)
	}
	if b := c.DRAMCtl.Geometry.BurstBytes(); b > c.InterleaveBytes {
		return fieldErr("DRAMCtl.Geometry.BusWidth", "a burst of %d bytes (BusWidth/8*BurstLength) exceeds InterleaveBytes %d: "+
			"a burst must lie in one channel's granule", b, c.InterleaveBytes)
	}
	return nil
}

func (i IdealConfig) validate() error {
	if i.Latency < 1 {
		return fieldErr("Ideal.Latency", "%d cycles is less than 1", i.Latency)
	}
	if i.Width < 1 {
		return fieldErr("Ideal.Width", "%d is less than 1", i.Width)
	}
	if i.TopBufferSize < 1 {
		return fieldErr("Ideal.TopBufferSize", "%d is less than 1", i.TopBufferSize)
	}
	if i.BytesPerCycle < 0 || i.BytesPerCycle > 1<<20 {
		return fieldErr("Ideal.BytesPerCycle", "%d is outside [0, 1048576] (0: unlimited)", i.BytesPerCycle)
	}
	if i.MaxOutstanding < 0 || i.MaxOutstanding > 1<<16 {
		return fieldErr("Ideal.MaxOutstanding", "%d is outside [0, 65536] (0: unlimited)", i.MaxOutstanding)
	}
	return nil
}

func (d DRAMConfig) validate(interleave uint64) error {
	p, err := ParseProtocol(d.Protocol)
	if err != nil {
		return fieldErr("DRAM.Protocol", "%v", err)
	}
	if tpc := transfersPerClock(p); d.BurstLength < tpc {
		return fieldErr("DRAM.BurstLength", "%d transfers is less than one clock at %d transfers per clock (%s)", d.BurstLength, tpc, d.Protocol)
	}
	geometry := []struct {
		field     string
		v, lo, hi int
	}{
		{"DRAM.BusWidth", d.BusWidth, 8, 4096},
		{"DRAM.BurstLength", d.BurstLength, transfersPerClock(p), 1024},
		{"DRAM.Ranks", d.Ranks, 1, 1 << 10},
		{"DRAM.BankGroups", d.BankGroups, 1, 1 << 10},
		{"DRAM.Banks", d.Banks, 1, 1 << 10},
		{"DRAM.Rows", d.Rows, 1, 1 << 30},
		{"DRAM.Columns", d.Columns, d.BurstLength, 1 << 20},
	}
	for _, g := range geometry {
		if g.v < g.lo || g.v > g.hi {
			return fieldErr(g.field, "%d is outside [%d, %d]", g.v, g.lo, g.hi)
		}
		if !isPow2(uint64(g.v)) {
			return fieldErr(g.field, "%d is not a power of two", g.v)
		}
	}
	if banks := d.Ranks * d.BankGroups * d.Banks; banks > 1<<12 {
		return fieldErr("DRAM.Banks", "Ranks*BankGroups*Banks = %d banks exceeds 4096", banks)
	}
	spanBits := log2(uint64(d.BusWidth/8)) + log2(uint64(d.Columns)) + log2(uint64(d.Rows)) +
		log2(uint64(d.Banks)) + log2(uint64(d.BankGroups)) + log2(uint64(d.Ranks))
	if spanBits > channelSpanBits {
		return fieldErr("DRAM.Rows", "the channel geometry BusWidth/8*Columns*Rows*Banks*BankGroups*Ranks "+
			"is 2^%d bytes, more than the 2^%d a channel can address", spanBits, channelSpanBits)
	}
	// Akita panics on a request of TransactionQueue or more access units; any
	// request inside one interleave granule must fit.
	if need := int(min(interleave/d.AccessUnitBytes(), 1<<16)) + 2; d.TransactionQueue < need {
		return fieldErr("DRAM.TransactionQueue", "%d is below %d (a request within one "+
			"InterleaveBytes granule may need InterleaveBytes/access unit + 1 access units, and Akita "+
			"needs more queue entries than that)", d.TransactionQueue, need)
	}
	if d.TransactionQueue > 1<<16 {
		return fieldErr("DRAM.TransactionQueue", "%d is above 65536", d.TransactionQueue)
	}
	if d.CommandQueue < 1 || d.CommandQueue > 1<<16 {
		return fieldErr("DRAM.CommandQueue", "%d is outside [1, 65536]", d.CommandQueue)
	}
	return d.Timing.validate(p)
}

// withDefaults fills zero fields with Akita's defaults for protocol name.
func (t Timing) withDefaults(protocol string) Timing {
	for _, f := range []struct {
		v *int
		d int
	}{
		{&t.TCL, 11}, {&t.TCWL, 8}, {&t.TRCD, 11}, {&t.TRP, 11}, {&t.TRAS, 28},
		{&t.TCCDL, 4}, {&t.TCCDS, 4}, {&t.TRTRS, 1}, {&t.TRTP, 6}, {&t.TWTRL, 6},
		{&t.TWTRS, 6}, {&t.TWR, 12}, {&t.TRRDL, 5}, {&t.TRRDS, 5}, {&t.TRCDRD, 24},
	} {
		setDefault(f.v, f.d)
	}
	if t.TRCDWR == 0 {
		t.TRCDWR = 20
		if p, err := ParseProtocol(protocol); err == nil && gddrOrHBM(p) {
			t.TRCDWR = max(20, t.TRCDRD-t.TAL)
		}
	}
	return t
}

func (t Timing) fields() []struct {
	name string
	v    int
} {
	return []struct {
		name string
		v    int
	}{
		{"TAL", t.TAL}, {"TCL", t.TCL}, {"TCWL", t.TCWL}, {"TRCD", t.TRCD}, {"TRP", t.TRP},
		{"TRAS", t.TRAS}, {"TCCDL", t.TCCDL}, {"TCCDS", t.TCCDS}, {"TRTRS", t.TRTRS},
		{"TRTP", t.TRTP}, {"TWTRL", t.TWTRL}, {"TWTRS", t.TWTRS}, {"TWR", t.TWR},
		{"TPPD", t.TPPD}, {"TRRDL", t.TRRDL}, {"TRRDS", t.TRRDS}, {"TRCDRD", t.TRCDRD},
		{"TRCDWR", t.TRCDWR},
	}
}

func (t Timing) validate(p dram.Protocol) error {
	for _, f := range t.fields() {
		if f.v < 0 || f.v > 1<<20 {
			return fieldErr("DRAM.Timing."+f.name, "%d cycles is outside [0, 1048576]", f.v)
		}
	}
	// Akita keeps a bank busy with an activate for tRCD-tAL cycles (tRCDRD-tAL
	// for GDDR and HBM) and starts the next command of that bank when its own
	// delay after the activate has passed, without checking that the activate
	// finished: a shorter delay panics inside Akita.
	act, actName := t.TRCD-t.TAL, "TRCD-TAL"
	if gddrOrHBM(p) {
		act, actName = t.TRCDRD-t.TAL, "TRCDRD-TAL"
		if t.TRCDWR < act {
			return fieldErr("DRAM.Timing.TRCDWR", "%d is less than %s = %d (the write would start "+
				"before the activate completes)", t.TRCDWR, actName, act)
		}
	}
	if act < 0 {
		return fieldErr("DRAM.Timing.TAL", "%d makes %s negative", t.TAL, actName)
	}
	if t.TRAS < act {
		return fieldErr("DRAM.Timing.TRAS", "%d is less than %s = %d (a precharge would start "+
			"before the activate completes)", t.TRAS, actName, act)
	}
	return nil
}

func gddrOrHBM(p dram.Protocol) bool {
	switch p {
	case dram.GDDR5, dram.GDDR5X, dram.GDDR6, dram.HBM, dram.HBM2:
		return true
	}
	return false
}

// L2Config configures the shared texture L2: one Akita write-back cache bank per
// memory channel. Zero fields take the defaults (Akita's writeback defaults).
type L2Config struct {
	// SizeBytes is the total capacity over all banks (default 512 KiB); each bank
	// holds SizeBytes/NumChannels.
	SizeBytes uint64
	// Ways is the associativity (default 4).
	Ways int
	// LineBytes is the line size, a power of two dividing InterleaveBytes
	// (default 64).
	LineBytes int
	// MSHRs is the miss status holding registers per bank (default 16).
	MSHRs int
	// DirectoryLatency (default 0) and BankLatency (default 10) are the tag and
	// data array latencies in cycles.
	DirectoryLatency, BankLatency int
	// ReqPerCycle is the requests a bank accepts per cycle (default 1).
	ReqPerCycle int
	// WriteBufferLines (default 1024), MaxInflightFetch (default 128) and
	// MaxInflightEviction (default 128) size each bank's write buffer.
	WriteBufferLines, MaxInflightFetch, MaxInflightEviction int
	// Freq is the L2 clock in Hz (default 1 GHz).
	Freq sim.Freq
}

// WithDefaults returns c with zero fields replaced by their defaults.
func (c L2Config) WithDefaults() L2Config {
	if c.SizeBytes == 0 {
		c.SizeBytes = 512 << 10
	}
	setDefault(&c.Ways, 4)
	setDefault(&c.LineBytes, 64)
	setDefault(&c.MSHRs, 16)
	setDefault(&c.BankLatency, 10)
	setDefault(&c.ReqPerCycle, 1)
	setDefault(&c.WriteBufferLines, 1024)
	setDefault(&c.MaxInflightFetch, 128)
	setDefault(&c.MaxInflightEviction, 128)
	if c.Freq == 0 {
		c.Freq = 1 * sim.GHz
	}
	return c
}

// Validate checks the L2 configuration (after defaults) against the memory it
// sits in front of (after defaults) and returns a *FieldError naming the first
// bad field.
func (c L2Config) Validate(m Config) error {
	c, m = c.WithDefaults(), m.WithDefaults()
	if err := m.Validate(); err != nil {
		return err
	}
	if c.LineBytes < 4 || !isPow2(uint64(c.LineBytes)) {
		return fieldErr("L2.LineBytes", "%d is not a power of two >= 4", c.LineBytes)
	}
	if uint64(c.LineBytes) > m.InterleaveBytes {
		return fieldErr("L2.LineBytes", "%d exceeds the memory's InterleaveBytes %d "+
			"(a line must belong to one channel)", c.LineBytes, m.InterleaveBytes)
	}
	if c.Ways < 1 || c.Ways > 1024 {
		return fieldErr("L2.Ways", "%d is outside [1, 1024]", c.Ways)
	}
	setBytes := uint64(m.NumChannels) * uint64(c.Ways) * uint64(c.LineBytes)
	if c.SizeBytes%setBytes != 0 || c.SizeBytes > 1<<40 {
		return fieldErr("L2.SizeBytes", "%d is not a multiple of NumChannels*Ways*LineBytes = %d "+
			"no larger than 1 TiB", c.SizeBytes, setBytes)
	}
	ints := []struct {
		field     string
		v, lo, hi int
	}{
		{"L2.MSHRs", c.MSHRs, 1, 1 << 16},
		{"L2.DirectoryLatency", c.DirectoryLatency, 0, 1 << 16},
		{"L2.BankLatency", c.BankLatency, 1, 1 << 16},
		{"L2.ReqPerCycle", c.ReqPerCycle, 1, 1 << 10},
		{"L2.WriteBufferLines", c.WriteBufferLines, 1, 1 << 20},
		{"L2.MaxInflightFetch", c.MaxInflightFetch, 1, 1 << 20},
		{"L2.MaxInflightEviction", c.MaxInflightEviction, 1, 1 << 20},
	}
	for _, f := range ints {
		if f.v < f.lo || f.v > f.hi {
			return fieldErr(f.field, "%d is outside [%d, %d]", f.v, f.lo, f.hi)
		}
	}
	if !(c.Freq > 0) || math.IsInf(float64(c.Freq), 0) || c.Freq > 1000*sim.GHz {
		return fieldErr("L2.Freq", "%v Hz is not a frequency in (0, 1 THz]", float64(c.Freq))
	}
	return nil
}

// TransfersPerClock returns the data transfers per command clock Akita's
// controller assumes for the protocol (its burst takes BurstLength divided by
// this many clocks): GDDR5 4, GDDR5X 8, GDDR6 16, every other protocol 2.
func (d DRAMConfig) TransfersPerClock() int {
	p, _ := ParseProtocol(d.Protocol)
	return transfersPerClock(p)
}

// PeakBytesPerNs returns the memory's theoretical peak bandwidth in bytes per
// nanosecond (GB/s), over all channels: bus width in bytes times transfers per
// clock times the clock (TypeDRAM: DRAM.BusWidth/8 * TransfersPerClock * Freq;
// TypeDRAMCtl: dramctl.PeakBytesPerNs of its geometry and timing;
// TypeIdeal: Ideal.BytesPerCycle * Freq, 0 when unlimited).
func (c Config) PeakBytesPerNs() float64 {
	c = c.WithDefaults()
	n := float64(c.NumChannels)
	switch c.Type {
	case TypeDRAM:
		return n * float64(c.DRAM.BusWidth/8) * float64(c.DRAM.TransfersPerClock()) * float64(c.Freq) / 1e9
	case TypeDRAMCtl:
		return n * dramctl.PeakBytesPerNs(c.DRAMCtl.Geometry, c.DRAMCtl.Timing)
	}
	return n * float64(c.Ideal.BytesPerCycle) * float64(c.Freq) / 1e9
}
