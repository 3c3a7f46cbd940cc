package depth

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// CompareFunc is a depth or stencil comparison function. For depth the fragment value
// is on the left (Less passes when fragment < stored); for stencil the masked
// reference is on the left.
type CompareFunc uint8

// The eight D3D comparison functions.
const (
	Never CompareFunc = iota
	Less
	Equal
	LessEqual
	Greater
	NotEqual
	GreaterEqual
	Always
	numCompareFuncs
)

var compareNames = enum.Names[CompareFunc]{Type: "CompareFunc", What: "compare function", OneOf: true, Names: []string{"Never", "Less", "Equal", "LessEqual", "Greater", "NotEqual", "GreaterEqual", "Always"}}

// String returns the name of f ("LessEqual"), or "CompareFunc(n)" when f is invalid.
func (f CompareFunc) String() string { return compareNames.String(f) }

// Valid reports whether f is one of the eight functions.
func (f CompareFunc) Valid() bool { return compareNames.Valid(f) }

// ParseCompareFunc parses a comparison name, case-insensitively, ignoring '_' and '-'
// ("less_equal", "LessEqual" and "lessequal" are the same).
func ParseCompareFunc(s string) (CompareFunc, error) { return compareNames.Parse(s) }

// Compare evaluates a f b on unsigned integers (D24 depth, stencil).
func (f CompareFunc) Compare(a, b uint32) bool { return compare(f, a, b) }

// CompareFloat evaluates a f b on float32 values with IEEE semantics: every ordered
// comparison with a NaN operand is false, NotEqual is true.
func (f CompareFunc) CompareFloat(a, b float32) bool { return compare(f, a, b) }

// compare is the one switch of Compare and CompareFloat; the operators carry
// the IEEE semantics for float32. Never and invalid functions are false.
func compare[T uint32 | float32](f CompareFunc, a, b T) bool {
	switch f {
	case Less:
		return a < b
	case Equal:
		return a == b
	case LessEqual:
		return a <= b
	case Greater:
		return a > b
	case NotEqual:
		return a != b
	case GreaterEqual:
		return a >= b
	case Always:
		return true
	}
	return false
}

// Format is a depth buffer format.
type Format uint8

// Depth formats.
const (
	D24S8 Format = iota // 24-bit UNORM depth, 8-bit stencil
	D32F                // 32-bit float depth, 8-bit stencil in a separate plane
	numFormats
)

var formatNames = enum.Names[Format]{Type: "Format", What: "depth format", Names: []string{"D24S8", "D32F"}}

// String returns the format's name.
func (f Format) String() string { return formatNames.String(f) }

// Valid reports whether f is a known format.
func (f Format) Valid() bool { return formatNames.Valid(f) }

// ParseFormat parses a depth format name ("d24s8", "D32F"), case-insensitively.
func ParseFormat(s string) (Format, error) { return formatNames.Parse(s) }

// MaxD24 is the largest 24-bit depth value (depth 1.0).
const MaxD24 = 1<<24 - 1

// Quantize converts a depth in [0, 1] to the stored representation of format f:
// D24S8: round-half-to-even(clamp(z, 0, 1) * (2^24-1)) computed exactly; D32F: the
// float32 bits of clamp(z, 0, 1). NaN becomes 0 and -0 becomes +0 in both formats.
// An invalid format quantizes like D32F.
func Quantize(z float32, f Format) uint32 {
	if !(z > 0) { // also NaN and -0
		z = 0
	}
	if z > 1 {
		z = 1
	}
	if f == D24S8 {
		// The product of a 24-bit significand and 2^24-1 needs at most 48 bits: exact in float64.
		return uint32(math.RoundToEven(float64(z) * MaxD24))
	}
	return math.Float32bits(z)
}

// Dequantize converts a stored depth back to a float: D24S8 v/(2^24-1) (computed in
// float64 and rounded once to float32), D32F the float32 with these bits. For every
// 24-bit v, Quantize(Dequantize(v, D24S8), D24S8) == v.
func Dequantize(v uint32, f Format) float32 {
	if f == D24S8 {
		return float32(float64(v&MaxD24) / MaxD24)
	}
	return math.Float32frombits(v)
}

// CompareDepth evaluates fragment fn stored for format f (see the package comment).
func CompareDepth(f Format, fn CompareFunc, fragment, stored uint32) bool {
	if f == D24S8 {
		return fn.Compare(fragment&MaxD24, stored&MaxD24)
	}
	return fn.CompareFloat(math.Float32frombits(fragment), math.Float32frombits(stored))
}

// StencilOp is a stencil update operation.
type StencilOp uint8

// The eight D3D stencil operations.
const (
	Keep     StencilOp = iota // keep the stored value
	Zero                      // 0
	Replace                   // StencilRef
	IncrSat                   // min(s+1, 255)
	DecrSat                   // max(s-1, 0)
	Invert                    // ^s
	IncrWrap                  // s+1 mod 256
	DecrWrap                  // s-1 mod 256
	numStencilOps
)

var stencilOpNames = enum.Names[StencilOp]{Type: "StencilOp", What: "stencil op", OneOf: true, Names: []string{"Keep", "Zero", "Replace", "IncrSat", "DecrSat", "Invert", "IncrWrap", "DecrWrap"}}

// String returns the name of op.
func (op StencilOp) String() string { return stencilOpNames.String(op) }

// Valid reports whether op is one of the eight operations.
func (op StencilOp) Valid() bool { return stencilOpNames.Valid(op) }

// ParseStencilOp parses a stencil op name ("incr_sat", "IncrSat"), case-insensitively.
func ParseStencilOp(s string) (StencilOp, error) { return stencilOpNames.Parse(s) }

// Apply returns op applied to the stored stencil value s with reference ref, before
// the write mask. Invalid ops keep s.
func (op StencilOp) Apply(s, ref uint8) uint8 {
	switch op {
	case Zero:
		return 0
	case Replace:
		return ref
	case IncrSat:
		if s == 255 {
			return 255
		}
		return s + 1
	case DecrSat:
		if s == 0 {
			return 0
		}
		return s - 1
	case Invert:
		return ^s
	case IncrWrap:
		return s + 1
	case DecrWrap:
		return s - 1
	}
	return s
}

// StencilFace is the stencil state of one facing.
type StencilFace struct {
	Func                  CompareFunc
	Fail, DepthFail, Pass StencilOp
}

// State is the depth/stencil state of a draw.
type State struct {
	DepthEnable, DepthWrite bool
	DepthFunc               CompareFunc
	StencilEnable           bool
	StencilRef              uint8
	ReadMask, WriteMask     uint8
	Front, Back             StencilFace
}

// DefaultState returns D3D's default depth/stencil state: depth test Less with
// writes, stencil off with masks 0xFF, Always and Keep on both faces.
func DefaultState() State {
	face := StencilFace{Func: Always, Fail: Keep, DepthFail: Keep, Pass: Keep}
	return State{DepthEnable: true, DepthWrite: true, DepthFunc: Less,
		ReadMask: 0xFF, WriteMask: 0xFF, Front: face, Back: face}
}

// Validate reports an invalid enum value in s, naming the field.
func (s *State) Validate() error {
	if !s.DepthFunc.Valid() {
		return fmt.Errorf("DepthFunc: invalid value %d", uint8(s.DepthFunc))
	}
	for _, f := range []struct {
		name string
		face *StencilFace
	}{{"Front", &s.Front}, {"Back", &s.Back}} {
		if !f.face.Func.Valid() {
			return fmt.Errorf("%s.Func: invalid value %d", f.name, uint8(f.face.Func))
		}
		for _, op := range []struct {
			name string
			op   StencilOp
		}{{"Fail", f.face.Fail}, {"DepthFail", f.face.DepthFail}, {"Pass", f.face.Pass}} {
			if !op.op.Valid() {
				return fmt.Errorf("%s.%s: invalid value %d", f.name, op.name, uint8(op.op))
			}
		}
	}
	return nil
}

// WritesDepth reports whether a passing sample can change the depth buffer.
func (s *State) WritesDepth() bool { return s.DepthEnable && s.DepthWrite }

// WritesStencil reports whether some sample can change the stencil buffer: stencil
// enabled, a non-zero write mask and an op other than Keep on some face.
func (s *State) WritesStencil() bool {
	if !s.StencilEnable || s.WriteMask == 0 {
		return false
	}
	for _, f := range [2]*StencilFace{&s.Front, &s.Back} {
		if f.Fail != Keep || f.DepthFail != Keep || f.Pass != Keep {
			return true
		}
	}
	return false
}

// Result is the outcome of the test for one sample: whether it passed and the depth
// and stencil values to store (the stored values when they do not change).
type Result struct {
	Pass    bool
	Depth   uint32
	Stencil uint8
}

// Test runs the stencil and depth tests for one sample (see the package comment for
// the order). fragDepth is Quantize(z, f); storedDepth and storedStencil are the
// buffer's values; backFacing selects the Back stencil face.
func (s *State) Test(f Format, fragDepth uint32, storedDepth uint32, storedStencil uint8, backFacing bool) Result {
	r := Result{Depth: storedDepth, Stencil: storedStencil}
	face := &s.Front
	if backFacing {
		face = &s.Back
	}
	if s.StencilEnable {
		ref := uint32(s.StencilRef & s.ReadMask)
		if !face.Func.Compare(ref, uint32(storedStencil&s.ReadMask)) {
			r.Stencil = s.stencilWrite(face.Fail, storedStencil)
			return r
		}
	}
	if s.DepthEnable && !CompareDepth(f, s.DepthFunc, fragDepth, storedDepth) {
		if s.StencilEnable {
			r.Stencil = s.stencilWrite(face.DepthFail, storedStencil)
		}
		return r
	}
	r.Pass = true
	if s.StencilEnable {
		r.Stencil = s.stencilWrite(face.Pass, storedStencil)
	}
	if s.DepthEnable && s.DepthWrite {
		r.Depth = fragDepth
	}
	return r
}

func (s *State) stencilWrite(op StencilOp, stored uint8) uint8 {
	return stored&^s.WriteMask | op.Apply(stored, s.StencilRef)&s.WriteMask
}

// EarlyZAllowed reports whether the depth/stencil test of a draw may run before the
// pixel shader (early Z). The rule: only when the shader neither discards nor writes
// depth. A depth-writing shader leaves early Z nothing to test; a discarding shader
// could kill samples whose depth or stencil early Z already wrote. The state is
// accepted for state-dependent refinements (Giesen, part 7, notes that a discarding
// shader could still be tested early when nothing is written) but the current rule
// does not use it, so every caller makes the same choice; s may be nil.
func EarlyZAllowed(discards, writesDepth bool, s *State) bool {
	return !discards && !writesDepth
}
