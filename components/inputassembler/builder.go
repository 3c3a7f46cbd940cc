package inputassembler

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// CacheConfig is the geometry of a small set-associative cache (LRU).
type CacheConfig struct {
	SizeBytes int // total bytes
	Ways      int
	LineBytes int // a power of two
}

// validate checks c as the field name of r's unit.
func (c CacheConfig) validate(r *check.Rules, name string) {
	r.That(c.SizeBytes <= 1<<24, "%s.SizeBytes: %d exceeds 16 MiB", name, c.SizeBytes).
		That(c.LineBytes <= 4096, "%s.LineBytes: %d exceeds 4096", name, c.LineBytes)
	if _, err := timing.NewTagArray(c.SizeBytes, c.Ways, c.LineBytes); err != nil {
		r.Wrap(fmt.Errorf("%s: %w", name, err))
	}
}

// Config is an input assembler's parameters (configs fills it from the
// input_assembler and primitive sections).
type Config struct {
	// BatchVertices is the unique vertices per batch (the batch tag array),
	// in [3, 256].
	BatchVertices int
	IndexCache    CacheConfig // index cache geometry
	VertexCache   CacheConfig // vertex (attribute fetch) cache geometry
	// IndicesPerCycle is the batch tag-array lookups per cycle (3: one
	// triangle per cycle); each lookup of a new index also reads it through
	// the index cache.
	IndicesPerCycle  int
	VerticesPerCycle int // vertices fetched (looked up in the vertex cache) per cycle
	// Credits is the primitive-assembly batch slots the input assembler holds
	// credits for; it must equal primitive assembly's BatchSlots.
	Credits              int
	MaxOutstandingMemory int // index and vertex line reads in flight
	// BatchQueue is the batches each of the two queues between the stages
	// (index fetch -> vertex fetch -> dispatch) holds.
	BatchQueue int
}

// DefaultConfig returns 32-vertex batches, a 4 KiB 4-way index cache and a
// 16 KiB 4-way vertex cache with 64-byte lines, 3 batch tag lookups (one
// triangle) per cycle, 1 vertex fetched per cycle, 16 primitive-assembly
// credits, 8 memory reads in flight, 2 batches queued between stages.
func DefaultConfig() Config {
	return Config{BatchVertices: vertex.DefaultBatchVertices,
		IndexCache:      CacheConfig{SizeBytes: 4 << 10, Ways: 4, LineBytes: 64},
		VertexCache:     CacheConfig{SizeBytes: 16 << 10, Ways: 4, LineBytes: 64},
		IndicesPerCycle: 3, VerticesPerCycle: 1, Credits: 16, MaxOutstandingMemory: 8, BatchQueue: 2}
}

// Validate checks the parameters; the error names the first bad one.
func (c Config) Validate() error {
	r := check.For("inputassembler")
	for _, f := range []struct {
		name      string
		v, lo, hi int
	}{
		{"BatchVertices", c.BatchVertices, 3, 256}, {"IndicesPerCycle", c.IndicesPerCycle, 1, 1024},
		{"VerticesPerCycle", c.VerticesPerCycle, 1, 1024}, {"Credits", c.Credits, 1, 1 << 16},
		{"MaxOutstandingMemory", c.MaxOutstandingMemory, 1, 1 << 16}, {"BatchQueue", c.BatchQueue, 1, 1024},
	} {
		r.That(f.v >= f.lo && f.v <= f.hi, "%s: %d is outside [%d, %d]", f.name, f.v, f.lo, f.hi)
	}
	c.IndexCache.validate(r, "IndexCache")
	c.VertexCache.validate(r, "VertexCache")
	return r.Err()
}

// Builder builds input assemblers: MakeBuilder().WithEnv(env).
// WithConfig(cfg).Build(name) (e.g. "GPU.InputAssembler"). The component stops
// at its next tick once env's halt is set, and sets it when a peer breaks the
// protocol; env's progress counts one unit per batch or BatchInfo sent. Build
// also panics when name is not a valid Akita name.
type Builder = timing.Builder[Config, *InputAssembler]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("inputassembler", DefaultConfig(), build) }

func build(name string, env timing.Env, cfg Config) *InputAssembler {
	c := &InputAssembler{
		lastCore: -1,
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, stateNames[:]...)
	c.credits = timing.NewCredits(cfg.Credits)
	c.batcher, _ = vertex.NewBatcher(cfg.BatchVertices) // validated above
	ic, vc := cfg.IndexCache, cfg.VertexCache
	c.indexCache, _ = timing.NewTagArray(ic.SizeBytes, ic.Ways, ic.LineBytes)
	c.vertexCache, _ = timing.NewTagArray(vc.SizeBytes, vc.Ways, vc.LineBytes)
	c.createPorts(name)
	return c
}

func (c *InputAssembler) createPorts(name string) {
	// Draws wait here while the input assembler works on earlier ones.
	c.FromCommandProcessor = timing.AddPort(c, "FromCommandProcessor", 2)
	// Line responses: never more than the reads in flight.
	c.ToMemory = timing.AddPort(c, "ToMemory", c.Cfg.MaxOutstandingMemory)
	// Nothing comes back from the shader cores on this port.
	c.ToShaderCores = timing.AddPort(c, "ToShaderCores", 1)
	// BatchCredit messages; drained every tick.
	c.PrimitiveAssembly = timing.AddPort(c, "PrimitiveAssembly", 4)
}
