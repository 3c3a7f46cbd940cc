package configs

import (
	"strings"
	"testing"
)

// TestTextureTrafficByTexture: the reads the samplers send to the L2 are all
// attributed to the scene's textures, they add up to the samplers' own count,
// and the L2's misses reach DRAM at texture addresses.
func TestTextureTrafficByTexture(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	_, f := frame(t, "room", 96, 54, 1)
	res := timed(t, machine(t, "default", ""), f)
	var l2, dram, samplers float64
	names := 0
	for k, v := range res.Stats {
		switch {
		case strings.HasPrefix(k, "GPU.TextureTraffic.other."):
			if v != 0 {
				t.Errorf("%s = %v, want 0", k, v)
			}
		case strings.HasPrefix(k, "GPU.TextureTraffic.") && strings.HasSuffix(k, ".l2_bytes"):
			l2 += v
			names++
		case strings.HasPrefix(k, "GPU.TextureTraffic.") && strings.HasSuffix(k, ".dram_bytes"):
			dram += v
		case strings.HasPrefix(k, "GPU.TextureSampler[") && strings.HasSuffix(k, "].bytes_read_l2"):
			samplers += v
		}
	}
	if names != len(f.Textures) || l2 != samplers || l2 == 0 || dram == 0 {
		t.Errorf("%d textures: %v bytes to the L2 (samplers: %v), %v from DRAM", names, l2, samplers, dram)
	}
}

// TestSharedSamplers: with cores_per_sampler 4 the eight cores share two
// samplers, each on its own texture bus.
func TestSharedSamplers(t *testing.T) {
	c := machine(t, "cluster", "texture_sampler: {cores_per_sampler: 4}\n")
	p, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samplers) != 2 || p.Samplers[1].Name() != "GPU.TextureSampler[1]" || p.ShaderCores[5].SamplerPort != p.Samplers[1].Core {
		t.Errorf("%d samplers; core 5 sends to %v", len(p.Samplers), p.ShaderCores[5].SamplerPort.Name())
	}
	if _, err := Parse("bad.yaml", []byte("texture_sampler: {cores_per_sampler: 3}\n")); err == nil ||
		!strings.Contains(err.Error(), "texture_sampler.cores_per_sampler: 3 does not divide the 8 shader cores") {
		t.Errorf("error %v", err)
	}
}
