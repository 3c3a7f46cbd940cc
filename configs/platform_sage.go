package configs

import (
	"fmt"
	"image"
	"math"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/inputassembler"
	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/primitiveassembly"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rasterizer"
	"github.com/gfxsim/gfxsim/components/sage/convolve"
	"github.com/gfxsim/gfxsim/components/sage/distributor"
	"github.com/gfxsim/gfxsim/components/sage/interleave"
	"github.com/gfxsim/gfxsim/components/sage/route"
	"github.com/gfxsim/gfxsim/components/sage/samplefill"
	"github.com/gfxsim/gfxsim/components/sage/sched"
	"github.com/gfxsim/gfxsim/components/sage/video"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// SagePlatform holds the SAGE machine's own components (Platform.Sage; nil on
// the sort-last machine). The video path (route, convolve chips, video
// output) depends on the frame's resolution and is built by Run.
type SagePlatform struct {
	Pipes       []*SagePipe
	Distributor *distributor.Distributor
	Scheds      []*sched.Comp
	Interleaves []*interleave.Comp
	Route       *route.Comp
	Convolves   []*convolve.Comp
	// Videos are the video outputs, one per channel (sage.video.channels),
	// left to right: GPU.Video on one channel, GPU.Video[c] on two.
	Videos []*video.Comp

	pattern *samplepattern.Table
}

// SagePipe is one render pipe: the geometry chip's units (input assembler,
// shader cores, primitive assembly) and the rasterize chip's (rasterizer,
// texture samplers, sample fill).
type SagePipe struct {
	// TextureMemory and TextureL2 are the rasterize chip's own texture memory
	// (§3.3: 256 MB per chip), built from the memory and l2 sections; the
	// pipe's samplers read textures only there. Vertices and indices come
	// through the master's memory (Platform.Memory).
	TextureMemory  *memory.Memory
	TextureL2      *memory.L2
	TextureTraffic *texturesampler.TextureTraffic

	InputAssembler    *inputassembler.InputAssembler
	ShaderCores       []*shadercore.Comp
	Samplers          []*texturesampler.Comp
	PrimitiveAssembly *primitiveassembly.Comp
	Rasterizer        *rasterizer.Comp
	SampleFill        *samplefill.SampleFill
}

// buildSage builds the SAGE machine's components and connections, except the
// video path (buildVideo, at Run).
func (p *Platform) buildSage() error {
	c := p.Config
	s := &c.Sage
	sp := &SagePlatform{pattern: c.SagePattern()}
	p.Sage = sp
	sb := s.SampleBuffer
	p.CommandProcessor = p.newCommandProcessor(sb.Interleaves)
	p.HostInterface = p.newHostInterface()
	sp.Distributor = distributor.MakeBuilder().WithEnv(p.env()).WithConfig(c.distributorConfig()).Build("GPU.Distributor")
	sampler := 0
	for pi := 0; pi < s.Pipes; pi++ {
		n := fmt.Sprintf("GPU.Pipe[%d]", pi)
		pipe := &SagePipe{InputAssembler: p.newInputAssembler(n + ".InputAssembler"),
			PrimitiveAssembly: p.newPrimitiveAssembly(n + ".PrimitiveAssembly"),
			Rasterizer:        p.newRasterizer(n+".Rasterizer", 0, 1)}
		for k := 0; k < c.ShaderCore.Count; k++ {
			pipe.ShaderCores = append(pipe.ShaderCores, p.newShaderCore(fmt.Sprintf("%s.ShaderCore[%d]", n, k)))
		}
		m, l2, err := c.BuildMemorySystemNamed(p.Engine, n+".TextureMemory", n+".TextureL2")
		if err != nil {
			return err
		}
		m.SetHalt(p.Halt)
		m.SetProgress(p.Progress)
		pipe.TextureMemory, pipe.TextureL2 = m, l2
		for k := 0; k < c.Samplers(); k++ {
			pipe.Samplers = append(pipe.Samplers, c.BuildTextureSampler(p.Engine, p.Halt, p.Progress, sampler))
			sampler++
		}
		pipe.SampleFill = samplefill.MakeBuilder().WithEnv(p.env()).WithConfig(c.sampleFillConfig(pi)).Build(n + ".SampleFill")
		sp.Pipes = append(sp.Pipes, pipe)
	}
	for k := 0; k < 2; k++ {
		sp.Scheds = append(sp.Scheds, sched.MakeBuilder().WithEnv(p.sageEnv(s.Clocks.SchedMHz)).
			WithConfig(c.schedConfig(k)).Build(fmt.Sprintf("GPU.Sched[%d]", k)))
	}
	for i := 0; i < sb.Interleaves; i++ {
		sp.Interleaves = append(sp.Interleaves, interleave.MakeBuilder().WithEnv(p.sageEnv(s.Clocks.SampleBufferMHz)).
			WithConfig(c.interleaveConfig(i)).Build(fmt.Sprintf("GPU.Interleave[%d]", i)))
	}
	p.connectSage()
	return nil
}

// connectSage wires the pipes, the distributor, the scheds and the
// interleaves.
func (p *Platform) connectSage() {
	c, f, bs := p.Config, p.CoreFreq, p.Config.Buses
	sp, sbs := p.Sage, p.Config.Sage.Buses
	cp, d := p.CommandProcessor, sp.Distributor

	p.connectHost()

	cmd := []sim.Port{cp.ToInputAssembler, cp.ToBackEnd, d.FromCommandProcessor}
	for _, il := range sp.Interleaves {
		cmd = append(cmd, il.Control)
		il.CommandProcessor = cp.ToBackEnd
		cp.ROPs = append(cp.ROPs, il.Control)
	}
	p.sageCommandPorts = cmd
	cp.InputAssembler = d.FromCommandProcessor

	control := []sim.Port{d.ToPipes, d.ToSampleFills, d.FromSampleFills}
	memPorts := append([]sim.Port{}, p.Memory.Tops...)
	memPorts = append(memPorts, p.hostMemoryPorts()...)
	per := c.TextureSampler.CoresPerSampler
	for pi, pipe := range sp.Pipes {
		n := fmt.Sprintf("GPU.Pipe[%d]", pi)
		ia, pa, r, sf := pipe.InputAssembler, pipe.PrimitiveAssembly, pipe.Rasterizer, pipe.SampleFill
		control = append(control, ia.FromCommandProcessor, sf.FromDistributor, sf.ToDistributor)
		d.Pipes = append(d.Pipes, ia.FromCommandProcessor)
		d.SampleFills = append(d.SampleFills, sf.FromDistributor)
		sf.Distributor = d.FromSampleFills

		p.bus(n+".BatchBus", bs.Command, f, ia.PrimitiveAssembly, pa.InputAssembler)
		ia.PrimitiveAssemblyPort = pa.InputAssembler
		pa.InputAssemblerPort = ia.PrimitiveAssembly

		dispatch, shaded := shaderCoreLinks(pipe.ShaderCores, ia, pa, sf.ToShaderCore, sf.FromShaderCore)
		sf.ShaderCore = pipe.ShaderCores[0].FromDispatch
		p.textureBuses(n, pipe.ShaderCores, pipe.Samplers, pipe.TextureL2)
		p.l2Crossbar(n+".TextureL2Xbar", bs.L2, f, pipe.TextureL2, pipe.Samplers)
		pipe.TextureTraffic = WatchTextureTrafficNamed(pipe.TextureL2, n+".TextureTraffic")
		tmem := append(append([]sim.Port{}, pipe.TextureMemory.Tops...), pipe.TextureL2.Bottoms...)
		p.crossbar(n+".TextureMemoryXbar", bs.Memory, f, tmem...)
		p.crossbar(n+".DispatchXbar", bs.Dispatch, f, dispatch...)
		p.crossbar(n+".ShadedXbar", bs.Shaded, f, shaded...)

		p.bus(n+".PrimitiveBus", bs.Primitive, f, pa.ToRasterizers, r.FromPrimitiveAssembly)
		pa.Rasterizers = append(pa.Rasterizers, r.FromPrimitiveAssembly)
		p.bus(n+".TileBus", bs.Tile, f, r.ToDepthUnits, sf.FromRasterizer)
		r.DepthUnits = append(r.DepthUnits, sf.FromRasterizer)

		// The rasterize chip's two output buses, one to each sched.
		for k, s := range sp.Scheds {
			p.bus(fmt.Sprintf("%s.SampleBus[%d]", n, k), sbs.Sample, mhz(c.Sage.Clocks.SchedMHz), sf.ToScheds[k], s.FromPipes[pi])
			sf.Scheds[k] = s.FromPipes[pi]
		}
		memPorts = append(memPorts, ia.ToMemory)
		ia.Memory = p.Memory.Finder
	}
	p.bus("GPU.ControlBus", sbs.Control, f, control...)
	for k, s := range sp.Scheds {
		ports := []sim.Port{s.ToInterleaves}
		for j := range s.Interleaves {
			il := sp.Interleaves[k*len(s.Interleaves)+j]
			ports = append(ports, il.FromSched)
			s.Interleaves[j] = il.FromSched
		}
		p.crossbar(fmt.Sprintf("GPU.WriteXbar[%d]", k), sbs.Write, mhz(c.Sage.Clocks.SampleBufferMHz), ports...)
	}
	// The pipes' stream-out units (in primitive assembly) write to the
	// master's memory, where the vertices come from; last: ports that never
	// send leave the other sources' arbitration as it was.
	for _, pipe := range sp.Pipes {
		memPorts = append(memPorts, pipe.PrimitiveAssembly.ToMemory)
		pipe.PrimitiveAssembly.Memory = p.Memory.Finder
	}
	p.crossbar("GPU.MemoryXbar", bs.Memory, f, memPorts...)

	p.Units = []protocol.Unit{cp, p.HostInterface, d}
	for _, pipe := range sp.Pipes {
		p.Units = append(p.Units, pipe.InputAssembler, pipe.PrimitiveAssembly, pipe.Rasterizer, pipe.SampleFill)
		for k, sc := range pipe.ShaderCores {
			p.Units = append(p.Units, sc)
			if (k+1)%per == 0 {
				p.Units = append(p.Units, pipe.Samplers[k/per])
			}
		}
	}
	for _, s := range sp.Scheds {
		p.Units = append(p.Units, s)
	}
	for _, il := range sp.Interleaves {
		p.Units = append(p.Units, il)
	}
}

// startSage prepares the SAGE machine for frame f: the sample buffer's raster
// (checked against its capacity before anything runs), the pipes' memory, and
// the video path for the frame's resolution.
func (p *Platform) startSage(f *driver.Frame) error {
	c, sp := p.Config, p.Sage
	w, h, n := int(f.Color.Width), int(f.Color.Height), int(f.Color.Samples)
	if err := c.CheckFrame(w, h, n); err != nil {
		return err
	}
	for _, il := range sp.Interleaves {
		if err := il.SetRaster(w, h, n); err != nil {
			return err
		}
	}
	for pi, pipe := range sp.Pipes {
		if err := pipe.SampleFill.SetRaster(w, h, n); err != nil {
			return err
		}
		pipe.InputAssembler.SetMemory(f.Memory)
		pipe.PrimitiveAssembly.SetMemory(f.Memory)
		for _, s := range pipe.Samplers {
			s.Image = f.Memory
		}
		// The driver's textures are loaded into every pipe's texture memory
		// (the memory image at the same addresses: a texture upload to each
		// rasterize chip).
		if err := pipe.TextureMemory.LoadImage(0x10000, f.Memory.Bytes()); err != nil {
			return fmt.Errorf("platform: loading pipe %d's texture memory: %w", pi, err)
		}
		pipe.TextureTraffic.SetTextures(TrafficTextures(f))
	}
	if err := p.buildVideo(w, h, n); err != nil {
		return err
	}
	sp.Route.Image = f.Memory
	return nil
}

// buildVideo builds the route chips, the convolve chips and the video outputs
// for a rendered raster of w x h at n samples per pixel, and wires them: one
// chain of the chips to GPU.Video, or, with sage.video.channels 2, two chains
// (convolve.SplitVertical: the left and right halves of the frame) to
// GPU.Video[0] and GPU.Video[1]. A chip that refuses the configuration for
// this frame ends the run with an error before anything is simulated, never a
// panic.
func (p *Platform) buildVideo(w, h, n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &Error{File: DefaultNameOr(p.Config.file), Field: "sage",
				Msg: fmt.Sprintf("the video path refused the configuration for a %dx%d frame at %d samples: %v", w, h, n, r)}
		}
	}()
	c, sp := p.Config, p.Sage
	s := &c.Sage
	ow, oh, _, err := c.VideoSize(w, h)
	if err != nil {
		return err
	}
	table, err := c.SageFilter()
	if err != nil {
		return err
	}
	conv := filter.NewConvolver(table)
	chips := s.Convolve.Chips
	sp.Route = route.MakeBuilder().WithEnv(p.sageEnv(s.Clocks.VideoReadMHz)).WithConfig(c.routeConfig()).Build("GPU.Route")
	mode, err := video.ParseMode(s.Video.Mode)
	if err != nil {
		return err
	}
	streams, err := convolve.SplitVertical(chips, s.Video.Channels, ow)
	if err != nil {
		return c.videoChannelsError(ow, oh, err)
	}
	sp.Videos = nil
	for ch, st := range streams {
		sp.Videos = append(sp.Videos, p.newVideo(ch, len(streams), st, oh, mode))
	}
	sp.Convolves = nil
	chain := make([]int, chips) // each chip's channel
	for ch, st := range streams {
		for k := st.First; k < st.First+st.Count; k++ {
			chain[k] = ch
			cfg := c.convolveConfig()
			cfg.Index, cfg.Stream, cfg.Convolver, cfg.Positions = k, st, conv, sp.pattern
			cfg.OutputWidth, cfg.OutputHeight, cfg.SourceWidth, cfg.SourceHeight, cfg.Samples = ow, oh, w, h, n
			sp.Convolves = append(sp.Convolves, convolve.MakeBuilder().WithEnv(p.sageEnv(s.Clocks.ConvolveMHz)).
				WithConfig(cfg).Build(fmt.Sprintf("GPU.Convolve[%d]", k)))
		}
	}
	cp, vf := p.CommandProcessor, mhz(s.Clocks.VideoReadMHz)
	cmd := append(p.sageCommandPorts, sp.Route.Control)
	for _, v := range sp.Videos {
		cmd = append(cmd, v.Control)
	}
	cp.Video = []sim.Port{sp.Route.Control}
	videoPorts := []sim.Port{sp.Route.FromConvolves, sp.Route.ToConvolves}
	for k, cv := range sp.Convolves {
		cmd = append(cmd, cv.Control)
		cp.Video = append(cp.Video, cv.Control)
		videoPorts = append(videoPorts, cv.ToRoute, cv.FromRoute)
		sp.Route.Convolves[k] = cv.FromRoute
		cv.Route = sp.Route.FromConvolves
		// The chain: to the next chip of the channel's subset, or from the
		// subset's last chip to the channel's video output.
		next := sp.Videos[chain[k]].FromConvolve
		if st := streams[chain[k]]; k+1 < st.First+st.Count {
			next = sp.Convolves[k+1].FromPrev
		}
		p.bus(fmt.Sprintf("GPU.VideoChain[%d]", k), s.Buses.Video, mhz(s.Clocks.ConvolveMHz), cv.ToNext, next)
		cv.Next = next
	}
	for _, v := range sp.Videos {
		cp.Video = append(cp.Video, v.Control)
	}
	p.bus("GPU.CommandBus", c.Buses.Command, p.CoreFreq, cmd...)
	p.crossbar("GPU.VideoXbar", s.Buses.Video, vf, videoPorts...)
	built := len(p.Units)
	p.Units = append(p.Units, sp.Route)
	for _, cv := range sp.Convolves {
		p.Units = append(p.Units, cv)
	}
	for _, v := range sp.Videos {
		p.Units = append(p.Units, v)
	}
	for _, f := range p.unitsBuilt {
		f(p.Units[built:])
	}
	return nil
}

// isVideo reports whether u is on the video path (its statistics close at the
// end of the scan-out, not of the frame's commands).
func (sp *SagePlatform) isVideo(u protocol.Unit) bool {
	if u == protocol.Unit(sp.Route) {
		return true
	}
	for _, cv := range sp.Convolves {
		if u == protocol.Unit(cv) {
			return true
		}
	}
	for _, v := range sp.Videos {
		if u == protocol.Unit(v) {
			return true
		}
	}
	return false
}

// newVideo builds the video output of channel ch of channels, showing output
// columns [st.X0, st.X1) of lines [0, oh): its totals are its own size's plus
// the blanking fractions, its pixel clock the totals at the refresh rate.
func (p *Platform) newVideo(ch, channels int, st convolve.Stream, oh int, mode video.Mode) *video.Comp {
	v := &p.Config.Sage.Video
	ow := st.X1 - st.X0
	hTotal := ow + int(math.Ceil(float64(ow)*v.HBlank))
	vTotal := oh + int(math.Ceil(float64(oh)*v.VBlank))
	cfg := video.DefaultConfig()
	cfg.Width, cfg.Height, cfg.HTotal, cfg.VTotal = ow, oh, hTotal, vTotal
	cfg.OriginX, cfg.Channel, cfg.Channels = st.X0, ch, channels
	cfg.Refresh, cfg.Mode, cfg.FIFOPixels = v.RefreshHz, mode, v.FIFOPixels
	return video.MakeBuilder().WithEnv(p.env()).WithConfig(cfg).Build(videoName(ch, channels))
}

// videoName is the name of channel ch's video output of channels.
func videoName(ch, channels int) string {
	if channels > 1 {
		return fmt.Sprintf("GPU.Video[%d]", ch)
	}
	return "GPU.Video"
}

// SageVideoUnits returns the names the SAGE machine's video path (route,
// convolve chips, video outputs) will have once Run builds it, so that a
// tracer can check a pattern before the run; none off SAGE.
func (c *Config) SageVideoUnits() []string {
	if c.Machine != "sage" {
		return nil
	}
	s := &c.Sage
	names := []string{"GPU.Route"}
	for k := range s.Convolve.Chips {
		names = append(names, fmt.Sprintf("GPU.Convolve[%d]", k))
	}
	for ch := range s.Video.Channels {
		names = append(names, videoName(ch, s.Video.Channels))
	}
	return names
}

// sageEnv is the platform's Env on one of SAGE's clock domains (in MHz).
func (p *Platform) sageEnv(clockMHz float64) timing.Env {
	e := p.env()
	e.Freq = mhz(clockMHz)
	return e
}

// videoFinished reports whether every channel scanned its whole raster out.
func (sp *SagePlatform) videoFinished() bool {
	for _, v := range sp.Videos {
		if !v.Finished() {
			return false
		}
	}
	return len(sp.Videos) > 0
}

// VideoShare returns the share of the video rasters' pixels the outputs
// have taken (0 to 1; 0 on a machine without video).
func (p *Platform) VideoShare() float64 {
	if p.Sage == nil {
		return 0
	}
	taken, raster := 0, 0
	for _, v := range p.Sage.Videos {
		t, r := v.Taken()
		taken, raster = taken+t, raster+r
	}
	if raster == 0 {
		return 0
	}
	return float64(taken) / float64(raster)
}

// videoFinishTime is when the last channel scanned its last pixel out.
func (sp *SagePlatform) videoFinishTime() sim.VTimeInSec {
	var t sim.VTimeInSec
	for _, v := range sp.Videos {
		t = max(t, v.FinishTime())
	}
	return t
}

// videoImage is the frame the channels show: their rasters put side by side
// (one channel: its raster).
func (sp *SagePlatform) videoImage() *image.RGBA {
	if len(sp.Videos) == 1 {
		return sp.Videos[0].Image()
	}
	w, h := 0, sp.Videos[0].Image().Rect.Dy()
	for _, v := range sp.Videos {
		w += v.Image().Rect.Dx()
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x := 0
	for _, v := range sp.Videos {
		r := v.Image()
		rw := r.Rect.Dx()
		for y := 0; y < h; y++ {
			copy(img.Pix[y*img.Stride+4*x:y*img.Stride+4*(x+rw)], r.Pix[y*r.Stride:])
		}
		x += rw
	}
	return img
}

// routeConfig returns the route network's configuration: the sample buffer's
// 3DRAMs (sage.sample_buffer: interleaves, chips, map), each delivering its
// share of sage.route.samples_per_cycle (at least one sample a clock), feeding
// the convolve chips.
func (c *Config) routeConfig() route.Config {
	s := &c.Sage
	r := route.DefaultConfig()
	r.Geometry = c.sageGeometry()
	r.SamplesPerChip = max(1, s.Route.ChipsPerRead/r.Geometry.Chips())
	r.Convolves = s.Convolve.Chips
	r.FIFOSamples, r.SpanPixels = s.Route.FIFOSamples, s.Route.SpanPixels
	return r
}

// RouteSamplesPerClock is the most samples the route chips read per
// video-read clock: every 3DRAM's share of sage.route.samples_per_cycle (at
// least one each, routeConfig), when a burst's samples are spread over all of
// them.
func (c *Config) RouteSamplesPerClock() int {
	r := c.routeConfig()
	return r.Geometry.Chips() * r.SamplesPerChip
}

// convolveConfig returns the convolve chips' configuration (sage.convolve);
// each chip's index and stream, the frame's sizes, the filter and the pattern
// RAM are set when the video path is built for a frame.
func (c *Config) convolveConfig() convolve.Config {
	cv := &c.Sage.Convolve
	r := convolve.DefaultConfig()
	r.Chips, r.Lines, r.Processors, r.SamplesPerCycle = cv.Chips, cv.Lines, cv.Processors, cv.SamplesPerCycle
	r.RequestAhead, r.OutputLines, r.SpanPixels = cv.RequestAhead, cv.OutputLines, cv.SpanPixels
	return r
}

// schedConfig returns sched chip k's configuration (sage.sched): it serves
// half of the interleaves, Sched[0] the first half.
func (c *Config) schedConfig(k int) sched.Config {
	s, sc := &c.Sage, &c.Sage.Sched
	half := s.SampleBuffer.Interleaves / 2
	r := sched.DefaultConfig()
	r.Pipes, r.FirstInterleave, r.Interleaves = s.Pipes, k*half, half
	r.InputDepth, r.SecondStageDepth, r.Hysteresis = sc.InputFIFO, sc.StageFIFO, sc.Hysteresis
	r.PrewriteDepth, r.SnoopDistance = sc.PrewriteQueue, sc.SnoopDistance
	r.SamplesPerCycle, r.OutputBurst = sc.SamplesPerCycle, sc.OutputBurst
	return r
}

// interleaveConfig returns interleave i's configuration (sage.sample_buffer;
// the raster is set per frame, SetRaster).
func (c *Config) interleaveConfig(i int) interleave.Config {
	sb := &c.Sage.SampleBuffer
	r := interleave.DefaultConfig()
	r.Index, r.Pipes, r.Geometry = i, c.Sage.Pipes, c.sageGeometry()
	r.BlocksPerChip, r.SamplesPerBlock = sb.CacheBlocks, sb.BlockSamples
	r.BanksPerChip, r.BlocksPerPage = sb.Banks, sb.PageSamples/sb.BlockSamples
	r.WriteCycles, r.FillCycles, r.WriteBackCycles = sb.WriteCycles, sb.FillCycles, sb.WritebackCycles
	r.PageMissCycles, r.ClearSamplesPerCycle = sb.PageMissCycles, sb.ClearSamplesPerCycle
	return r
}

// distributorConfig returns the distributor's configuration
// (sage.distribution; a latency of 0 dispatches after one cycle).
func (c *Config) distributorConfig() distributor.Config {
	s := &c.Sage
	mode, _ := distributor.ParseMode(s.Distribution.Mode) // validated
	r := distributor.DefaultConfig()
	r.Pipes, r.ChunkTriangles, r.Mode = s.Pipes, s.Distribution.ChunkTriangles, mode
	r.DispatchLatency = max(1, s.Distribution.Latency)
	return r
}

// sampleFillConfig returns pipe pi's sample fill configuration (sage.fill;
// the raster is set per frame, SetRaster).
func (c *Config) sampleFillConfig(pi int) samplefill.Config {
	f := &c.Sage.Fill
	r := samplefill.DefaultConfig()
	r.Pipe, r.QuadsPerWarp, r.WarpsInFlight, r.SamplesPerCycle = pi, f.QuadsPerWarp, f.WarpsInFlight, f.SamplesPerCycle
	r.PacketBytes, r.BurstSamples, r.PixelRate = f.PacketBytes, f.BurstSamples, f.PixelRate
	r.Geometry, r.InterleavesPerSched = c.sageGeometry(), c.Sage.SampleBuffer.Interleaves/2
	return r
}
