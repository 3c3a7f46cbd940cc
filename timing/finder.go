package timing

import (
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
)

// LateFinder finds memory ports through the finder *At, which the platform
// builder sets after the unit is built (a unit's Memory field); while it is
// nil, Find returns nil. A unit hands LateFinder{At: &c.Memory} to its memory
// client at Build.
type LateFinder struct{ At *mem.LowModuleFinder }

// Find implements mem.LowModuleFinder.
func (f LateFinder) Find(addr uint64) sim.Port {
	if *f.At == nil {
		return nil
	}
	return (*f.At).Find(addr)
}
