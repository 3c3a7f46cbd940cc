package configs

// Config describes a whole machine. Every field has a yaml name, a description and
// (where it makes sense) a unit and a valid range; configs/README.md lists them.
// A YAML file is decoded on top of the default machine (sortlast.yaml), so it only
// needs the fields it changes.
type Config struct {
	Name           string `yaml:"name" desc:"machine name"`
	Machine        string `yaml:"machine" desc:"the architecture: sortlast (the default GPU), sage (the SAGE board: sage section, on top of the embedded sage.yaml) or sortmiddle (the tiled machine: sortmiddle section, on top of the embedded sortmiddle.yaml)" oneof:"sortlast,sage,sortmiddle"`
	Engine         string `yaml:"engine" desc:"engine: serial (gfxsim's timing.SerialEngine, Akita's serial order; the default) or parallel (gfxsim's timing.ParallelEngine: the events of one time on engine_workers goroutines at once; the same image, statistics and event count; on 2 idle cores the default frame in 10.6-13.2 s against the serial engine's 13.7-14.9 s, 1.29x faster (the median of five alternating pairs of runs); Akita's parallel engine took 48.5 s; the tiled machine's default frame 16.5 s against 19.4 s; the SAGE machine's gains nothing, 20.6-28.1 s against 21.5-24.2 s, since 80% of its rounds have fewer than 3 events; it needs idle cores: on a busy machine it is slower than the serial engine)" oneof:"serial,parallel"`
	EngineWorkers  int    `yaml:"engine_workers" desc:"engine parallel: goroutines that run the events of one time (0: timing.ParallelEngine's default, the cores Go may use, GOMAXPROCS, but at most 4: a shared round of the default frame holds 8.9 events on average, 38 at most; more than 2 workers were not measured); each spins while it waits for a round" min:"0" max:"256"`
	WatchdogCycles int    `yaml:"watchdog_cycles" desc:"end the run with an error when nothing progressed for this many core cycles (no unit finished a piece of work, no modelled wait of a unit and no transfer on a link was under way)" unit:"cycles" min:"1000" max:"2147483647"`

	Clocks           Clocks           `yaml:"clocks" desc:"clock domains"`
	CommandProcessor CommandProcessor `yaml:"command_processor" desc:"command processor"`
	InputAssembler   InputAssembler   `yaml:"input_assembler" desc:"input assembler"`
	Primitive        Primitive        `yaml:"primitive_assembly" desc:"primitive assembly and setup"`
	Raster           Raster           `yaml:"raster" desc:"rasterizers"`
	DepthUnit        DepthUnit        `yaml:"depth_unit" desc:"depth units (one per ROP partition)"`
	HiZ              HiZ              `yaml:"hiz" desc:"hierarchical Z units (one per ROP partition, between the rasterizers and the depth unit)"`
	QuadPacker       QuadPacker       `yaml:"quad_packer" desc:"quad packer"`
	ReorderBuffer    ReorderBuffer    `yaml:"reorder_buffer" desc:"reorder buffer between shader cores and ROPs"`
	ShaderCore       ShaderCore       `yaml:"shader_core" desc:"unified shader cores"`
	TextureSampler   TextureSampler   `yaml:"texture_sampler" desc:"texture samplers (one per shader core)"`
	L2               L2               `yaml:"l2" desc:"shared texture L2 (one bank per memory channel)"`
	ROP              ROP              `yaml:"rop" desc:"ROPs: screen partitions with their depth units"`
	Memory           Memory           `yaml:"memory" desc:"memory controllers and DRAM"`
	Buses            Buses            `yaml:"buses" desc:"on-chip buses and crossbars"`
	Multipass        Multipass        `yaml:"multipass" desc:"per-pass fragment-program limits: shaders that exceed them are rendered in several passes"`
	Decoupled        Decoupled        `yaml:"decoupled" desc:"decoupled sampling (Ragan-Kelley et al. 2011): stochastic rasterization of the decoupled draws' blurred triangles"`
	Sage             Sage             `yaml:"sage" desc:"the SAGE machine (machine: sage; Deering and Naegle 2002)"`
	SortMiddle       SortMiddle       `yaml:"sortmiddle" desc:"the tiled sort-middle machine (machine: sortmiddle; Ragan-Kelley et al. 2011, section 4.4)"`

	file  string         // where the configuration came from (for errors)
	lines map[string]int // the line each field was set at
}

// Clocks are the clock domains.
type Clocks struct {
	CoreMHz    float64 `yaml:"core_mhz" desc:"clock of every pipeline unit, the caches and the buses" unit:"MHz" min:"1" max:"10000"`
	HostBusMHz float64 `yaml:"host_bus_mhz" desc:"clock of the host bus the command processor fetches through" unit:"MHz" min:"1" max:"10000"`
	MemoryMHz  float64 `yaml:"memory_mhz" desc:"clock of the memory controllers of types dram and ideal (the DRAM command clock; GDDR5 moves 4 transfers per clock); a dramctl channel runs at its memory.timing.tck_ps" unit:"MHz" min:"1" max:"10000"`
}

// Cache is the geometry of a small cache.
type Cache struct {
	SizeKB    int `yaml:"size_kb" desc:"capacity" unit:"KB" min:"1" max:"16384"`
	Ways      int `yaml:"ways" desc:"associativity" min:"1" max:"64"`
	LineBytes int `yaml:"line_bytes" desc:"line size (at least 16 bytes, except the ROP colour and depth caches: 4)" unit:"bytes" min:"4" max:"4096" pow2:"true"`
}

// Link is a bus or a crossbar.
type Link struct {
	Width        int `yaml:"width" desc:"bytes transferred per cycle" unit:"bytes/cycle" min:"1" max:"65536"`
	Latency      int `yaml:"latency" desc:"cycles from the last byte sent to delivery" unit:"cycles" min:"0" max:"100000"`
	SourceBuffer int `yaml:"source_buffer" desc:"messages each sender can queue on the link" unit:"messages" min:"1" max:"4096"`
	InputBuffer  int `yaml:"input_buffer" desc:"crossbars only: messages a sender may have waiting at the crossbar's input in all its queues (one per destination, source_buffer each) together; 0: unbounded (configs/README.md, Work-dependent costs)" unit:"messages" min:"0" max:"65536"`
}

// CommandProcessor parameters.
type CommandProcessor struct {
	DMAChunkBytes     int `yaml:"dma_chunk_bytes" desc:"bytes of command stream fetched per DMA request" unit:"bytes" min:"16" max:"65536" pow2:"true"`
	MaxOutstandingDMA int `yaml:"max_outstanding_dma" desc:"DMA requests in flight" min:"1" max:"256"`
	DecodeCycles      int `yaml:"decode_cycles" desc:"cycles to decode one command" unit:"cycles" min:"1" max:"1000"`
	StateVersions     int `yaml:"state_versions" desc:"draws in flight with their own state version (1 flushes the pipeline between draws)" min:"1" max:"1024"`
}

// InputAssembler parameters.
type InputAssembler struct {
	BatchVertices        int   `yaml:"batch_vertices" desc:"unique vertices per vertex batch (at most the warp size)" min:"3" max:"64"`
	IndicesPerCycle      int   `yaml:"indices_per_cycle" desc:"index tag lookups per cycle" min:"1" max:"64"`
	VerticesPerCycle     int   `yaml:"vertices_per_cycle" desc:"vertices fetched per cycle" min:"1" max:"64"`
	IndexCache           Cache `yaml:"index_cache" desc:"index cache"`
	VertexCache          Cache `yaml:"vertex_cache" desc:"vertex cache"`
	MaxOutstandingMemory int   `yaml:"max_outstanding_memory" desc:"line reads in flight" min:"1" max:"256"`
}

// Primitive assembly and setup parameters.
type Primitive struct {
	BatchSlots        int `yaml:"batch_slots" desc:"shaded vertex batches held while restoring API order (the input assembler's credits)" min:"1" max:"1024"`
	TrianglesPerCycle int `yaml:"triangles_per_cycle" desc:"triangles assembled and set up per cycle" min:"1" max:"16"`
	ClipCycles        int `yaml:"clip_cycles" desc:"extra cycles for a triangle that must be clipped" unit:"cycles" min:"0" max:"10000"`
	SetupLatency      int `yaml:"setup_latency" desc:"setup pipeline latency" unit:"cycles" min:"0" max:"10000"`
	OutputQueue       int `yaml:"output_queue" desc:"primitives queued per rasterizer" min:"1" max:"4096"`
	Setup5DCycles     int `yaml:"setup_5d_cycles" desc:"extra cycles of a decoupled draw's triangle that takes the 5D path (stochastic rasterization setup and the decoupling map)" unit:"cycles" min:"0" max:"10000"`
	StreamOutQueue    int `yaml:"stream_out_queue" desc:"stream-out unit: byte ranges (a streamed primitive's vertices in one buffer, a counter) waiting to be written to memory; a primitive waits until its ranges fit" min:"1" max:"4096"`
	StreamOutWrites   int `yaml:"stream_out_writes" desc:"stream-out unit: 64-byte write requests in flight to memory at most" min:"1" max:"4096"`
}

// Raster parameters.
type Raster struct {
	Rasterizers   int    `yaml:"rasterizers" desc:"number of rasterizers (screen tiles interleaved among them)" min:"1" max:"64"`
	Stride        int    `yaml:"stride" desc:"tile interleave: tile (x, y) belongs to rasterizer (x + y*stride) mod rasterizers" min:"0" max:"64"`
	TileSize      int    `yaml:"tile_size" desc:"coarse raster tile edge" unit:"pixels" min:"2" max:"256" pow2:"true"`
	TileOrder     string `yaml:"tile_order" desc:"traversal order of tiles" oneof:"rowmajor,zorder"`
	QuadOrder     string `yaml:"quad_order" desc:"traversal order of quads in a tile" oneof:"rowmajor,zorder"`
	TilesPerCycle int    `yaml:"tiles_per_cycle" desc:"coarse tiles tested per cycle" min:"1" max:"64"`
	QuadsPerCycle int    `yaml:"quads_per_cycle" desc:"quads produced by fine rasterization per cycle" min:"1" max:"256"`
	InputQueue    int    `yaml:"input_queue" desc:"primitive FIFO depth" min:"1" max:"4096"`
	OutputQueue   int    `yaml:"output_queue" desc:"tile FIFO depth" min:"1" max:"4096"`
	// SampleTestsPerCycle is the 5D fine rate.
	SampleTestsPerCycle int `yaml:"sample_tests_per_cycle" desc:"sample tests per cycle of the stochastic (5D) fine rasterizer; a 32x32 tile costs max(1, ceil(tests/this)) cycles" min:"1" max:"65536"`
}

// DepthUnit parameters.
type DepthUnit struct {
	SamplesPerCycle      int   `yaml:"samples_per_cycle" desc:"depth/stencil tests per cycle" min:"1" max:"1024"`
	Cache                Cache `yaml:"cache" desc:"depth cache"`
	TestLatency          int   `yaml:"test_latency" desc:"cycles from a quad's lines being present to its result" unit:"cycles" min:"1" max:"1000"`
	MaxOutstandingMemory int   `yaml:"max_outstanding_memory" desc:"line reads in flight" min:"1" max:"256"`
	InputQueue           int   `yaml:"input_queue" desc:"tile FIFO depth" min:"1" max:"4096"`
	TileWindow           int   `yaml:"tile_window" desc:"tiles in flight between lookup and result (latency hiding)" min:"1" max:"4096"`
	WaitQuads            int   `yaml:"wait_quads" desc:"quads waiting for their depth lines" min:"1" max:"4096"`
	WriteQueue           int   `yaml:"write_queue" desc:"write-backs queued" min:"1" max:"4096"`
	Compression          bool  `yaml:"compression" desc:"Z compression: a depth line whose samples fit one plane (plane-predicted delta code) moves in fewer whole DRAM access units; applies when line_bytes is larger than the access unit"`
}

// HiZ parameters (functional/depth/hiz, components/hiz).
type HiZ struct {
	Mode                 string `yaml:"mode" desc:"coarse depth buffer: off, oracle (exact per-sample knowledge), forward (z-min and z-max, feed-forward), zmask (z-min, layered z-max and a per-sample selection mask)" oneof:"off,oracle,forward,zmask"`
	Packed               bool   `yaml:"packed" desc:"PACKED ZMASK (zmask, 2 layers, tiles of 64 samples or more): tiles stored in memory in one bit per sample, 15-bit values and a block-compressed selection mask; the sample count per pixel must be a power of two"`
	TileSamples          int    `yaml:"tile_samples" desc:"samples per HiZ tile: 0 or a power of two from 16 to 256 (0: 16 for oracle and forward, 32 for zmask, 128 packed; packed needs 64 or more); a tile is tile_samples / samples-per-pixel pixels rounded down to a power of two, at least one whole pixel (at 27 or 64 samples per pixel a 16- or 32-sample tile is one pixel); at 1 sample per pixel the tile must fit a raster tile" min:"0" max:"256"`
	Layers               int    `yaml:"layers" desc:"z-max layers of a zmask tile: 0, or 2 to 4 (0: 2; forward is the one-layer design)" min:"0" max:"4"`
	Placement            string `yaml:"placement" desc:"coarse test: coverage (per layer, with per-sample coverage) or interval (the primitive's depth interval against the tile's)" oneof:"coverage,interval"`
	Feedback             string `yaml:"feedback" desc:"z-max feedback: none, ideal (recomputed in the HiZ unit at once, no latency), update (from the depth unit after each tested tile), evict (from the depth unit when a depth line leaves its cache)" oneof:"none,ideal,update,evict"`
	FeedbackDelay        int    `yaml:"feedback_delay" desc:"feedback waits in a FIFO until this many more HiZ tiles were tested" unit:"tiles" min:"0" max:"1048576"`
	FeedbackMiss         string `yaml:"feedback_miss" desc:"feedback for a tile whose line is not in the HiZ cache: drop it or refetch the line" oneof:"drop,refetch"`
	Cache                Cache  `yaml:"cache" desc:"HiZ cache; line_bytes is the memory transfer (packed: 4 tiles of 28 bytes occupy 112 bytes of the cache)"`
	TestsPerCycle        int    `yaml:"tests_per_cycle" desc:"coarse tests (primitive x HiZ tile) per cycle" min:"1" max:"1024"`
	Latency              int    `yaml:"latency" desc:"cycles from a tile's test to its output" unit:"cycles" min:"1" max:"1000"`
	MaxOutstandingMemory int    `yaml:"max_outstanding_memory" desc:"HiZ line reads and writes in flight" min:"1" max:"256"`
	WriteQueue           int    `yaml:"write_queue" desc:"HiZ write-backs queued" min:"1" max:"4096"`
	InputQueue           int    `yaml:"input_queue" desc:"tile FIFO depth" min:"1" max:"4096"`
	Window               int    `yaml:"window" desc:"tiles in flight inside the unit (latency hiding of HiZ cache misses)" min:"1" max:"4096"`
	FeedbackQueue        int    `yaml:"feedback_queue" desc:"feedback entries held (more are dropped), and feedback messages a depth unit queues" min:"1" max:"1048576"`
	MaxTargets           int    `yaml:"max_targets" desc:"depth targets that get a HiZ buffer (later ones pass through)" min:"1" max:"64"`
}

// QuadPacker parameters.
type QuadPacker struct {
	QuadsPerWarp  int `yaml:"quads_per_warp" desc:"quads per pixel warp (4 lanes each; at most warp_size/4)" min:"1" max:"16"`
	FlushCycles   int `yaml:"flush_cycles" desc:"a partial warp is sent after this many cycles without new quads" unit:"cycles" min:"1" max:"100000"`
	QuadsPerCycle int `yaml:"quads_per_cycle" desc:"quads packed per cycle" min:"1" max:"64"`
	InputQueue    int `yaml:"input_queue" desc:"tile FIFO depth" min:"1" max:"4096"`
	// SamplesPerCycle is the decoupling stage's rate (decoupled sampling).
	SamplesPerCycle int `yaml:"samples_per_cycle" desc:"decoupling stage: live samples of 5D primitives' visibility quads mapped to their shading taps per cycle (decoupled sampling)" min:"1" max:"4096"`
}

// ReorderBuffer parameters.
type ReorderBuffer struct {
	Entries          int `yaml:"entries" desc:"quad entries (allocated in API order at dispatch, retired in order)" min:"1" max:"1048576"`
	DispatchPerCycle int `yaml:"dispatch_per_cycle" desc:"warps dispatched per cycle" min:"1" max:"64"`
	RetirePerCycle   int `yaml:"retire_per_cycle" desc:"quads retired per cycle" min:"1" max:"256"`
	// The shading cache of decoupled sampling (Ragan-Kelley et al. 2011, 4.2-4.3).
	ShadingCacheEntries int `yaml:"shading_cache_entries" desc:"shading-cache entries of decoupled sampling, one shading quad (4 samples) each; 1024 is the paper's 4k samples; at least 4, the taps one sample can need (bilinear reconstruction), so that no draw can deadlock the cache" min:"4" max:"1048576"`
	RefBits             int `yaml:"ref_bits" desc:"bits of a shading-cache entry's reference count (visibility records waiting to read it)" min:"1" max:"32"`
	LookupsPerCycle     int `yaml:"lookups_per_cycle" desc:"shading-cache tag look-ups per cycle" min:"1" max:"64"`
}

// Latencies of the shader core's instruction classes.
type Latencies struct {
	ALU        int `yaml:"alu" desc:"simple arithmetic" unit:"cycles" min:"1" max:"1000"`
	SFU        int `yaml:"sfu" desc:"transcendentals (RCP RSQ EX2 LG2 POW SIN COS)" unit:"cycles" min:"1" max:"1000"`
	Derivative int `yaml:"derivative" desc:"DDX DDY" unit:"cycles" min:"1" max:"1000"`
	Texture    int `yaml:"texture" desc:"issuing a texture request" unit:"cycles" min:"1" max:"1000"`
	Kill       int `yaml:"kill" desc:"KIL" unit:"cycles" min:"1" max:"1000"`
}

// ShaderCore parameters.
type ShaderCore struct {
	Count                int       `yaml:"count" desc:"number of unified shader cores" min:"1" max:"256"`
	WarpSize             int       `yaml:"warp_size" desc:"lanes per warp" min:"4" max:"64"`
	SIMDWidth            int       `yaml:"simd_width" desc:"lanes executed per cycle (a warp instruction takes warp_size/simd_width cycles)" min:"1" max:"64"`
	SFURate              int       `yaml:"sfu_rate" desc:"special-function lanes per cycle: rcp, rsq, ex2, lg2, pow, sin, cos take warp_size/sfu_rate issue cycles; 0: simd_width (configs/README.md, Work-dependent costs)" min:"0" max:"64"`
	WarpSlots            int       `yaml:"warp_slots" desc:"resident warps at most" min:"1" max:"256"`
	Registers            int       `yaml:"registers" desc:"vec4 registers per core; a warp needs temps x warp_size, a geometry shader warp (up to 64 primitives, one per lane) temps x warp_size x ceil(64 / warp_size); a scene with a program that does not fit is refused before the run" min:"64" max:"16777216"`
	Latency              Latencies `yaml:"latency" desc:"instruction latencies"`
	InterpolantsPerCycle int       `yaml:"interpolants_per_cycle" desc:"quad interpolants loaded per cycle when a pixel warp starts" min:"1" max:"256"`
	InputQueue           int       `yaml:"input_queue" desc:"work items waiting for a warp slot (also the size of the separate queue of geometry shader warps from primitive assembly)" min:"1" max:"4096"`
	GSOutputBufferKB     int       `yaml:"gs_output_buffer_kb" desc:"geometry shader output buffer per core: a GS warp of n invocations (a primitive per instance) holds n x .max_vertices x output registers x 16 bytes from admission until its output is sent to primitive assembly (it must hold a warp of 64 primitives of every geometry shader the scene uses: a scene that needs more is refused before the run)" unit:"KB" min:"1" max:"65536"`
	MaxGSWarps           int       `yaml:"max_gs_warps" desc:"geometry shader warps resident per core at most (they also hold warp slots and registers as any warp; more than warp_slots: warp_slots)" min:"1" max:"256"`
}

// TextureSampler parameters.
type TextureSampler struct {
	LanesPerCycle      int   `yaml:"lanes_per_cycle" desc:"lanes addressed and filtered per cycle" min:"1" max:"64"`
	L1                 Cache `yaml:"l1" desc:"texture L1 (per sampler), holding decoded texels (BC blocks decoded, sRGB texels widened to 8 bytes when a line is filled)"`
	L1Latency          int   `yaml:"l1_latency" desc:"L1 hit latency" unit:"cycles" min:"1" max:"1000"`
	MissQueue          int   `yaml:"miss_queue" desc:"outstanding L1 line misses and L2 reads" min:"1" max:"4096"`
	FilterLatency      int   `yaml:"filter_latency" desc:"filtering pipeline latency" unit:"cycles" min:"0" max:"1000"`
	InputQueue         int   `yaml:"input_queue" desc:"texture requests queued" min:"1" max:"4096"`
	CoresPerSampler    int   `yaml:"cores_per_sampler" desc:"shader cores sharing one sampler (1: one per core; more: one per cluster of cores); must divide shader_core.count" min:"1" max:"256"`
	TagLookupsPerCycle int   `yaml:"tag_lookups_per_cycle" desc:"distinct L1 lines looked up per cycle" min:"1" max:"64"`
	MaxRequests        int   `yaml:"max_requests" desc:"texture requests in flight inside a sampler, from address generation to the response (its latency hiding, with miss_queue)" min:"1" max:"4096"`

	// Work-dependent filter cost (configs/README.md, Work-dependent costs).
	FilterCost         string `yaml:"filter_cost" desc:"filter cost model: flat (a lane costs one lane of lanes_per_cycle) or by_texel_quads (a lane costs the 2x2 texel quads its filter reads: bilinear 1, trilinear 2, anisotropic per probe; times the format factors; at texel_quads_per_cycle)" oneof:"flat,by_texel_quads"`
	TexelQuadsPerCycle int    `yaml:"texel_quads_per_cycle" desc:"by_texel_quads: texel quads filtered per cycle" min:"1" max:"64"`
	WideFormatCost     int    `yaml:"wide_format_cost" desc:"by_texel_quads: cost factor of a texture wider than 32 bits per texel (RGBA16F, RGBA32F)" min:"1" max:"16"`
	SRGBCost           int    `yaml:"srgb_cost" desc:"by_texel_quads: cost factor of an sRGB texture" min:"1" max:"16"`
}

// L2 parameters.
type L2 struct {
	BankSizeKB       int `yaml:"bank_size_kb" desc:"capacity of each bank (one bank per memory channel)" unit:"KB" min:"1" max:"65536"`
	Ways             int `yaml:"ways" desc:"associativity" min:"1" max:"64"`
	LineBytes        int `yaml:"line_bytes" desc:"line size" unit:"bytes" min:"16" max:"4096" pow2:"true"`
	MSHRs            int `yaml:"mshrs" desc:"outstanding misses per bank" min:"1" max:"1024"`
	DirectoryLatency int `yaml:"directory_latency" desc:"tag lookup latency" unit:"cycles" min:"1" max:"1000"`
	BankLatency      int `yaml:"bank_latency" desc:"data array latency" unit:"cycles" min:"1" max:"1000"`
}

// ROP parameters.
type ROP struct {
	Count                int   `yaml:"count" desc:"ROP partitions (each with a depth unit; screen tiles interleaved among them)" min:"1" max:"64"`
	Stride               int   `yaml:"stride" desc:"tile interleave: partition tile (x, y) belongs to partition (x + y*stride) mod count" min:"0" max:"64"`
	TileSize             int   `yaml:"tile_size" desc:"edge of a partition tile (a multiple of raster.tile_size; 16 keeps every 64-byte RGBA8 display line in one partition)" unit:"pixels" min:"2" max:"256" pow2:"true"`
	QuadsPerCycle        int   `yaml:"quads_per_cycle" desc:"quads blended per cycle" min:"1" max:"64"`
	SamplesPerCycle      int   `yaml:"samples_per_cycle" desc:"samples of decoupled draws' visibility quads blended per cycle (0: one visibility quad costs one quad of quads_per_cycle)" min:"0" max:"65536"`
	Cache                Cache `yaml:"cache" desc:"colour cache (line_bytes any power of two from 4; one line is one compression block)"`
	Compression          bool  `yaml:"compression" desc:"MSAA colour compression: a colour line whose pixels each have all samples equal moves as line_bytes/samples bytes (applies when that is at least the DRAM access unit)"`
	BlendLatency         int   `yaml:"blend_latency" desc:"blend pipeline latency" unit:"cycles" min:"1" max:"1000"`
	MaxOutstandingMemory int   `yaml:"max_outstanding_memory" desc:"line reads in flight" min:"1" max:"256"`
	InputQueue           int   `yaml:"input_queue" desc:"shaded-quad FIFO depth" min:"1" max:"4096"`
	Window               int   `yaml:"window" desc:"messages of shaded quads in flight inside the ROP" min:"1" max:"4096"`
	WaitQuads            int   `yaml:"wait_quads" desc:"quads waiting for their colour lines (latency hiding)" min:"1" max:"4096"`
	WriteQueue           int   `yaml:"write_queue" desc:"write-backs queued" min:"1" max:"4096"`
	PrefetchDistance     int   `yaml:"prefetch_distance" desc:"framebuffer prefetch: the colour lines of the quad at the lookup cursor and of this many quads after it (arrival order, within the window) are read ahead of their lookup; 0: off" unit:"quads" min:"0" max:"4096"`
	PrefetchReserve      int   `yaml:"prefetch_reserve" desc:"memory-request slots of max_outstanding_memory that prefetches leave free for demand misses and write-backs (less than max_outstanding_memory when prefetching)" min:"1" max:"256"`

	// Work-dependent blend cost (configs/README.md, Work-dependent costs).
	Cost           string `yaml:"cost" desc:"blend cost model: flat (a quad costs one of quads_per_cycle) or by_samples (every quad costs its live samples times the format and blend factors, at samples_per_cycle, which must be set)" oneof:"flat,by_samples"`
	WideFormatCost int    `yaml:"wide_format_cost" desc:"by_samples: cost factor of a colour format of 64 bits or more per sample (RGBA32F)" min:"1" max:"16"`
	BlendCost      int    `yaml:"blend_cost" desc:"by_samples: cost factor of a draw that blends" min:"1" max:"16"`
}

// Memory parameters.
type Memory struct {
	Type             string `yaml:"type" desc:"dram (Akita's DRAM model per channel), ideal (fixed latency) or dramctl (gfxsim's DRAM controller per channel: preset and the fields below it)" oneof:"dram,ideal,dramctl"`
	Channels         int    `yaml:"channels" desc:"memory channels, each with its controller" min:"1" max:"64"`
	InterleaveBytes  int    `yaml:"interleave_bytes" desc:"addresses interleave across channels in blocks of this size (at least the DMA chunk and the input assembler, depth, HiZ and colour cache lines, whose requests go straight to a channel)" unit:"bytes" min:"64" max:"1048576" pow2:"true"`
	Protocol         string `yaml:"protocol" desc:"DRAM protocol" oneof:"DDR3,DDR4,GDDR5,GDDR5X,GDDR6,HBM,HBM2"`
	BusWidth         int    `yaml:"bus_width" desc:"DRAM data bus width per channel" unit:"bits" min:"8" max:"4096" pow2:"true"`
	BurstLength      int    `yaml:"burst_length" desc:"DRAM burst length: at least one clock of the protocol (2 transfers, GDDR5 4, GDDR5X 8, GDDR6 16)" min:"2" max:"64" pow2:"true"`
	Ranks            int    `yaml:"ranks" desc:"DRAM ranks per channel" min:"1" max:"16"`
	BankGroups       int    `yaml:"bank_groups" desc:"DRAM bank groups per rank" min:"1" max:"16"`
	Banks            int    `yaml:"banks" desc:"DRAM banks per bank group" min:"1" max:"64" pow2:"true"`
	CommandQueue     int    `yaml:"command_queue" desc:"DRAM commands queued per rank in each controller" min:"1" max:"1024"`
	TransactionQueue int    `yaml:"transaction_queue" desc:"access units a DRAM controller buffers before turning them into commands (at least one interleave granule)" min:"1" max:"4096"`
	IdealLatency     int    `yaml:"ideal_latency" desc:"latency of the ideal memory" unit:"cycles" min:"1" max:"100000"`
	IdealWidth       int    `yaml:"ideal_width" desc:"requests per cycle the ideal memory accepts" min:"1" max:"1024"`
	IdealAccessBytes int    `yaml:"ideal_access_bytes" desc:"the ideal memory's access unit: the smallest block depth and colour compression move (a GDDR6 channel's burst is 32 bytes; set it to compare with a DRAM of that burst on equal traffic)" unit:"bytes" min:"4" max:"4096" pow2:"true"`
	// IdealBytesPerCycle and IdealMaxOutstanding limit the ideal memory (0: unlimited).
	IdealBytesPerCycle  int `yaml:"ideal_bytes_per_cycle" desc:"bandwidth limit of each ideal memory channel: a request is taken only in the cycle its bytes start moving after those taken before it (0: unlimited)" unit:"bytes/cycle" min:"0" max:"1048576"`
	IdealMaxOutstanding int `yaml:"ideal_max_outstanding" desc:"requests each ideal memory channel holds between taking and answering them (0: unlimited)" min:"0" max:"65536"`

	// Type dramctl (components/memory/dramctl).
	Preset         string       `yaml:"preset" desc:"dramctl: the DRAM part whose geometry and timing fill the zero fields of geometry and timing (configs/README.md, DRAM presets)" oneof:"GDDR5,GDDR6,HBM2,LPDDR4"`
	Mapping        string       `yaml:"mapping" desc:"dramctl: address fields from the highest bits to the lowest, comma-separated: row, rank, bankgroup, bank, column, each once (rank, bankgroup or bank may be left out when it has one value)"`
	XORBankHash    bool         `yaml:"xor_bank_hash" desc:"dramctl: XOR the bank index (bank group and bank) with the row's low bits"`
	PagePolicy     string       `yaml:"page_policy" desc:"dramctl: open (a row stays open until another is needed), closed (a row closes when no queued request hits it) or timeout (a row closes page_timeout cycles after its last access)" oneof:"open,closed,timeout"`
	PageTimeout    int          `yaml:"page_timeout" desc:"dramctl: idle cycles before the timeout policy closes a row" unit:"cycles" min:"0" max:"1000000"`
	Scheduler      string       `yaml:"scheduler" desc:"dramctl: frfcfs (row hits first, then the oldest) or fcfs (each bank in arrival order, the oldest ready command among the banks)" oneof:"frfcfs,fcfs"`
	StarvationCap  int          `yaml:"starvation_cap" desc:"dramctl: a request waiting this long is served before any younger one of its bank, and its commands go first" unit:"cycles" min:"1" max:"1000000"`
	ReadQueue      int          `yaml:"read_queue" desc:"dramctl: read queue entries (one per burst of a request; at least one interleave_bytes request)" unit:"bursts" min:"1" max:"65536"`
	WriteQueue     int          `yaml:"write_queue" desc:"dramctl: write queue entries (one per burst; at least one interleave_bytes request)" unit:"bursts" min:"1" max:"65536"`
	WriteHigh      int          `yaml:"write_high" desc:"dramctl: write-drain high watermark: writes are served once this many are queued (or no read is)" unit:"bursts" min:"1" max:"65536"`
	WriteLow       int          `yaml:"write_low" desc:"dramctl: write-drain low watermark: reads are served again once this few writes remain (0: once none does)" unit:"bursts" min:"0" max:"65536"`
	Refresh        bool         `yaml:"refresh" desc:"dramctl: all-bank refresh of every rank each tREFI for tRFC"`
	Check          bool         `yaml:"check" desc:"dramctl: replay every command through the protocol checker; a timing or state violation ends the run with an error naming it"`
	CoherenceCheck bool         `yaml:"coherence_check" desc:"keep a version per memory line and check every texture read (L2 fills, L2 reads, L1 hits) against the versions published at the last sync token; a stale read ends the run with an error naming the line, the reader and the versions (components/coherence)"`
	Geometry       DRAMGeometry `yaml:"geometry" desc:"dramctl: one channel's organisation; 0 takes the preset's value"`
	Timing         DRAMTiming   `yaml:"timing" desc:"dramctl: timing in command-clock cycles (tck_ps in picoseconds); 0 takes the preset's value"`
}

// DRAMGeometry is one dramctl channel's organisation (0: the preset's).
type DRAMGeometry struct {
	BusWidth    int `yaml:"bus_width" desc:"data bus width" unit:"bits" min:"0" max:"4096"`
	BurstLength int `yaml:"burst_length" desc:"transfers per burst (column access)" min:"0" max:"1024"`
	DataRate    int `yaml:"data_rate" desc:"transfers per command clock on each data pin (DDR 2, GDDR5 4, GDDR6 8)" min:"0" max:"64"`
	Ranks       int `yaml:"ranks" desc:"ranks per channel" min:"0" max:"64"`
	BankGroups  int `yaml:"bank_groups" desc:"bank groups per rank" min:"0" max:"64"`
	Banks       int `yaml:"banks" desc:"banks per bank group" min:"0" max:"1024"`
	Rows        int `yaml:"rows" desc:"rows per bank" min:"0" max:"1073741824"`
	Columns     int `yaml:"columns" desc:"bursts per row (the page is columns x bus_width/8 x burst_length bytes)" min:"0" max:"1048576"`
}

// DRAMTiming is one dramctl channel's timing (0: the preset's).
type DRAMTiming struct {
	TCKps  int `yaml:"tck_ps" desc:"command clock period (the channel's clock; clocks.memory_mhz does not apply to dramctl)" unit:"ps" min:"0" max:"1000000"`
	TCL    int `yaml:"cl" desc:"read command to first data (CAS latency)" unit:"cycles" min:"0" max:"16777216"`
	TCWL   int `yaml:"cwl" desc:"write command to first data (CAS write latency)" unit:"cycles" min:"0" max:"16777216"`
	TRCD   int `yaml:"rcd" desc:"activate to read (tRCD, tRCDRD)" unit:"cycles" min:"0" max:"16777216"`
	TRCDWR int `yaml:"rcdwr" desc:"activate to write (tRCDWR; 0 with a preset without one: tRCD)" unit:"cycles" min:"0" max:"16777216"`
	TRP    int `yaml:"rp" desc:"precharge to activate (tRP)" unit:"cycles" min:"0" max:"16777216"`
	TRAS   int `yaml:"ras" desc:"activate to precharge (tRAS), at least tRCD" unit:"cycles" min:"0" max:"16777216"`
	TRC    int `yaml:"rc" desc:"activate to activate in one bank (tRC), at least tRAS + tRP" unit:"cycles" min:"0" max:"16777216"`
	TCCDS  int `yaml:"ccd_s" desc:"column command to column command, other bank group (tCCD_S), at least a burst" unit:"cycles" min:"0" max:"16777216"`
	TCCDL  int `yaml:"ccd_l" desc:"column command to column command, same bank group (tCCD_L), at least tCCD_S" unit:"cycles" min:"0" max:"16777216"`
	TRRDS  int `yaml:"rrd_s" desc:"activate to activate, other bank group (tRRD_S)" unit:"cycles" min:"0" max:"16777216"`
	TRRDL  int `yaml:"rrd_l" desc:"activate to activate, same bank group (tRRD_L), at least tRRD_S" unit:"cycles" min:"0" max:"16777216"`
	TFAW   int `yaml:"faw" desc:"window holding at most four activates of a rank (tFAW)" unit:"cycles" min:"0" max:"16777216"`
	TWTRS  int `yaml:"wtr_s" desc:"end of write data to read, other bank group (tWTR_S)" unit:"cycles" min:"0" max:"16777216"`
	TWTRL  int `yaml:"wtr_l" desc:"end of write data to read, same bank group (tWTR_L), at least tWTR_S" unit:"cycles" min:"0" max:"16777216"`
	TRTP   int `yaml:"rtp" desc:"read to precharge (tRTP)" unit:"cycles" min:"0" max:"16777216"`
	TWR    int `yaml:"wr" desc:"end of write data to precharge (write recovery, tWR)" unit:"cycles" min:"0" max:"16777216"`
	TREFI  int `yaml:"refi" desc:"interval of all-bank refreshes (tREFI), more than tRFC" unit:"cycles" min:"0" max:"16777216"`
	TRFC   int `yaml:"rfc" desc:"refresh to activate (tRFC)" unit:"cycles" min:"0" max:"16777216"`
	TRTW   int `yaml:"rtw" desc:"read to write bus turnaround: idle data-bus cycles between a read's data and a write's" unit:"cycles" min:"0" max:"16777216"`
	TRTRS  int `yaml:"rtrs" desc:"rank to rank: idle data-bus cycles when the next burst is another rank's" unit:"cycles" min:"0" max:"16777216"`
}

// Buses are the on-chip links.
type Buses struct {
	Host      Link `yaml:"host" desc:"host bus: command processor DMA (host clock)"`
	Command   Link `yaml:"command" desc:"command processor to input assembler, and back-end control"`
	Dispatch  Link `yaml:"dispatch" desc:"crossbar: input assembler and reorder buffer to the shader cores"`
	Shaded    Link `yaml:"shaded" desc:"crossbar: shader cores to primitive assembly and the reorder buffer"`
	Primitive Link `yaml:"primitive" desc:"primitive assembly to the rasterizers"`
	Tile      Link `yaml:"tile" desc:"crossbar: rasterizers to depth units"`
	Quad      Link `yaml:"quad" desc:"depth units to the quad packer"`
	Warp      Link `yaml:"warp" desc:"quad packer to reorder buffer"`
	ROP       Link `yaml:"rop" desc:"crossbar: reorder buffer to the ROPs"`
	LateZ     Link `yaml:"late_z" desc:"ROP to depth unit (per partition)"`
	Texture   Link `yaml:"texture" desc:"shader core to its texture sampler"`
	L2        Link `yaml:"l2" desc:"crossbar: texture samplers to the L2 banks"`
	Memory    Link `yaml:"memory" desc:"crossbar: memory clients and L2 banks to the memory controllers"`
}

// Decoupled sampling parameters.
type Decoupled struct {
	PatternSeed int `yaml:"pattern_seed" desc:"seed of the lens and time pattern of stochastic rasterization (the image depends on it; the reference renderer uses the same)" min:"1" max:"2147483647"`
}
