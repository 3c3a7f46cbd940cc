package multipass

import (
	"errors"
	"testing"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
)

// FuzzPartition feeds arbitrary shader source through the assembler,
// Analyze, RDS and RDS_h on PC5 and the pass generator: no panic, and every
// partition found has valid passes whose programs validate.
func FuzzPartition(f *testing.F) {
	for _, name := range []string{"bowlingpin.ps.gsa", "bumppin.ps.gsa", "textured.ps.gsa"} {
		src, err := library.Source(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(".ps\n.input v0 texcoord perspective\n.output o0 color\n.sampler s0 a\ntex r0, v0, s0\nmul r1, r0, r0\nmov o0.xy, r1\nmov o0.zw, r0\n"))
	f.Add([]byte(".ps\n.input v0 texcoord perspective\n.output o0 color\nadd r0, r1, v0\nmad o0, r0, r0, r2.w\n"))
	pc5, _ := PipelineConfig("PC5")
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := shader.Assemble("f.gsa", src)
		if err != nil || p.Stage != shader.PixelStage || len(p.Code) > 80 {
			return
		}
		for _, exact := range []bool{false, true} {
			sh, err := Analyze(p, Options{ExactDerivatives: exact})
			if err != nil {
				return
			}
			pr := sh.Problem(pc5, CostModels()[0])
			for _, run := range []func() (*Partition, error){pr.RDS, pr.RDSh} {
				part, err := run()
				var ie *ImpossibleError
				if errors.As(err, &ie) {
					continue
				}
				if err != nil {
					t.Fatalf("partition: %v", err)
				}
				for _, ps := range part.Passes {
					if !pc5.Fits(ps.Usage) {
						t.Fatalf("invalid pass %+v", ps)
					}
				}
				if _, err := sh.Programs(part); err != nil {
					t.Fatalf("programs: %v", err)
				}
			}
		}
	})
}
