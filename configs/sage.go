package configs

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gfxsim/gfxsim/components/sage/convolve"
	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// The SAGE machine (Deering & Naegle 2002; ../shared/docs/sage.md): selected by
// "machine: sage", described by the sage section, built from the embedded
// sage.yaml on top of the default machine. Every number of the shipped board is
// a field whose default is the board's value; where the paper is silent the
// default is a documented choice (configs/README.md).

// Sage is the SAGE machine's own section. The pipes reuse the sort-last
// sections for their units: input_assembler, shader_core (cores per pipe),
// primitive_assembly, raster (one rasterizer per pipe), texture_sampler.
type Sage struct {
	Pipes        int              `yaml:"pipes" desc:"render pipes, each a geometry chip (MAJC) and a rasterize chip; the board has 4 (paper §3.3)" min:"1" max:"4"`
	Clocks       SageClocks       `yaml:"clocks" desc:"SAGE clock domains (the pipes run at clocks.core_mhz)"`
	Distribution SageDistribution `yaml:"distribution" desc:"the master chip's distribution of draws over the pipes (§3.2)"`
	Fill         SageFill         `yaml:"fill" desc:"the rasterize chip's per-sample stage: per-sample shading and sample packets (§3.3)"`
	Pattern      SagePattern      `yaml:"pattern" desc:"the sample pattern RAM shared by the rasterize and convolve chips (§6.1)"`
	Sched        SageSched        `yaml:"sched" desc:"the two sched chips: FIFOs, load-balancing switches, pre-write queues (§3.4)"`
	SampleBuffer SageSampleBuffer `yaml:"sample_buffer" desc:"the 3DRAM sample buffer: interleaves of chips (§3.5)"`
	Route        SageRoute        `yaml:"route" desc:"the route chips between the 3DRAM video pins and the convolve chips (§3.6)"`
	Convolve     SageConvolve     `yaml:"convolve" desc:"the convolve chips: video-rate reconstruction filter (§3.7, §7)"`
	Video        SageVideo        `yaml:"video" desc:"video output timing (§7.1)"`
	Buses        SageBuses        `yaml:"buses" desc:"the SAGE machine's chip-to-chip links"`
}

// SageClocks are SAGE's own clock domains.
type SageClocks struct {
	SchedMHz        float64 `yaml:"sched_mhz" desc:"sched chips and the sample links into them (paper silent)" unit:"MHz" min:"1" max:"10000"`
	SampleBufferMHz float64 `yaml:"sample_buffer_mhz" desc:"3DRAM interleaves: one sample write per bus cycle (paper silent)" unit:"MHz" min:"1" max:"10000"`
	VideoReadMHz    float64 `yaml:"video_read_mhz" desc:"3DRAM video pins and route chips (paper silent)" unit:"MHz" min:"1" max:"10000"`
	ConvolveMHz     float64 `yaml:"convolve_mhz" desc:"convolve chips (the paper's only clock figure: 250 MHz peak video rate, §10.3)" unit:"MHz" min:"1" max:"10000"`
}

// SageDistribution is how draws are spread over the pipes.
type SageDistribution struct {
	Mode           string `yaml:"mode" desc:"document: order-independent draws (depth Less/Greater with writes, no blend, no stencil) in chunks over the pipes, other draws whole on one pipe with a barrier at each change; ordered: every draw treated as order-dependent; barrier_per_draw: a barrier before every draw" oneof:"document,ordered,barrier_per_draw"`
	ChunkTriangles int    `yaml:"chunk_triangles" desc:"triangles per chunk of an order-independent draw (paper silent)" min:"1" max:"1048576"`
	Latency        int    `yaml:"latency" desc:"cycles to dispatch a chunk" unit:"cycles" min:"0" max:"100000"`
}

// SageFill is the rasterize chip's per-sample stage.
type SageFill struct {
	QuadsPerWarp    int      `yaml:"quads_per_warp" desc:"sample quads (sample s of a quad's 4 pixels) per shading warp" min:"1" max:"16"`
	WarpsInFlight   int      `yaml:"warps_in_flight" desc:"warps sent to the shader core and not yet retired" min:"1" max:"1024"`
	SamplesPerCycle int      `yaml:"samples_per_cycle" desc:"sample packets out per cycle" min:"1" max:"1024"`
	PacketBytes     int      `yaml:"packet_bytes" desc:"bytes of one sample packet on the output buses: RGBA 4x12 bits, z, pixel x, y and sample index (paper: RGBAZ, x, y, sample; size silent)" unit:"bytes" min:"4" max:"64"`
	BurstSamples    int      `yaml:"burst_samples" desc:"sample packets per burst message (one draw, one interleave)" min:"1" max:"4096"`
	PixelRate       []string `yaml:"pixel_rate" desc:"semantics of the pixel shader inputs interpolated at the pixel centre, not at the sample (texturing per pixel, §3.3); each must name an input of some library pixel shader (texcoord, color, normal, ...)"`
}

// SagePattern is the pattern RAM.
type SagePattern struct {
	Seed int `yaml:"seed" desc:"seed of the generated sample pattern table (64 entries of 2x2 pixels x 16 samples, 6-bit offsets)" min:"1" max:"2147483647"`
}

// SageSched is one sched chip (there are two).
type SageSched struct {
	InputFIFO       int `yaml:"input_fifo" desc:"input FIFO per pipe" unit:"samples" min:"1" max:"1048576"`
	StageFIFO       int `yaml:"stage_fifo" desc:"second-stage FIFO per pipe and interleave" unit:"samples" min:"1" max:"1048576"`
	Hysteresis      int `yaml:"hysteresis" desc:"samples a source may still send through an interleave's switch while another source waits (1: switch after every sample)" unit:"samples" min:"1" max:"1048576"`
	PrewriteQueue   int `yaml:"prewrite_queue" desc:"pre-write queue in front of each interleave" unit:"samples" min:"1" max:"1048576"`
	SnoopDistance   int `yaml:"snoop_distance" desc:"how far ahead in the pre-write queue the sched prefetches into the 3DRAM cache (0: no prefetch)" unit:"samples" min:"0" max:"1048576"`
	SamplesPerCycle int `yaml:"samples_per_cycle" desc:"samples moved per cycle per interleave" min:"1" max:"64"`
	OutputBurst     int `yaml:"output_burst" desc:"samples of a pre-write queue sent to its interleave in one message" unit:"samples" min:"1" max:"4096"`
}

// SageSampleBuffer is the 3DRAM sample buffer.
type SageSampleBuffer struct {
	Interleaves          int    `yaml:"interleaves" desc:"independent interleaves (8 on the board), half on each sched" min:"2" max:"64"`
	ChipsPerInterleave   int    `yaml:"chips_per_interleave" desc:"3DRAM chips sharing an interleave's bus (4 on the board)" min:"1" max:"16"`
	CapacitySamples      int    `yaml:"capacity_samples" desc:"samples one buffer holds (double-buffered with z): 1280x1024 at 8 per pixel on the board (§3.5)" unit:"samples" min:"1" max:"1073741824"`
	CacheBlocks          int    `yaml:"cache_blocks" desc:"3DRAM cache blocks per chip" min:"1" max:"65536"`
	BlockSamples         int    `yaml:"block_samples" desc:"samples in a 3DRAM cache block" unit:"samples" min:"1" max:"65536" pow2:"true"`
	WriteCycles          int    `yaml:"write_cycles" desc:"cycles of a sample write that hits the cache (z compare and blend inside the chip)" unit:"cycles" min:"1" max:"1000"`
	FillCycles           int    `yaml:"fill_cycles" desc:"cycles to bring a block into the cache" unit:"cycles" min:"0" max:"100000"`
	WritebackCycles      int    `yaml:"writeback_cycles" desc:"cycles to write a dirty block back" unit:"cycles" min:"0" max:"100000"`
	PageMissCycles       int    `yaml:"page_miss_cycles" desc:"extra cycles when a fill opens another DRAM page" unit:"cycles" min:"0" max:"100000"`
	Banks                int    `yaml:"banks" desc:"DRAM banks per 3DRAM chip, each with one open page" min:"1" max:"64"`
	PageSamples          int    `yaml:"page_samples" desc:"samples in a 3DRAM page (a multiple of block_samples)" unit:"samples" min:"1" max:"1048576"`
	ClearSamplesPerCycle int    `yaml:"clear_samples_per_cycle" desc:"samples an interleave clears per cycle (fast clear)" min:"1" max:"1048576"`
	Map                  string `yaml:"map" desc:"which interleave and chip hold a sample: sample (default): the raster's samples in list order dealt to the 32 chips in turn, a pixel's samples over every interleave; pixel (§3.4-3.6: pixel interleaved): a pixel's samples in one interleave, (x mod interleaves/2) + interleaves/2 x (y mod 2) (a 4x2 tile on the board), sample s in its chip s mod chips_per_interleave; line: pixel with a tile of interleaves x 1 (x mod 8: every scan line touches every interleave)" oneof:"sample,pixel,line"`
}

// SageRoute is the route chips.
type SageRoute struct {
	FIFOSamples  int `yaml:"fifo_samples" desc:"FIFO per convolve chip absorbing the bursts (at least one pixel's samples)" unit:"samples" min:"1" max:"1048576"`
	SpanPixels   int `yaml:"span_pixels" desc:"pixels of a burst delivered to a convolve chip in one message" unit:"pixels" min:"1" max:"4096"`
	ChipsPerRead int `yaml:"samples_per_cycle" desc:"samples read per video-read cycle from the 32 3DRAMs' video pins (one per chip: 40 bits double-pumped on 20 pins)" min:"1" max:"1024"`
}

// SageConvolve is the convolve chips.
type SageConvolve struct {
	Chips           int       `yaml:"chips" desc:"convolve chips, each a vertical swath of the screen (4 on the board)" min:"1" max:"16"`
	Lines           int       `yaml:"lines" desc:"swath lines cached per chip (6 on the board)" min:"5" max:"64"`
	Processors      int       `yaml:"processors" desc:"filter processors (5x5 = 25 on the board), working in parallel: window pixel k of the 5x5 (row-major) is processor k mod processors's, and an output pixel costs the busiest processor's cycles (§7; one window pixel each at 25)" min:"1" max:"25"`
	SamplesPerCycle int       `yaml:"samples_per_cycle" desc:"samples each filter processor weighs per cycle (paper silent): at 25 processors an output pixel of n samples costs ceil(n / samples_per_cycle) cycles" min:"1" max:"64"`
	Filter          string    `yaml:"filter" desc:"reconstruction filter: mitchell (Mitchell-Netravali B = C = 1/3, radius 2), cylinder (diameter 4), laplacian (sharpening), gaussian, box (a disc of one pixel), or table (the 256 coefficients of table)" oneof:"mitchell,cylinder,laplacian,gaussian,box,table"`
	Radius          float64   `yaml:"radius" desc:"filter radius (0: the filter's own); the 5x5 window holds at most 2.5" unit:"pixels" min:"0" max:"1000"`
	Table           []float64 `yaml:"table" desc:"the 256 coefficients of filter: table, indexed by the 8-bit float squared distance"`
	Gamma           float64   `yaml:"gamma" desc:"output gamma after filtering (1: linear, comparable with the other machines)" min:"0.1" max:"10"`
	RequestAhead    int       `yaml:"request_ahead" desc:"swath lines a chip requests ahead of the window it filters" unit:"lines" min:"0" max:"64"`
	OutputLines     int       `yaml:"output_lines" desc:"finished swath lines a chip holds for the video chain" unit:"lines" min:"1" max:"64"`
	SpanPixels      int       `yaml:"span_pixels" desc:"pixels a chip filters and passes down the chain in one message" unit:"pixels" min:"1" max:"4096"`
}

// SageVideo is the video output.
type SageVideo struct {
	Width      int     `yaml:"width" desc:"output width (0: the rendered width); another size resizes the image by filtering (§7.2), by the same factor on both axes" unit:"pixels" min:"0" max:"16384"`
	Height     int     `yaml:"height" desc:"output height (0: the rendered height)" unit:"pixels" min:"0" max:"16384"`
	RefreshHz  float64 `yaml:"refresh_hz" desc:"frames per second (76 Hz in the paper's sizing, §10.3)" unit:"Hz" min:"1" max:"1000"`
	HBlank     float64 `yaml:"h_blank" desc:"horizontal blanking as a fraction of the active line (VESA 1280x1024: 408/1280; the line is at most 4 active lines long)" min:"0" max:"3"`
	VBlank     float64 `yaml:"v_blank" desc:"vertical blanking as a fraction of the active lines (VESA 1280x1024: 42/1024; the frame is at most 4 active frames long)" min:"0" max:"3"`
	Mode       string  `yaml:"mode" desc:"elastic: the pixel clock waits for late pixels (stall cycles counted); strict: a late pixel is an underrun (counted, the image is still exact)" oneof:"elastic,strict"`
	FIFOPixels int     `yaml:"fifo_pixels" desc:"video output FIFO in front of the pixel clock" unit:"pixels" min:"1" max:"1048576"`
	Channels   int     `yaml:"channels" desc:"video channels (§7.1): 2 partitions the convolve chips into two subsets (half each; at least one per channel), each chained to its own video output GPU.Video[c] (one channel: GPU.Video)" min:"1" max:"2"`
	Split      string  `yaml:"split" desc:"what the two channels show: vertical: the left and right halves of the frame (two tiled displays), each at the half's pixel clock at refresh_hz" oneof:"vertical"`
}

// SageBuses are the chip-to-chip links.
type SageBuses struct {
	Sample  Link `yaml:"sample" desc:"a rasterize chip's output bus to a sched chip (two per pipe)"`
	Write   Link `yaml:"write" desc:"a sched chip's interleave pin set to an interleave"`
	Video   Link `yaml:"video" desc:"route chips to a convolve chip, and the convolve chips' video chain"`
	Control Link `yaml:"control" desc:"master to pipes and sample fills (draws and plans)"`
}

// validateSage checks the rules that tie the SAGE fields together.
func (c *Config) validateSage(fail func(fields at, format string, a ...any) error) error {
	s := &c.Sage
	cv := &s.Convolve
	// The sort-last back end, which SAGE's pipes do not have: its sections
	// may only repeat the default machine's values (a resolved config.yaml
	// holds them), since a change would do nothing.
	def := defaultDecoded()
	first, name, units := 0, "", ""
	for _, sec := range []struct {
		name, units string
		unchanged   bool
	}{{"depth_unit", "depth units", reflect.DeepEqual(c.DepthUnit, def.DepthUnit)}, {"quad_packer", "quad packer", reflect.DeepEqual(c.QuadPacker, def.QuadPacker)},
		{"reorder_buffer", "reorder buffer", reflect.DeepEqual(c.ReorderBuffer, def.ReorderBuffer)}, {"rop", "ROPs", reflect.DeepEqual(c.ROP, def.ROP)}} {
		if l := c.lineOf(sec.name); !sec.unchanged && l > 0 && (first == 0 || l < first) {
			first, name, units = l, sec.name, sec.units
		}
	}
	if first > 0 { // the section the file sets first
		return fail(at{name}, "the SAGE machine has no %s: its pipes write samples to the 3DRAM interleaves (sage.sample_buffer), "+
			"so this section would change nothing: remove it", units)
	}
	switch {
	case c.Raster.Rasterizers != 1:
		return fail(at{"raster.rasterizers", "machine"}, "%d: a SAGE pipe has one rasterize chip (set sage.pipes for more pipes)", c.Raster.Rasterizers)
	case c.HiZ.Mode != "off":
		return fail(at{"hiz.mode", "machine"}, "%s: the SAGE machine keeps z in its 3DRAM sample buffer and has no HiZ units: set off", c.HiZ.Mode)
	case s.Sched.SnoopDistance > 0 && s.Sched.SnoopDistance >= s.Sched.PrewriteQueue:
		return fail(at{"sage.sched.snoop_distance", "sage.sched.prewrite_queue"}, "%d samples: the snoop looks inside the %d-sample pre-write queue (at most %d)",
			s.Sched.SnoopDistance, s.Sched.PrewriteQueue, s.Sched.PrewriteQueue-1)
	case s.SampleBuffer.PageSamples%s.SampleBuffer.BlockSamples != 0:
		return fail(at{"sage.sample_buffer.page_samples", "sage.sample_buffer.block_samples"}, "%d samples is not a whole number of %d-sample blocks",
			s.SampleBuffer.PageSamples, s.SampleBuffer.BlockSamples)
	case s.SampleBuffer.Interleaves%2 != 0:
		return fail(at{"sage.sample_buffer.interleaves"}, "%d: the two sched chips serve half of the interleaves each", s.SampleBuffer.Interleaves)
	case 4*s.Fill.QuadsPerWarp > c.ShaderCore.WarpSize:
		return fail(at{"sage.fill.quads_per_warp", "shader_core.warp_size"}, "%d sample quads need %d lanes, the warp has %d", s.Fill.QuadsPerWarp, 4*s.Fill.QuadsPerWarp, c.ShaderCore.WarpSize)
	case cv.Filter != "table" && len(cv.Table) > 0:
		return fail(at{"sage.convolve.table", "sage.convolve.filter"}, "%d coefficients given, but the filter is %s (set filter: table to use them)", len(cv.Table), cv.Filter)
	case cv.Filter == "table" && len(cv.Table) != filter.Entries:
		return fail(at{"sage.convolve.table"}, "%d coefficients: the coefficient table has exactly %d entries", len(cv.Table), filter.Entries)
	case cv.Radius != 0 && (cv.Radius < filter.MinRadius || cv.Radius > filter.MaxRadius):
		return fail(at{"sage.convolve.radius"}, "%v pixels: the 5x5 filter window holds radii from %v to %v", cv.Radius, filter.MinRadius, filter.MaxRadius)
	case s.Video.Channels > cv.Chips:
		return fail(at{"sage.video.channels", "sage.convolve.chips"}, "%d channels need at least %d convolve chips (one chain each, §7.1), the board has %d",
			s.Video.Channels, s.Video.Channels, cv.Chips)
	case cv.Filter == "table" && cv.Radius == 0:
		return fail(at{"sage.convolve.filter", "sage.convolve.table"}, "table needs sage.convolve.radius, the table's radius (the squared distance is scaled by 1/radius^2)")
	}
	if _, err := c.SageFilter(); err != nil {
		return fail(at{"sage.convolve.filter", "sage.convolve.table", "sage.convolve.radius", "sage.convolve.gamma"}, "%v", err)
	}
	for _, sem := range s.Fill.PixelRate {
		if have := pixelShaderSemantics(); !slices.ContainsFunc(have, func(in string) bool { return pipeline.SemanticMatches(in, sem) }) {
			return fail(at{"sage.fill.pixel_rate"}, "%s is the semantic of no pixel shader input of the shader library (have %s)", inputs.Quote(sem), strings.Join(have, ", "))
		}
	}
	return nil
}

// pixelShaderSemantics lists the semantics of the library's pixel shader
// inputs that are interpolated (system values aside), sorted; the library is
// assembled once.
var pixelShaderSemantics = sync.OnceValue(func() []string {
	var out []string
	for _, n := range library.Names() {
		m, err := library.Get(n)
		if err != nil {
			continue
		}
		for _, in := range m.PS.Inputs {
			if !in.IsSystemValue() && !slices.Contains(out, in.Semantic) {
				out = append(out, in.Semantic)
			}
		}
	}
	slices.Sort(out)
	return out
})

// SageFilter returns the convolve chips' coefficient table from the
// configuration (filter, radius, table).
func (c *Config) SageFilter() (*filter.Table, error) {
	cv := &c.Sage.Convolve
	p := filter.DefaultParams()
	p.Gamma = cv.Gamma
	if cv.Filter == "table" {
		return filter.TableFrom(cv.Table, cv.Radius, p)
	}
	k, err := filter.KernelByName(cv.Filter)
	if err != nil {
		return nil, err
	}
	if cv.Radius > 0 {
		k = filter.Scaled{Kernel: k, Factor: cv.Radius / k.Radius()}
	}
	return filter.NewTable(k, p)
}

// CheckFrame reports whether the machine can render a raster of width x height
// at samples per pixel, before anything is simulated: on the SAGE machine the
// pattern RAM holds 1 to 16 samples per pixel, each route chip's FIFO
// (sage.route.fifo_samples) one pixel's samples at least, and the sample
// buffer sage.sample_buffer.capacity_samples samples per buffer; the video
// output (sage.video) keeps the raster's aspect, reduces it at most
// filter.MaxStep times and gives each channel a column at least. The sort-last
// machine takes any frame the scene accepts.
func (c *Config) CheckFrame(width, height, samples int) error {
	if c.Machine != "sage" {
		return nil
	}
	file := DefaultNameOr(c.file)
	if samples < 1 || samples > samplepattern.MaxSamples {
		return &Error{File: file, Line: c.lines["machine"], Field: "machine",
			Msg: fmt.Sprintf("sage: a frame of %d samples per pixel: the SAGE pattern RAM holds 1 to %d (choose -samples or the scene's samples accordingly)",
				samples, samplepattern.MaxSamples)}
	}
	if f := c.Sage.Route.FIFOSamples; f < samples {
		return &Error{File: file, Line: c.lines["sage.route.fifo_samples"], Field: "sage.route.fifo_samples",
			Msg: fmt.Sprintf("%d samples: a frame of %d samples per pixel needs a FIFO of at least one pixel's samples", f, samples)}
	}
	sb := c.Sage.SampleBuffer
	geo := c.sageGeometry()
	geo.Width, geo.Height, geo.Samples = width, height, samples
	if err := geo.Validate(int64(sb.CapacitySamples)); err != nil {
		return &Error{File: file, Line: c.lines["sage.sample_buffer.capacity_samples"],
			Field: "sage.sample_buffer.capacity_samples", Msg: err.Error()}
	}
	ow, oh, _, err := c.VideoSize(width, height)
	if err != nil {
		return err
	}
	if _, err := convolve.SplitVertical(c.Sage.Convolve.Chips, c.Sage.Video.Channels, ow); err != nil {
		return c.videoChannelsError(ow, oh, err)
	}
	return nil
}

// videoChannelsError is the refusal of a video output too narrow for its
// channels.
func (c *Config) videoChannelsError(ow, oh int, err error) error {
	return &Error{File: DefaultNameOr(c.file), Line: c.lines["sage.video.channels"], Field: "sage.video.channels",
		Msg: fmt.Sprintf("a %dx%d video output: %v", ow, oh, err)}
}

// sageGeometry is the sample buffer's map before a frame sets its raster: a
// 1x1 raster at 1 sample over the configured interleaves and chips.
func (c *Config) sageGeometry() samplebuffer.Geometry {
	sb := &c.Sage.SampleBuffer
	m, _ := samplebuffer.ParseMap(sb.Map) // validated (oneof)
	return samplebuffer.Geometry{Width: 1, Height: 1, Samples: 1, Interleaves: sb.Interleaves,
		ChipsPerInterleave: sb.ChipsPerInterleave, Map: m}
}
