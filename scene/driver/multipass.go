package driver

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/scene"
)

// MultipassOptions are the machine's per-pass fragment resources. A draw
// whose pixel shader does not fit them in one pass is split into the passes
// of its RDS partition (functional/shader/multipass). Unlimited limits (the
// zero value) split nothing.
type MultipassOptions struct {
	Limits multipass.Limits
	Cost   multipass.CostModel // the model RDS minimizes; zero means 15p+5t+i
}

// MultipassDraw describes one object the driver rendered in several passes.
type MultipassDraw struct {
	Object   int    // index in Scene.Objects
	Material string // material name
	Shader   string // pixel shader file
	Passes   int
	Textures int     // intermediate textures the passes use
	Cost     float64 // the partition's cost under the cost model
	// Single is the shader's usage as one pass (what did not fit); Total the
	// partition's (instructions, fetches and restores summed, the other
	// resources the largest of any pass).
	Single, Total multipass.Usage
}

// IntermediateName is the name under which Frame.Textures lists
// intermediate texture k.
func IntermediateName(k int) string { return fmt.Sprintf("multipass/intermediate%d", k) }

// split is the partition of one pixel shader on the machine: nil when the
// shader fits one pass.
type split struct {
	sh     *multipass.Shader
	part   *multipass.Partition
	single multipass.Usage
	progs  []programRef
}

// intermediate is a float render target that passes save values into and
// later passes fetch as a texture: the same bytes, RGBA32F, tiled in 4x4
// pixels (the texture's tiled layout), one sample.
type intermediate struct {
	target command.Target
	desc   uint64
}

// limitsName names the machine whose per-pass limits split a shader, in
// errors: its name (for a configuration file, the file, the line and the
// limits), or the limits themselves.
func limitsName(l multipass.Limits) string {
	if l.Name != "" {
		return l.Name
	}
	return l.String()
}

// splitFor returns the partition of pixel shader ps on the machine, or nil
// when it fits one pass.
func (e *encoder) splitFor(ps *shader.Program) (*split, error) {
	lim := e.o.Multipass.Limits
	if lim.Unlimited() {
		return nil, nil
	}
	if sp, ok := e.splits[ps.Name]; ok {
		return sp, nil
	}
	cost := e.o.Multipass.Cost
	if cost == (multipass.CostModel{}) {
		cost = multipass.CostModels()[0]
	}
	sh, err := multipass.Analyze(ps, multipass.Options{ExactDerivatives: true})
	if err != nil {
		// Not splittable (KIL, oDepth, several targets): it must fit as it is.
		if why := lim.Exceeds(multipass.WholeUsage(ps)); why != "" {
			return nil, fmt.Errorf("needs %s on %s and cannot be split: %w", why, limitsName(lim), err)
		}
		e.splits[ps.Name] = nil
		return nil, nil
	}
	p := sh.Problem(lim, cost)
	if _, err := p.Partition(make([]bool, sh.Graph.N())); err == nil {
		e.splits[ps.Name] = nil // fits one pass
		return nil, nil
	}
	part, err := p.RDS()
	if err != nil {
		return nil, err
	}
	progs, err := sh.Programs(part)
	if err != nil {
		return nil, err
	}
	sp := &split{sh: sh, part: part, single: sh.SingleUsage()}
	for _, pp := range progs {
		sp.progs = append(sp.progs, e.program(pp.Name, pp))
	}
	e.splits[ps.Name] = sp
	return sp, nil
}

// intermediates makes sure n intermediate targets exist.
func (e *encoder) intermediates(n int) error {
	for len(e.inter) < n {
		s := e.s
		k := len(e.inter)
		g := framebuffer.Geometry{Width: s.Width, Height: s.Height, Samples: 1, Layout: framebuffer.Tiled,
			TileW: texture.TileSize, TileH: texture.TileSize}
		ct, err := framebuffer.NewColorTarget(g, framebuffer.RGBA32F)
		if err != nil {
			return fmt.Errorf("intermediate target: %w", err)
		}
		addr := e.mem.Alloc(ct.SizeBytes(), pageAlign)
		d := texture.Descriptor{Format: texture.RGBA32F, Width: s.Width, Height: s.Height, Levels: 1, Layout: texture.Tiled}
		if d.SizeBytes() != ct.SizeBytes() {
			return fmt.Errorf("intermediate %d: texture of %d bytes over a %d-byte target", k, d.SizeBytes(), ct.SizeBytes())
		}
		desc := command.TextureDescriptor{Format: uint32(d.Format), Width: uint32(d.Width), Height: uint32(d.Height),
			Levels: 1, Layout: uint32(d.Layout), Data: addr, Size: uint32(ct.SizeBytes()), Type: uint32(d.Type)}
		da := e.mem.Put(desc.Encode(), 64)
		e.inter = append(e.inter, intermediate{
			target: command.Target{Addr: addr, Width: uint32(s.Width), Height: uint32(s.Height), Samples: 1,
				Format: uint32(framebuffer.RGBA32F), Layout: uint32(framebuffer.Tiled), TileW: texture.TileSize, TileH: texture.TileSize},
			desc: da})
		e.texInfo = append(e.texInfo, TextureInfo{Name: IntermediateName(k), Desc: da, Data: addr, Size: ct.SizeBytes(), Descriptor: d})
	}
	return nil
}

// multipassObject draws object i in the passes of sp: each pass renders the
// object's geometry with its pass program into its intermediate target (the
// last into the colour target with the material's blending); the first pass
// tests and writes depth as the material says, the later ones test Equal
// without writing, so that exactly the fragments that won the first pass
// shade in every pass. A sync token after each pass but the last makes the
// pipeline finish the pass before the next one fetches what it saved.
func (e *encoder) multipassObject(i int, obj *scene.Object, mat *scene.Material, lm *library.Material, vs programRef,
	sp *split, rs command.SetRaster, ds command.SetDepthStencil, bs command.SetBlend, env *constantEnv, last *drawState) error {
	s := e.s
	if s.Samples != 1 {
		return fmt.Errorf("multipass rendering on %s needs 1 sample per pixel (the scene has %d): a pass saves one value per pixel",
			limitsName(e.o.Multipass.Limits), s.Samples)
	}
	if mat.State.DepthTest && !mat.State.DepthWrite {
		return fmt.Errorf("multipass rendering on %s needs depth writes when the depth test is on (the later passes test Equal against the first pass's depth)",
			limitsName(e.o.Multipass.Limits))
	}
	part := sp.part
	if err := e.intermediates(part.Textures); err != nil {
		return err
	}
	mb := &e.meshBufs[obj.Mesh]
	for k, ps := range part.Passes {
		prog := sp.progs[k]
		final := ps.Output < 0
		target := e.color
		if !final {
			target = e.inter[ps.Output].target
		}
		if last.target != target {
			e.cmd.Append(command.SetColorTarget{Slot: 0, Target: target})
			last.target = target
		}
		if !last.valid || rs != last.raster {
			e.cmd.Append(rs)
			last.raster = rs
		}
		pds := ds
		if k > 0 && mat.State.DepthTest {
			pds.Flags &^= command.DepthWrite
			pds.DepthFunc = uint32(depth.Equal)
		}
		if !last.valid || pds != last.ds {
			e.cmd.Append(pds)
			last.ds = pds
		}
		pbs := bs
		if !final {
			pbs = blendState(scene.BlendOpaque)
			pbs.WriteMask = blend.WriteAll
		}
		if !last.valid || pbs != last.blend {
			e.cmd.Append(pbs)
			last.blend = pbs
		}
		if dec := decoupling(mat.Decoupled); !last.valid || dec != last.decoupling {
			e.cmd.Append(dec)
			last.decoupling = dec
		}
		if !last.valid || vs.addr != last.vs {
			e.cmd.Append(command.BindShader{Stage: command.VertexStage, Addr: vs.addr, Size: vs.size})
			last.vs = vs.addr
		}
		if !last.valid || prog.addr != last.ps {
			e.cmd.Append(command.BindShader{Stage: command.PixelStage, Addr: prog.addr, Size: prog.size})
			last.ps = prog.addr
		}
		stages := []*shader.Program{prog.prog}
		if k == 0 {
			stages = []*shader.Program{vs.prog, prog.prog}
		}
		for _, p := range stages {
			consts := env.fill(p, mat)
			if len(consts) == 0 {
				continue
			}
			stage := command.PixelStage
			if p.Stage == shader.VertexStage {
				stage = command.VertexStage
			}
			addr := e.mem.Put(vec4Bytes(consts), 256)
			e.cmd.Append(command.SetConstants{Stage: stage, First: 0, Count: uint32(len(consts)), Addr: addr})
		}
		if k == 0 {
			e.bindTextures(mat, lm.VS, command.VertexStage, last)
		}
		e.bindTextures(mat, prog.prog, command.PixelStage, last)
		for r, tex := range ps.Inputs {
			unit, ok := prog.prog.SamplerUnit(multipass.IntermediateName(tex))
			if !ok {
				return fmt.Errorf("pass %d: no sampler for restored value %d", k+1, r)
			}
			desc := e.inter[tex].desc
			if last.valid && last.texture[command.PixelStage][unit] == desc {
				continue
			}
			e.cmd.Append(command.BindTexture{Stage: command.PixelStage, Slot: uint32(unit), Desc: desc,
				Filter: uint32(texture.Point), AddressU: uint32(texture.Clamp), AddressV: uint32(texture.Clamp),
				AddressW: uint32(texture.Clamp), MinLOD: 0, MaxLOD: 0})
			last.texture[command.PixelStage][unit] = desc
		}
		if !last.valid || obj.Mesh != last.mesh || last.adjacency {
			e.cmd.Append(mb.layout)
			e.cmd.Append(mb.vb)
			e.cmd.Append(mb.ib)
			last.mesh, last.adjacency = obj.Mesh, false
		}
		e.setTopology(command.TriangleList, last)
		last.valid = true
		e.cmd.Append(command.DrawIndexed{IndexCount: mb.count})
		e.draws++
		e.estimates = append(e.estimates, e.drawEstimate(obj, env.mvp, mat.State))
		e.triangles += int(mb.count / 3)
		if !final {
			if e.passSync == 0 {
				e.passSync = e.mem.Alloc(4, 16)
			}
			e.syncs++
			e.cmd.Append(command.SyncToken{Value: uint32(e.syncs), Addr: e.passSync})
		}
	}
	e.multi = append(e.multi, MultipassDraw{Object: i, Material: mat.Name, Shader: sp.sh.Prog.Name, Passes: part.NumPasses(),
		Textures: part.Textures, Cost: part.Cost, Single: sp.single, Total: part.Total})
	return nil
}

// bindTextures binds the material's textures that program p samples, by
// sampler name, to p's units.
func (e *encoder) bindTextures(mat *scene.Material, p *shader.Program, stage command.Stage, last *drawState) {
	for _, b := range mat.Textures {
		unit, ok := p.SamplerUnit(b.Sampler)
		if !ok {
			continue
		}
		desc := e.texDesc[b.Texture]
		if last.valid && last.texture[stage][unit] == desc {
			continue
		}
		t := &e.s.Textures[b.Texture]
		e.cmd.Append(command.BindTexture{Stage: stage, Slot: uint32(unit), Desc: desc, Filter: uint32(t.Filter),
			AddressU: uint32(t.AddressU), AddressV: uint32(t.AddressV), AddressW: uint32(t.AddressW),
			LODBias: t.LODBias, MinLOD: t.MinLOD, MaxLOD: t.MaxLOD, MaxAnisotropy: uint32(t.MaxAnisotropy),
			Border: t.Border})
		last.texture[stage][unit] = desc
	}
}
