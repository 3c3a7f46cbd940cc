package commandprocessor

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/mem/cache"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/texture"
)

// texPSSource samples s0 at a constant coordinate.
const texPSSource = `.ps
.output o0 color
.const c0 uv 1
.sampler s0 src 2d
tex o0, c0, s0
`

// cohMsg is one coherence message the back end took: the port, the cycle
// and what it asked ("flush": FlushCmd without Invalidate, "invalidate":
// FlushCmd with Invalidate, "l2": cache.FlushReq).
type cohMsg struct {
	port  string
	cycle uint64
	what  string
}

func coherenceMsgs(p *fakePipe) []cohMsg {
	var out []cohMsg
	for _, rec := range p.got {
		switch m := rec.Msg.(type) {
		case *protocol.FlushCmd:
			what := "flush"
			if m.Invalidate {
				what = "invalidate"
			}
			out = append(out, cohMsg{rec.Port, rec.Cycle, what})
		case *cache.FlushReq:
			out = append(out, cohMsg{rec.Port, rec.Cycle, "l2"})
		}
	}
	return out
}

// TestSyncTokenCoherence runs streams of passes separated by sync tokens
// through a command processor with two partitions, two texture samplers and
// three L2 banks, and checks what each sync token sends, under the rule of
// coherence.go: a back-end flush (FlushCmd without Invalidate to every ROP
// and depth unit) when a draw was dispatched since the last write-back (a
// sync token's flush or a Present), and a texture invalidate (FlushCmd with
// Invalidate to every sampler, cache.FlushReq to every L2 bank) when a target
// written since the last sync token overlaps the data of a texture that a
// draw dispatched before the token bound. Each token's DMA write is taken by
// the memory two cycles after the slowest acknowledgement left its unit (the
// CP takes it one cycle later and issues the write in the same tick; the
// memory takes it the cycle after), and a token with nothing to do sends
// nothing.
func TestSyncTokenCoherence(t *testing.T) {
	r := newResources(t)
	other := command.Target{Addr: r.img.Alloc(16*16*4, 256), Width: 16, Height: 16, Samples: 1,
		Format: r.color.Format, Layout: r.color.Layout, TileW: 4, TileH: 4}
	texPS := program(t, "tex.ps", texPSSource)
	bindTexPS := command.BindShader{Stage: command.PixelStage, Addr: r.img.Put(texPS, 64), Size: uint32(len(texPS))}
	bindPS := command.BindShader{Stage: command.PixelStage, Addr: r.ps, Size: r.psSize}
	// A texture descriptor over data (the colour target's bytes, or bytes no
	// target covers).
	texAt := func(data uint64) command.BindTexture {
		d := command.TextureDescriptor{Format: uint32(texture.RGBA8), Width: 16, Height: 16, Levels: 1,
			Layout: uint32(texture.Linear), Data: data, Size: 16 * 16 * 4}
		return command.BindTexture{Stage: command.PixelStage, Slot: 0, Desc: r.img.Put(d.Encode(), 64), MaxLOD: 1}
	}
	overColor, elsewhere := texAt(r.color.Addr), texAt(r.img.Alloc(16*16*4, 256))
	syncs := []uint64{r.img.Alloc(4, 16), r.img.Alloc(4, 16), r.img.Alloc(4, 16), r.img.Alloc(4, 16)}
	token := func(i int) command.SyncToken { return command.SyncToken{Value: uint32(0x100 + i), Addr: syncs[i]} }
	draw := command.Draw{VertexCount: 3}

	type want struct{ flush, invalidate bool }
	cases := []struct {
		name   string
		cmds   []command.Command
		tokens []want
	}{
		{
			// Pass 1 draws the colour target; pass 2 draws the other target
			// sampling it. At token 0 no draw has bound the texture yet, so
			// no texture cache can hold its lines: flush only, and the
			// flushed bytes are forgotten. Token 1 flushes only too: pass 2
			// read the new bytes, and nothing wrote them since. The token
			// after the Present has nothing to do.
			name: "later pass samples the target",
			cmds: append(r.setup(), draw, token(0), command.SetColorTarget{Target: other}, bindTexPS, overColor, draw,
				token(1), command.Present{}, token(2), command.End{}),
			tokens: []want{{flush: true}, {flush: true}, {}},
		},
		{
			// Ping-pong: pass 2 samples the colour target (drawing the
			// other one), pass 3 draws the colour target again: the
			// samplers may hold pass 1's lines of it, so token 2 flushes
			// and invalidates.
			name: "target sampled, then drawn again in a later pass",
			cmds: append(r.setup(), draw, token(0), command.SetColorTarget{Target: other}, bindTexPS, overColor, draw,
				token(1), command.SetColorTarget{Target: r.color}, bindPS, draw, token(2), command.Present{}, token(3), command.End{}),
			tokens: []want{{flush: true}, {flush: true}, {flush: true, invalidate: true}, {}},
		},
		{
			// The same with a texture no target overlaps: flushes only.
			name: "no pass samples a target",
			cmds: append(r.setup(), draw, token(0), command.SetColorTarget{Target: other}, bindTexPS, elsewhere, draw,
				token(1), command.Present{}, token(2), command.End{}),
			tokens: []want{{flush: true}, {flush: true}, {}},
		},
		{
			// Pass 1 samples the colour target (drawing the other one), then
			// draws the colour target: the samplers may hold its old lines,
			// so token 0 flushes and invalidates.
			name: "target sampled, then drawn",
			cmds: append(r.setup(), command.SetColorTarget{Target: other}, bindTexPS, overColor, draw,
				command.SetColorTarget{Target: r.color}, bindPS, draw, token(0), command.Present{}, token(1), command.End{}),
			tokens: []want{{flush: true, invalidate: true}, {}},
		},
	}
	const ackLatency, cacheAckLatency = 3, 20
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, a := range syncs { // the previous case's values
				if b, ok := r.img.Slice(a, 4); ok {
					clear(b)
				}
			}
			stream, size, _ := r.put(tc.cmds)
			b := newBench(t, r.img, benchConfig{partitions: 2, memLatency: 4, drawLatency: 10, ackLatency: ackLatency,
				samplers: 2, l2Banks: 3, cacheAckLatency: cacheAckLatency})
			b.run(t, r.img, stream, size)
			if err := b.cp.Err(); err != nil {
				t.Fatal(err)
			}
			if !b.cp.Finished() {
				t.Fatal("not finished")
			}
			// The cycle at which the memory took each token's write.
			writes := map[uint64]uint64{}
			for _, q := range b.memory.Log {
				if q.Write {
					if q.Size != 4 {
						t.Errorf("write of %d bytes at 0x%x", q.Size, q.Addr)
					}
					writes[q.Addr] = q.Cycle
				}
			}
			if len(writes) != len(tc.tokens) {
				t.Fatalf("%d sync-token writes %v, want %d", len(writes), writes, len(tc.tokens))
			}
			msgs := coherenceMsgs(b.pipe)
			var flushes, invalidates float64
			prev := uint64(0)
			for i, w := range tc.tokens {
				wc, ok := writes[syncs[i]]
				if !ok {
					t.Fatalf("token %d: no write", i)
				}
				if v := command.ReadU32(r.img, syncs[i]); v != uint32(0x100+i) {
					t.Errorf("token %d: 0x%x in memory", i, v)
				}
				// This token's messages: those after the previous token's write.
				var got []cohMsg
				for _, m := range msgs {
					if m.cycle > prev && m.cycle < wc {
						got = append(got, m)
					}
				}
				prev = wc
				var wantMsgs []cohMsg
				at := uint64(0)
				if len(got) > 0 {
					at = got[0].cycle
				}
				lat := uint64(0)
				if w.flush {
					flushes++
					lat = ackLatency
					for _, p := range []string{"Pipe.ROP[0]", "Pipe.ROP[1]", "Pipe.DepthUnit[0]", "Pipe.DepthUnit[1]"} {
						wantMsgs = append(wantMsgs, cohMsg{p, at, "flush"})
					}
				}
				if w.invalidate {
					invalidates++
					lat = cacheAckLatency
					for _, p := range []string{"Pipe.Sampler[0].Control", "Pipe.Sampler[1].Control"} {
						wantMsgs = append(wantMsgs, cohMsg{p, at, "invalidate"})
					}
					for _, p := range []string{"Pipe.L2[0].Control", "Pipe.L2[1].Control", "Pipe.L2[2].Control"} {
						wantMsgs = append(wantMsgs, cohMsg{p, at, "l2"})
					}
				}
				if !reflect.DeepEqual(got, wantMsgs) {
					t.Errorf("token %d: messages %+v, want %+v", i, got, wantMsgs)
				}
				if len(got) > 0 && wc != at+lat+2 {
					t.Errorf("token %d: write taken at cycle %d, want %d (the slowest acknowledgement left at %d)",
						i, wc, at+lat+2, at+lat)
				}
			}
			if len(msgs) > 0 && msgs[len(msgs)-1].cycle > prev {
				t.Errorf("coherence messages after the last token: %+v", msgs)
			}
			testpeer.CheckStats(t, testpeer.StatMap(b.cp), "GPU.CommandProcessor", map[string]float64{
				"sync_tokens":      float64(len(tc.tokens)),
				"sync_flushes":     flushes,
				"sync_invalidates": invalidates,
				"presents":         1,
			})
		})
	}
}
