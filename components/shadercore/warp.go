package shadercore

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// slotState is the state of a warp slot.
type slotState uint8

const (
	slotFree    slotState = iota
	slotLoading           // admitted; its inputs are being loaded until readyAt
	slotReady             // may issue its next instruction from readyAt on
	slotTexture           // waits for the response to its texture request
	slotDone              // finished; its output leaves from readyAt on
)

var slotStateNames = enum.Names[slotState]{Type: "slotState", Names: []string{"free", "loading", "ready", "texture", "done"}}

func (s slotState) String() string { return slotStateNames.String(s) }

// warpSlot is one resident warp: the work it came from, its functional state
// (shader.Warp, registers included) and its timing.
type warpSlot struct {
	state       slotState
	seq         uint64 // admission order
	draw        *protocol.Draw
	vertex      *protocol.VertexBatch // exactly one of vertex, pixel, shade and geometry is set
	pixel       *protocol.PixelWarp
	shade       *protocol.ShadingWarp  // a shading-cache miss warp (pixel shader)
	geometry    *protocol.GeometryWarp // a geometry shader warp from primitive assembly
	gsBytes     int                    // GS output buffer bytes held
	warp        *shader.Warp
	lanes       int
	regs        int // registers held
	issueCycles int // SIMD cycles per instruction
	sfuCycles   int // issue cycles per special-function instruction
	readyAt     uint64

	texLanes  []shader.TexRequest // the lane requests of the outstanding TEX (reused)
	texID     string              // ID of the outstanding TexRequest
	texIssued uint64

	out sim.Msg // the output message, built when the warp finished, until sent

	task string // the warp's task ID, when traced
}

// texSend is a texture request waiting to leave for the sampler.
type texSend struct {
	slot    int
	msg     *protocol.TexRequest
	readyAt uint64
}

// finished records the statistics of the warp in slot s, which just executed
// its last instruction.
func (c *Comp) finished(s *warpSlot) {
	s.state = slotDone
	st := &c.stats
	switch {
	case s.vertex != nil:
		st.vertexWarps++
		st.vsInvocations += uint64(s.lanes)
		st.vs.Add(s.warp.Stats)
	case s.geometry != nil:
		st.geometryWarps++
		st.gsInvocations += uint64(s.lanes)
		st.gs.Add(s.warp.Stats)
	default:
		st.pixelWarps++
		st.psInvocations += uint64(s.lanes)
		st.ps.Add(s.warp.Stats)
	}
}

// release frees the slot at position k of the admission order.
func (c *Comp) release(cy uint64, k int) {
	c.residentChanged(cy)
	i := c.order[k]
	s := &c.slots[i]
	c.regsUsed -= s.regs
	if s.geometry != nil {
		c.gsBufUsed -= s.gsBytes
		c.gsResident--
	}
	copy(c.order[k:], c.order[k+1:])
	c.order = c.order[:len(c.order)-1]
	s.state, s.draw, s.vertex, s.pixel, s.shade, s.out, s.texID = slotFree, nil, nil, nil, nil, nil, ""
	s.geometry, s.gsBytes = nil, 0
	s.task = ""
}
