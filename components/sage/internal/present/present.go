// Package present is the Control side of the SAGE chips a Present starts (the
// route chips, the convolve chips, the video outputs): each takes a
// protocol.PresentCmd when it is ready for a frame and answers protocol.Done
// at once (in the same step), the scan-out going on after.
package present

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// Control is one chip's Control port handling: the Done waiting to be sent.
type Control struct {
	done sim.Msg
}

// Step sends a pending Done first (nothing else happens while the port
// refuses it); then, unless busy (a frame in progress), it takes the
// PresentCmd waiting on port: start checks it and starts the frame (an error
// leaves it on the port and is returned), and its Done (From: from) is sent
// in the same step, or kept for the next one while the port refuses it. The
// Done does not wait for the chip's next clock edge: a video output's clock is
// its pixel clock, 304 Hz for a 1x1 raster (totals 2 x 2 at 76 Hz), and a Done
// sent an edge later held the command processor 3.3 ms (wait_ack). Anything
// but a PresentCmd on the port is an error. It reports whether anything
// moved; each Done sent counts as progress.
func (c *Control) Step(now sim.VTimeInSec, port sim.Port, busy bool, from int, pr *timing.Progress,
	start func(*protocol.PresentCmd) error) (bool, error) {
	progress, sent := c.send(now, port, pr)
	if !sent {
		return false, nil
	}
	msg := port.Peek()
	if msg == nil || busy {
		return progress, nil
	}
	m, ok := msg.(*protocol.PresentCmd)
	if !ok {
		return false, fmt.Errorf("Control: unexpected message %T", msg)
	}
	if err := start(m); err != nil {
		return false, err
	}
	port.Retrieve(now)
	d := protocol.NewDone(m.ID, from)
	d.Src, d.Dst = port, m.Src
	c.done = d
	c.send(now, port, pr)
	return true, nil
}

// send sends the pending Done, if any: sent reports that none is left,
// progress that one went out.
func (c *Control) send(now sim.VTimeInSec, port sim.Port, pr *timing.Progress) (progress, sent bool) {
	if c.done == nil {
		return false, true
	}
	c.done.Meta().SendTime = now
	if port.Send(c.done) != nil {
		return false, false
	}
	c.done = nil
	pr.Add(1)
	return true, true
}
