package shader

import (
	"errors"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// TexMode is how a texture request chooses its level of detail.
type TexMode uint8

// The modes.
const (
	TexImplicit TexMode = iota // from the quad derivatives of the coordinate (TEX)
	TexBias                    // implicit, plus LODOrBias (TEXB: coord.w)
	TexLOD                     // explicit LOD in LODOrBias (TEXL: coord.w; TEX in a vertex shader: 0)
	TexGrad                    // from the explicit gradients DDX, DDY (TEXD)
)

func (m TexMode) String() string {
	switch m {
	case TexImplicit:
		return "implicit"
	case TexBias:
		return "bias"
	case TexLOD:
		return "lod"
	case TexGrad:
		return "grad"
	}
	return "TexMode(?)"
}

// TexRequest is one lane's texture sample request. Coord holds the
// components the instruction reads (x, y, z when the sampler's type takes
// three coordinates, and w for TEXB/TEXL; the others are 0). DDX and DDY hold
// the screen-space derivatives of those coordinate components (xy or xyz):
// from the quad for TEX and TEXB in a pixel shader, the operands for TEXD,
// zero otherwise.
// Vertex is set for requests from a vertex shader, where TEX becomes TexLOD
// with LOD 0.
type TexRequest struct {
	Unit      int
	Mode      TexMode
	Coord     geom.Vec4
	DDX, DDY  geom.Vec4
	LODOrBias float32
	Vertex    bool
}

// TextureSampler filters one texture request. The timed model can intercept
// requests by using TexRequests and CompleteTex instead.
type TextureSampler interface {
	SampleTexture(req *TexRequest) geom.Vec4
}

// Stats counts executed work. Instruction counts are per warp-instruction
// (one issue for all lanes); LaneInstructions and TexRequests are per lane,
// helper and killed lanes included.
type Stats struct {
	Instructions     uint64
	LaneInstructions uint64
	ALU              uint64 // ClassALU instructions
	SFU              uint64 // ClassSFU instructions
	Derivative       uint64 // ClassDerivative instructions
	Texture          uint64 // ClassTexture instructions
	Kill             uint64 // ClassKill instructions
	TexRequests      uint64 // lane texture requests
	Emits            uint64 // geometry shader: lane emits executed
	EmitsDropped     uint64 // of which beyond .max_vertices: dropped, not stored
}

// Add accumulates o into s.
func (s *Stats) Add(o Stats) {
	s.Instructions += o.Instructions
	s.LaneInstructions += o.LaneInstructions
	s.ALU += o.ALU
	s.SFU += o.SFU
	s.Derivative += o.Derivative
	s.Texture += o.Texture
	s.Kill += o.Kill
	s.TexRequests += o.TexRequests
	s.Emits += o.Emits
	s.EmitsDropped += o.EmitsDropped
}

// maxSlots is the largest per-lane register layout: all temps, inputs,
// outputs and oDepth.
const maxSlots = MaxTemps + MaxInputs + MaxOutputs + 1

// Warp is the execution state of one program over up to MaxLanes lanes that
// run in lockstep. In a pixel shader each aligned group of 4 lanes is a quad
// in pixel order (0,0), (1,0), (0,1), (1,1).
//
// Live, Helper and Killed are lane masks (bit i: lane i). Reset sets Live to
// lanes [0,Lanes) and clears Helper and Killed; the caller marks helper
// pixels; KIL sets Killed. Every lane in [0,Lanes) executes every instruction
// regardless of the masks (helpers and killed lanes provide derivatives); the
// caller stores the outputs of the lanes in StoreMask.
//
// Stats accumulates over Resets; clear it when needed.
type Warp struct {
	Lanes                int
	Live, Helper, Killed uint64
	Stats                Stats

	prog   *Program
	consts []geom.Vec4
	pc     int
	err    error
	stride int       // lane capacity: distance between components in regs
	regs   []float32 // regs[(slot*4+comp)*stride + lane]

	view    [MaxSources][4][]float32 // per source, per operand component: lanes
	scratch [MaxSources][4][MaxLanes]float32
	tmp     [MaxLanes]float32
	result  [4][MaxLanes]float32
	req     TexRequest
	gs      gsBuffer // geometry shaders: the emitted vertices
}

// NewWarp returns a warp with registers for maxLanes lanes (clamped to
// [1, MaxLanes]) and any program, so that Reset never allocates for up to
// maxLanes lanes.
func NewWarp(maxLanes int) *Warp {
	maxLanes = min(max(maxLanes, 1), MaxLanes)
	return &Warp{stride: maxLanes, regs: make([]float32, maxSlots*4*maxLanes)}
}

// ErrNoProgram is the fault of a warp reset without a program.
var ErrNoProgram = errors.New("shader: warp reset without a program")

// Reset prepares the warp to run p over lanes lanes (clamped to
// [0, MaxLanes]) with the constant buffer consts (registers past its end read
// as 0; the warp keeps the slice, so do not change it during the run). All
// registers are zeroed. It allocates only when lanes exceeds the capacity
// given to NewWarp. A program that was not validated is validated here; if it
// is invalid the warp faults: Done reports true and Err returns the error.
func (w *Warp) Reset(p *Program, lanes int, consts []geom.Vec4) {
	lanes = min(max(lanes, 0), MaxLanes)
	w.prog, w.consts, w.pc, w.err = p, consts, 0, nil
	w.Lanes = lanes
	w.Live, w.Helper, w.Killed = laneMask(lanes), 0, 0
	if p == nil {
		w.err = ErrNoProgram
		return
	}
	if !p.layout.valid {
		if err := p.Validate(); err != nil {
			w.err = err
			return
		}
	}
	if lanes > w.stride || w.regs == nil {
		w.stride = max(lanes, w.stride, 1)
		w.regs = make([]float32, maxSlots*4*w.stride)
	}
	n := p.layout.slots() * 4 * w.stride
	clear(w.regs[:n])
	if p.Stage == GeometryStage {
		w.gs.reset(lanes, p.Geometry.MaxVertices, p.layout.outputs)
	}
}

func laneMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// Program returns the program of the last Reset.
func (w *Warp) Program() *Program { return w.prog }

// Err returns the fault of the last Reset (nil when the program is valid).
func (w *Warp) Err() error { return w.err }

// PC returns the index of the next instruction.
func (w *Warp) PC() int { return w.pc }

// Done reports whether the program has finished (or the warp faulted).
func (w *Warp) Done() bool {
	return w.err != nil || w.prog == nil || w.pc >= len(w.prog.exec)
}

// StoreMask returns the lanes whose outputs are stored: live, not helper, not
// killed.
func (w *Warp) StoreMask() uint64 { return w.Live &^ w.Helper &^ w.Killed }

// SetInput sets input register reg of lane. Out-of-range lanes or registers,
// and registers the program does not use, are ignored.
func (w *Warp) SetInput(lane, reg int, v geom.Vec4) {
	if w.err != nil || w.prog == nil || lane < 0 || lane >= w.Lanes || reg < 0 || reg >= w.prog.layout.inputs {
		return
	}
	base := (w.prog.layout.inputBase()+reg)*4*w.stride + lane
	w.regs[base] = v[0]
	w.regs[base+w.stride] = v[1]
	w.regs[base+2*w.stride] = v[2]
	w.regs[base+3*w.stride] = v[3]
}

// Input returns input register reg of lane ((0,0,0,0) when out of range).
func (w *Warp) Input(lane, reg int) geom.Vec4 {
	if w.err != nil || w.prog == nil || lane < 0 || lane >= w.Lanes || reg < 0 || reg >= w.prog.layout.inputs {
		return geom.Vec4{}
	}
	return w.lane(w.prog.layout.inputBase()+reg, lane)
}

// Output returns output register oN (reg = N) of lane ((0,0,0,0) when out of
// range; unwritten components are 0).
func (w *Warp) Output(lane, reg int) geom.Vec4 {
	if w.err != nil || w.prog == nil || lane < 0 || lane >= w.Lanes || reg < 0 || reg >= w.prog.layout.outputs {
		return geom.Vec4{}
	}
	return w.lane(w.prog.layout.outputBase()+reg, lane)
}

// Depth returns oDepth of lane (0 when out of range or unwritten).
func (w *Warp) Depth(lane int) float32 {
	if w.err != nil || w.prog == nil || lane < 0 || lane >= w.Lanes {
		return 0
	}
	return w.regs[w.prog.layout.depthSlot()*4*w.stride+lane]
}

// Temp returns temporary register rN of lane, for debugging and tests.
func (w *Warp) Temp(lane, reg int) geom.Vec4 {
	if w.err != nil || w.prog == nil || lane < 0 || lane >= w.Lanes || reg < 0 || reg >= w.prog.layout.temps {
		return geom.Vec4{}
	}
	return w.lane(reg, lane)
}

func (w *Warp) lane(slot, lane int) geom.Vec4 {
	base := slot*4*w.stride + lane
	return geom.Vec4{w.regs[base], w.regs[base+w.stride], w.regs[base+2*w.stride], w.regs[base+3*w.stride]}
}

// Run executes the program to completion. tex serves the texture
// instructions; with a nil tex they return (0,0,0,0).
func (w *Warp) Run(tex TextureSampler) {
	for !w.Done() {
		w.Step(tex)
	}
}

// Step executes one instruction for all lanes (a texture instruction is
// requested and completed at once through tex) and advances the PC.
func (w *Warp) Step(tex TextureSampler) {
	if w.Done() {
		return
	}
	e := &w.prog.exec[w.pc]
	n := w.Lanes
	w.count(e)
	for s := 0; s < int(e.nsrc); s++ {
		w.fetch(s, &e.src[s], n)
	}
	switch e.op {
	case OpKil:
		w.kill(n)
	case OpEmit:
		w.emit(w.Live)
	case OpEmitc:
		w.emit(w.Live & w.emitMask(n))
	case OpCut:
		for i := 0; i < n; i++ {
			w.gs.cut[i] = true
		}
	case OpTex, OpTexb, OpTexl, OpTexd:
		for i := 0; i < n; i++ {
			w.request(e, i, &w.req)
			var v geom.Vec4
			if tex != nil {
				v = tex.SampleTexture(&w.req)
			}
			w.result[0][i], w.result[1][i], w.result[2][i], w.result[3][i] = v[0], v[1], v[2], v[3]
		}
		w.writeResult(e, n)
	default:
		w.alu(e, n)
	}
	w.pc++
}

// TexRequests appends to out the lane requests of the current instruction,
// lane i at out[len(out)+i] for i in [0, Lanes), when it is a texture
// instruction (out is returned unchanged otherwise). The PC does not move:
// CompleteTex finishes the instruction.
func (w *Warp) TexRequests(out []TexRequest) []TexRequest {
	if w.Done() {
		return out
	}
	e := &w.prog.exec[w.pc]
	if e.op.Class() != ClassTexture {
		return out
	}
	n := w.Lanes
	for s := 0; s < int(e.nsrc); s++ {
		w.fetch(s, &e.src[s], n)
	}
	for i := 0; i < n; i++ {
		out = append(out, TexRequest{})
		w.request(e, i, &out[len(out)-1])
	}
	return out
}

// CompleteTex writes the sampled values of the current texture instruction
// (results[i] for lane i; missing lanes get (0,0,0,0)) with its write mask
// and saturate, counts it and advances the PC. It does nothing when the
// current instruction is not a texture instruction.
func (w *Warp) CompleteTex(results []geom.Vec4) {
	if w.Done() {
		return
	}
	e := &w.prog.exec[w.pc]
	if e.op.Class() != ClassTexture {
		return
	}
	n := w.Lanes
	w.count(e)
	for i := 0; i < n; i++ {
		var v geom.Vec4
		if i < len(results) {
			v = results[i]
		}
		w.result[0][i], w.result[1][i], w.result[2][i], w.result[3][i] = v[0], v[1], v[2], v[3]
	}
	w.writeResult(e, n)
	w.pc++
}

func (w *Warp) count(e *execInstr) {
	st := &w.Stats
	st.Instructions++
	st.LaneInstructions += uint64(w.Lanes)
	switch e.op.Class() {
	case ClassALU:
		st.ALU++
	case ClassSFU:
		st.SFU++
	case ClassDerivative:
		st.Derivative++
	case ClassTexture:
		st.Texture++
		st.TexRequests += uint64(w.Lanes)
	case ClassKill:
		st.Kill++
	}
}

func absf(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// fetch points w.view[s][c] at the n lane values of operand component c, for
// each component the instruction needs, applying swizzle and modifiers.
func (w *Warp) fetch(s int, es *execSrc, n int) {
	for c := 0; c < 4; c++ {
		if es.need&(1<<c) == 0 {
			continue
		}
		r := int(es.swz[c])
		buf := w.scratch[s][c][:n]
		if es.konst {
			var v float32
			if int(es.slot) < len(w.consts) {
				v = w.consts[es.slot][r]
			}
			if es.abs {
				v = absf(v)
			}
			if es.neg {
				v = -v
			}
			for i := range buf {
				buf[i] = v
			}
			w.view[s][c] = buf
			continue
		}
		base := (int(es.slot)*4 + r) * w.stride
		reg := w.regs[base : base+n]
		switch {
		case es.direct:
			w.view[s][c] = reg
			continue
		case es.abs && es.neg:
			for i, x := range reg {
				buf[i] = -absf(x)
			}
		case es.abs:
			for i, x := range reg {
				buf[i] = absf(x)
			}
		case es.neg:
			for i, x := range reg {
				buf[i] = -x
			}
		default:
			copy(buf, reg)
		}
		w.view[s][c] = buf
	}
}

// dst returns the n lanes of component c of the destination.
func (w *Warp) dst(e *execInstr, c, n int) []float32 {
	base := (int(e.dst)*4 + c) * w.stride
	return w.regs[base : base+n]
}

// saturate clamps to [0,1]; NaN becomes 0.
func saturate(d []float32) {
	for i, x := range d {
		if !(x > 0) {
			d[i] = 0
		} else if x > 1 {
			d[i] = 1
		}
	}
}

// broadcast writes w.tmp to every written component.
func (w *Warp) broadcast(e *execInstr, n int) {
	t := w.tmp[:n]
	for c := 0; c < 4; c++ {
		if e.mask&(1<<c) == 0 {
			continue
		}
		d := w.dst(e, c, n)
		copy(d, t)
		if e.sat {
			saturate(d)
		}
	}
}

func (w *Warp) alu(e *execInstr, n int) {
	switch e.op {
	case OpDp3:
		a0, a1, a2 := w.view[0][0][:n], w.view[0][1][:n], w.view[0][2][:n]
		b0, b1, b2 := w.view[1][0][:n], w.view[1][1][:n], w.view[1][2][:n]
		t := w.tmp[:n]
		for i := range t {
			t[i] = float32(float32(a0[i]*b0[i])+float32(a1[i]*b1[i])) + float32(a2[i]*b2[i])
		}
		w.broadcast(e, n)
		return
	case OpDp4:
		a0, a1, a2, a3 := w.view[0][0][:n], w.view[0][1][:n], w.view[0][2][:n], w.view[0][3][:n]
		b0, b1, b2, b3 := w.view[1][0][:n], w.view[1][1][:n], w.view[1][2][:n], w.view[1][3][:n]
		t := w.tmp[:n]
		for i := range t {
			t[i] = float32(float32(float32(a0[i]*b0[i])+float32(a1[i]*b1[i]))+float32(a2[i]*b2[i])) + float32(a3[i]*b3[i])
		}
		w.broadcast(e, n)
		return
	case OpRcp, OpRsq, OpEx2, OpLg2, OpSin, OpCos, OpPow:
		a := w.view[0][0][:n]
		t := w.tmp[:n]
		switch e.op {
		case OpRcp:
			for i, x := range a {
				t[i] = 1 / x
			}
		case OpRsq:
			for i, x := range a {
				t[i] = float32(1 / math.Sqrt(math.Abs(float64(x))))
			}
		case OpEx2:
			for i, x := range a {
				t[i] = float32(math.Exp2(float64(x)))
			}
		case OpLg2:
			for i, x := range a {
				t[i] = float32(math.Log2(math.Abs(float64(x))))
			}
		case OpSin:
			for i, x := range a {
				t[i] = float32(math.Sin(float64(x)))
			}
		case OpCos:
			for i, x := range a {
				t[i] = float32(math.Cos(float64(x)))
			}
		case OpPow:
			b := w.view[1][0][:n]
			for i, x := range a {
				t[i] = float32(math.Exp2(float64(b[i]) * math.Log2(math.Abs(float64(x)))))
			}
		}
		w.broadcast(e, n)
		return
	}
	vertex := w.prog.Stage != PixelStage
	for c := 0; c < 4; c++ {
		if e.mask&(1<<c) == 0 {
			continue
		}
		d := w.dst(e, c, n)
		a := w.view[0][c][:n]
		switch e.op {
		case OpMov:
			copy(d, a)
		case OpAdd:
			b := w.view[1][c][:n]
			for i := range d {
				d[i] = a[i] + b[i]
			}
		case OpMul:
			b := w.view[1][c][:n]
			for i := range d {
				d[i] = a[i] * b[i]
			}
		case OpMad:
			b, cc := w.view[1][c][:n], w.view[2][c][:n]
			for i := range d {
				d[i] = float32(a[i]*b[i]) + cc[i]
			}
		case OpMin:
			b := w.view[1][c][:n]
			for i := range d {
				x, y := a[i], b[i]
				if y < x || x != x {
					x = y
				}
				d[i] = x
			}
		case OpMax:
			b := w.view[1][c][:n]
			for i := range d {
				x, y := a[i], b[i]
				if y > x || x != x {
					x = y
				}
				d[i] = x
			}
		case OpSlt:
			b := w.view[1][c][:n]
			for i := range d {
				if a[i] < b[i] {
					d[i] = 1
				} else {
					d[i] = 0
				}
			}
		case OpSge:
			b := w.view[1][c][:n]
			for i := range d {
				if a[i] >= b[i] {
					d[i] = 1
				} else {
					d[i] = 0
				}
			}
		case OpFrc:
			for i := range d {
				x := a[i]
				d[i] = x - float32(math.Floor(float64(x)))
			}
		case OpFlr:
			for i := range d {
				d[i] = float32(math.Floor(float64(a[i])))
			}
		case OpLrp:
			b, cc := w.view[1][c][:n], w.view[2][c][:n]
			for i := range d {
				x := a[i]
				d[i] = float32(x*b[i]) + float32((1-x)*cc[i])
			}
		case OpCmp:
			b, cc := w.view[1][c][:n], w.view[2][c][:n]
			for i := range d {
				if a[i] >= 0 {
					d[i] = b[i]
				} else {
					d[i] = cc[i]
				}
			}
		case OpDdx, OpDdy:
			derivative(d, a, e.op == OpDdx, vertex)
		}
		if e.sat {
			saturate(d)
		}
	}
}

// derivative writes the fine quad derivative of a into d (which may alias a):
// d/dx is v[x=1]-v[x=0] of the lane's row, d/dy is v[y=1]-v[y=0] of its
// column. Lanes of an incomplete trailing quad, and every lane of a vertex
// shader, get 0.
func derivative(d, a []float32, dx, vertex bool) {
	n := len(d)
	full := n &^ 3
	if vertex {
		full = 0
	}
	for q := 0; q < full; q += 4 {
		a0, a1, a2, a3 := a[q], a[q+1], a[q+2], a[q+3]
		if dx {
			top, bottom := a1-a0, a3-a2
			d[q], d[q+1], d[q+2], d[q+3] = top, top, bottom, bottom
		} else {
			left, right := a2-a0, a3-a1
			d[q], d[q+1], d[q+2], d[q+3] = left, right, left, right
		}
	}
	for i := full; i < n; i++ {
		d[i] = 0
	}
}

// kill sets Killed for lanes whose operand has a component < 0.
func (w *Warp) kill(n int) {
	x, y, z, ww := w.view[0][0][:n], w.view[0][1][:n], w.view[0][2][:n], w.view[0][3][:n]
	for i := range x {
		if x[i] < 0 || y[i] < 0 || z[i] < 0 || ww[i] < 0 {
			w.Killed |= 1 << uint(i)
		}
	}
}

// request fills the texture request of lane i from the fetched operands.
func (w *Warp) request(e *execInstr, i int, r *TexRequest) {
	*r = TexRequest{Unit: int(e.sampler), Mode: e.op.TexMode()}
	cx, cy := w.view[0][0], w.view[0][1]
	r.Coord[0], r.Coord[1] = cx[i], cy[i]
	var cz []float32
	if e.coords3 {
		cz = w.view[0][2]
		r.Coord[2] = cz[i]
	}
	if e.op == OpTexb || e.op == OpTexl {
		r.Coord[3] = w.view[0][3][i]
		r.LODOrBias = r.Coord[3]
	}
	if w.prog.Stage != PixelStage {
		r.Vertex = true
		if e.op == OpTex {
			r.Mode, r.LODOrBias = TexLOD, 0
		}
	}
	switch {
	case e.op == OpTexd:
		r.DDX[0], r.DDX[1] = w.view[1][0][i], w.view[1][1][i]
		r.DDY[0], r.DDY[1] = w.view[2][0][i], w.view[2][1][i]
		if e.coords3 {
			r.DDX[2], r.DDY[2] = w.view[1][2][i], w.view[2][2][i]
		}
	case r.Vertex || e.op == OpTexl:
	case i < w.Lanes&^3:
		q := i &^ 3
		row := q + (i & 2) // x=0 lane of this lane's row
		col := q + (i & 1) // y=0 lane of this lane's column
		r.DDX[0], r.DDX[1] = cx[row+1]-cx[row], cy[row+1]-cy[row]
		r.DDY[0], r.DDY[1] = cx[col+2]-cx[col], cy[col+2]-cy[col]
		if e.coords3 {
			r.DDX[2], r.DDY[2] = cz[row+1]-cz[row], cz[col+2]-cz[col]
		}
	}
}

// writeResult writes w.result to the destination with mask and saturate.
func (w *Warp) writeResult(e *execInstr, n int) {
	for c := 0; c < 4; c++ {
		if e.mask&(1<<c) == 0 {
			continue
		}
		d := w.dst(e, c, n)
		copy(d, w.result[c][:n])
		if e.sat {
			saturate(d)
		}
	}
}
