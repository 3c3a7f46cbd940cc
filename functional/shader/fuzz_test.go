package shader

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// runAny executes p on 8 lanes with arbitrary inputs; it must not panic.
func runAny(p *Program) {
	w := NewWarp(8)
	consts := p.InitConstants(nil)
	w.Reset(p, 8, consts)
	for lane := 0; lane < 8; lane++ {
		for r := 0; r < MaxInputs; r++ {
			w.SetInput(lane, r, geom.Vec4{float32(lane) - 3, float32(r), -0.5, 2})
		}
	}
	w.Run(&fakeSampler{})
	for lane := 0; lane < 8; lane++ {
		_ = w.Output(lane, 0)
		_ = w.Depth(lane)
	}
}

func FuzzAssemble(f *testing.F) {
	for _, s := range []string{fullProgram, texProgram, quadProgram, aluHeader + "mad r0, v0, v1, v2\nmov o0, r0\n",
		".vs\n.input v0 position\n.output o0 position\n.const c0 mvp 4\ndp4 o0.x, c0, v0\n",
		".ps\n.output o0 color\n.param c0 color 1 0 0 1\nmov o0, c0\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Assemble("fuzz.gsa", src)
		if err != nil {
			if _, ok := err.(*AsmError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		q, err := Decode(p.Encode())
		if err != nil {
			t.Fatalf("Decode(Encode): %v\n%s", err, p.Disassemble())
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip differs\n%s", p.Disassemble())
		}
		r, err := Assemble("fuzz.gsa", []byte(p.Disassemble()))
		if err != nil {
			t.Fatalf("reassembling the disassembly: %v\n%s", err, p.Disassemble())
		}
		if !reflect.DeepEqual(stripLines(p), stripLines(r)) {
			t.Fatalf("disassembly round trip differs\n%s", p.Disassemble())
		}
		_ = p.Resources()
		_ = p.Dependencies()
		runAny(p)
	})
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{fullProgram, texProgram, quadProgram} {
		p, err := Assemble("seed.gsa", []byte(s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p.Encode())
	}
	f.Add([]byte("GSHD"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if err != nil {
			if _, ok := err.(*DecodeError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// The current version round-trips exactly; a version-1 binary is
		// re-encoded in the current version, which decodes to the same program.
		if got := p.Encode(); b[4] != 1 && string(got) != string(b) {
			t.Fatalf("Encode(Decode(b)) != b")
		} else if q, err := Decode(got); err != nil || string(q.Encode()) != string(got) {
			t.Fatalf("a re-encoded program does not round-trip: %v", err)
		}
		_ = p.Resources()
		runAny(p)
	})
}
