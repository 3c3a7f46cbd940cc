package timing

import "github.com/sarchlab/akita/v3/sim"

// AddPort returns a new port of c named "<c>.<name>" that holds capacity
// incoming messages, added to c under name: the one home of the port
// creation every builder repeated. Call it once c's name is set (after its
// TickingComponent). It is Akita's port on a NewBuffer.
func AddPort(c sim.Component, name string, capacity int) sim.Port {
	p, _ := AddBufferedPort(c, name, capacity)
	return p
}

// AddBufferedPort is AddPort whose incoming buffer ("<c>.<name>.Buf") is
// returned too, for a unit that reports its occupancy (Buffers).
func AddBufferedPort(c sim.Component, name string, capacity int) (sim.Port, sim.Buffer) {
	buf := NewBuffer(c.Name()+"."+name+".Buf", capacity)
	p := sim.NewLimitNumMsgPortWithExternalBuffer(c, buf, c.Name()+"."+name)
	c.AddPort(name, p)
	return p, buf
}

// PeekState is the BufferState of port when only whether a message waits is
// known (Akita ports do not tell how many): Len 1 or 0 of capacity.
func PeekState(port sim.Port, capacity int) BufferState {
	n := 0
	if port.Peek() != nil {
		n = 1
	}
	return BufferState{Name: port.Name(), Len: n, Cap: capacity}
}
