package testpeer

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
)

// NewPeers returns n peers named "<name>[i]" whose ports buffer bufCap
// messages, each port plugged into conn with a buffer of connBuf, and their
// ports in order: the units downstream of a unit that sends to several.
func NewPeers(name string, n int, e sim.Engine, bufCap int, conn sim.Connection, connBuf int) ([]*Peer, []sim.Port) {
	peers, ports := make([]*Peer, n), make([]sim.Port, n)
	for i := range peers {
		peers[i] = NewPeer(fmt.Sprintf("%s[%d]", name, i), e, bufCap)
		ports[i] = peers[i].Port
		conn.PlugIn(ports[i], connBuf)
	}
	return peers, ports
}
