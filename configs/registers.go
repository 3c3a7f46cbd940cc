package configs

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
)

// CheckScene refuses, before anything is simulated, a machine that cannot run
// a program the scene's materials use, naming the field at fault:
//
//   - shader_core.registers: the register file must hold one warp of every
//     program: its temporaries on every lane of shader_core.warp_size, and on
//     every lane of the widest geometry shader warp for a geometry shader (a
//     GS warp holds up to shader.MaxLanes primitives, one per lane, whatever
//     the warp size: ceil(64 / warp_size) warps' worth of registers). On a
//     multipass machine the pixel shader's programs are the passes the driver
//     splits it into (or the shader itself when it fits one pass). The shader
//     core refuses such a warp when it meets it.
//   - shader_core.gs_output_buffer_kb: the GS output buffer must hold one GS
//     warp of shader.MaxLanes primitives of every geometry shader (max_vertices
//     x output registers x 16 bytes each). The shader core refuses a warp that
//     needs more than the whole buffer when it meets it.
//   - multipass.ops, registers, tex_units, interpolants, tex_depth: on a
//     multipass machine every pixel shader must be split into passes that fit
//     (every instruction fits a pass of its own with its operands restored),
//     or fit one pass as it is when it cannot be split, and a shader that is
//     split needs a scene of 1 sample per pixel (a pass saves one value per
//     pixel); the driver refuses the scene otherwise, without naming the
//     field.
//
// Only the materials that objects draw are checked.
func (c *Config) CheckScene(s *scene.Scene) error {
	sc := &c.ShaderCore
	lim := c.DriverOptions().Multipass.Limits
	lim.Name = c.Multipass.Limits().Name // the errors below name the field's file and line once
	file := DefaultNameOr(c.file)
	passes := map[string][]*shader.Program{} // each pixel shader's programs on this machine
	drawn := make([]bool, len(s.Materials))  // a material no object draws never runs
	for _, o := range s.Objects {
		if o.Material >= 0 && o.Material < len(drawn) {
			drawn[o.Material] = true
		}
	}
	for i, m := range s.Materials {
		if !drawn[i] {
			continue
		}
		lm, err := library.Get(m.Shader)
		if err != nil {
			continue // the scene's own validation names it
		}
		progs := []*shader.Program{lm.VS, lm.GS}
		if lm.PS != nil {
			pp, ok := passes[lm.PS.Name]
			if !ok {
				if pp, err = c.passPrograms(m.Name, lm.PS, lim, s.Samples); err != nil {
					return err
				}
				passes[lm.PS.Name] = pp
			}
			progs = append(progs, pp...)
		}
		for _, p := range progs {
			if p == nil {
				continue
			}
			lanes := sc.WarpSize
			if p == lm.GS {
				lanes = max(lanes, shader.MaxLanes)
			}
			widths := (lanes + sc.WarpSize - 1) / sc.WarpSize
			temps := max(1, p.Resources().Temps)
			if need := temps * sc.WarpSize * widths; need > sc.Registers {
				what := fmt.Sprintf("per warp of %d lanes (%d temporaries each)", sc.WarpSize, temps)
				if widths > 1 {
					what = fmt.Sprintf("per geometry shader warp of %d invocations (%d temporaries on %d warps of %d lanes)", shader.MaxLanes, temps, widths, sc.WarpSize)
				}
				return &Error{File: file, Line: c.lineOf("shader_core.registers", "shader_core.warp_size", "shader_core"),
					Field: "shader_core.registers", Msg: fmt.Sprintf("%d: material %s's program %q needs %d registers %s",
						sc.Registers, inputs.Quote(m.Name), p.Name, need, what)}
			}
		}
		if gs := lm.GS; gs != nil {
			if need := shader.MaxLanes * gs.OutputScalars() * 4; need > sc.GSOutputBufferKB*1024 {
				return &Error{File: file, Line: c.lineOf("shader_core.gs_output_buffer_kb", "shader_core"), Field: "shader_core.gs_output_buffer_kb",
					Msg: fmt.Sprintf("%d KB: material %s's geometry shader %q needs %d bytes for a warp of %d invocations (%d vertices x %d output registers x 16 bytes each)",
						sc.GSOutputBufferKB, inputs.Quote(m.Name), gs.Name, need, shader.MaxLanes, gs.Geometry.MaxVertices, gs.NumOutputRegisters())}
			}
		}
	}
	return nil
}

// passPrograms returns the programs the driver runs for pixel shader ps of
// material mat on a machine with the multipass limits lim, as
// scene/driver splits it: ps itself when the limits are off, when it fits one
// pass, or when it cannot be split (then it must fit as it is), else the
// passes of its partition (multipass.Problem.RDS). The error names the
// multipass field of the limit that no partition fits, or that makes a
// scene of more than one sample per pixel (samples) split the shader. A
// shader that exceeds only the ISA's own limits is left to the driver, which
// names it.
func (c *Config) passPrograms(mat string, ps *shader.Program, lim multipass.Limits, samples int) ([]*shader.Program, error) {
	one := []*shader.Program{ps}
	if lim.Unlimited() {
		return one, nil
	}
	refuse := func(u multipass.Usage, format string, a ...any) error {
		f, ok := reflect.TypeOf(Multipass{}).FieldByName(lim.Exceeded(u))
		if !ok {
			return nil
		}
		field := "multipass." + f.Tag.Get("yaml")
		return &Error{File: DefaultNameOr(c.file), Line: c.lineOf(field, "multipass"), Field: field,
			Msg: fmt.Sprintf("%d: material %s's pixel shader %q ", reflect.ValueOf(c.Multipass).FieldByName(f.Name).Int(),
				inputs.Quote(mat), ps.Name) + fmt.Sprintf(format, a...)}
	}
	sh, err := multipass.Analyze(ps, multipass.Options{ExactDerivatives: true})
	if err != nil {
		u := multipass.WholeUsage(ps)
		if e := refuse(u, "fits no partition into passes: it cannot be split (%v) and needs %s in one pass", err, lim.Exceeds(u)); e != nil {
			return nil, e
		}
		return one, nil
	}
	p := sh.Problem(lim, c.Multipass.CostModel())
	if _, err := p.Partition(make([]bool, sh.Graph.N())); err == nil {
		return one, nil // it fits one pass
	}
	var ie *multipass.ImpossibleError
	if err := p.Possible(); errors.As(err, &ie) {
		if e := refuse(ie.Usage, "fits no partition into passes: %v", ie); e != nil {
			return nil, e
		}
		return one, nil
	}
	if u := sh.SingleUsage(); samples != 1 {
		if e := refuse(u, "needs %s in one pass: it is split into passes, and multipass rendering needs 1 sample per pixel (the scene has %d)",
			lim.Exceeds(u), samples); e != nil {
			return nil, e
		}
		return one, nil
	}
	part, err := p.RDS()
	if err != nil {
		return one, nil // the driver names it
	}
	progs, err := sh.Programs(part)
	if err != nil {
		return one, nil
	}
	return progs, nil
}
