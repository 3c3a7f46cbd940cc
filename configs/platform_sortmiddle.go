package configs

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/quadpacker"
	"github.com/gfxsim/gfxsim/components/rasterizer"
	"github.com/gfxsim/gfxsim/components/reorderbuffer"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/sortmiddle/binner"
	"github.com/gfxsim/gfxsim/components/sortmiddle/tilescheduler"
	"github.com/gfxsim/gfxsim/components/sortmiddle/tileunit"
	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// SortMiddlePlatform holds the tiled machine's own components
// (Platform.SortMiddle; nil on the other machines).
type SortMiddlePlatform struct {
	Binner    *binner.Binner
	Scheduler *tilescheduler.Scheduler
	TileUnits []*TileUnitSet
	// Grid is the frame's screen tiles, set by Run.
	Grid binning.Grid
}

// TileUnitSet is one tile unit: its control and tile memory, and the
// back-end units it drives. The same units are also listed in the
// platform's Rasterizers, DepthUnits and ROPs.
type TileUnitSet struct {
	Unit          *tileunit.TileUnit
	Rasterizer    *rasterizer.Comp
	DepthUnit     *depthunit.Comp
	QuadPacker    *quadpacker.Comp
	ReorderBuffer *reorderbuffer.Comp
	ROP           *rop.Comp
}

func (p *Platform) env() timing.Env {
	return timing.Env{Engine: p.Engine, Freq: p.CoreFreq, Halt: p.Halt, Progress: p.Progress}
}

// buildSortMiddle builds the tiled machine's components and connections.
func (p *Platform) buildSortMiddle() {
	c := p.Config
	sm := &SortMiddlePlatform{}
	p.SortMiddle = sm
	p.CommandProcessor = p.newCommandProcessor(1)
	p.HostInterface = p.newHostInterface()
	p.InputAssembler = p.newInputAssembler("GPU.InputAssembler")
	p.PrimitiveAssembly = p.newPrimitiveAssembly("GPU.PrimitiveAssembly")
	p.buildShaders()
	sm.Binner = binner.MakeBuilder().WithEnv(p.env()).WithConfig(c.binnerConfig()).Build("GPU.Binner")
	sm.Scheduler = tilescheduler.MakeBuilder().WithEnv(p.env()).WithConfig(c.schedulerConfig()).Build("GPU.TileScheduler")
	for k := 0; k < c.SortMiddle.TileUnits; k++ {
		n := fmt.Sprintf("GPU.TileUnit[%d]", k)
		tu := &TileUnitSet{
			Unit:          tileunit.MakeBuilder().WithEnv(p.env()).WithConfig(c.tileUnitConfig(k)).Build(n),
			Rasterizer:    p.newRasterizer(n+".Rasterizer", 0, 1),
			DepthUnit:     p.newDepthUnit(n+".DepthUnit", 0),
			QuadPacker:    p.newQuadPacker(n+".QuadPacker", protocol.TileUnitWarpBase(k)),
			ReorderBuffer: p.newReorderBuffer(n+".ReorderBuffer", protocol.TileUnitWarpBase(k)),
			ROP:           p.newROP(n+".ROP", 0),
		}
		sm.TileUnits = append(sm.TileUnits, tu)
		p.Rasterizers = append(p.Rasterizers, tu.Rasterizer)
		p.DepthUnits = append(p.DepthUnits, tu.DepthUnit)
		p.ROPs = append(p.ROPs, tu.ROP)
	}
	p.connectSortMiddle()
}

// connectSortMiddle wires the tiled machine: the sort-last front end up to
// primitive assembly, the binner, the scheduler and each tile unit's buses.
func (p *Platform) connectSortMiddle() {
	c, f, bs := p.Config, p.CoreFreq, p.Config.Buses
	sm := p.SortMiddle
	cp, ia, pa, bn, ts := p.CommandProcessor, p.InputAssembler, p.PrimitiveAssembly, sm.Binner, sm.Scheduler

	p.connectHost()

	// The binner is the command processor's back end: it reports draws
	// binned, takes clears and presents, and ends passes.
	cmd := append([]sim.Port{cp.ToInputAssembler, ia.FromCommandProcessor, cp.ToBackEnd, bn.Control}, p.textureControls()...)
	p.bus("GPU.CommandBus", bs.Command, f, cmd...)
	cp.InputAssembler = ia.FromCommandProcessor
	cp.ROPs, cp.DepthUnits, cp.Binner = []sim.Port{bn.Control}, []sim.Port{bn.Control}, bn.Control
	bn.CommandProcessor = cp.ToBackEnd

	p.bus("GPU.BatchBus", bs.Command, f, ia.PrimitiveAssembly, pa.InputAssembler)
	ia.PrimitiveAssemblyPort = pa.InputAssembler
	pa.InputAssemblerPort = ia.PrimitiveAssembly

	dispatch := []sim.Port{ia.ToShaderCores}
	shaded := []sim.Port{pa.FromShaderCores}
	for _, tu := range sm.TileUnits {
		dispatch = append(dispatch, tu.ReorderBuffer.ToShaderCores)
		shaded = append(shaded, tu.ReorderBuffer.FromShaderCores)
	}
	for _, sc := range p.ShaderCores {
		dispatch = append(dispatch, sc.FromDispatch)
		shaded = append(shaded, sc.ToPrimitiveAssembly, sc.ToReorderBuffer)
		ia.ShaderCores = append(ia.ShaderCores, sc.FromDispatch)
		for _, tu := range sm.TileUnits {
			tu.ReorderBuffer.ShaderCores = append(tu.ReorderBuffer.ShaderCores, sc.FromDispatch)
		}
		sc.PrimitiveAssemblyPort = pa.FromShaderCores
		sc.ReorderBufferPort = sm.TileUnits[0].ReorderBuffer.FromShaderCores // every warp names its ReturnTo
		pa.ShaderCores = append(pa.ShaderCores, sc.ToPrimitiveAssembly)      // GS warps
	}
	p.textureBuses("GPU", p.ShaderCores, p.Samplers, p.L2)
	p.crossbar("GPU.DispatchXbar", bs.Dispatch, f, dispatch...)
	p.crossbar("GPU.ShadedXbar", bs.Shaded, f, shaded...)

	p.bus("GPU.PrimitiveBus", bs.Primitive, f, pa.ToRasterizers, bn.FromPrimitiveAssembly)
	pa.Rasterizers = []sim.Port{bn.FromPrimitiveAssembly}
	p.bus("GPU.PassBus", bs.Command, f, bn.ToScheduler, ts.FromBinner)
	bn.Scheduler, ts.Binner = ts.FromBinner, bn.ToScheduler
	jobs := []sim.Port{ts.ToTileUnits}
	memPorts := append([]sim.Port{}, p.Memory.Tops...)
	memPorts = append(memPorts, p.hostMemoryPorts()...)
	memPorts = append(memPorts, ia.ToMemory, bn.ToMemory)
	ia.Memory, bn.Memory = p.Memory.Finder, p.Memory.Finder
	for k, tu := range sm.TileUnits {
		n := fmt.Sprintf("GPU.TileUnit[%d]", k)
		u, r, du, qp, rb, ro := tu.Unit, tu.Rasterizer, tu.DepthUnit, tu.QuadPacker, tu.ReorderBuffer, tu.ROP
		jobs = append(jobs, u.FromScheduler)
		ts.TileUnits = append(ts.TileUnits, u.FromScheduler)
		u.Scheduler = ts.ToTileUnits
		p.bus(n+".PrimitiveBus", bs.Primitive, f, u.ToRasterizer, r.FromPrimitiveAssembly)
		u.Rasterizer = r.FromPrimitiveAssembly
		p.bus(n+".TileBus", bs.Tile, f, r.ToDepthUnits, du.FromRasterizers)
		r.DepthUnits = []sim.Port{du.FromRasterizers}
		p.bus(n+".QuadBus", bs.Quad, f, du.ToQuadPacker, qp.FromDepthUnits)
		du.QuadPacker = qp.FromDepthUnits
		p.bus(n+".WarpBus", bs.Warp, f, qp.ToReorderBuffer, rb.FromQuadPacker)
		qp.ReorderBufferPort = rb.FromQuadPacker
		p.bus(n+".ROPBus", bs.ROP, f, rb.ToROPs, ro.FromReorderBuffer)
		rb.ROPs = []sim.Port{ro.FromReorderBuffer}
		p.bus(n+".LateZBus", bs.LateZ, f, ro.DepthUnit, du.ROP)
		ro.DepthUnitPort, du.ROPPort = du.ROP, ro.DepthUnit
		p.bus(n+".ControlBus", bs.Command, f, u.Control, ro.Control, du.Control, rb.Control)
		u.ROP, u.DepthUnit, u.ReorderBuffer = ro.Control, du.Control, rb.Control
		ro.CommandProcessor, du.CommandProcessor, rb.CommandProcessor = u.Control, u.Control, u.Control
		p.bus(n+".TileMemoryBus", bs.Memory, f, u.TileMemory, ro.ToMemory, du.ToMemory)
		ro.Memory, du.Memory = &single{u.TileMemory}, &single{u.TileMemory}
		memPorts = append(memPorts, u.ToMemory)
		u.Memory = p.Memory.Finder
	}
	p.bus("GPU.TileJobBus", bs.Command, f, jobs...)

	p.l2Crossbar("GPU.L2Xbar", bs.L2, f, p.L2, p.Samplers)
	p.TextureTraffic = WatchTextureTraffic(p.L2)
	memPorts = append(memPorts, p.L2.Bottoms...)
	// The stream-out unit (in primitive assembly) writes last: a port that
	// never sends leaves the other sources' arbitration as it was.
	memPorts = append(memPorts, pa.ToMemory)
	pa.Memory = p.Memory.Finder
	p.crossbar("GPU.MemoryXbar", bs.Memory, f, memPorts...)

	p.Units = []protocol.Unit{cp, p.HostInterface, ia, pa, bn, ts}
	for _, tu := range sm.TileUnits {
		p.Units = append(p.Units, tu.Unit, tu.Rasterizer, tu.DepthUnit, tu.QuadPacker, tu.ReorderBuffer, tu.ROP)
	}
	per := c.TextureSampler.CoresPerSampler
	for i := range p.ShaderCores {
		p.Units = append(p.Units, p.ShaderCores[i])
		if (i+1)%per == 0 {
			p.Units = append(p.Units, p.Samplers[i/per])
		}
	}
}

// TileGrid returns the screen tiles of a frame of colour target col and depth
// target dep on c (machine: sortmiddle): sortmiddle.tile_width x tile_height,
// or the largest power-of-two tile whose samples fit sortmiddle.tile_memory_kb.
// The error names the field.
func (c *Config) TileGrid(col, dep command.Target) (binning.Grid, error) {
	s := c.SortMiddle
	samples := int(max(1, col.Samples))
	bps := 0
	if f := framebuffer.ColorFormat(col.Format); f.Valid() {
		bps += f.BytesPerSample()
	}
	if df := depth.Format(dep.Format); dep.Addr != 0 && df.Valid() {
		bps += 4
		if df != depth.D24S8 {
			bps++ // the separate stencil plane
		}
	}
	bps = max(1, bps)
	budget := s.TileMemoryKB * 1024 / s.TileBuffers // one tile buffer
	buffers := ""
	if s.TileBuffers > 1 {
		buffers = fmt.Sprintf(" in %d tile buffers (sortmiddle.tile_buffers)", s.TileBuffers)
	}
	g := binning.Grid{Width: int(col.Width), Height: int(col.Height), TileW: s.TileWidth, TileH: s.TileHeight}
	file := DefaultNameOr(c.file)
	if s.TileWidth == 0 {
		w, h, err := binning.TileSize(samples, bps, budget)
		if err != nil {
			return g, &Error{File: file, Line: c.lines["sortmiddle.tile_memory_kb"], Field: "sortmiddle.tile_memory_kb",
				Msg: fmt.Sprintf("%d KB%s at %d samples per pixel: %v", s.TileMemoryKB, buffers, samples, err)}
		}
		g.TileW, g.TileH = w, h
		return g, nil
	}
	if need := s.TileWidth * s.TileHeight * samples * bps; need > budget {
		return g, &Error{File: file, Line: c.lines["sortmiddle.tile_width"], Field: "sortmiddle.tile_width",
			Msg: fmt.Sprintf("%dx%d tiles at %d samples of %d bytes need %d bytes, more than sortmiddle.tile_memory_kb (%d KB)%s",
				s.TileWidth, s.TileHeight, samples, bps, need, s.TileMemoryKB, buffers)}
	}
	return g, nil
}

// startSortMiddle prepares the tiled machine for frame f: its tile grid
// (checked against the tile memory before anything runs) and the bins'
// memory region above the frame's image.
func (p *Platform) startSortMiddle(f *driver.Frame) error {
	g, err := p.Config.TileGrid(f.Color, f.Depth)
	if err != nil {
		return err
	}
	sm := p.SortMiddle
	sm.Grid = g
	end := uint64(command.BaseAddress) + uint64(len(f.Memory.Bytes()))
	region := (end + 1<<20 - 1) &^ (1<<20 - 1)
	sm.Binner.SetFrame(g, region)
	for _, tu := range sm.TileUnits {
		tu.Unit.Image = f.Memory
	}
	return nil
}
