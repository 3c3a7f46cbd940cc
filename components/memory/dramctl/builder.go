package dramctl

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Builder builds controllers. MakeBuilder holds the defaults: Config{} with
// defaults (GDDR6, FR-FCFS, open page), requests of up to 256 bytes, an
// identity address converter and a storage of the channel's capacity.
type Builder struct {
	engine     sim.Engine
	cfg        Config
	storage    *mem.Storage
	conv       AddressConverter
	halt       *timing.Halt
	maxRequest uint64
}

// MakeBuilder returns a builder with the defaults.
func MakeBuilder() Builder { return Builder{maxRequest: 256} }

// WithEngine sets the engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithConfig sets the configuration (defaults are applied at Build).
func (b Builder) WithConfig(c Config) Builder { b.cfg = c; return b }

// WithStorage sets the storage the controller reads and writes.
func (b Builder) WithStorage(s *mem.Storage) Builder { b.storage = s; return b }

// WithAddressConverter sets how request addresses map to channel-local and
// storage addresses.
func (b Builder) WithAddressConverter(c AddressConverter) Builder { b.conv = c; return b }

// WithHalt sets the platform's halt (see Comp.SetHalt).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithMaxRequestBytes sets the largest request a client sends (a power of
// two; requests never cross an aligned block of this size): each queue must
// hold one.
func (b Builder) WithMaxRequestBytes(n uint64) Builder { b.maxRequest = n; return b }

// Build validates the configuration and builds the controller named name,
// with its Top port (an incoming buffer of Config.TopBuffer requests).
func (b Builder) Build(name string) (*Comp, error) {
	cfg := b.cfg.WithDefaults()
	if err := cfg.Validate(b.maxRequest); err != nil {
		return nil, fmt.Errorf("dram controller %s: %w", name, err)
	}
	if b.engine == nil {
		return nil, fmt.Errorf("dram controller %s: no engine", name)
	}
	if err := ValidName(name); err != nil {
		return nil, fmt.Errorf("dram controller: %w", err)
	}
	m, err := ParseMapping(cfg.Mapping, cfg.Geometry)
	if err != nil {
		return nil, fmt.Errorf("dram controller %s: %w", name, err)
	}
	c := &Comp{cfg: cfg, burstBytes: cfg.Geometry.BurstBytes(), mapping: m.WithXOR(cfg.XORBankHash),
		state: newChannelState(cfg.Geometry, cfg.Timing), storage: b.storage, conv: b.conv, halt: b.halt}
	c.quiet = 4*int64(cfg.Timing.longest()) + int64(cfg.StarvationCap) + int64(cfg.PageTimeout)
	if c.storage == nil {
		c.storage = mem.NewStorage(cfg.Geometry.Capacity())
	}
	if c.conv == nil {
		c.conv = identity{}
	}
	if cfg.Check {
		c.checker = NewChecker(cfg.Geometry, cfg.Timing, cfg.Refresh)
	}
	nb := cfg.Geometry.TotalBanks()
	c.pendRead, c.pendWrite = make([]int32, nb), make([]int32, nb)
	c.memo, c.blocked = make([]bankReady, nb), make([]bool, cfg.Geometry.Ranks)
	c.reads, c.writes = make([]burst, 0, cfg.ReadQueue), make([]burst, 0, cfg.WriteQueue)
	c.readBanks, c.writeBanks = newBankQueues(c.state, false), newBankQueues(c.state, true)
	c.terms = newReadyTerms(cfg.Geometry.Ranks * cfg.Geometry.BankGroups)
	c.TickingComponent = timing.NewTickingComponent(name, b.engine, cfg.Timing.Freq(), c)
	c.waker = timing.NewTickWaker(b.engine, cfg.Timing.Freq(), c.Tick)
	c.Top = timing.AddPort(c, "Top", cfg.TopBuffer)
	return c, nil
}

// ValidName reports whether name is a valid Akita component name (an error
// saying why not), without the panic of sim.NameMustBeValid.
func ValidName(name string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid component name %q: %v", name, r)
		}
	}()
	if name == "" {
		return fmt.Errorf("empty component name")
	}
	sim.NameMustBeValid(name)
	return nil
}
