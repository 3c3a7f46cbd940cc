package configs

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/connections"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

// The builders below are the one place a unit is made from its section of
// the configuration: Build uses them for the whole machine, and a study that
// runs part of a machine (the texture-cache replay) uses them for its part.

// BuildMemorySystem builds the memory and the texture L2 of c on engine e, as
// "GPU.Memory" and "GPU.L2". The error names the section at fault.
func (c *Config) BuildMemorySystem(e sim.Engine) (*memory.Memory, *memory.L2, error) {
	return c.BuildMemorySystemNamed(e, "GPU.Memory", "GPU.L2")
}

// BuildMemorySystemNamed builds a memory and an L2 of c's memory and l2
// sections named memName and l2Name (SAGE: each pipe's texture memory).
func (c *Config) BuildMemorySystemNamed(e sim.Engine, memName, l2Name string) (*memory.Memory, *memory.L2, error) {
	m, err := c.BuildMemory(e, memName)
	if err != nil {
		return nil, nil, err
	}
	l2, err := c.BuildL2(m, e, l2Name)
	if err != nil {
		return nil, nil, err
	}
	return m, l2, nil
}

// BuildMemory builds a memory of c's memory section named name, without an
// L2 (the SAGE master's: its pipes texture from memories of their own).
func (c *Config) BuildMemory(e sim.Engine, name string) (*memory.Memory, error) {
	mc := c.MemoryConfig()
	if err := mc.Validate(); err != nil {
		return nil, fmt.Errorf("%s: memory: %w", DefaultNameOr(c.file), err)
	}
	m, err := memory.Build(mc, e, name)
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return m, nil
}

// BuildL2 builds an L2 of c's l2 section named name in front of memory m.
func (c *Config) BuildL2(m *memory.Memory, e sim.Engine, name string) (*memory.L2, error) {
	lc := c.L2Config()
	if err := lc.Validate(c.MemoryConfig()); err != nil {
		return nil, fmt.Errorf("%s: l2: %w", DefaultNameOr(c.file), err)
	}
	l2, err := memory.BuildL2(lc, m, e, name)
	if err != nil {
		return nil, fmt.Errorf("l2: %w", err)
	}
	return l2, nil
}

// BuildTextureSampler builds texture sampler i of c ("GPU.TextureSampler[i]",
// from the texture_sampler section; it reads the L2 in l2.line_bytes pieces)
// on engine e at the core clock. progress may be nil.
func (c *Config) BuildTextureSampler(e sim.Engine, halt *timing.Halt, progress *timing.Progress, i int) *texturesampler.Comp {
	ts := c.TextureSampler
	env := timing.Env{Engine: e, Freq: mhz(c.Clocks.CoreMHz), Halt: halt, Progress: progress}
	return texturesampler.MakeBuilder().WithEnv(env).WithConfig(texturesampler.Config{LanesPerCycle: ts.LanesPerCycle,
		TagLookupsPerCycle: ts.TagLookupsPerCycle, L1Size: ts.L1.SizeKB * 1024, L1Ways: ts.L1.Ways,
		L1LineSize: ts.L1.LineBytes, FetchBytes: c.L2.LineBytes, L1Latency: ts.L1Latency, MissQueue: ts.MissQueue,
		FilterLatency: ts.FilterLatency, InputQueue: ts.InputQueue, MaxRequests: ts.MaxRequests,
		Costs: c.FilterCosts()}).Build(fmt.Sprintf("GPU.TextureSampler[%d]", i))
}

// FilterCosts returns the texture samplers' filter cost model (texture_sampler
// section; an unknown filter_cost, refused by Validate, is flat).
func (c *Config) FilterCosts() texturesampler.FilterCosts {
	ts := c.TextureSampler
	m, _ := texturesampler.ParseFilterCostModel(ts.FilterCost)
	return texturesampler.FilterCosts{Model: m, TexelQuadsPerCycle: ts.TexelQuadsPerCycle, WideFormat: ts.WideFormatCost, SRGB: ts.SRGBCost}
}

// ROPCosts returns the ROPs' blend cost model (rop section; an unknown cost,
// refused by Validate, is flat).
func (c *Config) ROPCosts() rop.Costs {
	m, _ := rop.ParseCostModel(c.ROP.Cost)
	return rop.Costs{Model: m, WideFormat: c.ROP.WideFormatCost, Blend: c.ROP.BlendCost}
}

// Samplers returns the number of texture samplers of c: one per cluster of
// texture_sampler.cores_per_sampler shader cores.
func (c *Config) Samplers() int { return c.ShaderCore.Count / c.TextureSampler.CoresPerSampler }

// BuildBus builds a bus named name at freq with link l's width and latency,
// and plugs in ports, each with l's source buffer.
func BuildBus(e sim.Engine, name string, l Link, freq sim.Freq, ports ...sim.Port) *connections.Bus {
	return buildLink(connections.MakeBusBuilder(), e, name, l, freq, ports)
}

// BuildCrossbar builds a crossbar named name at freq with link l's width and
// latency, and plugs in ports, each with l's source buffer and input buffer.
func BuildCrossbar(e sim.Engine, name string, l Link, freq sim.Freq, ports ...sim.Port) *connections.Crossbar {
	x := connections.MakeCrossbarBuilder().WithEngine(e).WithFreq(freq).WithWidth(l.Width).WithLatency(l.Latency).Build(name)
	for _, port := range ports {
		x.PlugInWithInputBuffer(port, l.SourceBuffer, l.InputBuffer)
	}
	return x
}

func buildLink[L interface{ PlugIn(sim.Port, int) }](b connections.LinkBuilder[L], e sim.Engine, name string, l Link,
	freq sim.Freq, ports []sim.Port) L {
	x := b.WithEngine(e).WithFreq(freq).WithWidth(l.Width).WithLatency(l.Latency).Build(name)
	for _, port := range ports {
		x.PlugIn(port, l.SourceBuffer)
	}
	return x
}

// WatchTextureTraffic returns a counter of texture reads by texture at l2's
// banks and below them at DRAM ("GPU.TextureTraffic").
func WatchTextureTraffic(l2 *memory.L2) *texturesampler.TextureTraffic {
	return WatchTextureTrafficNamed(l2, "GPU.TextureTraffic")
}

// WatchTextureTrafficNamed is WatchTextureTraffic under another name.
func WatchTextureTrafficNamed(l2 *memory.L2, name string) *texturesampler.TextureTraffic {
	t := texturesampler.NewTextureTraffic(name)
	for i := range l2.Tops {
		l2.Tops[i].AcceptHook(t.L2Hook())
		l2.Bottoms[i].AcceptHook(t.DRAMHook())
	}
	return t
}

// TrafficTextures lists the textures of frame f for a TextureTraffic.
func TrafficTextures(f *driver.Frame) []texturesampler.TrafficTexture {
	var tex []texturesampler.TrafficTexture
	for _, t := range f.Textures {
		tex = append(tex, texturesampler.TrafficTexture{Name: t.Name, Data: t.Data, Size: t.Size})
	}
	return tex
}
