package blend

import (
	"fmt"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Factor is a blend factor.
type Factor uint8

// Blend factors (D3D11_BLEND without the dual-source ones).
const (
	Zero           Factor = iota // (0, 0, 0, 0)
	One                          // (1, 1, 1, 1)
	SrcColor                     // src
	InvSrcColor                  // 1 - src
	SrcAlpha                     // src.a
	InvSrcAlpha                  // 1 - src.a
	DstAlpha                     // dst.a
	InvDstAlpha                  // 1 - dst.a
	DstColor                     // dst
	InvDstColor                  // 1 - dst
	SrcAlphaSat                  // (f, f, f, 1), f = min(src.a, 1 - dst.a)
	BlendFactor                  // the blend constant
	InvBlendFactor               // 1 - the blend constant
	numFactors
)

var factorNames = enum.Names[Factor]{Type: "Factor", What: "blend factor", OneOf: true, Names: []string{"Zero", "One", "SrcColor", "InvSrcColor", "SrcAlpha", "InvSrcAlpha",
	"DstAlpha", "InvDstAlpha", "DstColor", "InvDstColor", "SrcAlphaSat", "BlendFactor", "InvBlendFactor"}}

// String returns the factor's name.
func (f Factor) String() string { return factorNames.String(f) }

// Valid reports whether f is a known factor.
func (f Factor) Valid() bool { return factorNames.Valid(f) }

// ParseFactor parses a factor name case-insensitively, ignoring '_' and '-'
// ("inv_src_alpha").
func ParseFactor(s string) (Factor, error) { return factorNames.Parse(s) }

// Op is a blend operation.
type Op uint8

// Blend operations.
const (
	Add         Op = iota // s*Fs + d*Fd
	Subtract              // s*Fs - d*Fd
	RevSubtract           // d*Fd - s*Fs
	Min                   // min(s, d), factors ignored
	Max                   // max(s, d), factors ignored
	numOps
)

var opNames = enum.Names[Op]{Type: "Op", What: "blend op", OneOf: true, Names: []string{"Add", "Subtract", "RevSubtract", "Min", "Max"}}

// String returns the op's name.
func (o Op) String() string { return opNames.String(o) }

// Valid reports whether o is a known op.
func (o Op) Valid() bool { return opNames.Valid(o) }

// ParseOp parses an op name case-insensitively, ignoring '_' and '-' ("rev_subtract").
func ParseOp(s string) (Op, error) { return opNames.Parse(s) }

// Write mask bits.
const (
	WriteR   uint8 = 1
	WriteG   uint8 = 2
	WriteB   uint8 = 4
	WriteA   uint8 = 8
	WriteAll uint8 = 15
)

// Target is the blend state of one render target.
type Target struct {
	Enable             bool
	SrcRGB, DstRGB     Factor
	OpRGB              Op
	SrcAlpha, DstAlpha Factor
	OpAlpha            Op
	WriteMask          uint8
}

// MaxTargets is the number of simultaneous render targets.
const MaxTargets = 8

// State is the blend state of a draw: one Target per render target and the blend
// constant used by BlendFactor and InvBlendFactor.
type State struct {
	Targets  [MaxTargets]Target
	Constant geom.Vec4
}

// DefaultState returns D3D's default blend state: every target Opaque, constant
// (1, 1, 1, 1).
func DefaultState() State {
	var s State
	for i := range s.Targets {
		s.Targets[i] = Opaque()
	}
	s.Constant = geom.Vec4{1, 1, 1, 1}
	return s
}

// Opaque is blending disabled (src replaces dst), all channels written.
func Opaque() Target {
	return Target{SrcRGB: One, DstRGB: Zero, OpRGB: Add, SrcAlpha: One, DstAlpha: Zero, OpAlpha: Add, WriteMask: WriteAll}
}

// Alpha is conventional "over" blending of straight (non-premultiplied) colour:
// rgb = src.rgb*src.a + dst.rgb*(1-src.a), alpha = src.a + dst.a*(1-src.a).
func Alpha() Target {
	return Target{Enable: true, SrcRGB: SrcAlpha, DstRGB: InvSrcAlpha, OpRGB: Add,
		SrcAlpha: One, DstAlpha: InvSrcAlpha, OpAlpha: Add, WriteMask: WriteAll}
}

// Additive adds src to dst in every channel: One, One, Add.
func Additive() Target {
	return Target{Enable: true, SrcRGB: One, DstRGB: One, OpRGB: Add,
		SrcAlpha: One, DstAlpha: One, OpAlpha: Add, WriteMask: WriteAll}
}

// Premultiplied is "over" for premultiplied colour: src + dst*(1-src.a) in every channel.
func Premultiplied() Target {
	return Target{Enable: true, SrcRGB: One, DstRGB: InvSrcAlpha, OpRGB: Add,
		SrcAlpha: One, DstAlpha: InvSrcAlpha, OpAlpha: Add, WriteMask: WriteAll}
}

var presetNames = [...]string{"Opaque", "Alpha", "Additive", "Premultiplied"}

// Preset returns the named preset ("opaque", "alpha", "additive", "premultiplied"),
// case-insensitively.
func Preset(name string) (Target, error) {
	switch {
	case enum.Equal(name, "Opaque"):
		return Opaque(), nil
	case enum.Equal(name, "Alpha"):
		return Alpha(), nil
	case enum.Equal(name, "Additive"):
		return Additive(), nil
	case enum.Equal(name, "Premultiplied"):
		return Premultiplied(), nil
	}
	return Target{}, fmt.Errorf("unknown blend preset %q (want one of %s)", name, strings.Join(presetNames[:], ", "))
}

// Validate reports an invalid enum value in t, naming the field.
func (t *Target) Validate() error {
	for _, f := range [...]struct {
		name string
		f    Factor
	}{{"SrcRGB", t.SrcRGB}, {"DstRGB", t.DstRGB}, {"SrcAlpha", t.SrcAlpha}, {"DstAlpha", t.DstAlpha}} {
		if !f.f.Valid() {
			return fmt.Errorf("%s: invalid blend factor %d", f.name, uint8(f.f))
		}
	}
	if !t.OpRGB.Valid() {
		return fmt.Errorf("OpRGB: invalid blend op %d", uint8(t.OpRGB))
	}
	if !t.OpAlpha.Valid() {
		return fmt.Errorf("OpAlpha: invalid blend op %d", uint8(t.OpAlpha))
	}
	if t.WriteMask > WriteAll {
		return fmt.Errorf("WriteMask: %#x has bits above 0xF", t.WriteMask)
	}
	return nil
}

// ReadsDestination reports whether the result depends on the stored colour, i.e.
// whether a ROP must read the render target before writing: a write mask that keeps
// some channel, or blending enabled with Min or Max, a non-Zero destination factor or
// a source factor that uses the destination (DstAlpha, InvDstAlpha, DstColor,
// InvDstColor, SrcAlphaSat). When it returns false, Blend gives the same result for
// every dst.
func (t *Target) ReadsDestination() bool {
	if t.WriteMask&WriteAll != WriteAll {
		return true
	}
	if !t.Enable {
		return false
	}
	if t.OpRGB == Min || t.OpRGB == Max || t.OpAlpha == Min || t.OpAlpha == Max {
		return true
	}
	usesDst := func(f Factor) bool {
		return f == DstAlpha || f == InvDstAlpha || f == DstColor || f == InvDstColor || f == SrcAlphaSat
	}
	return t.DstRGB != Zero || t.DstAlpha != Zero || usesDst(t.SrcRGB) || usesDst(t.SrcAlpha)
}

// Blend returns the blended colour of src over dst with blend constant constant (see
// the package comment). The write mask is not applied here.
func (t *Target) Blend(src, dst, constant geom.Vec4) geom.Vec4 {
	if !t.Enable {
		return src
	}
	var out geom.Vec4
	for c := 0; c < 3; c++ {
		out[c] = apply(t.OpRGB, src[c], weight(t.SrcRGB, src[c], c, &src, &dst, &constant),
			dst[c], weight(t.DstRGB, dst[c], c, &src, &dst, &constant))
	}
	out[3] = apply(t.OpAlpha, src[3], weight(t.SrcAlpha, src[3], 3, &src, &dst, &constant),
		dst[3], weight(t.DstAlpha, dst[3], 3, &src, &dst, &constant))
	return out
}

// BlendUNORM is Blend for a UNORM render target: src and constant are clamped to
// [0, 1] first (NaN becomes 0), as D3D does.
func (t *Target) BlendUNORM(src, dst, constant geom.Vec4) geom.Vec4 {
	if !t.Enable {
		return src
	}
	return t.Blend(Saturate(src), dst, Saturate(constant))
}

// Saturate clamps every component to [0, 1]; NaN becomes 0.
func Saturate(v geom.Vec4) geom.Vec4 {
	for i, x := range v {
		switch {
		case !(x > 0):
			v[i] = 0
		case x > 1:
			v[i] = 1
		}
	}
	return v
}

// Mask returns newColor in the channels whose WriteMask bit is set and old elsewhere.
func Mask(old, newColor geom.Vec4, writeMask uint8) geom.Vec4 {
	for c := 0; c < 4; c++ {
		if writeMask&(1<<c) != 0 {
			old[c] = newColor[c]
		}
	}
	return old
}

// factor returns component c of factor f.
func factor(f Factor, c int, src, dst, constant *geom.Vec4) float32 {
	switch f {
	case Zero:
		return 0
	case One:
		return 1
	case SrcColor:
		return src[c]
	case InvSrcColor:
		return 1 - src[c]
	case SrcAlpha:
		return src[3]
	case InvSrcAlpha:
		return 1 - src[3]
	case DstAlpha:
		return dst[3]
	case InvDstAlpha:
		return 1 - dst[3]
	case DstColor:
		return dst[c]
	case InvDstColor:
		return 1 - dst[c]
	case SrcAlphaSat:
		if c == 3 {
			return 1
		}
		return min(src[3], 1-dst[3])
	case BlendFactor:
		return constant[c]
	case InvBlendFactor:
		return 1 - constant[c]
	}
	return 0
}

// weight returns x times component c of factor f, rounded to float32. A Zero factor
// (and an invalid one) gives exactly 0 whatever x is, so a term with a Zero factor
// never depends on x (not even when x is Inf or NaN).
func weight(f Factor, x float32, c int, src, dst, constant *geom.Vec4) float32 {
	if f == Zero || !f.Valid() {
		return 0
	}
	return float32(x * factor(f, c, src, dst, constant))
}

// apply combines the weighted terms ws and wd of one channel; Min and Max use the
// unweighted s and d.
func apply(op Op, s, ws, d, wd float32) float32 {
	switch op {
	case Subtract:
		return ws - wd
	case RevSubtract:
		return wd - ws
	case Min:
		return min(s, d)
	case Max:
		return max(s, d)
	}
	return ws + wd // Add and invalid ops
}
