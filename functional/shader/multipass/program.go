package multipass

import (
	"fmt"
	"slices"

	"github.com/gfxsim/gfxsim/functional/shader"
)

// PassProgram generates the pixel shader of pass k of a partition of sh: the
// code VALID generated for it, with declarations. It keeps the source
// program's constant declarations (the driver fills them as for the single
// pass) and the names of the samplers it uses (texture units renumbered from
// 0 in order of first use), writes its value to o0, and, when it restores,
// declares sv_position, the constant block inv_target_size and one sampler
// per restored value named IntermediateName(texture): a restore is
//
//	mul  rA, vPos, c[inv_target_size]     ; once, before the first restore
//	texl rX.mask, rA, sK                  ; in place of the saved instruction
//
// fetching level 0 at the pixel's own texel (the intermediate textures have
// one level and are sampled with point filtering and clamping).
func (sh *Shader) PassProgram(part *Partition, k int) (*shader.Program, error) {
	if part == nil || k < 0 || k >= len(part.Passes) {
		return nil, fmt.Errorf("multipass: no pass %d", k)
	}
	ps := &part.Passes[k]
	src := sh.Prog
	g := newGen(sh)
	u, emit := g.generate(ps.Root, ps.Nodes, ps.Restored)
	if why := (Limits{}).Exceeds(u); why != "" {
		return nil, fmt.Errorf("%s: pass %d: %s", src.Name, k+1, why)
	}
	n := sh.Graph.N()
	addr := n + shader.MaxTemps
	p := &shader.Program{Stage: shader.PixelStage, Name: fmt.Sprintf("%s#pass%d", src.Name, k+1),
		Consts: append([]shader.ConstDecl(nil), src.Consts...), Params: src.Params, Defs: src.Defs}
	for _, d := range src.Outputs {
		if d.File == shader.FileOutput && d.Index == 0 {
			p.Outputs = append(p.Outputs, d)
		}
	}
	// Inputs read, in declaration order; sv_position for the restores.
	var read [shader.MaxInputs]bool
	for _, v := range ps.Nodes {
		in := &src.Code[v]
		for s := 0; s < in.Op.NumSources(); s++ {
			if in.Src[s].File == shader.FileInput {
				read[in.Src[s].Index] = true
			}
		}
	}
	restores := len(ps.Restored) > 0
	if restores {
		if sh.posReg < 0 {
			return nil, fmt.Errorf("%s: pass %d: no input register left for sv_position", src.Name, k+1)
		}
		if sh.invReg >= shader.MaxConstants {
			return nil, fmt.Errorf("%s: pass %d: no constant register left for %s", src.Name, k+1, InvTargetSizeName)
		}
		read[sh.posReg] = true
		p.Consts = append(p.Consts, shader.ConstDecl{Reg: sh.invReg, Name: InvTargetSizeName, Count: 1})
	}
	for _, d := range src.Inputs {
		if read[d.Reg] {
			p.Inputs = append(p.Inputs, d)
		}
	}
	if restores && !sh.posDecl {
		p.Inputs = append(p.Inputs, shader.InputDecl{Reg: sh.posReg, Semantic: shader.SemanticPosition})
	}
	// Texture units: the source's samplers in order of first use, then the
	// intermediates.
	unit := map[int]int{}
	for _, v := range emit {
		if v < 0 || !containsSorted(ps.Nodes, v) {
			continue
		}
		in := &src.Code[v]
		if !in.Op.UsesSampler() {
			continue
		}
		if _, ok := unit[in.Sampler]; ok {
			continue
		}
		unit[in.Sampler] = len(p.Samplers)
		decl := shader.SamplerDecl{Name: fmt.Sprintf("s%d", in.Sampler)}
		for _, d := range src.Samplers {
			if d.Unit == in.Sampler {
				decl = d
			}
		}
		decl.Unit = len(p.Samplers)
		p.Samplers = append(p.Samplers, decl)
	}
	restoreUnit := map[int]int{}
	for i, v := range ps.Restored {
		restoreUnit[v] = len(p.Samplers)
		p.Samplers = append(p.Samplers, shader.SamplerDecl{Unit: len(p.Samplers), Name: IntermediateName(ps.Inputs[i])})
	}
	temp := func(r int) shader.Src {
		return shader.Src{File: shader.FileTemp, Index: r, Swizzle: shader.IdentitySwizzle}
	}
	for _, v := range emit {
		switch {
		case v < 0:
			p.Code = append(p.Code, shader.Instr{Op: shader.OpMul,
				Dst: shader.Dst{File: shader.FileTemp, Index: g.color[addr], Mask: shader.MaskXYZW},
				Src: [shader.MaxSources]shader.Src{
					{File: shader.FileInput, Index: sh.posReg, Swizzle: shader.IdentitySwizzle},
					{File: shader.FileConst, Index: sh.invReg, Swizzle: shader.IdentitySwizzle}}})
		case !containsSorted(ps.Nodes, v): // restored
			orig := &src.Code[v]
			p.Code = append(p.Code, shader.Instr{Op: shader.OpTexl,
				Dst:     shader.Dst{File: shader.FileTemp, Index: g.color[v], Mask: orig.Dst.Mask},
				Src:     [shader.MaxSources]shader.Src{temp(g.color[addr])},
				Sampler: restoreUnit[v], Line: orig.Line})
		default:
			in := src.Code[v]
			if v == ps.Root {
				in.Dst.File, in.Dst.Index = shader.FileOutput, 0
			} else {
				in.Dst.Index = g.color[v]
			}
			for s := 0; s < in.Op.NumSources(); s++ {
				if in.Src[s].File != shader.FileTemp {
					continue
				}
				so := &sh.srcs[v][s]
				w := n + in.Src[s].Index
				if len(so.prods) > 0 {
					w = so.prods[0]
				}
				in.Src[s].Index = g.color[w]
			}
			if in.Op.UsesSampler() {
				in.Sampler = unit[in.Sampler]
			}
			p.Code = append(p.Code, in)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: pass %d: generated program: %w", src.Name, k+1, err)
	}
	return p, nil
}

// Programs generates every pass of the partition, in execution order.
func (sh *Shader) Programs(part *Partition) ([]*shader.Program, error) {
	out := make([]*shader.Program, len(part.Passes))
	for k := range part.Passes {
		p, err := sh.PassProgram(part, k)
		if err != nil {
			return nil, err
		}
		out[k] = p
	}
	return out, nil
}

func containsSorted(s []int, v int) bool {
	_, ok := slices.BinarySearch(s, v)
	return ok
}
