package texturesampler_test

import (
	"math"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/timing"
)

// fixture is a 64x64 mipmapped RGBA8 texture in a memory image, with its
// descriptor, bound with the given sampler state.
type fixture struct {
	image   *command.Image
	binding *state.TextureBinding
	data    uint64
}

func newFixture(t *testing.T, s texture.SamplerState, layout texture.Layout) *fixture {
	t.Helper()
	pix := make([]byte, 64*64*4)
	for i := range pix {
		pix[i] = byte(i*7 + i/13)
	}
	t0, err := texture.NewRGBA8(64, 64, pix, true)
	if err != nil {
		t.Fatal(err)
	}
	if t0, err = t0.WithLayout(layout); err != nil {
		t.Fatal(err)
	}
	img := command.NewImage()
	img.Alloc(1000, 1) // the texture does not start at the image's base
	data := img.Put(t0.Bytes(), texture.LevelAlign)
	d := t0.Descriptor()
	desc := img.Put(command.TextureDescriptor{Format: uint32(d.Format), Width: uint32(d.Width), Height: uint32(d.Height),
		Levels: uint32(d.Levels), Layout: uint32(d.Layout), Data: data, Size: uint32(t0.SizeBytes())}.Encode(), 32)
	view, ok := img.Slice(data, t0.SizeBytes())
	if !ok {
		t.Fatal("texture not mapped")
	}
	tex, err := texture.NewFromBytes(d, view)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{image: img, binding: &state.TextureBinding{Texture: tex, Sampler: s, Desc: desc}, data: data}
}

func bilinear() texture.SamplerState {
	s := texture.DefaultSamplerState()
	s.Filter = texture.Bilinear
	return s
}

// lodRequest builds a request of one lane per coordinate, sampling level 0.
func lodRequest(b *state.TextureBinding, warp uint64, coords ...[2]float32) *protocol.TexRequest {
	lanes := make([]shader.TexRequest, len(coords))
	for i, c := range coords {
		lanes[i] = shader.TexRequest{Mode: shader.TexLOD, Coord: geom.Vec4{c[0], c[1]}}
	}
	return protocol.NewTexRequest(nil, warp, b, lanes)
}

// texel returns the coordinate at which a bilinear sample of level 0 reads
// texels (x, y)..(x+1, y+1) of the 64x64 texture with weights 1/2.
func texel(x, y int) [2]float32 { return [2]float32{float32(x+1) / 64, float32(y+1) / 64} }

func quadAt(x, y int) [][2]float32 {
	return [][2]float32{texel(x, y), texel(x, y), texel(x, y), texel(x, y)}
}

type rig struct {
	engine sim.Engine
	s      *texturesampler.Comp
	core   *fakeCore
	l2     *fakeL2
	halt   *timing.Halt
}

func newRig(t *testing.T, e sim.Engine, cfg texturesampler.Config, fx *fixture, l2Latency uint64) *rig {
	t.Helper()
	r := &rig{engine: e, halt: &timing.Halt{}}
	r.s = texturesampler.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: freq, Halt: r.halt}).WithConfig(cfg).
		Build("GPU.TextureSampler[0]")
	r.core = newFakeCore(e)
	r.l2 = newFakeL2(e, fx.image, l2Latency)
	c1 := sim.NewDirectConnection("CoreConn", e, freq)
	c1.PlugIn(r.core.Port, 1)
	c1.PlugIn(r.s.Core, 1)
	c2 := sim.NewDirectConnection("L2Conn", e, freq)
	c2.PlugIn(r.s.ToL2, 4)
	c2.PlugIn(r.l2.Top, 4)
	r.core.Dst = r.s.Core
	r.s.CorePort = r.core.Port
	r.s.L2 = r.l2
	r.s.Image = fx.image
	return r
}

func (r *rig) run(t *testing.T, reqs ...scripted) {
	t.Helper()
	for _, q := range reqs {
		r.core.Script = append(r.core.Script, testpeer.Scripted{At: q.at, Msg: q.msg})
	}
	testpeer.Run(t, r.engine, r.core)
	if err := r.halt.Reason(); err != nil {
		t.Fatalf("halted: %v", err)
	}
	if len(r.core.got) != len(reqs) {
		t.Fatalf("%d responses to %d requests", len(r.core.got), len(reqs))
	}
	for i, rsp := range r.core.got {
		if rsp.RspTo != reqs[i].msg.ID {
			t.Fatalf("response %d answers %s, want %s (request order)", i, rsp.RspTo, reqs[i].msg.ID)
		}
	}
}

func sameVec(a, b geom.Vec4) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// checkResults compares every response with pipeline.SampleBinding.
func checkResults(t *testing.T, r *rig, reqs []scripted) {
	t.Helper()
	for i, s := range reqs {
		rsp := r.core.got[i]
		if len(rsp.Results) != len(s.msg.Lanes) || rsp.Warp != s.msg.Warp {
			t.Fatalf("request %d: %d results for %d lanes, warp %d", i, len(rsp.Results), len(s.msg.Lanes), rsp.Warp)
		}
		for l := range s.msg.Lanes {
			var want geom.Vec4
			if s.msg.Binding.Texture != nil {
				want = pipeline.SampleBinding(s.msg.Binding, &s.msg.Lanes[l], nil)
			}
			if !sameVec(rsp.Results[l], want) {
				t.Fatalf("request %d lane %d: %v, want %v", i, l, rsp.Results[l], want)
			}
		}
	}
}

// TestMissThenHit pins the cycles of a cold request and of the same request
// repeated (L2 latency 20, L1 latency 4, filter latency 8, 4 lanes per cycle).
//
//	cold: sent 0, taken 1 (address 1), looked up 2 (miss), read sent 3, the
//	      L2 takes it at 4 and answers at 24, filled 25, filter 26, response
//	      ready 26+8 = 34, taken by the core at 35.
//	warm: sent 40, taken 41, looked up 42 (hit, data at 46), filter 46,
//	      response 54, taken 55.
func TestMissThenHit(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), texturesampler.DefaultConfig(), fx, 20)
	reqs := []scripted{{msg: lodRequest(fx.binding, 3, quadAt(1, 1)...)}, {msg: lodRequest(fx.binding, 5, quadAt(1, 1)...), at: 40}}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	if got := r.core.at; got[0] != 35 || got[1] != 55 {
		t.Errorf("responses taken at %v, want [35 55]", got)
	}
	if len(r.l2.reads) != 1 || r.l2.reads[0] != fx.data || r.l2.readAt[0] != 4 {
		t.Errorf("L2 reads %x at %v, want one of line 0x%x at cycle 4", r.l2.reads, r.l2.readAt, fx.data)
	}
	r.s.Finish(cycleTime(60))
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{
		"requests":                2,
		"lanes":                   8,
		"texels":                  32,
		"l1_lookups":              2,
		"l1_hits":                 1,
		"l1_misses":               1,
		"merged_misses":           0,
		"hit_rate_line":           0.5,
		"hit_rate_texel":          31.0 / 32, // the miss's first tap; its 15 others and the hit's 16 hit
		"misses_per_request":      0.5,
		"misses_per_lane":         0.125,
		"l2_reads":                1,
		"bytes_read_l2":           64,
		"avg_request_latency":     (34 + 14) / 2.0, // arrived 0 -> sent 34; arrived 40 -> sent 54
		"max_request_latency":     34,
		"cycles_idle":             14, // 0, 34-40, 54-59
		"cycles_busy":             24, // 1-2, 25-33, 41-53
		"cycles_wait_memory":      22, // 3-24
		"cycles_stall_miss_queue": 0,
		"cycles_blocked_output":   0,
		"l2.reads":                1,
	})
}

// TestMergedMisses: two requests for the same cold line read it once; the
// second request's miss merges with the first's entry.
func TestMergedMisses(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), texturesampler.DefaultConfig(), fx, 20)
	reqs := []scripted{{msg: lodRequest(fx.binding, 0, quadAt(1, 1)...)}, {msg: lodRequest(fx.binding, 1, quadAt(0, 0)...)}}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	// Both filled at 25: the first filters at 26 (response 34), the second at
	// 27 (the filter is busy for one cycle per 4 lanes): response 35.
	if got := r.core.at; got[0] != 35 || got[1] != 36 {
		t.Errorf("responses taken at %v, want [35 36]", got)
	}
	if len(r.l2.reads) != 1 {
		t.Errorf("%d L2 reads, want 1", len(r.l2.reads))
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{
		"l1_misses": 2, "merged_misses": 1, "l2_reads": 1, "l1_hits": 0,
	})
}

// TestMissQueueFullStalls: with one miss-queue entry, a request that needs two
// cold lines looks up the first at cycle 2, stalls on the second until the
// first fill (25), then reads it (sent 26, answered 47, filled 48).
func TestMissQueueFullStalls(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), testpeer.Edit(texturesampler.DefaultConfig(), func(c *texturesampler.Config) { c.MissQueue = 1 }), fx, 20)
	// Texels (1,1)-(2,2) are in tile 0, (5,1)-(6,2) in tile 1: two lines.
	coords := [][2]float32{texel(1, 1), texel(1, 1), texel(5, 1), texel(5, 1)}
	reqs := []scripted{{msg: lodRequest(fx.binding, 0, coords...)}}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	if got := r.l2.readAt; len(got) != 2 || got[0] != 4 || got[1] != 27 {
		t.Errorf("L2 reads taken at %v, want [4 27]", got)
	}
	if got := r.l2.reads; len(got) != 2 || got[0] != fx.data || got[1] != fx.data+64 {
		t.Errorf("L2 reads of %x, want lines 0x%x and 0x%x", got, fx.data, fx.data+64)
	}
	// Filled 48, filter 49, response ready 57, taken 58.
	if r.core.at[0] != 58 {
		t.Errorf("response taken at %d, want 58", r.core.at[0])
	}
	r.s.Finish(cycleTime(60))
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{
		"cycles_stall_miss_queue": 23, // 2-24
		"l1_lookups":              2,
		"l1_misses":               2,
	})
}

// TestResponsesKeepRequestOrder: a request that hits in the L1 behind one that
// misses is answered after it.
func TestResponsesKeepRequestOrder(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), texturesampler.DefaultConfig(), fx, 50)
	reqs := []scripted{
		{msg: lodRequest(fx.binding, 0, quadAt(1, 1)...)},          // warms tile 0
		{msg: lodRequest(fx.binding, 1, quadAt(9, 1)...), at: 100}, // cold tile 2
		{msg: lodRequest(fx.binding, 2, quadAt(1, 1)...), at: 101}, // hits tile 0
	}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	// Request 1: taken 101, lookup 102, read sent 103, answered 154, filled
	// 155, filter 156, response 164, taken 165. Request 2 (a hit at 103, data
	// at 107) waits and filters at 157: response 165, taken 166.
	if got := r.core.at; got[1] != 165 || got[2] != 166 {
		t.Errorf("responses taken at %v, want [_ 165 166]", got)
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{"l1_hits": 1, "l1_misses": 2})
}

// TestResultsEqualFunctionalSampler sends many requests of every mode over
// several filters and layouts through a small L1 (forcing evictions) and
// checks every result, the request order and the counters' consistency.
func TestResultsEqualFunctionalSampler(t *testing.T) {
	point, tri := texture.DefaultSamplerState(), texture.DefaultSamplerState()
	point.Filter = texture.Point
	wrap := bilinear()
	wrap.AddressU, wrap.AddressV = texture.Wrap, texture.Wrap
	tests := []struct {
		name   string
		s      texture.SamplerState
		layout texture.Layout
	}{
		{"point tiled", point, texture.Tiled},
		{"bilinear wrap linear", wrap, texture.Linear},
		{"trilinear tiled", tri, texture.Tiled},
	}
	for _, tc := range tests {
		for _, engine := range []string{"serial", "parallel"} {
			t.Run(tc.name+" "+engine, func(t *testing.T) {
				fx := newFixture(t, tc.s, tc.layout)
				e := sim.Engine(sim.NewSerialEngine())
				if engine == "parallel" {
					e = sim.NewParallelEngine()
				}
				cfg := testpeer.Edit(texturesampler.DefaultConfig(), func(c *texturesampler.Config) {
					c.L1Size, c.L1Ways, c.L1LineSize = 1024, 2, 64
					c.MissQueue = 4
					c.MaxRequests = 4
				})
				r := newRig(t, e, cfg, fx, 30)
				var reqs []scripted
				rnd := uniform(12345, 2.5, -0.7)
				for i := 0; i < 40; i++ {
					lanes := make([]shader.TexRequest, 4+4*(i%8))
					for l := range lanes {
						u, v := rnd(), rnd()
						d := (rnd() + 0.7) / 16
						lanes[l] = shader.TexRequest{Mode: texModes[i%4], Coord: geom.Vec4{u, v, 0, rnd() * 3},
							DDX: geom.Vec4{d, 0}, DDY: geom.Vec4{0, d * 1.5}, LODOrBias: rnd() * 3}
					}
					reqs = append(reqs, scripted{msg: protocol.NewTexRequest(nil, uint64(i%16), fx.binding, lanes), at: uint64(i * 3)})
				}
				r.run(t, reqs...)
				checkResults(t, r, reqs)
				r.s.Finish(r.engine.CurrentTime())
				st := testpeer.StatMap(r.s)
				p := "GPU.TextureSampler[0]."
				// Every miss that did not merge fills one line; a line of a Tiled
				// RGBA8 texture is one stored tile (one read of 64 bytes; in levels
				// narrower than a tile one read per row of texels inside the level), of
				// a Linear one up to four rows of 16 bytes.
				maxReads := 4.0
				if st[p+"l1_lookups"] != st[p+"l1_hits"]+st[p+"l1_misses"] ||
					st[p+"fill_lines"] != st[p+"l1_misses"]-st[p+"merged_misses"] ||
					st[p+"l2_reads"] < st[p+"fill_lines"] || st[p+"l2_reads"] > maxReads*st[p+"fill_lines"] ||
					st[p+"bytes_read_l2"] > 64*st[p+"fill_lines"] || st[p+"bytes_read_l2"] != st[p+"l2.bytes_read"] ||
					st[p+"fill_bytes"] != 64*st[p+"fill_lines"] || st[p+"fill_decodes"] != 0 ||
					float64(len(r.l2.reads)) != st[p+"l2_reads"] || st[p+"l2_reads"] == 0 || st[p+"l1_hits"] == 0 {
					t.Errorf("inconsistent counters: %v", st)
				}
				var total float64
				for _, k := range []string{"busy", "stall_miss_queue", "wait_memory", "blocked_output", "idle"} {
					total += st[p+"cycles_"+k]
				}
				if total != float64(freq.Cycle(r.engine.CurrentTime())) {
					t.Errorf("activity covers %v cycles of %d", total, freq.Cycle(r.engine.CurrentTime()))
				}
			})
		}
	}
}

// TestBlockedOutput: a core that takes no response before cycle 100 blocks the
// sampler's output; the time is counted and the responses still arrive in order.
func TestBlockedOutput(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), texturesampler.DefaultConfig(), fx, 20)
	r.core.openAt = 100
	reqs := []scripted{
		{msg: lodRequest(fx.binding, 0, quadAt(1, 1)...)},
		{msg: lodRequest(fx.binding, 1, quadAt(1, 1)...)},
		{msg: lodRequest(fx.binding, 2, quadAt(1, 1)...)},
	}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	// Responses ready at 34, 35, 36. The first goes into the core's port (34),
	// the second waits in the connection (35); the third is refused from 36
	// until the core takes the first at 100 and the sampler retries at 101.
	if got := r.core.at; got[0] != 100 || got[1] != 101 || got[2] != 102 {
		t.Errorf("responses taken at %v, want [100 101 102]", got)
	}
	r.s.Finish(cycleTime(110))
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{"cycles_blocked_output": 101 - 36})
}

func TestUnboundTextureReturnsZero(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	r := newRig(t, sim.NewSerialEngine(), texturesampler.DefaultConfig(), fx, 20)
	unbound := &state.TextureBinding{}
	reqs := []scripted{{msg: lodRequest(unbound, 0, quadAt(1, 1)...)}}
	r.run(t, reqs...)
	checkResults(t, r, reqs)
	// Taken 1, address 1, no lines, filter 2, response 10, taken 11.
	if r.core.at[0] != 11 || len(r.l2.reads) != 0 {
		t.Errorf("response at %d with %d L2 reads, want 11 and none", r.core.at[0], len(r.l2.reads))
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "GPU.TextureSampler[0]", map[string]float64{"unbound_requests": 1, "l1_lookups": 0})
}

func TestBadInputHalts(t *testing.T) {
	fx := newFixture(t, bilinear(), texture.Tiled)
	tests := []struct {
		name  string
		msg   sim.Msg
		setup func(*rig)
		want  string
	}{
		{"no binding", lodRequest(nil, 0, quadAt(1, 1)...), nil, "has no binding"},
		{"no image", lodRequest(fx.binding, 0, quadAt(1, 1)...), func(r *rig) { r.s.Image = nil }, "Image"},
		{"unexpected message", protocol.NewBatchCredit(1), nil, "unexpected message *protocol.BatchCredit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := sim.NewSerialEngine()
			r := newRig(t, e, texturesampler.DefaultConfig(), fx, 20)
			if tc.setup != nil {
				tc.setup(r)
			}
			m := tc.msg.Meta()
			m.Src, m.Dst, m.SendTime = r.core.Port, r.s.Core, 0
			if r.core.Port.Send(tc.msg) != nil {
				t.Fatal("send refused")
			}
			testpeer.Run(t, e)
			testpeer.CheckHalted(t, r.halt.Reason(), "GPU.TextureSampler[0]", tc.want)
		})
	}
}

// texModes are the four ways a texture request picks its level of detail.
var texModes = []shader.TexMode{shader.TexImplicit, shader.TexBias, shader.TexLOD, shader.TexGrad}

// uniform returns a generator of offset+scale*x for x uniform in [0, 1), from
// a linear congruential sequence seeded with seed: the same numbers on every
// run.
func uniform(seed uint32, scale, offset float32) func() float32 {
	return func() float32 {
		seed = seed*1664525 + 1013904223
		return float32(seed>>8)/float32(1<<24)*scale + offset
	}
}

func TestConfigValidate(t *testing.T) {
	testpeer.CheckValidate(t, texturesampler.DefaultConfig(), []testpeer.ConfigCase[texturesampler.Config]{
		{Want: "", Edit: func(c *texturesampler.Config) {}},
		{Want: "LanesPerCycle", Edit: func(c *texturesampler.Config) { c.LanesPerCycle = 0 }},
		{Want: "TagLookupsPerCycle", Edit: func(c *texturesampler.Config) { c.TagLookupsPerCycle = 0 }},
		{Want: "MissQueue", Edit: func(c *texturesampler.Config) { c.MissQueue = 0 }},
		{Want: "FilterLatency", Edit: func(c *texturesampler.Config) { c.FilterLatency = -1 }},
		{Want: "InputQueue", Edit: func(c *texturesampler.Config) { c.InputQueue = 0 }},
		{Want: "MaxRequests", Edit: func(c *texturesampler.Config) { c.MaxRequests = 0 }},
		{Want: "L1", Edit: func(c *texturesampler.Config) { c.L1Size, c.L1Ways, c.L1LineSize = 3*1024, 4, 64 }},
		{Want: "L1", Edit: func(c *texturesampler.Config) { c.L1Size, c.L1Ways, c.L1LineSize = 8192, 4, 48 }},
		{Want: "L1Latency", Edit: func(c *texturesampler.Config) { c.L1Latency = -2 }},
	})
	testpeer.CheckEnv(t, true, func(env timing.Env) { texturesampler.MakeBuilder().WithEnv(env).Build("GPU.TextureSampler[0]") })
}

func TestBuffers(t *testing.T) {
	c := texturesampler.MakeBuilder().WithEnv(testpeer.Env(sim.NewSerialEngine())).Build("GPU.TextureSampler[2]")
	testpeer.CheckBufferNames(t, c, "GPU.TextureSampler[2].InputQueue GPU.TextureSampler[2].Requests GPU.TextureSampler[2].MissQueue "+
		"GPU.TextureSampler[2].UnsentReads GPU.TextureSampler[2].ToL2Requests")
}
