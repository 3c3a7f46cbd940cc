package configs

import (
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/reference"
)

// The HiZ filter forgets the tiles of 5D primitives, as the HiZ units do.
var _ reference.BlurHooks = (*fhiz.Filter)(nil)

// HiZConfig returns the functional configuration of the HiZ units (Mode Off
// when there are none).
func (c *Config) HiZConfig() fhiz.Config {
	h := c.HiZ
	m, err := fhiz.ParseMode(h.Mode)
	if err != nil || m == fhiz.Off {
		return fhiz.Config{}
	}
	pl, _ := fhiz.ParsePlacement(h.Placement)
	fb, _ := fhiz.ParseFeedbackSource(h.Feedback)
	return fhiz.Config{Mode: m, TileSamples: h.TileSamples, Layers: h.Layers, Placement: pl, Packed: h.Packed,
		Feedback: fb, FeedbackDelay: h.FeedbackDelay}.WithDefaults()
}

// HiZDeterministic reports whether the HiZ units' decisions depend only on
// the frame (not on timing): no HiZ, or a configuration without packing (whose
// lossy step happens at HiZ-cache evictions) and without feedback from the
// depth unit (whose arrival depends on latencies). The reference renderer with
// ReferenceHooks then counts exactly what the machine counts.
func (c *Config) HiZDeterministic() bool {
	h := c.HiZConfig()
	return h.Mode == fhiz.Off || (!h.Packed && (h.Feedback == fhiz.NoFeedback || h.Feedback == fhiz.IdealFeedback))
}

// ReferenceHooks returns the reference renderer's hooks that make the same
// hierarchical-Z decisions as the machine's HiZ units (nil without HiZ, or
// when they are not deterministic, see HiZDeterministic).
func (c *Config) ReferenceHooks() reference.Hooks {
	h := c.HiZConfig()
	if h.Mode == fhiz.Off || !c.HiZDeterministic() {
		return nil
	}
	f, err := fhiz.NewFilter(h)
	if err != nil {
		return nil
	}
	return f
}

// validateHiZ checks the hiz section.
func (c *Config) validateHiZ(fail func(fields at, format string, a ...any) error) error {
	h := c.HiZ
	if h.Mode == "off" {
		return nil
	}
	if lb := h.Cache.LineBytes; lb < 16 {
		return fail(at{"hiz.cache.line_bytes", "hiz.mode"}, "%d bytes: HiZ cache lines must be at least 16 bytes", lb)
	}
	if h.TileSamples != 0 && !pow2(h.TileSamples) || h.TileSamples != 0 && h.TileSamples < 16 {
		return fail(at{"hiz.tile_samples"}, "%d is not 0 or a power of two in [16, 256]", h.TileSamples)
	}
	switch {
	case h.Layers != 0 && h.Mode != "zmask":
		return fail(at{"hiz.layers", "hiz.mode"}, "%d: only zmask tiles have layers", h.Layers)
	case h.Layers == 1:
		return fail(at{"hiz.layers"}, "1: a zmask tile has 2 to 4 layers (forward is the one-layer design)")
	case h.Packed && h.Mode != "zmask":
		return fail(at{"hiz.packed", "hiz.mode"}, "only zmask tiles are packed")
	case h.Packed && h.Layers > 2:
		return fail(at{"hiz.layers", "hiz.packed"}, "%d: packed tiles have 2 layers", h.Layers)
	case h.Mode == "oracle" && h.Feedback != "none":
		return fail(at{"hiz.feedback", "hiz.mode"}, "%s: the oracle needs no feedback", h.Feedback)
	}
	cfg := c.HiZConfig()
	if err := cfg.Validate(); err != nil {
		return fail(at{"hiz"}, "%v", err)
	}
	// At one sample per pixel (the widest tiles) a HiZ tile must fit a raster
	// tile, so that one rasterizer sends all of its primitives' coverage in
	// API order.
	if w, hh := fhiz.TileDims(cfg.TileSamples, 1); w > c.Raster.TileSize || hh > c.Raster.TileSize {
		return fail(at{"hiz.tile_samples", "raster.tile_size", "hiz"}, "%d samples make %dx%d-pixel tiles at 1 sample per pixel, larger than the %d-pixel raster tile: "+
			"a HiZ tile must fit a raster tile at every sample count a frame may use, 1 included (raise raster.tile_size to %d)",
			cfg.TileSamples, w, hh, c.Raster.TileSize, max(w, hh))
	}
	lb := c.HiZ.Cache.LineBytes
	if cfg.Packed && cfg.PackedBits > 8*lb {
		return fail(at{"hiz.cache.line_bytes", "hiz"}, "%d bytes cannot hold a %d-bit packed tile", lb, cfg.PackedBits)
	}
	if lines := c.HiZ.Cache.SizeKB * 1024 / hizCacheLine(cfg, lb); lines < c.HiZ.Cache.Ways {
		return fail(at{"hiz.cache.size_kb", "hiz.cache.ways", "hiz.cache.line_bytes", "hiz"}, "%d KB holds %d lines, fewer than the %d ways", c.HiZ.Cache.SizeKB, lines, c.HiZ.Cache.Ways)
	}
	return nil
}

// hizCacheLine is the size of a HiZ cache line in the cache: the memory line,
// or for packed tiles the line's tiles uncompressed.
func hizCacheLine(cfg fhiz.Config, lineBytes int) int {
	if !cfg.Packed {
		return lineBytes
	}
	per := max(1, 8*lineBytes/cfg.MemoryTileBits())
	return per * ((cfg.TileBits() + 7) / 8)
}
