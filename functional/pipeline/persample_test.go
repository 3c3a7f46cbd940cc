package pipeline

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/state"
)

func TestOrderIndependent(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(d *state.Draw)
		want bool
	}{
		{"less, writes", func(d *state.Draw) {}, true},
		{"greater", func(d *state.Draw) { d.Depth.DepthFunc = depth.Greater }, true},
		{"less equal", func(d *state.Draw) { d.Depth.DepthFunc = depth.LessEqual }, false},
		{"always", func(d *state.Draw) { d.Depth.DepthFunc = depth.Always }, false},
		{"no depth writes", func(d *state.Draw) { d.Depth.DepthWrite = false }, false},
		{"no depth test", func(d *state.Draw) { d.Depth.DepthEnable = false }, false},
		{"no depth buffer", func(d *state.Draw) { d.DepthBuf = nil }, false},
		{"stencil", func(d *state.Draw) { d.Depth.StencilEnable = true }, false},
		{"blend", func(d *state.Draw) { d.Blend.Targets[0] = blend.Alpha() }, false},
		{"partial mask", func(d *state.Draw) { d.Blend.Targets[0].WriteMask = 7 }, false},
	} {
		d := &state.Draw{Depth: depth.DefaultState(), Blend: blend.DefaultState(), DepthBuf: &framebuffer.DepthTarget{}}
		c.edit(d)
		if got := OrderIndependent(d); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
