package configs

import (
	"fmt"
	"reflect"
)

// Validate checks every field's range and the rules that tie fields together.
func (c *Config) Validate() error {
	f := c.file
	if f == "" {
		f = DefaultName
	}
	return c.validate(f)
}

func (c *Config) validate(file string) error {
	if err := c.checkRanges(file, reflect.ValueOf(c).Elem(), ""); err != nil {
		return err
	}
	fail := func(field, format string, a ...any) error {
		return &Error{File: file, Line: c.lines[field], Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	sc := &c.ShaderCore
	switch {
	case sc.SIMDWidth > sc.WarpSize || sc.WarpSize%sc.SIMDWidth != 0:
		return fail("shader_core.simd_width", "%d does not divide the warp size %d", sc.SIMDWidth, sc.WarpSize)
	case sc.WarpSize%4 != 0:
		return fail("shader_core.warp_size", "%d is not a multiple of 4 (pixel warps are made of 2x2 quads)", sc.WarpSize)
	case c.InputAssembler.BatchVertices > sc.WarpSize:
		return fail("input_assembler.batch_vertices", "%d vertices do not fit a warp of %d lanes", c.InputAssembler.BatchVertices, sc.WarpSize)
	case 4*c.QuadPacker.QuadsPerWarp > sc.WarpSize:
		return fail("quad_packer.quads_per_warp", "%d quads need %d lanes, the warp has %d", c.QuadPacker.QuadsPerWarp, 4*c.QuadPacker.QuadsPerWarp, sc.WarpSize)
	case c.ReorderBuffer.Entries < c.QuadPacker.QuadsPerWarp:
		return fail("reorder_buffer.entries", "%d entries cannot hold one warp of %d quads", c.ReorderBuffer.Entries, c.QuadPacker.QuadsPerWarp)
	case c.ROP.TileSize < c.Raster.TileSize:
		return fail("rop.tile_size", "%d pixels is smaller than the raster tile (%d)", c.ROP.TileSize, c.Raster.TileSize)
	case sc.Registers < sc.WarpSize:
		return fail("shader_core.registers", "%d registers cannot hold one register per lane of a %d-lane warp", sc.Registers, sc.WarpSize)
	case sc.Count%c.TextureSampler.CoresPerSampler != 0:
		return fail("texture_sampler.cores_per_sampler", "%d does not divide the %d shader cores", c.TextureSampler.CoresPerSampler, sc.Count)
	case c.TextureSampler.L1.LineBytes < 16:
		return fail("texture_sampler.l1.line_bytes", "%d bytes: a line must hold the widest decoded texel (16 bytes)", c.TextureSampler.L1.LineBytes)
	}
	// Compression moves whole memory access units: a line smaller than one can
	// never shrink (lines of one access unit do not compress either, but are
	// accepted: compression then simply never applies, as at one sample).
	if ab := c.AccessBytes(); c.ROP.Compression && c.ROP.Cache.LineBytes < ab {
		return fail("rop.compression", "on with %d-byte colour lines, smaller than the %d-byte memory access unit: turn it off (it applies only to lines of %d bytes or more)",
			c.ROP.Cache.LineBytes, ab, 2*ab)
	} else if c.DepthUnit.Compression && c.DepthUnit.Cache.LineBytes < ab {
		return fail("depth_unit.compression", "on with %d-byte depth lines, smaller than the %d-byte memory access unit: turn it off (it applies only to lines of %d bytes or more)",
			c.DepthUnit.Cache.LineBytes, ab, 2*ab)
	}
	if err := c.validateHiZ(fail); err != nil {
		return err
	}
	if c.Machine == "sage" {
		if err := c.validateSage(fail); err != nil {
			return err
		}
	}
	// Render-target caches take any power-of-two line from 4 bytes (one RGBA8 or
	// depth sample; a wider sample spans lines); the others hold at least 16.
	for _, cc := range []struct {
		field   string
		cache   Cache
		minLine int
	}{
		{"input_assembler.index_cache", c.InputAssembler.IndexCache, 16},
		{"input_assembler.vertex_cache", c.InputAssembler.VertexCache, 16},
		{"depth_unit.cache", c.DepthUnit.Cache, 4},
		{"texture_sampler.l1", c.TextureSampler.L1, 16},
		{"rop.cache", c.ROP.Cache, 4},
	} {
		if cc.cache.LineBytes < cc.minLine {
			return fail(cc.field+".line_bytes", "%d bytes: lines of this cache must be at least %d bytes (4-byte lines are for the ROP colour and depth caches)",
				cc.cache.LineBytes, cc.minLine)
		}
		if err := cc.cache.check(); err != nil {
			return fail(cc.field, "%v", err)
		}
	}
	if bank := c.L2.BankSizeKB * 1024; bank%(c.L2.Ways*c.L2.LineBytes) != 0 || !pow2(bank/(c.L2.Ways*c.L2.LineBytes)) {
		return fail("l2.bank_size_kb", "%d KB is not a power-of-two number of sets of %d ways x %d bytes", c.L2.BankSizeKB, c.L2.Ways, c.L2.LineBytes)
	}
	return nil
}

func pow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func (cc Cache) check() error {
	size := cc.SizeKB * 1024
	if size%(cc.Ways*cc.LineBytes) != 0 || !pow2(size/(cc.Ways*cc.LineBytes)) {
		return fmt.Errorf("%d KB is not a power-of-two number of sets of %d ways x %d-byte lines", cc.SizeKB, cc.Ways, cc.LineBytes)
	}
	return nil
}

// checkRanges re-applies the field tags (for configurations built in code).
func (c *Config) checkRanges(file string, v reflect.Value, path string) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("yaml")
		if name == "" {
			continue
		}
		fp := join(path, name)
		fv := v.Field(i)
		if fv.Kind() == reflect.Struct {
			if err := c.checkRanges(file, fv, fp); err != nil {
				return err
			}
			continue
		}
		err := checkField(f, fv, func(format string, a ...any) error {
			return &Error{File: file, Line: c.lines[fp], Field: fp, Msg: fmt.Sprintf(format, a...)}
		})
		if err != nil {
			return err
		}
	}
	return nil
}
