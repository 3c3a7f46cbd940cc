package study

import (
	"fmt"
	"sync"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/tracing"
)

// Arrival is one texture request as it reached a sampler in a timed run: the
// cycle, and a copy of the request (the binding is shared: it belongs to the
// frame's draw and is not written during the frame).
type Arrival struct {
	Cycle uint64
	Req   *protocol.TexRequest
}

// Frame is a timed frame: its statistics, and, per sampler, the texture requests
// in the order and at the cycles they arrived.
type Frame struct {
	Scene    *scene.Scene
	Config   *configs.Config
	Frame    *driver.Frame
	Stats    map[string]float64
	Cycles   uint64
	Arrivals [][]Arrival
}

// recorder is a port hook that copies every TexRequest a sampler receives.
type recorder struct {
	freq sim.Freq
	mu   sync.Mutex
	out  []Arrival
}

func (r *recorder) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgRecvd {
		return
	}
	req, ok := ctx.Item.(*protocol.TexRequest)
	if !ok {
		return
	}
	c := *req
	c.Lanes = append([]shader.TexRequest(nil), req.Lanes...)
	r.mu.Lock()
	r.out = append(r.out, Arrival{Cycle: r.freq.Cycle(req.RecvTime), Req: &c})
	r.mu.Unlock()
}

// Timed encodes scene s, runs it on machine cfg and records the requests
// every sampler receives.
func Timed(s *scene.Scene, cfg *configs.Config) (*Frame, error) {
	return TimedRun(s, cfg, nil, "")
}

// TimedRun is Timed with the run instrumented by session (when not nil) under
// the name run (traces, metrics, progress; see package tracing).
func TimedRun(s *scene.Scene, cfg *configs.Config, session *tracing.Session, run string) (*Frame, error) {
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		return nil, err
	}
	p, err := configs.Build(cfg)
	if err != nil {
		return nil, err
	}
	recs := make([]*recorder, len(p.Samplers))
	for i, smp := range p.Samplers {
		recs[i] = &recorder{freq: smp.Freq}
		smp.Core.AcceptHook(recs[i])
	}
	var in *tracing.Instruments
	if session != nil {
		if in, err = session.Attach(p, f.Draws, run); err != nil {
			return nil, err
		}
	}
	res, err := expt.RunFrame(p, f, in)
	if err != nil {
		return nil, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	fr := &Frame{Scene: s, Config: cfg, Frame: f, Stats: res.Stats, Cycles: res.Cycles}
	for _, r := range recs {
		fr.Arrivals = append(fr.Arrivals, r.out)
	}
	return fr, nil
}
