package inputassembler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/timing"
)

// CacheConfig is the geometry of a small set-associative cache (LRU).
type CacheConfig struct {
	SizeBytes int // total bytes
	Ways      int
	LineBytes int // a power of two
}

func (c CacheConfig) validate(name string) error {
	if c.SizeBytes > 1<<24 {
		return fmt.Errorf("inputassembler: %s.SizeBytes: %d exceeds 16 MiB", name, c.SizeBytes)
	}
	if c.LineBytes > 4096 {
		return fmt.Errorf("inputassembler: %s.LineBytes: %d exceeds 4096", name, c.LineBytes)
	}
	if _, err := timing.NewTagArray(c.SizeBytes, c.Ways, c.LineBytes); err != nil {
		return fmt.Errorf("inputassembler: %s: %w", name, err)
	}
	return nil
}

// Builder builds input assemblers. Start from MakeBuilder, which holds the
// defaults.
type Builder struct {
	engine               sim.Engine
	freq                 sim.Freq
	halt                 *timing.Halt
	progress             *timing.Progress
	batchVertices        int
	indexCache           CacheConfig
	vertexCache          CacheConfig
	indicesPerCycle      int
	verticesPerCycle     int
	credits              int
	maxOutstandingMemory int
	batchQueue           int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, 32-vertex batches, a
// 4 KiB 4-way index cache and a 16 KiB 4-way vertex cache with 64-byte lines, 3
// batch tag lookups (one triangle) per cycle, 1 vertex fetched per cycle, 16
// primitive-assembly credits, 8 memory reads in flight, 2 batches queued between
// stages. The engine must be set.
func MakeBuilder() Builder {
	return Builder{
		freq:                 1 * sim.GHz,
		batchVertices:        vertex.DefaultBatchVertices,
		indexCache:           CacheConfig{SizeBytes: 4 << 10, Ways: 4, LineBytes: 64},
		vertexCache:          CacheConfig{SizeBytes: 16 << 10, Ways: 4, LineBytes: 64},
		indicesPerCycle:      3,
		verticesPerCycle:     1,
		credits:              16,
		maxOutstandingMemory: 8,
		batchQueue:           2,
	}
}

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt shares the platform's halt flag: the component stops at its next tick
// once it is set, and sets it when a peer breaks the protocol.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress shares the platform's progress counter (one unit per batch or
// BatchInfo sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithBatchVertices sets the unique vertices per batch (the batch tag array),
// in [3, 256].
func (b Builder) WithBatchVertices(n int) Builder { b.batchVertices = n; return b }

// WithIndexCache sets the index cache geometry.
func (b Builder) WithIndexCache(c CacheConfig) Builder { b.indexCache = c; return b }

// WithVertexCache sets the vertex (attribute fetch) cache geometry.
func (b Builder) WithVertexCache(c CacheConfig) Builder { b.vertexCache = c; return b }

// WithIndicesPerCycle sets the batch tag-array lookups per cycle (3: one
// triangle per cycle); each lookup of a new index also reads it through the
// index cache.
func (b Builder) WithIndicesPerCycle(n int) Builder { b.indicesPerCycle = n; return b }

// WithVerticesPerCycle sets the vertices fetched (looked up in the vertex cache)
// per cycle.
func (b Builder) WithVerticesPerCycle(n int) Builder { b.verticesPerCycle = n; return b }

// WithCredits sets the primitive-assembly batch slots the input assembler holds
// credits for; it must equal primitive assembly's BatchSlots.
func (b Builder) WithCredits(n int) Builder { b.credits = n; return b }

// WithMaxOutstandingMemory sets the index and vertex line reads in flight.
func (b Builder) WithMaxOutstandingMemory(n int) Builder { b.maxOutstandingMemory = n; return b }

// WithBatchQueue sets the batches each of the two queues between the stages
// (index fetch -> vertex fetch -> dispatch) holds.
func (b Builder) WithBatchQueue(n int) Builder { b.batchQueue = n; return b }

// Validate checks the parameters; the error names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("inputassembler: Engine: not set")
	case !(b.freq > 0):
		return fmt.Errorf("inputassembler: Freq: %v Hz is not positive", float64(b.freq))
	case b.batchVertices < 3 || b.batchVertices > 256:
		return fmt.Errorf("inputassembler: BatchVertices: %d is outside [3, 256]", b.batchVertices)
	case b.indicesPerCycle < 1 || b.indicesPerCycle > 1024:
		return fmt.Errorf("inputassembler: IndicesPerCycle: %d is outside [1, 1024]", b.indicesPerCycle)
	case b.verticesPerCycle < 1 || b.verticesPerCycle > 1024:
		return fmt.Errorf("inputassembler: VerticesPerCycle: %d is outside [1, 1024]", b.verticesPerCycle)
	case b.credits < 1 || b.credits > 1<<16:
		return fmt.Errorf("inputassembler: Credits: %d is outside [1, 65536]", b.credits)
	case b.maxOutstandingMemory < 1 || b.maxOutstandingMemory > 1<<16:
		return fmt.Errorf("inputassembler: MaxOutstandingMemory: %d is outside [1, 65536]", b.maxOutstandingMemory)
	case b.batchQueue < 1 || b.batchQueue > 1024:
		return fmt.Errorf("inputassembler: BatchQueue: %d is outside [1, 1024]", b.batchQueue)
	}
	if err := b.indexCache.validate("IndexCache"); err != nil {
		return err
	}
	return b.vertexCache.validate("VertexCache")
}

// Build creates the input assembler called name (e.g. "GPU.InputAssembler"). It
// panics when a parameter is invalid (see Validate) or the name is not a valid
// Akita name.
func (b Builder) Build(name string) *InputAssembler {
	if err := b.Validate(); err != nil {
		panic(err.Error())
	}
	sim.NameMustBeValid(name)
	c := &InputAssembler{
		params: params{
			batchVertices:        b.batchVertices,
			indexCacheConfig:     b.indexCache,
			vertexCacheConfig:    b.vertexCache,
			indicesPerCycle:      b.indicesPerCycle,
			verticesPerCycle:     b.verticesPerCycle,
			maxOutstandingMemory: b.maxOutstandingMemory,
			batchQueue:           b.batchQueue,
		},
		halt:     b.halt,
		progress: b.progress,
		lastCore: -1,
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.activity = timing.NewActivity(stateNames[:]...)
	c.credits = timing.NewCredits(b.credits)
	c.batcher, _ = vertex.NewBatcher(b.batchVertices) // validated above
	c.indexCache, _ = timing.NewTagArray(b.indexCache.SizeBytes, b.indexCache.Ways, b.indexCache.LineBytes)
	c.vertexCache, _ = timing.NewTagArray(b.vertexCache.SizeBytes, b.vertexCache.Ways, b.vertexCache.LineBytes)
	c.createPorts(name)
	return c
}

func (c *InputAssembler) createPorts(name string) {
	// Draws wait here while the input assembler works on earlier ones.
	c.FromCommandProcessor = sim.NewLimitNumMsgPort(c, 2, name+".FromCommandProcessor")
	c.AddPort("FromCommandProcessor", c.FromCommandProcessor)
	// Line responses: never more than the reads in flight.
	c.ToMemory = sim.NewLimitNumMsgPort(c, c.maxOutstandingMemory, name+".ToMemory")
	c.AddPort("ToMemory", c.ToMemory)
	// Nothing comes back from the shader cores on this port.
	c.ToShaderCores = sim.NewLimitNumMsgPort(c, 1, name+".ToShaderCores")
	c.AddPort("ToShaderCores", c.ToShaderCores)
	// BatchCredit messages; drained every tick.
	c.PrimitiveAssembly = sim.NewLimitNumMsgPort(c, 4, name+".PrimitiveAssembly")
	c.AddPort("PrimitiveAssembly", c.PrimitiveAssembly)
}
