package configs

import (
	"bytes"
	"testing"

	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// TestStreamOutBuffersEqualReference: after a timed particles frame (frame
// 7: 36 stream-out steps through ping-ponged buffers, each drawn with
// DrawAuto) on the sort-last machines, the tiled machine and SAGE, every
// stream-out buffer and its filled-size counter in memory equal the
// reference renderer's byte for byte, and the particle count is not zero;
// the primitives streamed out (summed over SAGE's pipes) and the DrawAuto
// counter reads are counted.
func TestStreamOutBuffersEqualReference(t *testing.T) {
	for _, m := range []struct{ name, yaml string }{
		{"default", ""},
		{"narrow", machineYAML("narrow")},
		{"sortmiddle", "machine: sortmiddle\n"},
		{"sortmiddle three units", "machine: sortmiddle\nsortmiddle: {tile_units: 3, tile_width: 32, tile_height: 16}\n"},
		{"sage", "machine: sage\n"},
		{"sage three pipes, small chunks", "machine: sage\nsage: {pipes: 3, distribution: {chunk_triangles: 16}}\n"},
	} {
		t.Run(m.name, func(t *testing.T) {
			cfg := machine(t, m.name, m.yaml)
			f, g := particlesFrame(t, cfg, 7), particlesFrame(t, cfg, 7)
			res := timed(t, cfg, f)
			ref := referenceRender(t, cfg, g)
			if len(f.StreamBuffers) != 2 {
				t.Fatalf("%d stream buffers, want 2", len(f.StreamBuffers))
			}
			for _, b := range f.StreamBuffers {
				got, _ := f.Memory.Slice(b.Addr, uint64(b.Size))
				want, _ := g.Memory.Slice(b.Addr, uint64(b.Size))
				if !bytes.Equal(got, want) {
					t.Errorf("stream buffer %s differs from the reference's", b.Name)
				}
				gc, _ := f.Memory.Slice(b.FilledAddr, 4)
				wc, _ := g.Memory.Slice(b.FilledAddr, 4)
				if !bytes.Equal(gc, wc) {
					t.Errorf("stream buffer %s: filled-size counter %v, reference %v", b.Name, gc, wc)
				}
				if b.Name == "state_a" && bytes.Equal(wc, []byte{0, 0, 0, 0}) {
					t.Errorf("stream buffer %s is empty: the test proves nothing", b.Name)
				}
			}
			if !bytes.Equal(f.Memory.Bytes()[:len(g.Memory.Bytes())], g.Memory.Bytes()) {
				t.Errorf("the memory images differ after the frame")
			}
			st := res.Stats
			if got, want := sum(st, "GPU.", "so_primitives_written"), float64(ref.Counters.SOPrimitivesWritten); got != want || want == 0 {
				t.Errorf("so_primitives_written %v, reference %v", got, want)
			}
			// 36 steps and the sprites: 37 DrawAuto.
			if got := st["GPU.CommandProcessor.draw_auto_reads"]; got != 37 {
				t.Errorf("draw_auto_reads %v, want 37", got)
			}
			if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
				t.Errorf("the timed image differs from the reference image")
			}
		})
	}
}

// machineYAML returns the overlay of the invariant tests' machine name.
func machineYAML(name string) string {
	for _, m := range machines {
		if m.name == name {
			return m.yaml
		}
	}
	panic("no machine " + name)
}

// particlesFrame encodes frame n of the built-in particles scene for machine
// c (its driver options: an RGBA10 sample buffer on SAGE).
func particlesFrame(t *testing.T, c *Config, n int) *driver.Frame {
	t.Helper()
	s, err := scene.Builtin("particles", scene.WithFrame(n))
	return encodeFor(t, c, s, err)
}

// encodeFor encodes scene s (loaded with error err) for machine c, with
// its driver options.
func encodeFor(t *testing.T, c *Config, s *scene.Scene, err error) *driver.Frame {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	f, err := driver.Encode(s, c.DriverOptions())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestGeometryStageDeterminism: the geometry-stage scenes give the same
// image and statistics with the serial and the parallel engine.
func TestGeometryStageDeterminism(t *testing.T) {
	for _, name := range []string{"grass", "particles"} {
		_, f1 := frame(t, name, 96, 54, 1)
		_, f2 := frame(t, name, 96, 54, 1)
		a := timed(t, Default(), f1)
		par := Default()
		par.Engine = "parallel"
		b := timed(t, par, f2)
		diffStats(t, name+": serial vs parallel", a, b)
	}
}
