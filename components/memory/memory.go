package memory

import (
	"fmt"
	"math"
	"sync"

	"github.com/sarchlab/akita/v3/mem/dram"
	"github.com/sarchlab/akita/v3/mem/idealmemcontroller"
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory/dramctl"
	"github.com/gfxsim/gfxsim/timing"
)

// channelSpanBits is the size of a channel's local address space in the shared
// storage: channel c's local address l is stored at c<<channelSpanBits | l.
const channelSpanBits = 40

// Memory is the GPU's memory: one controller per channel, all sharing one
// storage that holds the simulated memory image (in channel-major order, see
// StorageAddress).
type Memory struct {
	// Config is the resolved configuration (defaults applied).
	Config Config
	// Channels are the controllers, channel i at index i: *dram.MemController,
	// *idealmemcontroller.Comp (the ideal memory without limits), gfxsim's
	// limited ideal controller, or *dramctl.Comp. Named <name>.Channel[i].
	Channels []sim.Component
	// Tops are the channels' "Top" ports, which take mem.ReadReq and
	// mem.WriteReq with global addresses.
	Tops []sim.Port
	// Finder maps a global address to its channel's Top port.
	Finder mem.LowModuleFinder
	// Storage holds the memory image; global address a is stored at
	// StorageAddress(a). Every channel reads and writes it.
	Storage *mem.Storage

	round   uint64          // InterleaveBytes*NumChannels
	stats   []*portStats    // Akita channels: counters on the Top ports
	ctls    []*dramctl.Comp // dramctl channels: they keep their own
	ideals  []*idealBusy    // Akita's ideal channels: their latency, declared to the watchdog
	limited []*limitedIdeal // gfxsim's limited ideal channels
}

// Build creates the channels of cfg (defaults applied, validated) on engine.
// name must be an Akita name (dot-separated CamelCase tokens, indices in
// brackets); the channels are <name>.Channel[i]. The ports are not connected:
// the caller plugs Tops into connections.
func Build(cfg Config, engine sim.Engine, name string) (*Memory, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("memory %s: %w", name, err)
	}
	if engine == nil {
		return nil, fmt.Errorf("memory %s: no engine", name)
	}
	if err := dramctl.ValidName(name); err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	m := &Memory{
		Config: cfg,
		round:  cfg.InterleaveBytes * uint64(cfg.NumChannels),
		// Sparse (4 KiB units allocated on first touch); the capacity only bounds
		// addresses, and the largest one means no request can fall outside it.
		Storage: mem.NewStorage(math.MaxUint64),
	}
	finder := mem.NewInterleavedLowModuleFinder(cfg.InterleaveBytes)
	for i := 0; i < cfg.NumChannels; i++ {
		chName := fmt.Sprintf("%s.Channel[%d]", name, i)
		if cfg.Type == TypeDRAMCtl {
			c, err := dramctl.MakeBuilder().WithEngine(engine).WithConfig(cfg.DRAMCtl).WithStorage(m.Storage).
				WithAddressConverter(m).WithMaxRequestBytes(cfg.InterleaveBytes).Build(chName)
			if err != nil {
				return nil, fmt.Errorf("memory %s: %w", name, err)
			}
			m.Channels, m.Tops, m.ctls = append(m.Channels, c), append(m.Tops, c.Top), append(m.ctls, c)
			finder.LowModules = append(finder.LowModules, c.Top)
			continue
		}
		var comp sim.Component
		if cfg.Type == TypeIdeal && cfg.Ideal.Limited() {
			c := m.buildLimitedIdeal(engine, chName)
			comp, m.limited = c, append(m.limited, c)
		} else if cfg.Type == TypeIdeal {
			comp = m.buildIdeal(engine, chName)
			busy := &idealBusy{engine: engine, freq: cfg.Freq, latency: cfg.Ideal.Latency}
			comp.GetPortByName("Top").AcceptHook(busy)
			m.ideals = append(m.ideals, busy)
		} else {
			c, err := m.buildDRAM(engine, chName)
			if err != nil {
				return nil, fmt.Errorf("memory %s: %w", name, err)
			}
			comp = c
		}
		top := comp.GetPortByName("Top")
		if cfg.Type != TypeIdeal {
			top.AcceptHook(newLocalizer(m))
		}
		st := newPortStats(chName, cfg.Freq)
		top.AcceptHook(st)
		m.Channels = append(m.Channels, comp)
		m.Tops = append(m.Tops, top)
		m.stats = append(m.stats, st)
		finder.LowModules = append(finder.LowModules, top)
	}
	m.Finder = finder
	return m, nil
}

func (m *Memory) buildIdeal(engine sim.Engine, name string) sim.Component {
	c := m.Config
	return idealmemcontroller.MakeBuilder().
		WithEngine(engine).
		WithFreq(c.Freq).
		WithLatency(c.Ideal.Latency).
		WithWidth(c.Ideal.Width).
		WithTopBufSize(c.Ideal.TopBufferSize).
		WithStorage(m.Storage).
		WithAddressConverter(storageConverter{m}).
		Build(name)
}

// storageConverter is the ideal controller's address converter: global address
// to storage address.
type storageConverter struct{ m *Memory }

func (c storageConverter) ConvertExternalToInternal(a uint64) uint64 { return c.m.StorageAddress(a) }
func (c storageConverter) ConvertInternalToExternal(s uint64) uint64 { return c.m.GlobalAddress(s) }

// localizer is a hook on a DRAM channel's Top port that gives the controller
// channel-local addresses. Akita's DRAM controller maps banks, rows and columns
// from the request's own Address field (its address converter only relocates
// the storage access), so when a request enters the port the hook replaces its
// Address by the storage address (channel index above the controller's address
// bits, channel-local address below, see StorageAddress); the controller then
// uses the channel's banks densely and reads and writes the right bytes of the
// shared storage. When the response leaves the port, the request's global
// Address is restored. Senders must not read a request's Address while it is in
// flight (Akita's caches and memclient do not).
type localizer struct {
	m        *Memory
	mu       sync.Mutex
	inFlight map[string]localized // by request ID
}

type localized struct {
	req    sim.Msg
	global uint64
}

func newLocalizer(m *Memory) *localizer {
	return &localizer{m: m, inFlight: make(map[string]localized)}
}

// Func implements sim.Hook.
func (l *localizer) Func(ctx sim.HookCtx) {
	switch ctx.Pos {
	case sim.HookPosPortMsgRecvd:
		msg, ok := ctx.Item.(sim.Msg)
		if !ok {
			return
		}
		addr := requestAddress(msg)
		if addr == nil {
			return
		}
		l.mu.Lock()
		l.inFlight[msg.Meta().ID] = localized{req: msg, global: *addr}
		l.mu.Unlock()
		*addr = l.m.StorageAddress(*addr)
	case sim.HookPosPortMsgSend:
		rsp, ok := ctx.Item.(sim.Rsp)
		if !ok {
			return
		}
		l.mu.Lock()
		e, ok := l.inFlight[rsp.GetRspTo()]
		delete(l.inFlight, rsp.GetRspTo())
		l.mu.Unlock()
		if ok {
			*requestAddress(e.req) = e.global
		}
	}
}

// requestAddress returns a pointer to a memory request's address field, or nil.
func requestAddress(msg sim.Msg) *uint64 {
	switch r := msg.(type) {
	case *mem.ReadReq:
		return &r.Address
	case *mem.WriteReq:
		return &r.Address
	}
	return nil
}

// buildDRAM builds one Akita DRAM controller driving one channel. It has no
// address converter: the localizer hook hands it storage addresses.
func (m *Memory) buildDRAM(engine sim.Engine, name string) (*dram.MemController, error) {
	c := m.Config
	d := c.DRAM
	proto, err := ParseProtocol(d.Protocol)
	if err != nil {
		return nil, fieldErr("DRAM.Protocol", "%v", err)
	}
	b := dram.MakeBuilder().
		WithEngine(engine).
		WithFreq(c.Freq).
		WithProtocol(proto).
		WithBusWidth(d.BusWidth).
		WithBurstLength(d.BurstLength).
		WithNumChannel(1).
		WithNumRank(d.Ranks).
		WithNumBankGroup(d.BankGroups).
		WithNumBank(d.Banks).
		WithNumRow(d.Rows).
		WithNumCol(d.Columns).
		WithTransactionQueueSize(d.TransactionQueue).
		WithCommandQueueSize(d.CommandQueue).
		WithGlobalStorage(m.Storage)
	b = applyTiming(b, d.Timing)
	return b.Build(name), nil
}

// applyTiming passes the non-zero timing parameters to the builder; zero ones
// keep Akita's defaults.
func applyTiming(b dram.Builder, t Timing) dram.Builder {
	set := []struct {
		v    int
		with func(dram.Builder, int) dram.Builder
	}{
		{t.TAL, dram.Builder.WithTAL}, {t.TCL, dram.Builder.WithTCL},
		{t.TCWL, dram.Builder.WithTCWL}, {t.TRCD, dram.Builder.WithTRCD},
		{t.TRP, dram.Builder.WithTRP}, {t.TRAS, dram.Builder.WithTRAS},
		{t.TCCDL, dram.Builder.WithTCCDL}, {t.TCCDS, dram.Builder.WithTCCDS},
		{t.TRTRS, dram.Builder.WithTRTRS}, {t.TRTP, dram.Builder.WithTRTP},
		{t.TWTRL, dram.Builder.WithTWTRL}, {t.TWTRS, dram.Builder.WithTWTRS},
		{t.TWR, dram.Builder.WithTWR}, {t.TPPD, dram.Builder.WithTPPD},
		{t.TRRDL, dram.Builder.WithTRRDL}, {t.TRRDS, dram.Builder.WithTRRDS},
		{t.TRCDRD, dram.Builder.WithTRCDRD}, {t.TRCDWR, dram.Builder.WithTRCDWR},
	}
	for _, s := range set {
		if s.v != 0 {
			b = s.with(b, s.v)
		}
	}
	return b
}

// ChannelOf returns the channel that holds global address addr.
func (m *Memory) ChannelOf(addr uint64) int {
	return int(addr / m.Config.InterleaveBytes % uint64(m.Config.NumChannels))
}

// LocalAddress returns addr's address within its channel: the channel's
// granules packed densely, (addr / (InterleaveBytes*NumChannels)) *
// InterleaveBytes + addr % InterleaveBytes (Akita's interleaving conversion).
func (m *Memory) LocalAddress(addr uint64) uint64 {
	i := m.Config.InterleaveBytes
	return addr/m.round*i + addr%i
}

// StorageAddress returns where global address addr lives in Storage: the
// channel index above bit 40, the channel-local address below. A DRAM
// controller sees these addresses, and its address mapping (which ignores bits
// above the channel's geometry) sees the local address. Global addresses at or
// above Capacity alias lower ones, as in hardware that ignores high address bits.
func (m *Memory) StorageAddress(addr uint64) uint64 {
	return uint64(m.ChannelOf(addr))<<channelSpanBits | m.LocalAddress(addr)&(1<<channelSpanBits-1)
}

// GlobalAddress inverts StorageAddress for addresses below Capacity.
func (m *Memory) GlobalAddress(s uint64) uint64 {
	c, l := s>>channelSpanBits, s&(1<<channelSpanBits-1)
	i := m.Config.InterleaveBytes
	return l/i*m.round + c*i + l%i
}

// Capacity returns the number of distinct global addresses, NumChannels<<40.
func (m *Memory) Capacity() uint64 { return uint64(m.Config.NumChannels) << channelSpanBits }

// LoadImage copies data into the memory at global address base (for gfxsim's
// command.Image: LoadImage(command.BaseAddress, img.Bytes())). Call it before the
// simulation runs or between runs; it models no traffic.
func (m *Memory) LoadImage(base uint64, data []byte) error {
	if base > m.Capacity() || uint64(len(data)) > m.Capacity()-base {
		return fmt.Errorf("memory: image of %d bytes at 0x%x does not fit below the capacity 0x%x",
			len(data), base, m.Capacity())
	}
	m.granules(base, uint64(len(data)), func(s, off, n uint64) {
		// Storage.Write fails only beyond its capacity, which is unlimited here.
		_ = m.Storage.Write(s, data[off:off+n])
	})
	return nil
}

// ReadAt fills p with the memory's current bytes at global address addr (bytes
// never written read as zero). It models no traffic; it is how the platform
// reads results back. Bytes at or above Capacity read as zero.
func (m *Memory) ReadAt(p []byte, addr uint64) {
	clear(p)
	if addr >= m.Capacity() {
		return
	}
	n := min(uint64(len(p)), m.Capacity()-addr)
	m.granules(addr, n, func(s, off, k uint64) {
		if b, err := m.Storage.Read(s, k); err == nil {
			copy(p[off:off+k], b)
		}
	})
}

// granules calls f for each piece of [addr, addr+n) that lies in one
// interleave granule, with its storage address, its offset from addr and its
// length.
func (m *Memory) granules(addr, n uint64, f func(s, off, k uint64)) {
	i := m.Config.InterleaveBytes
	for off := uint64(0); off < n; {
		a := addr + off
		k := min(i-a%i, n-off)
		f(m.StorageAddress(a), off, k)
		off += k
	}
}

// Stats reports every channel's counters as <channel name>.<counter>: reads,
// writes, bytes_read, bytes_written, read_latency_avg, read_latency_max,
// write_latency_avg, write_latency_max (cycles of Config.Freq, from the request's
// arrival in the Top port's buffer to the response leaving the port) and
// in_flight (requests not answered yet).
//
// dramctl channels report their own counters instead (dramctl.Comp.Stats):
// the same names, and bandwidth, row-buffer, queue, refresh, latency
// histogram and per-client counters.
func (m *Memory) Stats(add func(name string, v float64)) {
	for _, s := range m.stats {
		s.report(add)
	}
	for _, c := range m.ctls {
		c.Stats(add)
	}
}

// Finish ends the frame at end for the dramctl channels: each issues the
// refreshes and page closes it slept through while idle (dramctl.Comp.Finish).
func (m *Memory) Finish(end sim.VTimeInSec) {
	for _, c := range m.ctls {
		c.Finish(end)
	}
}

// SetHalt gives the dramctl channels the platform's halt: a run with
// DRAMCtl.Check on stops through it at the first protocol violation.
func (m *Memory) SetHalt(h *timing.Halt) {
	for _, c := range m.ctls {
		c.SetHalt(h)
	}
}

// SetProgress gives the dramctl and ideal channels the platform's progress,
// to which they declare how long their requests keep them busy
// (timing.Progress.BusyUntil): long DRAM timings and a long ideal latency are
// not a hang. (Akita's DRAM channels declare nothing.)
func (m *Memory) SetProgress(p *timing.Progress) {
	for _, c := range m.ctls {
		c.SetProgress(p)
	}
	for _, b := range m.ideals {
		b.progress = p
	}
	for _, c := range m.limited {
		c.progress = p
	}
}

// idealBusy is a hook on the Top port of Akita's ideal controller, which
// answers a request Latency cycles after it takes it from the port: at the
// take (HookPosPortMsgRetrieve) it declares the channel busy until then.
type idealBusy struct {
	engine   sim.Engine
	freq     sim.Freq
	latency  int
	progress *timing.Progress
}

// Func implements sim.Hook.
func (h *idealBusy) Func(ctx sim.HookCtx) {
	if ctx.Pos == sim.HookPosPortMsgRetrieve && h.progress != nil {
		h.progress.BusyUntil(h.freq.NCyclesLater(h.latency, h.engine.CurrentTime()))
	}
}

// Buffers reports, per channel, the requests that arrived and are not answered
// yet (Akita's controllers' internal queues are not visible; Cap 0 means
// unbounded), and a dramctl channel's read and write queues.
func (m *Memory) Buffers() []timing.BufferState {
	out := make([]timing.BufferState, len(m.stats))
	for i, s := range m.stats {
		out[i] = timing.BufferState{Name: s.name + ".InFlight", Len: s.inFlight()}
	}
	for _, c := range m.ctls {
		out = append(out, c.Buffers()...)
	}
	return out
}
