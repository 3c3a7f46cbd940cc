package multipass

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/gfxsim/gfxsim/functional/shader"
)

// Options control Analyze.
type Options struct {
	// ExactDerivatives forbids saving any value that a derivative reads: the
	// operand of DDX and DDY and the coordinate of TEX and TEXB (whose LOD
	// comes from its quad derivatives) are recomputed, with everything they
	// depend on, in the pass that takes the derivative. A restored value is
	// exact in the lanes that were stored, but the helper lanes of a quad
	// (and lanes covered by a neighbouring triangle) fetch another
	// fragment's value, so a derivative of a restored value, and with it the
	// mip level, could differ from the single pass. The render path sets it;
	// the document's simulated architecture does not.
	ExactDerivatives bool
}

// Shader is a fragment program prepared for partitioning: normalized to one
// output instruction, dead code removed, with its operation DAG. It is the
// back end (VALID by code generation and register allocation) for gfxsim's
// ISA. A Shader is immutable; Problem gives each caller its own scratch.
type Shader struct {
	// Source is the program given to Analyze; Prog the normalized program the
	// nodes index (node i is Prog.Code[i]; the last instruction writes o0).
	Source *shader.Program
	Prog   *shader.Program
	Graph  *Graph
	// Removed counts the instructions removed as dead code; Appended is true
	// when a final "mov o0, rT" was added because several instructions (or
	// one with a partial mask) wrote o0.
	Removed  int
	Appended bool

	srcs    [][shader.MaxSources]source // per node and source operand
	info    []NodeInfo
	posReg  int  // input register of sv_position in the generated passes
	posDecl bool // the program declares sv_position itself
	invReg  int  // constant register of inv_target_size in the generated passes
}

// source is what one temp source operand reads: its producer nodes and
// whether it reads a component never written before (a temp reads 0 then).
type source struct {
	temp      bool
	prods     []int
	entry     bool
	entryMask uint8 // the register components read before any write
}

// The generated passes' interface to the driver.
const (
	// InvTargetSizeName is the constant block (one register) a pass that
	// restores reads: (1/width, 1/height, 0, 0) of the render target.
	InvTargetSizeName = "inv_target_size"
	// IntermediatePrefix starts the sampler name of intermediate texture k
	// ("intermediate0", "intermediate1", ...).
	IntermediatePrefix = "intermediate"
)

// IntermediateName returns the sampler name of intermediate texture k.
func IntermediateName(k int) string { return fmt.Sprintf("%s%d", IntermediatePrefix, k) }

// Analyze prepares a validated pixel shader for partitioning. It rejects
// what a multipass split cannot reproduce: KIL (a pass cannot discard a
// fragment for the later passes), oDepth, and outputs other than o0.
func Analyze(p *shader.Program, o Options) (*Shader, error) {
	if p == nil {
		return nil, fmt.Errorf("multipass: no program")
	}
	name := p.Name
	if name == "" {
		name = "shader"
	}
	errAt := func(i int, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s: %s", name, p.Code[i].Line, p.Code[i].String(), fmt.Sprintf(format, a...))
	}
	if p.Stage != shader.PixelStage {
		return nil, fmt.Errorf("%s: multipass: a %v shader; only pixel shaders are partitioned", name, p.Stage)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var writers []int
	used := [shader.MaxTemps]bool{}
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op == shader.OpKil {
			return nil, errAt(i, "multipass: KIL is not supported (a pass cannot discard the fragment for the other passes)")
		}
		if in.Op.HasDest() {
			switch in.Dst.File {
			case shader.FileDepth:
				return nil, errAt(i, "multipass: writing oDepth is not supported")
			case shader.FileOutput:
				if in.Dst.Index != 0 {
					return nil, errAt(i, "multipass: only one output (o0) per shader is supported")
				}
				writers = append(writers, i)
			case shader.FileTemp:
				used[in.Dst.Index] = true
			}
		}
		for s := 0; s < in.Op.NumSources(); s++ {
			if in.Src[s].File == shader.FileTemp {
				used[in.Src[s].Index] = true
			}
		}
	}
	if len(writers) == 0 {
		return nil, fmt.Errorf("%s: multipass: the program never writes o0", name)
	}
	code := slices.Clone(p.Code)
	sh := &Shader{Source: p}
	if len(writers) > 1 || code[writers[0]].Dst.Mask != shader.MaskXYZW {
		t := -1
		for r := range used {
			if !used[r] {
				t = r
				break
			}
		}
		if t < 0 {
			return nil, errAt(writers[0], "multipass: o0 is written in parts and no free temporary is left to assemble it")
		}
		for _, w := range writers {
			code[w].Dst.File, code[w].Dst.Index = shader.FileTemp, t
		}
		last := writers[len(writers)-1]
		code = append(code, shader.Instr{Op: shader.OpMov, Dst: shader.Dst{File: shader.FileOutput, Mask: shader.MaskXYZW},
			Src:  [shader.MaxSources]shader.Src{{File: shader.FileTemp, Index: t, Swizzle: shader.IdentitySwizzle}},
			Line: code[last].Line})
		sh.Appended = true
	} else {
		code = code[:writers[0]+1] // what follows the only write of o0 is dead
	}
	// Dead code: keep what the output depends on.
	norm := *p
	norm.Code = code
	deps := norm.Dependencies()
	live := make([]bool, len(code))
	live[len(code)-1] = true
	for i := len(code) - 1; i >= 0; i-- {
		if live[i] {
			for _, d := range deps[i] {
				live[d] = true
			}
		}
	}
	newIndex := make([]int, len(code))
	var kept []shader.Instr
	for i, in := range code {
		newIndex[i] = -1
		if live[i] {
			newIndex[i] = len(kept)
			kept = append(kept, in)
		}
	}
	sh.Removed = len(p.Code) - len(kept)
	if sh.Appended {
		sh.Removed++
	}
	prog := &shader.Program{Stage: p.Stage, Name: p.Name, Code: kept, Inputs: p.Inputs, Outputs: p.Outputs,
		Consts: p.Consts, Params: p.Params, Defs: p.Defs, Samplers: p.Samplers}
	if err := prog.Validate(); err != nil {
		return nil, fmt.Errorf("%s: multipass: normalized program: %w", name, err)
	}
	sh.Prog = prog
	n := len(kept)
	// Producers of every temp source component (reaching definitions).
	var lastDef [shader.MaxTemps][4]int
	for r := range lastDef {
		lastDef[r] = [4]int{-1, -1, -1, -1}
	}
	sh.srcs = make([][shader.MaxSources]source, n)
	sh.info = make([]NodeInfo, n)
	kids := make([][]int, n)
	system := map[int]bool{}
	for _, d := range p.Inputs {
		if d.IsSystemValue() {
			system[d.Reg] = true
		}
	}
	for i := range kept {
		in := &kept[i]
		if in.Op.Class() == shader.ClassTexture {
			sh.info[i].Tex = true
			sh.info[i].Units = 1 << uint(in.Sampler)
		}
		for s := 0; s < in.Op.NumSources(); s++ {
			src := &in.Src[s]
			switch src.File {
			case shader.FileInput:
				if !system[src.Index] {
					sh.info[i].Varyings |= 1 << uint(src.Index)
				}
			case shader.FileTemp:
				so := source{temp: true}
				m := in.ReadMask(s)
				for c := 0; c < 4; c++ {
					if m&(1<<c) == 0 {
						continue
					}
					d := lastDef[src.Index][c]
					if d < 0 {
						so.entry = true
						so.entryMask |= 1 << c
					} else if !slices.Contains(so.prods, d) {
						so.prods = append(so.prods, d)
					}
				}
				slices.Sort(so.prods)
				sh.srcs[i][s] = so
				kids[i] = append(kids[i], so.prods...)
			}
		}
		if in.Op.HasDest() && in.Dst.File == shader.FileTemp {
			for c := 0; c < 4; c++ {
				if in.Dst.Mask&(1<<c) != 0 {
					lastDef[in.Dst.Index][c] = i
				}
			}
		}
	}
	var noSave []bool
	if o.ExactDerivatives {
		noSave = make([]bool, n)
		for i := n - 1; i >= 0; i-- {
			switch kept[i].Op {
			case shader.OpDdx, shader.OpDdy, shader.OpTex, shader.OpTexb:
				for _, d := range sh.srcs[i][0].prods {
					noSave[d] = true
				}
			}
			if noSave[i] {
				for s := range sh.srcs[i] {
					for _, d := range sh.srcs[i][s].prods {
						noSave[d] = true
					}
				}
			}
		}
	}
	g, err := NewGraph(kids, noSave)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	sh.Graph = g
	// Registers the generated passes add: sv_position and inv_target_size.
	sh.posReg = -1
	declared := [shader.MaxInputs]bool{}
	for _, d := range p.Inputs {
		declared[d.Reg] = true
		if d.Semantic == shader.SemanticPosition {
			sh.posReg, sh.posDecl = d.Reg, true
		}
	}
	if sh.posReg < 0 {
		for r := range declared {
			if !declared[r] {
				sh.posReg = r
				break
			}
		}
	}
	sh.invReg = p.NumConstants()
	return sh, nil
}

// Describe names node i for messages: "file:line: instruction".
func (sh *Shader) Describe(i int) string {
	in := &sh.Prog.Code[i]
	return fmt.Sprintf("%s:%d: %s", sh.Prog.Name, in.Line, in.String())
}

// Problem returns the partitioning problem of the shader on a machine with
// the given limits and cost model. Each Problem has its own back end scratch
// space; use one per goroutine.
func (sh *Shader) Problem(l Limits, c CostModel) *Problem {
	return &Problem{Graph: sh.Graph, Backend: newGen(sh), Limits: l, Cost: c}
}

// Stats is a shader's line of the document's Table 1.
type Stats struct {
	Nodes        int // n: operations plus leaves (distinct inputs and constants read)
	Operations   int
	Leaves       int
	MR           int // k: multiply-referenced operations
	MRLeaves     int // multiply-referenced leaves
	NonTexture   int // non-texture operations
	Texture      int // texture operations
	Registers    int // temporaries of the single pass after register allocation
	TexUnits     int
	Interpolants int
	TexDepth     int
}

// SingleUsage returns the usage of the whole shader as one pass.
func (sh *Shader) SingleUsage() Usage {
	n := sh.Graph.N()
	region := make([]int, n)
	for i := range region {
		region[i] = i
	}
	return newGen(sh).Pass(n-1, region, nil)
}

// Stats returns the shader's Table 1 figures: resources of the whole program
// as one pass, generated and allocated like any pass.
func (sh *Shader) Stats() Stats {
	n := sh.Graph.N()
	u := sh.SingleUsage()
	st := Stats{Operations: n, MR: len(sh.Graph.MRNodes()), Texture: u.TexFetches, NonTexture: u.Other(),
		Registers: u.Registers, TexUnits: u.TexUnits, Interpolants: u.Interpolants, TexDepth: u.TexDepth}
	type leaf struct {
		file  shader.RegFile
		index int
	}
	readers := map[leaf]map[int]bool{}
	var order []leaf
	for i := range sh.Prog.Code {
		in := &sh.Prog.Code[i]
		for s := 0; s < in.Op.NumSources(); s++ {
			src := &in.Src[s]
			if src.File != shader.FileInput && src.File != shader.FileConst {
				continue
			}
			l := leaf{src.File, src.Index}
			if readers[l] == nil {
				readers[l] = map[int]bool{}
				order = append(order, l)
			}
			readers[l][i] = true
		}
	}
	st.Leaves = len(order)
	for _, l := range order {
		if len(readers[l]) >= 2 {
			st.MRLeaves++
		}
	}
	st.Nodes = st.Operations + st.Leaves
	return st
}

// gen generates passes: the Backend of a Shader's problems.
type gen struct {
	sh *Shader
	// scratch
	state  []int8  // 0 absent, 1 computed, 2 restored
	emit   []int   // nodes in emission order
	parent []int   // union-find over definitions: nodes, initial-zero webs n+r, the address n+MaxTemps
	seen   []int32 // seen[x] == epoch: x is a definition of the current pass
	epoch  int32
	start  []int
	end    []int
	color  []int
	webs   []int
	roots  []int
	mask   []uint8 // components of each definition (folded into the web's root)
	busy   [][4]int
	depth  []int
}

func newGen(sh *Shader) *gen {
	n := sh.Graph.N()
	m := n + shader.MaxTemps + 1 // + the restore address
	g := &gen{sh: sh, state: make([]int8, n), parent: make([]int, m), seen: make([]int32, m),
		start: make([]int, m), end: make([]int, m), color: make([]int, m), mask: make([]uint8, m), depth: make([]int, n)}
	return g
}

// Node implements Backend.
func (g *gen) Node(i int) NodeInfo { return g.sh.info[i] }

// Describe names node i (for ImpossibleError).
func (g *gen) Describe(i int) string { return g.sh.Describe(i) }

func (g *gen) find(x int) int {
	for g.parent[x] != x {
		g.parent[x] = g.parent[g.parent[x]]
		x = g.parent[x]
	}
	return x
}

func (g *gen) union(a, b int) {
	a, b = g.find(a), g.find(b)
	if a != b {
		if a > b {
			a, b = b, a
		}
		g.parent[b] = a
	}
}

// Pass implements Backend: it generates the pass and allocates its registers.
func (g *gen) Pass(root int, region, restored []int) Usage {
	u, _ := g.generate(root, region, restored)
	return u
}

// generate lays out the pass: the nodes in program order, a restore (texl
// from the value's intermediate texture at the pixel's screen position) in
// place of each restored node, and one "mul" computing that position just
// before the first restore. Definitions that reach a common use form a web
// and share a register (a use that reads a component never written joins the
// web of the register's initial zeros, live from the start); registers are
// allocated by colouring the webs' live intervals in order of their starts,
// which is optimal for straight-line code. It returns the usage and the
// emission order (node numbers, -1 for the address mul); afterwards
// g.color[w] is the register of each definition w (node, initial-zero web
// n+r, or the address web n+MaxTemps).
func (g *gen) generate(root int, region, restored []int) (Usage, []int) {
	sh := g.sh
	n := sh.Graph.N()
	addr := n + shader.MaxTemps
	for _, v := range region {
		g.state[v] = 1
	}
	for _, v := range restored {
		g.state[v] = 2
	}
	defer func() {
		for _, v := range region {
			g.state[v] = 0
		}
		for _, v := range restored {
			g.state[v] = 0
		}
	}()
	g.epoch++
	if g.epoch == 1<<30 {
		clear(g.seen)
		g.epoch = 1
	}
	g.emit = g.emit[:0]
	i, j := 0, 0
	for i < len(region) || j < len(restored) {
		if j < len(restored) && (i == len(region) || restored[j] < region[i]) {
			if j == 0 {
				g.emit = append(g.emit, -1)
			}
			g.emit = append(g.emit, restored[j])
			j++
		} else {
			g.emit = append(g.emit, region[i])
			i++
		}
	}
	u := Usage{Ops: len(g.emit), Restores: len(restored)}
	g.webs = g.webs[:0]
	web := func(x, start int, mask uint8) {
		if g.seen[x] != g.epoch {
			g.seen[x] = g.epoch
			g.parent[x] = x
			g.start[x], g.end[x], g.mask[x] = start, -1, 0
			g.webs = append(g.webs, x)
		}
		g.mask[x] |= mask
	}
	var units, vars uint64
	inputs := [shader.MaxInputs]bool{}
	maxDepth := 0
	for k, v := range g.emit {
		switch {
		case v < 0:
			web(addr, 2*k+1, shader.MaskXYZW)
			continue
		case g.state[v] == 2:
			web(v, 2*k+1, sh.Prog.Code[v].Dst.Mask)
			g.end[addr] = max(g.end[addr], 2*k)
			u.TexFetches++
			g.depth[v] = 1
			maxDepth = max(maxDepth, 1)
			continue
		}
		in := &sh.Prog.Code[v]
		if v != root {
			web(v, 2*k+1, in.Dst.Mask)
		}
		d := 0
		for s := 0; s < in.Op.NumSources(); s++ {
			src := &in.Src[s]
			switch src.File {
			case shader.FileInput:
				inputs[src.Index] = true
			case shader.FileTemp:
				so := &sh.srcs[v][s]
				first := -1
				for _, p := range so.prods {
					d = max(d, g.depth[p])
					if first < 0 {
						first = p
					} else {
						g.union(first, p)
					}
				}
				if so.entry {
					e := n + src.Index
					web(e, -1, so.entryMask)
					if first < 0 {
						first = e
					} else {
						g.union(first, e)
					}
				}
				g.end[first] = max(g.end[first], 2*k) // folded into the web's root below
			}
		}
		if in.Op.Class() == shader.ClassTexture {
			u.TexFetches++
			units |= 1 << uint(in.Sampler)
			d++
			maxDepth = max(maxDepth, d)
		}
		g.depth[v] = d
		vars |= sh.info[v].Varyings
	}
	for _, w := range g.webs {
		if r := g.find(w); r != w {
			g.start[r] = min(g.start[r], g.start[w])
			g.end[r] = max(g.end[r], g.end[w])
			g.mask[r] |= g.mask[w]
		}
	}
	g.roots = g.roots[:0]
	for _, w := range g.webs {
		if g.find(w) == w {
			g.roots = append(g.roots, w)
		}
	}
	slices.SortFunc(g.roots, func(a, b int) int {
		if g.start[a] != g.start[b] {
			return g.start[a] - g.start[b]
		}
		return a - b
	})
	// Colour: a web takes the lowest register whose components it writes
	// are all free from its start (webs of disjoint components share a
	// register, as the x and y of one register hold two scalars).
	g.busy = g.busy[:0]
	for _, w := range g.roots {
		c := -1
		for k := range g.busy {
			ok := true
			for comp := 0; comp < 4; comp++ {
				if g.mask[w]&(1<<comp) != 0 && g.busy[k][comp] >= g.start[w] {
					ok = false
					break
				}
			}
			if ok {
				c = k
				break
			}
		}
		if c < 0 {
			c = len(g.busy)
			g.busy = append(g.busy, [4]int{-2, -2, -2, -2})
		}
		for comp := 0; comp < 4; comp++ {
			if g.mask[w]&(1<<comp) != 0 {
				g.busy[c][comp] = max(g.end[w], g.start[w])
			}
		}
		g.color[w] = c
	}
	for _, w := range g.webs {
		g.color[w] = g.color[g.find(w)]
	}
	u.Registers = len(g.busy)
	u.TexUnits = bits.OnesCount64(units) + u.Restores
	u.Interpolants = bits.OnesCount64(vars)
	if u.Restores > 0 {
		u.Interpolants++
		if sh.posReg < 0 {
			u.Inputs = shader.MaxInputs + 1 // no input register left for the screen position
		} else {
			inputs[sh.posReg] = true
		}
	}
	for _, b := range inputs {
		if b {
			u.Inputs++
		}
	}
	u.TexDepth = maxDepth
	return u, g.emit
}
