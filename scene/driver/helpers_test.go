package driver

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
)

func readVecs(m command.Memory, c command.SetConstants) []geom.Vec4 {
	out := make([]geom.Vec4, c.Count)
	for i := range out {
		a := c.Addr + 16*uint64(i)
		out[i] = geom.Vec4{command.ReadF32(m, a), command.ReadF32(m, a+4), command.ReadF32(m, a+8), command.ReadF32(m, a+12)}
	}
	return out
}

func programAt(t *testing.T, f *Frame, stage command.Stage) *shader.Program {
	t.Helper()
	for _, c := range decode(t, f) {
		if b, ok := c.Command.(command.BindShader); ok && b.Stage == stage {
			code := make([]byte, b.Size)
			f.Memory.ReadAt(code, b.Addr)
			p, err := shader.Decode(code)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("no %v shader bound", stage)
	return nil
}

func decodePrograms(t *testing.T, f *Frame) (*shader.Program, *shader.Program) {
	return programAt(t, f, command.VertexStage), programAt(t, f, command.PixelStage)
}

func decodePS(t *testing.T, f *Frame) *shader.Program { return programAt(t, f, command.PixelStage) }
