package configs

import (
	"fmt"
	"image"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/coherence"
	"github.com/gfxsim/gfxsim/components/commandprocessor"
	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/hiz"
	"github.com/gfxsim/gfxsim/components/hostinterface"
	"github.com/gfxsim/gfxsim/components/inputassembler"
	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
	"github.com/gfxsim/gfxsim/components/primitiveassembly"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/quadpacker"
	"github.com/gfxsim/gfxsim/components/rasterizer"
	"github.com/gfxsim/gfxsim/components/reorderbuffer"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// link is what the platform needs from a connection.
type link interface {
	timing.StatsReporter
	timing.Buffered
	sim.Connection
}

// Platform is one built machine, ready to simulate one frame. Build a new
// platform for every frame: its components keep the state of the frame.
type Platform struct {
	Config   *Config
	Engine   timing.Engine
	CoreFreq sim.Freq

	Halt     *timing.Halt
	Progress *timing.Progress

	CommandProcessor  *commandprocessor.CommandProcessor
	HostInterface     *hostinterface.Comp
	InputAssembler    *inputassembler.InputAssembler
	PrimitiveAssembly *primitiveassembly.Comp
	Rasterizers       []*rasterizer.Comp
	HiZ               []*hiz.Comp // one per partition; none when hiz.mode is off
	DepthUnits        []*depthunit.Comp
	QuadPacker        *quadpacker.Comp
	ReorderBuffer     *reorderbuffer.Comp
	ShaderCores       []*shadercore.Comp
	Samplers          []*texturesampler.Comp
	ROPs              []*rop.Comp
	Memory            *memory.Memory
	// L2 is the texture L2 (nil on SAGE, whose pipes have their own).
	L2 *memory.L2
	// TextureTraffic counts texture reads by texture at the L2 and at DRAM
	// ("GPU.TextureTraffic.<texture>.l2_bytes", ".dram_bytes"; nil on SAGE,
	// whose pipes have their own).
	TextureTraffic *texturesampler.TextureTraffic
	// Coherence is the coherence checker (memory.coherence_check; nil
	// otherwise).
	Coherence *coherence.Checker

	// Sage holds the SAGE machine's own components (machine: sage; nil
	// otherwise: the sort-last fields above are then nil but for the command
	// processor, the host interface and the memory).
	Sage *SagePlatform
	// SortMiddle holds the tiled machine's own components (machine:
	// sortmiddle; nil otherwise). Its tile units' rasterizers, depth units and
	// ROPs are also in Rasterizers, DepthUnits and ROPs; QuadPacker and
	// ReorderBuffer are nil (each tile unit has its own).
	SortMiddle *SortMiddlePlatform

	// Units are all components with statistics, in a fixed order; Links all
	// connections.
	Units []protocol.Unit
	Links []link

	// Display is the address of the frame's display buffer in the memory
	// image (set by Run): the resolve writes the presented pixels there.
	Display uint64

	used bool

	sageCommandPorts []sim.Port // the command bus's ports until the video path joins them
	unitsBuilt       []func([]protocol.Unit)
	haltedAt         atomic.Pointer[sim.VTimeInSec] // when the run was halted (RunEnd)
}

// OnUnitsBuilt calls f with the units that Run adds to Units: the SAGE
// machine's video path (route, convolve chips, video output), which depends on
// the frame's resolution, is built when the frame starts, before anything runs.
// Attach a tracer or a hook to them there.
func (p *Platform) OnUnitsBuilt(f func(units []protocol.Unit)) {
	p.unitsBuilt = append(p.unitsBuilt, f)
}

func mhz(f float64) sim.Freq { return sim.Freq(f * 1e6) }

func order(s string) raster.TraversalOrder {
	if s == "zorder" {
		return raster.ZOrder
	}
	return raster.RowMajor
}

// RasterOptions returns the rasterizer options of c.
func (c *Config) RasterOptions() pipeline.RasterOptions {
	o := pipeline.RasterOptions{TileSize: c.Raster.TileSize, TileOrder: order(c.Raster.TileOrder),
		QuadOrder: order(c.Raster.QuadOrder)}
	if c.Machine == "sage" {
		o.PatternTable = c.SagePattern()
	}
	return o
}

// PatternSeed returns the seed of the stochastic rasterizer's lens and time
// pattern (decoupled.pattern_seed), for the machine and for
// reference.Options.PatternSeed, so that both render the same image.
func (c *Config) PatternSeed() uint64 { return uint64(c.Decoupled.PatternSeed) }

// MemoryConfig returns the memory system configuration of c.
func (c *Config) MemoryConfig() memory.Config {
	m := c.Memory
	mc := memory.Config{Type: m.Type, NumChannels: m.Channels, InterleaveBytes: uint64(m.InterleaveBytes),
		Freq: mhz(c.Clocks.MemoryMHz)}
	if m.Type == memory.TypeIdeal {
		mc.Ideal = memory.IdealConfig{Latency: m.IdealLatency, Width: m.IdealWidth, BytesPerCycle: m.IdealBytesPerCycle,
			MaxOutstanding: m.IdealMaxOutstanding}
	} else if m.Type == memory.TypeDRAMCtl {
		mc.DRAMCtl = c.DRAMCtlConfig()
	} else {
		mc.DRAM = memory.DRAMConfig{Protocol: m.Protocol, BusWidth: m.BusWidth, BurstLength: m.BurstLength,
			Ranks: m.Ranks, BankGroups: m.BankGroups, Banks: m.Banks, CommandQueue: m.CommandQueue,
			TransactionQueue: m.TransactionQueue}
	}
	return mc.WithDefaults()
}

// DRAMCtlConfig returns the dramctl controller configuration of c's memory
// section (zero geometry and timing fields take the preset's values).
func (c *Config) DRAMCtlConfig() dramctl.Config {
	m := c.Memory
	g, t := m.Geometry, m.Timing
	return dramctl.Config{Preset: m.Preset, Mapping: m.Mapping, XORBankHash: m.XORBankHash, PagePolicy: m.PagePolicy,
		PageTimeout: m.PageTimeout, Scheduler: m.Scheduler, StarvationCap: m.StarvationCap, ReadQueue: m.ReadQueue,
		WriteQueue: m.WriteQueue, WriteHigh: m.WriteHigh, WriteLow: m.WriteLow, Refresh: m.Refresh, Check: m.Check,
		Geometry: dramctl.Geometry{BusWidth: g.BusWidth, BurstLength: g.BurstLength, DataRate: g.DataRate,
			Ranks: g.Ranks, BankGroups: g.BankGroups, Banks: g.Banks, Rows: g.Rows, Columns: g.Columns},
		Timing: dramctl.Timing{TCKps: t.TCKps, TCL: t.TCL, TCWL: t.TCWL, TRCD: t.TRCD, TRCDWR: t.TRCDWR, TRP: t.TRP,
			TRAS: t.TRAS, TRC: t.TRC, TCCDS: t.TCCDS, TCCDL: t.TCCDL, TRRDS: t.TRRDS, TRRDL: t.TRRDL, TFAW: t.TFAW,
			TWTRS: t.TWTRS, TWTRL: t.TWTRL, TRTP: t.TRTP, TWR: t.TWR, TREFI: t.TREFI, TRFC: t.TRFC, TRTW: t.TRTW,
			TRTRS: t.TRTRS},
	}.WithDefaults()
}

// L2Config returns the texture L2 configuration of c.
func (c *Config) L2Config() memory.L2Config {
	l := c.L2
	return memory.L2Config{SizeBytes: uint64(l.BankSizeKB) * 1024 * uint64(c.Memory.Channels), Ways: l.Ways,
		LineBytes: l.LineBytes, MSHRs: l.MSHRs, DirectoryLatency: l.DirectoryLatency, BankLatency: l.BankLatency,
		Freq: mhz(c.Clocks.CoreMHz)}.WithDefaults()
}

// AccessBytes returns the memory's access unit in bytes: a DRAM channel's bus
// width times its burst length (memory.ideal_access_bytes for the ideal
// memory).
func (c *Config) AccessBytes() int {
	mc := c.MemoryConfig()
	switch mc.Type {
	case memory.TypeIdeal:
		return c.Memory.IdealAccessBytes
	case memory.TypeDRAMCtl:
		return int(min(4096, max(4, mc.DRAMCtl.Geometry.BurstBytes())))
	}
	return min(4096, max(4, mc.DRAM.BusWidth/8*mc.DRAM.BurstLength))
}

// Build builds the machine described by c.
func Build(c *Config) (_ *Platform, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// Validate checks what every builder checks; a builder that still panics
	// ends the build with an error, not a stack trace.
	defer func() {
		if r := recover(); r != nil {
			err = &Error{File: DefaultNameOr(c.file), Msg: fmt.Sprintf("a component refused the configuration: %v", r)}
		}
	}()
	p := &Platform{Config: c, Halt: &timing.Halt{}, Progress: &timing.Progress{}, CoreFreq: mhz(c.Clocks.CoreMHz)}
	if c.Engine == "parallel" {
		e := timing.NewParallelEngine()
		if c.EngineWorkers > 0 {
			e.Workers = c.EngineWorkers
		}
		p.Engine = e
	} else {
		p.Engine = timing.NewSerialEngine()
	}
	p.Halt.OnStop(func() {
		t := p.Engine.CurrentTime()
		p.haltedAt.Store(&t)
	})
	if err := p.buildMemory(); err != nil {
		return nil, err
	}
	if c.Machine == "sage" {
		if err := p.buildSage(); err != nil {
			return nil, err
		}
		return p, nil
	}
	if c.Machine == "sortmiddle" {
		p.buildSortMiddle()
	} else {
		p.buildFrontEnd()
		p.buildShaders()
		p.buildBackEnd()
		p.connect()
	}
	if err := p.buildCoherenceChecker(); err != nil {
		return nil, err
	}
	return p, nil
}

// buildCoherenceChecker attaches the coherence checker (memory.coherence_check)
// to the memory channels, the texture L2, the samplers' L1s, the command
// processor's sync tokens and clears and, on the sort-last machine, the ROPs'
// and depth units' write-back caches (the tiled machine's tiles reach memory
// as plain writes when they are stored).
func (p *Platform) buildCoherenceChecker() error {
	if !p.Config.Memory.CoherenceCheck {
		return nil
	}
	ck, err := coherence.New(uint64(p.Config.L2Config().LineBytes), p.Halt)
	if err != nil {
		return err
	}
	ck.WatchMemory(p.Memory.Tops...)
	ck.WatchL2(p.L2.Tops, p.L2.Bottoms)
	cp := p.CommandProcessor
	ck.WatchCommands(cp.ToBackEnd)
	cp.FenceObserver = ck.Fence
	for _, s := range p.Samplers {
		s.Observer = ck
	}
	if p.SortMiddle == nil {
		for i := range p.ROPs {
			p.ROPs[i].ObserveWrites(ck.WatchWriter(p.ROPs[i].ToMemory))
			p.DepthUnits[i].ObserveWrites(ck.WatchWriter(p.DepthUnits[i].ToMemory))
		}
	}
	p.Coherence = ck
	return nil
}

func (p *Platform) buildMemory() error {
	m, err := p.Config.BuildMemory(p.Engine, "GPU.Memory")
	if err != nil {
		return err
	}
	m.SetHalt(p.Halt)
	m.SetProgress(p.Progress)
	p.Memory = m
	if p.Config.Machine == "sage" {
		return nil // the pipes texture from memories and L2s of their own
	}
	p.L2, err = p.Config.BuildL2(m, p.Engine, "GPU.L2")
	return err
}

// DefaultNameOr returns file, or the default machine's name when file is empty.
func DefaultNameOr(file string) string {
	if file == "" {
		return DefaultName
	}
	return file
}

func (p *Platform) buildFrontEnd() {
	c := p.Config
	p.CommandProcessor = p.newCommandProcessor(c.ROP.Count)
	p.HostInterface = p.newHostInterface()
	p.InputAssembler = p.newInputAssembler("GPU.InputAssembler")
	p.PrimitiveAssembly = p.newPrimitiveAssembly("GPU.PrimitiveAssembly")
	for r := 0; r < c.Raster.Rasterizers; r++ {
		p.Rasterizers = append(p.Rasterizers, p.newRasterizer(fmt.Sprintf("GPU.Rasterizer[%d]", r), r, c.ROP.Count))
	}
}

// newCommandProcessor builds the command processor for partitions ROP
// partitions (SAGE: interleaves).
func (p *Platform) newCommandProcessor(partitions int) *commandprocessor.CommandProcessor {
	c := p.Config
	cp := c.CommandProcessor
	return commandprocessor.MakeBuilder().WithEnv(p.env()).WithConfig(commandprocessor.Config{
		DMAChunkBytes: cp.DMAChunkBytes, MaxOutstandingDMA: cp.MaxOutstandingDMA, DecodeCycles: cp.DecodeCycles,
		StateVersions: cp.StateVersions, RasterOptions: c.RasterOptions(), Partitions: partitions,
		PerSample: c.Machine == "sage"}).Build("GPU.CommandProcessor")
}

func (p *Platform) newHostInterface() *hostinterface.Comp {
	return hostinterface.MakeBuilder().WithEngine(p.Engine).WithFreq(p.CoreFreq).WithHalt(p.Halt).
		WithProgress(p.Progress).WithMaxOutstanding(p.Config.CommandProcessor.MaxOutstandingDMA).Build("GPU.HostInterface")
}

// newInputAssembler builds an input assembler from the input_assembler section.
func (p *Platform) newInputAssembler(name string) *inputassembler.InputAssembler {
	c := p.Config
	ia := c.InputAssembler
	return inputassembler.MakeBuilder().WithEnv(p.env()).WithConfig(inputassembler.Config{
		BatchVertices: ia.BatchVertices, IndexCache: iaCache(ia.IndexCache), VertexCache: iaCache(ia.VertexCache),
		IndicesPerCycle: ia.IndicesPerCycle, VerticesPerCycle: ia.VerticesPerCycle, Credits: c.Primitive.BatchSlots,
		MaxOutstandingMemory: ia.MaxOutstandingMemory, BatchQueue: inputassembler.DefaultConfig().BatchQueue}).Build(name)
}

// newPrimitiveAssembly builds primitive assembly from its section, for the
// raster section's rasterizers.
func (p *Platform) newPrimitiveAssembly(name string) *primitiveassembly.Comp {
	c := p.Config
	pc := c.Primitive
	return primitiveassembly.MakeBuilder().WithEnv(p.env()).WithConfig(primitiveassembly.Config{
		BatchSlots: pc.BatchSlots, TrianglesPerCycle: pc.TrianglesPerCycle, ClipCycles: pc.ClipCycles,
		SetupLatency: pc.SetupLatency, OutputQueue: pc.OutputQueue, NumRasterizers: c.Raster.Rasterizers,
		RasterStride: c.Raster.Stride, Setup5DCycles: pc.Setup5DCycles, PatternSeed: c.PatternSeed(),
		StreamOutQueue: pc.StreamOutQueue, StreamOutWrites: pc.StreamOutWrites}).Build(name)
}

// newRasterizer builds rasterizer r of the raster section, sending to
// partitions back ends.
func (p *Platform) newRasterizer(name string, r, partitions int) *rasterizer.Comp {
	c := p.Config
	rc := c.Raster
	return rasterizer.MakeBuilder().WithEnv(p.env()).WithConfig(rasterizer.Config{Index: r,
		NumRasterizers: rc.Rasterizers, RasterStride: rc.Stride, NumPartitions: partitions,
		PartitionStride: c.ROP.Stride, PartitionTileRatio: c.ROP.TileSize / c.Raster.TileSize,
		TilesPerCycle: rc.TilesPerCycle, QuadsPerCycle: rc.QuadsPerCycle, SampleTestsPerCycle: rc.SampleTestsPerCycle,
		InputQueue: rc.InputQueue, TileQueue: rasterizer.DefaultConfig().TileQueue, OutputQueue: rc.OutputQueue}).Build(name)
}

func iaCache(cc Cache) inputassembler.CacheConfig {
	return inputassembler.CacheConfig{SizeBytes: cc.SizeKB * 1024, Ways: cc.Ways, LineBytes: cc.LineBytes}
}

func (p *Platform) buildShaders() {
	c := p.Config
	for i := 0; i < c.ShaderCore.Count; i++ {
		p.ShaderCores = append(p.ShaderCores, p.newShaderCore(fmt.Sprintf("GPU.ShaderCore[%d]", i)))
	}
	// One sampler per cluster of cores_per_sampler cores.
	for i := 0; i < c.Samplers(); i++ {
		p.Samplers = append(p.Samplers, c.BuildTextureSampler(p.Engine, p.Halt, p.Progress, i))
	}
}

// newShaderCore builds a shader core from the shader_core section.
func (p *Platform) newShaderCore(name string) *shadercore.Comp {
	sc := p.Config.ShaderCore
	lat := shadercore.Latencies{ALU: sc.Latency.ALU, SFU: sc.Latency.SFU, Derivative: sc.Latency.Derivative,
		Texture: sc.Latency.Texture, Kill: sc.Latency.Kill}
	return shadercore.MakeBuilder().WithEnv(p.env()).WithConfig(shadercore.Config{WarpSize: sc.WarpSize,
		SIMDWidth: sc.SIMDWidth, SFURate: sc.SFURate, WarpSlots: sc.WarpSlots, Registers: sc.Registers, Latencies: lat,
		InterpolationCycles: 1 / float64(sc.InterpolantsPerCycle), InputQueue: sc.InputQueue,
		GSOutputBuffer: sc.GSOutputBufferKB * 1024, MaxGSWarps: min(sc.MaxGSWarps, sc.WarpSlots)}).Build(name)
}

func (p *Platform) buildBackEnd() {
	c := p.Config
	for i := 0; i < c.ROP.Count; i++ {
		p.DepthUnits = append(p.DepthUnits, p.newDepthUnit(fmt.Sprintf("GPU.DepthUnit[%d]", i), i))
		if hc := c.HiZConfig(); hc.Mode != fhiz.Off {
			p.HiZ = append(p.HiZ, hiz.MakeBuilder().WithEnv(p.env()).WithConfig(c.hizUnitConfig(hc, i)).
				Build(fmt.Sprintf("GPU.HiZ[%d]", i)))
		}
		p.ROPs = append(p.ROPs, p.newROP(fmt.Sprintf("GPU.ROP[%d]", i), i))
	}
	p.QuadPacker = p.newQuadPacker("GPU.QuadPacker", 0)
	p.ReorderBuffer = p.newReorderBuffer("GPU.ReorderBuffer", 0)
}

// hizUnitConfig is the configuration of partition i's HiZ unit from the hiz
// section (hc its algorithm) and the rop section's partitions.
func (c *Config) hizUnitConfig(hc fhiz.Config, i int) hiz.Config {
	h, rc := c.HiZ, c.ROP
	return hiz.Config{
		HiZ: hc, Index: i, NumPartitions: rc.Count, PartitionStride: rc.Stride, PartitionTile: rc.TileSize,
		CacheSize: h.Cache.SizeKB * 1024, CacheWays: h.Cache.Ways, LineBytes: h.Cache.LineBytes,
		MaxOutstandingMemory: h.MaxOutstandingMemory, WriteQueue: h.WriteQueue, TestsPerCycle: h.TestsPerCycle,
		Latency: h.Latency, InputQueue: h.InputQueue, Window: h.Window, FeedbackQueue: h.FeedbackQueue,
		FeedbackRefetch: h.FeedbackMiss == "refetch", RegionBase: hiz.DefaultRegionBase, MaxTargets: h.MaxTargets,
	}
}

// newDepthUnit builds depth unit i from the depth_unit section (its HiZ unit's
// configuration from the hiz section).
func (p *Platform) newDepthUnit(name string, i int) *depthunit.Comp {
	c := p.Config
	du := c.DepthUnit
	return depthunit.MakeBuilder().WithEnv(p.env()).WithConfig(depthunit.Config{
		Index: i, NumRasterizers: c.Raster.Rasterizers, SamplesPerCycle: du.SamplesPerCycle,
		Cache:       c.rtCache(du.Cache, du.MaxOutstandingMemory, du.WriteQueue, du.Compression),
		TestLatency: du.TestLatency, InputQueue: du.InputQueue, TileWindow: du.TileWindow,
		LateQueue: depthunit.DefaultConfig().LateQueue, WaitQuads: du.WaitQuads,
		HiZ: c.HiZConfig(), FeedbackQueue: c.HiZ.FeedbackQueue,
	}).Build(name)
}

// rtCache is the render-target cache of a depth unit or a ROP: the cache
// section cc, its memory requests in flight and queued write-backs, and
// compression with the memory's access unit.
func (c *Config) rtCache(cc Cache, maxOutstanding, writeQueue int, compression bool) rtcache.Config {
	return rtcache.Config{Size: cc.SizeKB * 1024, Ways: cc.Ways, LineSize: cc.LineBytes,
		MaxOutstanding: maxOutstanding, WriteQueue: writeQueue, Compression: compression, MinBlock: c.AccessBytes()}
}

// newROP builds ROP i from the rop section.
func (p *Platform) newROP(name string, i int) *rop.Comp {
	c := p.Config
	rc := c.ROP
	return rop.MakeBuilder().WithEnv(p.env()).WithConfig(rop.Config{
		Index: i, QuadsPerCycle: rc.QuadsPerCycle, SamplesPerCycle: rc.SamplesPerCycle, Costs: c.ROPCosts(),
		Cache:        c.rtCache(rc.Cache, rc.MaxOutstandingMemory, rc.WriteQueue, rc.Compression),
		BlendLatency: rc.BlendLatency, InputQueue: rc.InputQueue, Window: rc.Window,
		LateZInFlight: rop.DefaultConfig().LateZInFlight, WaitQuads: rc.WaitQuads,
		TileSize: rc.TileSize, PartitionStride: rc.Stride, NumPartitions: rc.Count,
		PrefetchDistance: rc.PrefetchDistance, PrefetchReserve: rc.PrefetchReserve,
	}).Build(name)
}

// newQuadPacker builds a quad packer from the quad_packer section, numbering
// its warps from warpBase (protocol.TileUnitWarpBase for a tile unit's).
func (p *Platform) newQuadPacker(name string, warpBase uint64) *quadpacker.Comp {
	qp := p.Config.QuadPacker
	return quadpacker.MakeBuilder().WithEnv(p.env()).WithConfig(quadpacker.Config{
		QuadsPerWarp: qp.QuadsPerWarp, FlushCycles: qp.FlushCycles, QuadsPerCycle: qp.QuadsPerCycle,
		InputQueue: qp.InputQueue, SamplesPerCycle: qp.SamplesPerCycle, WarpIDBase: warpBase,
	}).Build(name)
}

// newReorderBuffer builds a reorder buffer from its section, for the rop
// section's partitions, numbering its shading warps from warpBase.
func (p *Platform) newReorderBuffer(name string, warpBase uint64) *reorderbuffer.Comp {
	c := p.Config
	rb := c.ReorderBuffer
	cfg := reorderbuffer.DefaultConfig()
	cfg.Entries, cfg.DispatchPerCycle, cfg.RetirePerCycle = rb.Entries, rb.DispatchPerCycle, rb.RetirePerCycle
	cfg.NumPartitions, cfg.ShadingCacheEntries, cfg.RefBits = c.ROP.Count, rb.ShadingCacheEntries, rb.RefBits
	cfg.QuadsPerWarp, cfg.LookupsPerCycle, cfg.WarpIDBase = c.QuadPacker.QuadsPerWarp, rb.LookupsPerCycle, warpBase
	return reorderbuffer.MakeBuilder().WithEnv(p.env()).WithConfig(cfg).Build(name)
}

// bus and crossbar build the platform's links; each counts its deliveries as
// the watchdog's progress and declares its transfers under way
// (connections: The watchdog).
func (p *Platform) bus(name string, l Link, freq sim.Freq, ports ...sim.Port) {
	b := BuildBus(p.Engine, name, l, freq, ports...)
	b.SetProgress(p.Progress)
	p.Links = append(p.Links, b)
}

func (p *Platform) crossbar(name string, l Link, freq sim.Freq, ports ...sim.Port) {
	x := BuildCrossbar(p.Engine, name, l, freq, ports...)
	x.SetProgress(p.Progress)
	p.Links = append(p.Links, x)
}

// shaderCoreLinks points the shader cores, the input assembler and primitive
// assembly at each other, the cores' pixel warps going back to the pixel
// unit's fromCores port, and returns the ports of the dispatch crossbar (the
// input assembler's and the pixel unit's toCores first) and of the shaded
// crossbar (primitive assembly's and fromCores first).
func shaderCoreLinks(cores []*shadercore.Comp, ia *inputassembler.InputAssembler, pa *primitiveassembly.Comp,
	toCores, fromCores sim.Port) (dispatch, shaded []sim.Port) {
	dispatch = []sim.Port{ia.ToShaderCores, toCores}
	shaded = []sim.Port{pa.FromShaderCores, fromCores}
	for _, sc := range cores {
		dispatch = append(dispatch, sc.FromDispatch)
		shaded = append(shaded, sc.ToPrimitiveAssembly, sc.ToReorderBuffer)
		ia.ShaderCores = append(ia.ShaderCores, sc.FromDispatch)
		sc.PrimitiveAssemblyPort = pa.FromShaderCores
		sc.ReorderBufferPort = fromCores
		pa.ShaderCores = append(pa.ShaderCores, sc.ToPrimitiveAssembly) // GS warps
	}
	return dispatch, shaded
}

// l2Crossbar connects texture samplers to the banks of their L2: a crossbar
// of the L2's tops, then the samplers' L2 ports.
func (p *Platform) l2Crossbar(name string, l Link, freq sim.Freq, l2 *memory.L2, samplers []*texturesampler.Comp) {
	ports := append([]sim.Port{}, l2.Tops...)
	for _, s := range samplers {
		ports = append(ports, s.ToL2)
	}
	p.crossbar(name, l, freq, ports...)
}

// textureBuses wires the shader cores to their samplers ("<prefix>.TextureBus[k]":
// the texture_sampler.cores_per_sampler cores of cluster k and sampler k; a
// shared sampler answers each request's source) and the samplers to l2.
func (p *Platform) textureBuses(prefix string, cores []*shadercore.Comp, samplers []*texturesampler.Comp, l2 *memory.L2) {
	per := p.Config.TextureSampler.CoresPerSampler
	for k, s := range samplers {
		ports := []sim.Port{}
		for _, sc := range cores[k*per : (k+1)*per] {
			ports = append(ports, sc.Sampler)
			sc.SamplerPort = s.Core
		}
		p.bus(fmt.Sprintf("%s.TextureBus[%d]", prefix, k), p.Config.Buses.Texture, p.CoreFreq, append(ports, s.Core)...)
		if per == 1 {
			s.CorePort = cores[k].Sampler
		}
		s.L2 = l2.Finder
	}
}

// connectHost puts the command processor's DMA on the host bus to the host
// interface, which forwards to the memory, and sends its DrawAuto counter
// reads to the memory directly (hostMemoryPorts joins both to the memory
// crossbar).
func (p *Platform) connectHost() {
	c, cp := p.Config, p.CommandProcessor
	p.bus("GPU.HostBus", c.Buses.Host, mhz(c.Clocks.HostBusMHz), cp.ToMemory, p.HostInterface.Host)
	cp.Memory = &single{p.HostInterface.Host}
	cp.LocalMemory = p.Memory.Finder
	p.HostInterface.Memory = p.Memory.Finder
}

// hostMemoryPorts are the ports connectHost's paths put on the memory
// crossbar: the host interface's and the command processor's local one.
func (p *Platform) hostMemoryPorts() []sim.Port {
	return []sim.Port{p.HostInterface.ToMemory, p.CommandProcessor.ToLocalMemory}
}

// connect wires every port to exactly one connection and sets the peers.
func (p *Platform) connect() {
	c, f, bs := p.Config, p.CoreFreq, p.Config.Buses
	cp, ia, pa, qp, rb := p.CommandProcessor, p.InputAssembler, p.PrimitiveAssembly, p.QuadPacker, p.ReorderBuffer

	p.connectHost()

	// Command bus: draws to the input assembler, back-end control and acknowledgements.
	cmd := []sim.Port{cp.ToInputAssembler, ia.FromCommandProcessor, cp.ToBackEnd}
	for i := range p.ROPs {
		cmd = append(cmd, p.ROPs[i].Control, p.DepthUnits[i].Control)
	}
	cmd = append(cmd, p.textureControls()...)
	p.bus("GPU.CommandBus", bs.Command, f, cmd...)
	cp.InputAssembler = ia.FromCommandProcessor

	p.bus("GPU.BatchBus", bs.Command, f, ia.PrimitiveAssembly, pa.InputAssembler)
	ia.PrimitiveAssemblyPort = pa.InputAssembler
	pa.InputAssemblerPort = ia.PrimitiveAssembly

	dispatch, shaded := shaderCoreLinks(p.ShaderCores, ia, pa, rb.ToShaderCores, rb.FromShaderCores)
	for _, sc := range p.ShaderCores {
		rb.ShaderCores = append(rb.ShaderCores, sc.FromDispatch)
	}
	// Texture buses: the cores of a cluster and their sampler; a shared
	// sampler answers each request's source.
	per := c.TextureSampler.CoresPerSampler
	p.textureBuses("GPU", p.ShaderCores, p.Samplers, p.L2)
	p.crossbar("GPU.DispatchXbar", bs.Dispatch, f, dispatch...)
	p.crossbar("GPU.ShadedXbar", bs.Shaded, f, shaded...)

	prim := []sim.Port{pa.ToRasterizers}
	tile := []sim.Port{}
	for _, r := range p.Rasterizers {
		prim = append(prim, r.FromPrimitiveAssembly)
		pa.Rasterizers = append(pa.Rasterizers, r.FromPrimitiveAssembly)
		tile = append(tile, r.ToDepthUnits)
	}
	p.bus("GPU.PrimitiveBus", bs.Primitive, f, prim...)

	quad := []sim.Port{qp.FromDepthUnits}
	ropx := []sim.Port{rb.ToROPs}
	for i, d := range p.DepthUnits {
		// The rasterizers send a partition's tiles to its HiZ unit, which
		// passes them on to the depth unit over its own bus.
		front := d.FromRasterizers
		if len(p.HiZ) > 0 {
			h := p.HiZ[i]
			front = h.FromRasterizers
			p.bus(fmt.Sprintf("GPU.HiZBus[%d]", i), bs.Tile, f, h.ToDepthUnit, h.FromDepthUnit, d.FromRasterizers, d.ToHiZ)
			h.DepthUnit, d.HiZ = d.FromRasterizers, h.FromDepthUnit
			h.Memory = p.Memory.Finder
		}
		tile = append(tile, front)
		quad = append(quad, d.ToQuadPacker)
		for _, r := range p.Rasterizers {
			r.DepthUnits = append(r.DepthUnits, front)
		}
		d.QuadPacker = qp.FromDepthUnits
		ro := p.ROPs[i]
		ropx = append(ropx, ro.FromReorderBuffer)
		rb.ROPs = append(rb.ROPs, ro.FromReorderBuffer)
		p.bus(fmt.Sprintf("GPU.LateZBus[%d]", i), bs.LateZ, f, ro.DepthUnit, d.ROP)
		ro.DepthUnitPort, d.ROPPort = d.ROP, ro.DepthUnit
		ro.CommandProcessor, d.CommandProcessor = cp.ToBackEnd, cp.ToBackEnd
		cp.ROPs = append(cp.ROPs, ro.Control)
		cp.DepthUnits = append(cp.DepthUnits, d.Control)
		ro.Memory, d.Memory = p.Memory.Finder, p.Memory.Finder
	}
	p.crossbar("GPU.TileXbar", bs.Tile, f, tile...)
	p.bus("GPU.QuadBus", bs.Quad, f, quad...)
	p.bus("GPU.WarpBus", bs.Warp, f, qp.ToReorderBuffer, rb.FromQuadPacker)
	qp.ReorderBufferPort = rb.FromQuadPacker
	p.crossbar("GPU.ROPXbar", bs.ROP, f, ropx...)

	p.l2Crossbar("GPU.L2Xbar", bs.L2, f, p.L2, p.Samplers)
	p.TextureTraffic = WatchTextureTraffic(p.L2)

	memPorts := append([]sim.Port{}, p.Memory.Tops...)
	memPorts = append(memPorts, p.hostMemoryPorts()...)
	memPorts = append(memPorts, ia.ToMemory)
	ia.Memory = p.Memory.Finder
	for i := range p.ROPs {
		memPorts = append(memPorts, p.DepthUnits[i].ToMemory, p.ROPs[i].ToMemory)
		if len(p.HiZ) > 0 {
			memPorts = append(memPorts, p.HiZ[i].ToMemory)
		}
	}
	memPorts = append(memPorts, p.L2.Bottoms...)
	// The stream-out unit (in primitive assembly) writes last: a port that
	// never sends leaves the other sources' arbitration as it was.
	memPorts = append(memPorts, pa.ToMemory)
	pa.Memory = p.Memory.Finder
	p.crossbar("GPU.MemoryXbar", bs.Memory, f, memPorts...)

	p.Units = []protocol.Unit{cp, p.HostInterface, ia, pa}
	for _, r := range p.Rasterizers {
		p.Units = append(p.Units, r)
	}
	for _, h := range p.HiZ {
		p.Units = append(p.Units, h)
	}
	for i := range p.DepthUnits {
		p.Units = append(p.Units, p.DepthUnits[i])
	}
	p.Units = append(p.Units, qp, rb)
	for i := range p.ShaderCores {
		p.Units = append(p.Units, p.ShaderCores[i])
		if (i+1)%per == 0 {
			p.Units = append(p.Units, p.Samplers[i/per])
		}
	}
	for _, r := range p.ROPs {
		p.Units = append(p.Units, r)
	}
}

// textureControls gives the command processor the texture caches' control
// ports (the samplers' L1s and the L2 banks), which a sync token invalidates,
// and returns them for the command bus.
func (p *Platform) textureControls() []sim.Port {
	cp := p.CommandProcessor
	for _, s := range p.Samplers {
		cp.Samplers = append(cp.Samplers, s.Control)
	}
	cp.L2Controls = append(cp.L2Controls, p.L2.Controls...)
	return append(append([]sim.Port{}, cp.Samplers...), cp.L2Controls...)
}

// single is a LowModuleFinder with one destination.
type single struct{ port sim.Port }

func (s *single) Find(uint64) sim.Port { return s.port }

// FrameFinished reports whether the frame is done: its commands finished
// and, on SAGE, the video output's last line scanned out (which goes on after
// the commands).
func (p *Platform) FrameFinished() bool {
	return p.CommandProcessor.Finished() && (p.Sage == nil || p.Sage.videoFinished())
}

// Result is what a timed frame produced.
type Result struct {
	Image   *image.RGBA
	Cycles  uint64             // core cycles until the frame finished
	Seconds float64            // simulated time
	Events  uint64             // Akita events executed
	Stats   map[string]float64 // every counter, <component>.<counter>
}

// RunScene encodes scene s with c's driver options, builds the machine c
// describes and simulates the frame: the one home of "run this scene on this
// machine". It returns the platform (for its units and statistics) and the
// result; on an error the platform is nil unless the run itself failed.
func RunScene(c *Config, s *scene.Scene) (*Platform, *Result, error) {
	if err := c.CheckScene(s); err != nil {
		return nil, nil, err
	}
	f, err := driver.Encode(s, c.DriverOptions())
	if err != nil {
		return nil, nil, err
	}
	p, err := Build(c)
	if err != nil {
		return nil, nil, err
	}
	res, err := p.Run(f)
	if err != nil {
		return p, nil, err
	}
	return p, res, nil
}

// Run simulates frame f on the platform. A platform runs one frame.
func (p *Platform) Run(f *driver.Frame) (*Result, error) {
	if p.used {
		return nil, fmt.Errorf("platform: a platform simulates one frame; build a new one")
	}
	p.used = true
	display := f.Memory.Alloc(uint64(f.Color.Width)*uint64(f.Color.Height)*4, 4096)
	p.Display = display
	if err := p.Memory.LoadImage(0x10000, f.Memory.Bytes()); err != nil {
		return nil, fmt.Errorf("platform: loading the memory image: %w", err)
	}
	for _, s := range p.Samplers {
		s.Image = f.Memory
	}
	if p.TextureTraffic != nil {
		p.TextureTraffic.SetTextures(TrafficTextures(f))
	}
	mp := newMultipassTraffic(f)
	for i := range p.ROPs {
		p.ROPs[i].Image, p.DepthUnits[i].Image = f.Memory, f.Memory
		p.ROPs[i].ToMemory.AcceptHook(mp)
	}
	if p.Sage != nil {
		if err := p.startSage(f); err != nil {
			return nil, err
		}
	} else {
		p.InputAssembler.SetMemory(f.Memory)
		p.PrimitiveAssembly.SetMemory(f.Memory)
	}
	if p.SortMiddle != nil {
		if err := p.startSortMiddle(f); err != nil {
			return nil, err
		}
	}
	cp := p.CommandProcessor
	if err := cp.Start(f.Memory, f.Stream, f.StreamBytes, display); err != nil {
		return nil, err
	}
	wd := newWatchdog(p.Engine, p.CoreFreq, uint64(p.Config.WatchdogCycles), p.Halt, p.Progress,
		cp.Finished, p.hangReport)
	wd.start(0)
	if err := p.Engine.Run(); err != nil {
		return nil, err
	}
	end := p.Engine.CurrentTime()
	if cp.Finished() {
		// Statistics cover the frame: later events (the watchdog's last wake-up)
		// are not part of it.
		end = cp.FinishTime()
	}
	videoEnd := end
	if p.Sage != nil && p.Sage.videoFinished() {
		videoEnd = max(end, p.Sage.videoFinishTime()) // the scan-out goes on after the frame's commands
	}
	for _, u := range p.Units {
		if p.Sage != nil && p.Sage.isVideo(u) {
			u.Finish(videoEnd)
			continue
		}
		u.Finish(end)
	}
	if p.Memory != nil {
		p.Memory.Finish(end) // the refreshes of channels idle at the frame's end
	}
	if err := cp.Err(); err != nil {
		return nil, err
	}
	if err := p.Halt.Reason(); err != nil {
		return nil, err
	}
	if !cp.Finished() {
		return nil, fmt.Errorf("simulation stopped at cycle %d with the frame unfinished: the engine ran out of events\n%s",
			p.CoreFreq.Cycle(end), p.hangReport())
	}
	img := cp.Image()
	if p.Sage != nil {
		if !p.Sage.videoFinished() {
			return nil, fmt.Errorf("simulation stopped at cycle %d with the video frame unfinished\n%s",
				p.CoreFreq.Cycle(p.Engine.CurrentTime()), p.hangReport())
		}
		img = p.Sage.videoImage()
	}
	fin := cp.FinishTime()
	res := &Result{Image: img, Cycles: p.CoreFreq.Cycle(fin), Seconds: float64(fin), Events: p.Engine.Events(),
		Stats: map[string]float64{}}
	add := func(n string, v float64) { res.Stats[n] = v }
	for _, u := range p.Units {
		u.Stats(add)
	}
	for _, l := range p.Links {
		l.Stats(add)
	}
	p.Memory.Stats(add)
	if p.L2 != nil {
		p.L2.Stats(add)
		p.TextureTraffic.Stats(add)
	}
	if p.Sage != nil {
		for _, pipe := range p.Sage.Pipes {
			pipe.TextureMemory.Stats(add)
			pipe.TextureL2.Stats(add)
			pipe.TextureTraffic.Stats(add)
		}
	}
	mp.Stats(res.Stats, add)
	if p.Coherence != nil {
		p.Coherence.Stats(add)
	}
	if p.Sage != nil {
		add("GPU.video_end_cycles", float64(p.CoreFreq.Cycle(videoEnd)))
	}
	add("GPU.cycles", float64(res.Cycles))
	add("GPU.frame_seconds", res.Seconds)
	return res, nil
}

// FrameEnd returns when the frame ended, and true, once the command processor
// has finished it: its finish time, or on the SAGE machine the end of the video
// scan-out when that is later (Run finishes the statistics of the video path's
// units there, and every other unit's at the command processor's finish). The
// engine may run on past it (the watchdog's or a sampler's last wake-up). It
// returns false while the frame is unfinished.
func (p *Platform) FrameEnd() (sim.VTimeInSec, bool) {
	cp := p.CommandProcessor
	if cp == nil || !cp.Finished() {
		return 0, false
	}
	end := cp.FinishTime()
	if p.Sage != nil && p.Sage.videoFinished() {
		end = max(end, p.Sage.videoFinishTime())
	}
	return end, true
}

// RunEnd returns the time the run ended: the frame's end (FrameEnd) when it
// finished, else the time it was halted (Ctrl-C, the watchdog, a unit's
// error; the engine runs on to the events already due, such as the
// watchdog's next wake-up), else the engine's time. Traces and metrics end
// there.
func (p *Platform) RunEnd() sim.VTimeInSec {
	if end, ok := p.FrameEnd(); ok && p.FrameFinished() {
		return end
	}
	if t := p.haltedAt.Load(); t != nil {
		return *t
	}
	return p.Engine.CurrentTime()
}

// BufferStates returns the occupancy of every buffer of the platform: its
// units', links', memory channels' and L2 banks', in that order.
func (p *Platform) BufferStates() []timing.BufferState {
	var bufs []timing.BufferState
	for _, u := range p.Units {
		bufs = append(bufs, u.Buffers()...)
	}
	for _, l := range p.Links {
		bufs = append(bufs, l.Buffers()...)
	}
	bufs = append(bufs, p.Memory.Buffers()...)
	if p.L2 != nil {
		bufs = append(bufs, p.L2.Buffers()...)
	}
	if p.Sage != nil {
		for _, pipe := range p.Sage.Pipes {
			bufs = append(bufs, pipe.TextureMemory.Buffers()...)
			bufs = append(bufs, pipe.TextureL2.Buffers()...)
		}
	}
	return bufs
}

// hangReport lists every non-empty buffer of the platform, fullest first.
func (p *Platform) hangReport() string {
	var busy []timing.BufferState
	for _, b := range p.BufferStates() {
		if b.Len > 0 {
			busy = append(busy, b)
		}
	}
	return bufferReport(busy)
}

// bufferReport lists the buffers holding work, fullest first; a buffer of
// capacity 0 is unbounded and says so.
func bufferReport(busy []timing.BufferState) string {
	sort.SliceStable(busy, func(i, j int) bool {
		fi := float64(busy[i].Len) / float64(max(1, busy[i].Cap))
		fj := float64(busy[j].Len) / float64(max(1, busy[j].Cap))
		return fi > fj
	})
	if len(busy) == 0 {
		return "every buffer is empty (a component is waiting for something that never comes)"
	}
	var b strings.Builder
	b.WriteString("buffers holding work (fullest first):\n")
	for _, s := range busy {
		if s.Cap > 0 {
			fmt.Fprintf(&b, "  %s: %d of %d\n", s.Name, s.Len, s.Cap)
		} else { // an unbounded buffer (a capacity of 0 means none)
			fmt.Fprintf(&b, "  %s: %d (unbounded)\n", s.Name, s.Len)
		}
	}
	return b.String()
}
