package scene

// Which way a mesh file's front faces.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// Front is the horizontal axis a mesh file's front faces (Y is up). glTF
// says "the front of a glTF asset faces +Z"; OBJ has no convention, and the
// default is the same +Z. Spot (../shared/scenes/spot) faces -Z.
type Front int

// The fronts, in the order of FrontNames.
const (
	FrontPlusZ Front = iota
	FrontMinusZ
	FrontPlusX
	FrontMinusX
)

// FrontNames are the values of a mesh's `front` and of render -front.
var FrontNames = []string{"+z", "-z", "+x", "-x"}

// ParseFront reads one of FrontNames.
func ParseFront(s string) (Front, error) {
	if i := slices.Index(FrontNames, s); i >= 0 {
		return Front(i), nil
	}
	return 0, fmt.Errorf("unknown front %s (want one of %s)", inputs.Quote(s), strings.Join(FrontNames, ", "))
}

func (f Front) String() string { return FrontNames[f] }

// Facing turns v, a direction given for a mesh whose front faces +Z, to the
// same direction for a mesh whose front faces f (an exact quarter turn about
// Y): Facing(+Z) is the axis f.
func (f Front) Facing(v geom.Vec3) geom.Vec3 {
	switch f {
	case FrontMinusZ:
		return geom.Vec3{-v[0], v[1], -v[2]}
	case FrontPlusX:
		return geom.Vec3{v[2], v[1], -v[0]}
	case FrontMinusX:
		return geom.Vec3{-v[2], v[1], v[0]}
	}
	return v
}

// Turn returns the rotation about Y that turns a mesh facing f to face +Z
// (the inverse of Facing).
func (f Front) Turn() geom.Mat4 {
	m := geom.Identity()
	for c := 0; c < 3; c++ {
		var e geom.Vec3
		e[c] = 1
		// Turn is the inverse of Facing: the transpose of its matrix.
		col := f.Facing(e)
		for r := 0; r < 3; r++ {
			m[c][r] = col[r]
		}
	}
	return m
}
