package shader

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// benchProgram is a per-pixel lighting kernel of typical mix: 1 texture
// fetch, dot products, a normalization, a power.
const benchProgram = `.ps
.input v0 normal perspective
.input v1 texcoord perspective
.input v2 worldpos perspective
.output o0 color
.const c0 light 2
.def c2 0 1 0.5 16
.sampler s0 albedo
dp3 r0.w, v0, v0
rsq r0.w, r0.w
mul r0.xyz, v0, r0.w
add r1.xyz, c0, -v2
dp3 r1.w, r1, r1
rsq r1.w, r1.w
mul r1.xyz, r1, r1.w
dp3_sat r2.x, r0, r1
add r3.xyz, r1, c2.xxy
dp3 r3.w, r3, r3
rsq r3.w, r3.w
mul r3.xyz, r3, r3.w
dp3_sat r2.y, r0, r3
pow r2.y, r2.y, c2.w
tex r4, v1, s0
mul r5.xyz, r4, c1
mad r5.xyz, r5, r2.x, r2.y
mov r5.w, r4.w
mov o0, r5
`

type constSampler struct{}

func (constSampler) SampleTexture(r *TexRequest) geom.Vec4 {
	return geom.Vec4{r.Coord[0], r.Coord[1], 0.5, 1}
}

// BenchmarkWarp32 runs the lighting kernel over a 32-lane warp (8 quads);
// the lane-instructions per second it reports are the interpreter's speed.
func BenchmarkWarp32(b *testing.B) {
	p := mustAssemble(b, "bench.gsa", benchProgram)
	consts := p.InitConstants(nil)
	consts[0] = geom.Vec4{1, 2, 3, 1}
	consts[1] = geom.Vec4{1, 1, 1, 1}
	w := NewWarp(32)
	var tex constSampler
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(p, 32, consts)
		for i := 0; i < 32; i++ {
			f := float32(i)
			w.SetInput(i, 0, geom.Vec4{0.1 * f, 1, 0.2, 0})
			w.SetInput(i, 1, geom.Vec4{f / 32, 0.5, 0, 0})
			w.SetInput(i, 2, geom.Vec4{f, 0, -5, 1})
		}
		w.Run(tex)
	}
	laneInstr := float64(len(p.Code)*32) * float64(b.N)
	b.ReportMetric(laneInstr/b.Elapsed().Seconds()/1e6, "Mlane-instr/s")
}
