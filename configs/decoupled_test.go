package configs

import (
	"bytes"
	"fmt"
	"testing"
)

// decoupledMachines are the machines of the decoupled-sampling equality test:
// the default machine and the narrow one of TestTimedEqualsReference (one
// rasterizer, one ROP, one core, an 8-entry reorder ring, ideal memory, narrow
// buses).
func decoupledMachines() []struct{ name, yaml string } {
	var out []struct{ name, yaml string }
	for _, m := range machines {
		if m.name == "default" || m.name == "narrow" {
			out = append(out, struct{ name, yaml string }{m.name, m.yaml})
		}
	}
	return out
}

// TestDecoupledTimedEqualsReference: the blurred study scenes at 8 and 27
// samples per pixel, with shading caches of 4 (the least the configuration
// takes: it deadlocked when a warp queued at a draw change went unsent), 32,
// 256 and 4096 entries in the reorder buffer, on the default and a narrow
// machine: the timed image and
// memory equal the reference renderer's bit for bit (so the image is the same
// for every cache size), the visibility counters are equal, and a bounded
// cache shades at least what the reference's unbounded memo shades (shader
// invocations are equal only when nothing was evicted).
func TestDecoupledTimedEqualsReference(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	scenes := []struct {
		name    string
		samples []int
	}{{"defocus", []int{8, 27}}, {"egomotion", []int{8, 27}}, {"motion", []int{8, 27}}, {"bats", []int{8}}}
	for _, m := range decoupledMachines() {
		for _, entries := range []int{4, 32, 256, 4096} {
			cfg := machine(t, m.name, cacheYAML(m.yaml, entries))
			for _, sc := range scenes {
				for _, n := range sc.samples {
					t.Run(fmt.Sprintf("%s/%d-entries/%s/%dx", m.name, entries, sc.name, n), func(t *testing.T) {
						s, f := frame(t, sc.name, 64, 36, n)
						res := timed(t, cfg, f)
						_, g := frame(t, sc.name, 64, 36, n)
						ref := referenceRender(t, cfg, g)
						if ref.Counters.Decoupled.Raster.Tests() == 0 {
							t.Fatalf("%s: no 5D primitive: the scene is not blurred", s.Name)
						}
						if !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
							t.Errorf("%s (%d samples, %d cache entries): the timed image differs from the reference image", s.Name, n, entries)
						}
						tc, rc := sameMemoryAndCounters(t, s.Name+": ", f, g, res, ref, "ps_invocations", "helper_pixels")
						if tc["ps_invocations"] < rc["ps_invocations"] {
							t.Errorf("%s: the timed cache shaded less than the unbounded memo: %v invocations, reference %v",
								s.Name, tc["ps_invocations"], rc["ps_invocations"])
						}
						if entries <= 32 && res.Stats["GPU.ReorderBuffer.cache_evictions"] == 0 {
							t.Errorf("%s: a %d-entry cache evicted nothing: the case does not test a small cache", s.Name, entries)
						}
						if ev := res.Stats["GPU.ReorderBuffer.cache_evictions"]; ev == 0 && tc["ps_invocations"] != rc["ps_invocations"] {
							t.Errorf("%s: no eviction, yet %v invocations timed against %v reference", s.Name, tc["ps_invocations"], rc["ps_invocations"])
						}
					})
				}
			}
		}
	}
}

// cacheYAML adds the shading-cache size to a machine's YAML (merging into its
// reorder_buffer section when it has one).
func cacheYAML(base string, entries int) string {
	if bytes.Contains([]byte(base), []byte("reorder_buffer: {entries: 8}")) {
		return string(bytes.Replace([]byte(base), []byte("reorder_buffer: {entries: 8}"),
			[]byte(fmt.Sprintf("reorder_buffer: {entries: 8, shading_cache_entries: %d}", entries)), 1))
	}
	return base + fmt.Sprintf("reorder_buffer: {shading_cache_entries: %d}\n", entries)
}
