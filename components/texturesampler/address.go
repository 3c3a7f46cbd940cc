package texturesampler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
)

// request is one TexRequest in flight through the sampler.
type request struct {
	seq     uint64
	msg     *protocol.TexRequest
	arrival uint64 // cycle the request reached the sampler's port
	results []geom.Vec4
	lines   []lineRef // distinct decoded L1 lines, in first-use order (reused)

	tex        *texture.Texture // the bound texture (nil: unbound)
	texelQuads int              // filter cost: texel quads times the format factor
	dataAddr   uint64           // its texel data address in memory

	addrDone  uint64 // the address stage is done with it (lines known)
	looked    int    // lines looked up in the L1
	pending   int    // missed lines not filled yet
	dataReady uint64 // the latest cycle a looked-up line's data is available

	filtering bool   // entered the filter
	done      uint64 // the response is ready (set when filtering)
	rsp       *protocol.TexResponse
}

// lineRef is a decoded L1 line a request reads and the number of its taps in
// it.
type lineRef struct {
	addr uint64
	taps int
}

// tapsPerFootprint is the number of taps of one footprint (a bilinear 2x2, a
// 2x2x2 of a 3D texture, or one point) of a filter on a texture.
func tapsPerFootprint(f texture.Filter, t *texture.Texture) int {
	switch {
	case f == texture.Point:
		return 1
	case t.Type == texture.Tex3D:
		return 8
	}
	return 4
}

// accept is the address stage: it takes the next request when the stage is
// free and the sampler has room, filters every lane functionally
// (pipeline.SampleBinding, recording the taps) and turns the taps' decoded
// texel addresses into the request's distinct L1 lines. The stage is busy for
// ceil(lanes / LanesPerCycle) cycles (at least one).
func (c *Comp) accept(now sim.VTimeInSec, cy uint64) bool {
	if cy < c.addrFreeAt || c.count == len(c.ring) {
		return false
	}
	msg := c.Core.Peek()
	req, ok := msg.(*protocol.TexRequest)
	if !c.Fault.Expect(ok, c.Core, msg) {
		return false
	}
	if req.Binding == nil {
		c.Fault.Fail(fmt.Errorf("Core: TexRequest from warp slot %d has no binding", req.Warp))
		return false
	}
	r := c.at(c.count)
	*r = request{seq: c.nextSeq, msg: req, arrival: c.Freq.Cycle(req.RecvTime), lines: r.lines[:0]}
	if err := c.sample(r); err != nil {
		c.Fault.Fail(err)
		return false
	}
	c.Core.Retrieve(now)
	if c.traced() {
		tracing.StartTask("tex"+req.ID, protocol.ReqOutTaskID(req.ID), c, protocol.KindTextureRequest,
			protocol.Count(len(req.Lanes), "lanes"), nil)
	}
	c.nextSeq++
	c.count++
	lanes := len(req.Lanes)
	r.addrDone = cy + uint64(max(1, (lanes+c.Cfg.LanesPerCycle-1)/c.Cfg.LanesPerCycle))
	c.addrFreeAt = r.addrDone
	c.stats.requests++
	c.stats.lanes += uint64(lanes)
	return true
}

// sample filters the lanes of r and collects its lines: a tap's L1 line is
// its texel's decoded address (texture.DecodedAddress) in the texture's
// decoded space, which starts at data address << texture.DecodedSpaceShift.
// Border taps read the border colour and no line.
func (c *Comp) sample(r *request) error {
	req := r.msg
	b := req.Binding
	r.results = make([]geom.Vec4, len(req.Lanes))
	if b.Texture == nil { // unbound: zeros, no texel reads (pipeline.TextureUnits)
		c.stats.unbound++
		r.texelQuads = len(req.Lanes)
		return nil
	}
	base, err := c.dataAddress(b)
	if err != nil {
		return err
	}
	tex := b.Texture
	r.tex, r.dataAddr = tex, base
	dec := base << texture.DecodedSpaceShift
	per := tapsPerFootprint(b.Sampler.Filter, tex)
	for i := range req.Lanes {
		c.taps = c.taps[:0]
		r.results[i] = pipeline.SampleBinding(b, &req.Lanes[i], &c.taps)
		for _, tp := range c.taps {
			if tp.Border {
				c.stats.borderTexels++
				continue
			}
			r.addLine((dec + tex.DecodedAddress(tp.Level, tp.X, tp.Y, tp.Z)) &^ (c.lineSize - 1))
			c.stats.texels++
		}
		c.stats.footprints += uint64(len(c.taps) / per)
		r.texelQuads += texture.TexelQuads(c.taps)
	}
	c.stats.texelQuads += uint64(r.texelQuads)
	r.texelQuads *= c.Cfg.Costs.factor(tex)
	return nil
}

// addLine counts a tap in line, adding the line when it is new to r.
func (r *request) addLine(line uint64) {
	for k := len(r.lines) - 1; k >= 0; k-- {
		if r.lines[k].addr == line {
			r.lines[k].taps++
			return
		}
	}
	r.lines = append(r.lines, lineRef{addr: line, taps: 1})
}

// dataAddress returns the address of the texture's data, from its descriptor
// in the memory image (the last descriptor is remembered).
func (c *Comp) dataAddress(b *state.TextureBinding) (uint64, error) {
	if c.descOK && c.descAddr == b.Desc {
		return c.dataAddr, nil
	}
	if c.Image == nil {
		return 0, fmt.Errorf("Image (the memory image holding texture descriptors) is not set")
	}
	d := command.ReadTextureDescriptor(c.Image, b.Desc)
	c.descAddr, c.dataAddr, c.descOK = b.Desc, d.Data, true
	return d.Data, nil
}
