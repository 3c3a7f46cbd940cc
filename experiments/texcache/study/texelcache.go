package study

import (
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/timing"
)

// TexelMisses is the texel-granular view of the same request stream: every
// sampler's recorded requests, in order, are filtered functionally and each
// texel read is looked up in an LRU cache of single texels (4-byte lines, the
// size and associativity given), as a study that "tracks pixels individually"
// does. It returns the texel misses and the bilinear footprints. Texels of
// formats wider than 4 bytes take one line per 4 bytes of their first word
// (the study scenes are RGBA8).
func TexelMisses(run *Frame, kb, ways int, rebind func(*state.TextureBinding) *state.TextureBinding) (misses, footprints float64, err error) {
	taps := make([]texture.Tap, 0, texture.MaxTaps)
	type texInfo struct {
		desc, data uint64
	}
	var known []texInfo
	dataOf := func(b *state.TextureBinding) uint64 {
		for _, k := range known {
			if k.desc == b.Desc {
				return k.data
			}
		}
		d := command.ReadTextureDescriptor(run.Frame.Memory, b.Desc).Data
		known = append(known, texInfo{b.Desc, d})
		return d
	}
	for _, arr := range run.Arrivals {
		tags, err := timing.NewTagArray(kb*1024, ways, 4)
		if err != nil {
			return 0, 0, err
		}
		for _, a := range arr {
			b := a.Req.Binding
			if rebind != nil {
				b = rebind(b)
			}
			if b.Texture == nil {
				continue
			}
			base := dataOf(b) << texture.DecodedSpaceShift
			per := 4
			switch {
			case b.Sampler.Filter == texture.Point:
				per = 1
			case b.Texture.Type == texture.Tex3D:
				per = 8
			}
			for i := range a.Req.Lanes {
				taps = taps[:0]
				pipeline.SampleBinding(b, &a.Req.Lanes[i], &taps)
				footprints += float64(len(taps) / per)
				for _, t := range taps {
					if t.Border {
						continue
					}
					addr := base + b.Texture.DecodedAddress(t.Level, t.X, t.Y, t.Z)
					if !tags.Lookup(addr) {
						misses++
						tags.Fill(addr)
					}
				}
			}
		}
	}
	return misses, footprints, nil
}
