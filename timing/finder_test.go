package timing

import (
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
)

type oneFinder struct{ p sim.Port }

func (f oneFinder) Find(uint64) sim.Port { return f.p }

func TestLateFinder(t *testing.T) {
	var m mem.LowModuleFinder
	f := LateFinder{At: &m}
	if p := f.Find(0x40); p != nil {
		t.Fatalf("Find before the finder is set = %v, want nil", p)
	}
	port := sim.NewLimitNumMsgPort(nil, 1, "Memory.Top")
	m = oneFinder{port}
	if p := f.Find(0x40); p != port {
		t.Fatalf("Find after the finder is set = %v, want %v", p, port)
	}
}
