package scene

import (
	"github.com/gfxsim/gfxsim/functional/shader/library"
)

// SamplerType returns the type of texture that the sampler called sampler of
// the library shader called shader samples (its .sampler declaration), and
// false when the shader or the sampler does not exist.
func SamplerType(shader, sampler string) (TextureType, bool) {
	m, err := library.Get(shader)
	if err != nil {
		return 0, false
	}
	for _, s := range m.Samplers() {
		if s.Name == sampler {
			return TextureType(s.Type), true
		}
	}
	return 0, false
}
