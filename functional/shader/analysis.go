package shader

import "slices"

// SourceMask returns the components of the swizzled source operand s that the
// instruction reads (operand space, before the swizzle maps them to register
// components): the write mask for component-wise instructions, x for the
// scalar ones (RCP RSQ EX2 LG2 POW SIN COS), xyz for DP3, xyzw for DP4 and
// KIL, and for texture instructions the coordinate components of the
// sampler's type (xy, or xyz when TexCoords is 3), plus w (the LOD or bias)
// for TEXB and TEXL, and the same components of both gradients for TEXD. It
// is 0 for s outside the instruction's sources.
func (in *Instr) SourceMask(s int) uint8 {
	if s < 0 || s >= in.Op.NumSources() {
		return 0
	}
	switch in.Op.info().shape {
	case shapeComponent:
		return in.Dst.Mask
	case shapeScalar:
		return MaskX
	case shapeDot3:
		return MaskXYZ
	case shapeDot4, shapeKill:
		return MaskXYZW
	case shapeTex:
		if s == 0 && (in.Op == OpTexb || in.Op == OpTexl) {
			return in.texCoordMask() | MaskW
		}
		return in.texCoordMask()
	}
	return 0
}

// RegRef is a register and a set of its components (bit c: component c).
type RegRef struct {
	File  RegFile
	Index int
	Mask  uint8
}

// Reads appends to out the registers the instruction reads, one entry per
// source operand in operand order, with the register components actually read
// (after the swizzle). Constants are included; the sampler is not (see
// Instr.Sampler and Opcode.UsesSampler).
func (in *Instr) Reads(out []RegRef) []RegRef {
	for s := 0; s < in.Op.NumSources(); s++ {
		out = append(out, RegRef{File: in.Src[s].File, Index: in.Src[s].Index, Mask: in.ReadMask(s)})
	}
	return out
}

// ReadMask returns the components of source s's register that the
// instruction reads: SourceMask(s) through the swizzle.
func (in *Instr) ReadMask(s int) uint8 {
	need := in.SourceMask(s)
	var m uint8
	for c := 0; c < 4; c++ {
		if need&(1<<c) != 0 {
			m |= 1 << (in.Src[s].Swizzle[c] & 3)
		}
	}
	return m
}

// TempRead returns the temp register source s reads and the components it
// reads (ReadMask); ok is false for another register file or a temp out of
// range.
func (in *Instr) TempRead(s int) (reg int, mask uint8, ok bool) {
	src := &in.Src[s]
	if src.File != FileTemp || src.Index < 0 || src.Index >= MaxTemps {
		return 0, 0, false
	}
	return src.Index, in.ReadMask(s), true
}

// Writes returns the register and components the instruction writes (false
// for KIL, which writes only the killed mask).
func (in *Instr) Writes() (RegRef, bool) {
	if !in.Op.HasDest() {
		return RegRef{}, false
	}
	return RegRef{File: in.Dst.File, Index: in.Dst.Index, Mask: in.Dst.Mask}, true
}

// Resources summarizes what a program needs from the hardware: the numbers a
// shader core allocates by and a multipass partitioner checks against.
type Resources struct {
	Instructions int // all instructions
	ALU          int // instructions executed by the shader ALUs: all but texture fetches
	SFU          int // of which transcendental (RCP RSQ EX2 LG2 POW SIN COS)
	TexFetches   int // TEX TEXB TEXL TEXD instructions
	Temps        int // temporaries allocated: highest r index used + 1
	MaxLiveTemps int // most temporaries holding a live value at one point
	Inputs       int // declared inputs (system values included)
	Interpolants int // PS: declared inputs that are not system values; VS: outputs other than o0 and position_end
	Outputs      int // declared outputs o0..o15 (oDepth is WritesDepth)
	Constants    int // constant registers: NumConstants
	Samplers     int // declared samplers
	Discards     bool
	WritesDepth  bool
	// TexDependencyDepth is the longest chain of dependent texture fetches:
	// 0 without fetches, 1 when no fetch coordinate depends on a fetch
	// result, n+1 when one depends on a chain of n.
	TexDependencyDepth int
}

// Resources computes the program's resource usage.
func (p *Program) Resources() Resources {
	var r Resources
	r.Instructions = len(p.Code)
	r.Inputs = len(p.Inputs)
	for _, d := range p.Inputs {
		if p.Stage == PixelStage && !d.IsSystemValue() {
			r.Interpolants++
		}
	}
	for _, d := range p.Outputs {
		if d.File == FileOutput {
			r.Outputs++
			if p.Stage == VertexStage && d.Index != 0 && d.Semantic != SemanticPositionEnd {
				r.Interpolants++
			}
		}
	}
	r.Constants = p.NumConstants()
	r.Samplers = len(p.Samplers)

	var texDepth [MaxTemps][4]int
	for i := range p.Code {
		in := &p.Code[i]
		switch in.Op.Class() {
		case ClassTexture:
			r.TexFetches++
		case ClassSFU:
			r.SFU++
		case ClassKill:
			r.Discards = true
		}
		if in.Op.HasDest() {
			switch in.Dst.File {
			case FileTemp:
				if in.Dst.Index >= 0 && in.Dst.Index < MaxTemps {
					r.Temps = max(r.Temps, in.Dst.Index+1)
				}
			case FileDepth:
				r.WritesDepth = true
			}
		}
		depth := 0
		for s := 0; s < in.Op.NumSources(); s++ {
			reg, m, ok := in.TempRead(s)
			if !ok {
				continue
			}
			r.Temps = max(r.Temps, reg+1)
			for c := 0; c < 4; c++ {
				if m&(1<<c) != 0 {
					depth = max(depth, texDepth[reg][c])
				}
			}
		}
		if in.Op.Class() == ClassTexture {
			depth++
			r.TexDependencyDepth = max(r.TexDependencyDepth, depth)
		}
		if in.Op.HasDest() && in.Dst.File == FileTemp && in.Dst.Index >= 0 && in.Dst.Index < MaxTemps {
			for c := 0; c < 4; c++ {
				if in.Dst.Mask&(1<<c) != 0 {
					texDepth[in.Dst.Index][c] = depth
				}
			}
		}
	}
	r.ALU = r.Instructions - r.TexFetches
	r.MaxLiveTemps = p.maxLiveTemps()
	return r
}

// maxLiveTemps runs a backward liveness pass over temp components and returns
// the largest number of temporaries live at once; an instruction's
// destination counts as live where it is written.
func (p *Program) maxLiveTemps() int {
	var live [MaxTemps]uint8
	count := func() int {
		n := 0
		for _, m := range live {
			if m != 0 {
				n++
			}
		}
		return n
	}
	best := 0
	for i := len(p.Code) - 1; i >= 0; i-- {
		in := &p.Code[i]
		dstTemp := in.Op.HasDest() && in.Dst.File == FileTemp && in.Dst.Index >= 0 && in.Dst.Index < MaxTemps
		if dstTemp {
			// Live across the write: the live-out set plus the destination.
			n := count()
			if live[in.Dst.Index] == 0 {
				n++
			}
			best = max(best, n)
			live[in.Dst.Index] &^= in.Dst.Mask
		}
		for s := 0; s < in.Op.NumSources(); s++ {
			if reg, m, ok := in.TempRead(s); ok {
				live[reg] |= m
			}
		}
		best = max(best, count())
	}
	return best
}

// Dependencies returns the operation DAG of the program: for each
// instruction, the indices (ascending) of the earlier instructions whose
// results it reads, by reaching definitions of temp components. Reads of
// inputs and constants, and of temp components never written before, have no
// producer.
func (p *Program) Dependencies() [][]int {
	var lastDef [MaxTemps][4]int
	for r := range lastDef {
		lastDef[r] = [4]int{-1, -1, -1, -1}
	}
	deps := make([][]int, len(p.Code))
	for i := range p.Code {
		in := &p.Code[i]
		var d []int
		for s := 0; s < in.Op.NumSources(); s++ {
			reg, m, ok := in.TempRead(s)
			if !ok {
				continue
			}
			for c := 0; c < 4; c++ {
				if j := lastDef[reg][c]; m&(1<<c) != 0 && j >= 0 && !slices.Contains(d, j) {
					d = append(d, j)
				}
			}
		}
		slices.Sort(d)
		deps[i] = d
		if in.Op.HasDest() && in.Dst.File == FileTemp && in.Dst.Index >= 0 && in.Dst.Index < MaxTemps {
			for c := 0; c < 4; c++ {
				if in.Dst.Mask&(1<<c) != 0 {
					lastDef[in.Dst.Index][c] = i
				}
			}
		}
	}
	return deps
}
