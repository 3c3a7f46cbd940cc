package configs

import (
	"strings"
	"testing"
)

// TestMemoryEstimateSage: the SAGE machine's estimate counts every pipe's
// units and texture memory (linear in sage.pipes) and none of the sort-last
// back end's, and a timed SAGE run loads the memory image into the GPU's
// memory and every pipe's texture memory.
func TestMemoryEstimateSage(t *testing.T) {
	c, err := Load("sage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bytes := func(pipes int) int64 {
		c.Sage.Pipes = pipes
		return c.MemoryBytes()
	}
	one, two, four := bytes(1), bytes(2), bytes(4)
	if perPipe := two - one; perPipe <= 0 || four-one != 3*perPipe {
		t.Errorf("estimate for 1, 2 and 4 pipes: %d, %d, %d bytes: want linear growth in sage.pipes", one, two, four)
	}
	for _, it := range c.MemoryEstimate() {
		for _, unit := range []string{"rop.", "depth_unit.", "hiz.", "reorder_buffer."} {
			if strings.Contains(it.Field, unit) {
				t.Errorf("SAGE estimate has %q: SAGE has no %s", it.Field, strings.TrimSuffix(unit, "."))
			}
		}
	}
	for _, k := range []struct {
		machine string
		pipes   int
		copies  int
	}{{"sortlast", 4, 1}, {"sortmiddle", 4, 1}, {"sage", 1, 2}, {"sage", 4, 5}} {
		c.Machine, c.Sage.Pipes = k.machine, k.pipes
		if got := c.MemoryImageCopies(); got != k.copies {
			t.Errorf("%s with %d pipes: %d copies of the memory image, want %d", k.machine, k.pipes, got, k.copies)
		}
	}
}
