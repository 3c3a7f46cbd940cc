package configs

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
)

// CheckScene refuses, before anything is simulated, a shader core whose
// register file cannot hold one warp of a program the scene's materials use:
// the program's temporaries on every lane of shader_core.warp_size (the
// shader core refuses such a warp at its first draw). A multipass machine's
// pixel shaders are split into passes that fit multipass.registers, so only
// their vertex and geometry shaders are checked there.
func (c *Config) CheckScene(s *scene.Scene) error {
	sc := &c.ShaderCore
	multipass := !c.Multipass.Limits().Unlimited()
	for _, m := range s.Materials {
		lm, err := library.Get(m.Shader)
		if err != nil {
			continue // the scene's own validation names it
		}
		progs := []*shader.Program{lm.VS, lm.GS}
		if !multipass {
			progs = append(progs, lm.PS)
		}
		for _, p := range progs {
			if p == nil {
				continue
			}
			if need := max(1, p.Resources().Temps) * sc.WarpSize; need > sc.Registers {
				return &Error{File: DefaultNameOr(c.file), Line: c.lineOf("shader_core.registers", "shader_core.warp_size", "shader_core"),
					Field: "shader_core.registers", Msg: fmt.Sprintf("%d: material %s's program %q needs %d registers per warp of %d lanes (%d temporaries each)",
						sc.Registers, inputs.Quote(m.Name), p.Name, need, sc.WarpSize, max(1, p.Resources().Temps))}
			}
		}
	}
	return nil
}
