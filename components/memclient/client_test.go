package memclient_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/mem/idealmemcontroller"
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
)

const freq = 1 * sim.GHz

// cycle returns the time of cycle c.
func cycle(c int) sim.VTimeInSec { return sim.VTimeInSec(float64(c) / float64(freq)) }

// fakePort is a sim.Port that records what is sent and hands out queued
// incoming messages. Send never allocates.
type fakePort struct {
	sim.HookableBase
	name string
	full bool // CanSend and Send fail
	sent []sim.Msg
	last sim.Msg
	keep bool // record sent messages in sent
	in   []sim.Msg
}

func (p *fakePort) Name() string                   { return p.name }
func (p *fakePort) SetConnection(sim.Connection)   {}
func (p *fakePort) Component() sim.Component       { return nil }
func (p *fakePort) Recv(sim.Msg) *sim.SendError    { return nil }
func (p *fakePort) NotifyAvailable(sim.VTimeInSec) {}
func (p *fakePort) CanSend() bool                  { return !p.full }
func (p *fakePort) Peek() sim.Msg {
	if len(p.in) == 0 {
		return nil
	}
	return p.in[0]
}

func (p *fakePort) Retrieve(sim.VTimeInSec) sim.Msg {
	if len(p.in) == 0 {
		return nil
	}
	m := p.in[0]
	copy(p.in, p.in[1:])
	p.in = p.in[:len(p.in)-1]
	return m
}

func (p *fakePort) Send(m sim.Msg) *sim.SendError {
	if p.full {
		return sim.NewSendError()
	}
	p.last = m
	if p.keep {
		p.sent = append(p.sent, m)
	}
	return nil
}

func setup(t testing.TB, cfg memclient.Config) (*memclient.Client, *fakePort, *fakePort) {
	t.Helper()
	port := &fakePort{name: "GPU.Unit.Mem", keep: true}
	dst := &fakePort{name: "GPU.Memory.Top"}
	c, err := memclient.New(port, &mem.SingleLowModuleFinder{LowModule: dst}, freq, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, port, dst
}

// respond queues the response to sent message i, with data for reads.
func respond(port *fakePort, i int, at sim.VTimeInSec) {
	switch r := port.sent[i].(type) {
	case *mem.ReadReq:
		data := make([]byte, r.AccessByteSize)
		for k := range data {
			data[k] = byte(r.Address) + byte(k)
		}
		port.in = append(port.in, mem.DataReadyRspBuilder{}.WithRspTo(r.ID).WithData(data).WithSendTime(at).Build())
	case *mem.WriteReq:
		port.in = append(port.in, mem.WriteDoneRspBuilder{}.WithRspTo(r.ID).WithSendTime(at).Build())
	}
}

func collect(add func(prefix string, f func(string, float64))) map[string]float64 {
	m := map[string]float64{}
	add("C", func(n string, v float64) { m[strings.TrimPrefix(n, "C.")] = v })
	return m
}

func TestRequestsCarrySourceDestinationAndSendTime(t *testing.T) {
	c, port, dst := setup(t, memclient.Config{})
	data := []byte{1, 2, 3, 4}
	if !c.Read(cycle(5), 0x1040, 64, 1) || !c.Write(cycle(6), 0x2000, data, 2) {
		t.Fatal("refused")
	}
	r := port.sent[0].(*mem.ReadReq)
	w := port.sent[1].(*mem.WriteReq)
	if r.Src != port || r.Dst != dst || r.SendTime != cycle(5) || r.Address != 0x1040 || r.AccessByteSize != 64 {
		t.Errorf("read request %+v", r.MsgMeta)
	}
	if w.Src != port || w.Dst != dst || w.SendTime != cycle(6) || w.Address != 0x2000 || !bytes.Equal(w.Data, data) {
		t.Errorf("write request %+v", w.MsgMeta)
	}
	// Responses in the opposite order.
	respond(port, 1, cycle(20))
	respond(port, 0, cycle(30))
	got1, ok1 := c.Receive(cycle(21))
	got0, ok0 := c.Receive(cycle(31))
	if !ok0 || !ok1 {
		t.Fatal("no completion")
	}
	want1 := memclient.Completion{Tag: 2, Addr: 0x2000, Size: 4, Write: true, Latency: 15}
	if fmt.Sprint(got1) != fmt.Sprint(want1) {
		t.Errorf("write completion %+v, want %+v", got1, want1)
	}
	if got0.Tag != 1 || got0.Write || got0.Addr != 0x1040 || got0.Size != 64 || got0.Latency != 26 ||
		len(got0.Data) != 64 || got0.Data[0] != 0x40 || got0.Data[63] != 0x40+63 {
		t.Errorf("read completion %+v", got0)
	}
	if _, ok := c.Receive(cycle(32)); ok || !c.Idle() {
		t.Error("extra completion or not idle")
	}
	s := collect(c.Stats)
	want := map[string]float64{"reads": 1, "writes": 1, "bytes_read": 64, "bytes_written": 4,
		"latency_avg": 20.5, "read_latency_avg": 26, "write_latency_avg": 15, "latency_max": 26,
		"cycles_blocked": 0, "outstanding": 0, "reads_merged": 0}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s = %v, want %v", k, s[k], v)
		}
	}
}

func TestOutstandingLimit(t *testing.T) {
	for _, n := range []int{1, 4, 16} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			c, port, _ := setup(t, memclient.Config{MaxOutstanding: n})
			for i := 0; i < n; i++ {
				if !c.Read(cycle(0), uint64(i)*64, 64, uint64(i)) {
					t.Fatalf("read %d refused", i)
				}
			}
			if c.Read(cycle(0), 0x9000, 64, 99) || c.Write(cycle(1), 0x9000, []byte{1}, 99) {
				t.Fatalf("request %d accepted", n+1)
			}
			if len(port.sent) != n || c.Outstanding() != n {
				t.Fatalf("%d sent, %d outstanding", len(port.sent), c.Outstanding())
			}
			if b := c.Buffer("GPU.Unit.Requests"); b.Len != n || b.Cap != n {
				t.Errorf("buffer %+v", b)
			}
			respond(port, n-1, cycle(3))
			if got, ok := c.Receive(cycle(3)); !ok || got.Tag != uint64(n-1) {
				t.Fatalf("completion %+v %v", got, ok)
			}
			if !c.Read(cycle(3), 0x9000, 64, 99) {
				t.Fatal("refused after a completion")
			}
			s := collect(c.Stats)
			// Refused in cycles 0 and 1, accepted in 3: blocked cycles 0..2.
			if s["refused_full"] != 2 || s["refused_port"] != 0 || s["cycles_blocked"] != 3 {
				t.Errorf("stats %v", s)
			}
		})
	}
}

func TestPortBackPressure(t *testing.T) {
	c, port, _ := setup(t, memclient.Config{})
	port.full = true
	for cy := 5; cy <= 7; cy++ {
		if c.Read(cycle(cy), 0x100, 64, 1) {
			t.Fatal("accepted while the port is full")
		}
	}
	s := collect(c.Stats)
	if s["refused_port"] != 3 || s["cycles_blocked"] != 3 || s["reads"] != 0 || c.Outstanding() != 0 {
		t.Errorf("while blocked: %v", s)
	}
	port.full = false
	if !c.Read(cycle(9), 0x100, 64, 1) {
		t.Fatal("refused")
	}
	if s := collect(c.Stats); s["cycles_blocked"] != 4 || s["reads"] != 1 {
		t.Errorf("after: %v", s)
	}
}

func TestReadMerging(t *testing.T) {
	type rd struct {
		cy         int
		addr, size uint64
		accepted   bool
	}
	for _, tc := range []struct {
		name      string
		cfg       memclient.Config
		reads     []rd
		writeAt   int // issue a write to 0x1000 before the read with this index; -1: none
		sent      int
		completed []uint64 // tags in Receive order after all responses
		merged    []bool
	}{
		{
			name:    "off",
			cfg:     memclient.Config{},
			reads:   []rd{{0, 0x1000, 64, true}, {1, 0x1010, 16, true}},
			writeAt: -1, sent: 2, completed: []uint64{0, 1}, merged: []bool{false, false},
		},
		{
			name: "contained",
			cfg:  memclient.Config{MergeReads: true},
			reads: []rd{{0, 0x1000, 64, true}, {1, 0x1010, 16, true}, {2, 0x1000, 64, true},
				{3, 0x1030, 32, false}}, // not contained: own request
			writeAt: -1, sent: 2, completed: []uint64{0, 1, 2, 3}, merged: []bool{false, true, true, false},
		},
		{
			name:    "limit",
			cfg:     memclient.Config{MergeReads: true, MaxMerged: 1},
			reads:   []rd{{0, 0x1000, 64, true}, {1, 0x1000, 64, true}, {2, 0x1000, 64, false}},
			writeAt: -1, sent: 2, completed: []uint64{0, 1, 2}, merged: []bool{false, true, false},
		},
		{
			name:    "after-write",
			cfg:     memclient.Config{MergeReads: true},
			reads:   []rd{{0, 0x1000, 64, true}, {2, 0x1000, 64, false}},
			writeAt: 1, sent: 3, completed: []uint64{0, 100, 1}, merged: []bool{false, false, false},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, port, _ := setup(t, tc.cfg)
			for i, r := range tc.reads {
				if i == tc.writeAt {
					if !c.Write(cycle(r.cy), 0x1020, []byte{9}, 100) {
						t.Fatal("write refused")
					}
				}
				if !c.Read(cycle(r.cy), r.addr, r.size, uint64(i)) {
					t.Fatalf("read %d refused", i)
				}
			}
			if len(port.sent) != tc.sent {
				t.Fatalf("%d requests sent, want %d", len(port.sent), tc.sent)
			}
			for i := range port.sent {
				respond(port, i, cycle(50))
			}
			var tags []uint64
			var merged []bool
			for {
				got, ok := c.Receive(cycle(50 + len(tags)))
				if !ok {
					break
				}
				tags = append(tags, got.Tag)
				merged = append(merged, got.Merged)
				if got.Write {
					continue
				}
				r := tc.reads[got.Tag]
				if got.Addr != r.addr || got.Size != r.size || uint64(len(got.Data)) != r.size ||
					got.Data[0] != byte(r.addr) {
					t.Errorf("read %d: %+v", got.Tag, got)
				}
				if want := uint64(50 + len(tags) - 1 - r.cy); got.Latency != want {
					t.Errorf("read %d latency %d, want %d", got.Tag, got.Latency, want)
				}
			}
			if fmt.Sprint(tags) != fmt.Sprint(tc.completed) || fmt.Sprint(merged) != fmt.Sprint(tc.merged) {
				t.Errorf("completions %v merged %v, want %v %v", tags, merged, tc.completed, tc.merged)
			}
			nMerged := 0
			for _, m := range tc.merged {
				if m {
					nMerged++
				}
			}
			s := collect(c.Stats)
			if s["reads"] != float64(len(tc.reads)) || s["reads_merged"] != float64(nMerged) || !c.Idle() {
				t.Errorf("stats %v", s)
			}
		})
	}
}

func TestUnexpectedMessagePanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  sim.Msg
	}{
		{"unknown-response", mem.WriteDoneRspBuilder{}.WithRspTo("nope").Build()},
		{"not-a-response", mem.ReadReqBuilder{}.Build()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, port, _ := setup(t, memclient.Config{})
			port.in = append(port.in, tc.msg)
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "GPU.Unit.Mem") {
					t.Errorf("recover() = %v", r)
				}
			}()
			c.Receive(cycle(1))
		})
	}
}

func TestConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		cfg   memclient.Config
		field string
	}{
		{memclient.Config{MaxOutstanding: -1}, "MaxOutstanding"},
		{memclient.Config{MaxMerged: -1}, "MaxMerged"},
		{memclient.Config{MaxOutstanding: 1 << 20}, "MaxOutstanding"},
	} {
		err := tc.cfg.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.field+":") {
			t.Errorf("Validate(%+v) = %v, want an error on %s", tc.cfg, err, tc.field)
		}
	}
	if _, err := memclient.New(nil, nil, freq, memclient.Config{}); err == nil {
		t.Error("New without a port succeeded")
	}
	if _, err := memclient.New(&fakePort{}, &mem.SingleLowModuleFinder{}, 0, memclient.Config{}); err == nil {
		t.Error("New with frequency 0 succeeded")
	}
}

// TestNoAllocationBeyondMessages checks that a read or write and its completion
// allocate no more than building the request and response messages does.
func TestNoAllocationBeyondMessages(t *testing.T) {
	c, port, dst := setup(t, memclient.Config{MergeReads: true})
	port.keep = false
	data := make([]byte, 64)
	rsp := &mem.DataReadyRsp{Data: data}
	wrsp := &mem.WriteDoneRsp{}
	now := cycle(1)
	// Message IDs below 100 are preformatted strings; get past them so that every
	// ID allocates in both measurements.
	for i := 0; i < 200; i++ {
		sim.GetIDGenerator().Generate()
	}
	sink := make([]sim.Msg, 2) // makes the baseline's messages escape, as sent ones do
	baseline := testing.AllocsPerRun(200, func() {
		sink[0] = mem.ReadReqBuilder{}.WithSrc(port).WithDst(dst).WithAddress(0x40).WithByteSize(64).
			WithSendTime(now).Build()
		sink[1] = mem.WriteReqBuilder{}.WithSrc(port).WithDst(dst).WithAddress(0x80).WithData(data).
			WithSendTime(now).Build()
	})
	got := testing.AllocsPerRun(200, func() {
		c.Read(now, 0x40, 64, 1)
		c.Read(now, 0x50, 16, 2) // merged
		rsp.RespondTo = port.last.Meta().ID
		c.Write(now, 0x80, data, 3)
		wrsp.RespondTo = port.last.Meta().ID
		port.in = append(port.in[:0], rsp, wrsp)
		for {
			if _, ok := c.Receive(now); !ok {
				break
			}
		}
	})
	if got > baseline {
		t.Errorf("%v allocations per read+write round, the messages alone take %v", got, baseline)
	}
	if !c.Idle() {
		t.Error("not idle")
	}
}

// requester is a component that issues reads through a client in its Tick.
type requester struct {
	*sim.TickingComponent
	port   sim.Port
	client *memclient.Client
	addrs  []uint64
	next   int
	done   []uint64 // completion cycle per tag
}

func (r *requester) Tick(now sim.VTimeInSec) bool {
	progress := false
	for {
		comp, ok := r.client.Receive(now)
		if !ok {
			break
		}
		r.done[comp.Tag] = freq.Cycle(now)
		progress = true
	}
	for r.next < len(r.addrs) && r.client.Read(now, r.addrs[r.next], 64, uint64(r.next)) {
		r.next++
		progress = true
	}
	return progress
}

// TestWithAkitaIdealMemory runs a client against Akita's ideal controller on a
// real serial engine (which panics on a wrong SendTime). Latency 20, at most 2
// reads in flight, 4 reads issued: reads 0 and 1 go out in cycle 0 and complete
// in cycle 22 (latency + 2, see components/memory); reads 2 and 3 go out in
// cycle 22 and complete in cycle 44.
func TestWithAkitaIdealMemory(t *testing.T) {
	engine := sim.NewSerialEngine()
	ctrl := idealmemcontroller.MakeBuilder().WithEngine(engine).WithFreq(freq).WithLatency(20).
		WithWidth(4).Build("Memory")
	r := &requester{addrs: []uint64{0, 64, 128, 192}, done: make([]uint64, 4)}
	r.TickingComponent = sim.NewTickingComponent("Requester", engine, freq, r)
	r.port = sim.NewLimitNumMsgPort(r, 4, "Requester.Mem")
	c, err := memclient.New(r.port, &mem.SingleLowModuleFinder{LowModule: ctrl.GetPortByName("Top")}, freq,
		memclient.Config{MaxOutstanding: 2})
	if err != nil {
		t.Fatal(err)
	}
	r.client = c
	conn := sim.NewDirectConnection("Conn", engine, freq)
	conn.PlugIn(r.port, 4)
	conn.PlugIn(ctrl.GetPortByName("Top"), 4)
	r.TickNow(0)
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.done) != "[22 22 44 44]" {
		t.Errorf("completion cycles %v, want [22 22 44 44]", r.done)
	}
	s := collect(c.Stats)
	// Read 2 was refused in cycle 0 and again in cycle 1 (the requester made
	// progress in cycle 0, so it ticked once more before sleeping until the
	// responses arrived) and accepted in cycle 22.
	if s["refused_full"] != 2 || s["cycles_blocked"] != 22 || s["read_latency_avg"] != 22 {
		t.Errorf("stats %v", s)
	}
}

func TestReceiveAllTakesEveryCompletionInReceiveOrder(t *testing.T) {
	c, port, _ := setup(t, memclient.Config{MergeReads: true})
	if got := c.ReceiveAll(cycle(0)); len(got) != 0 {
		t.Fatalf("ReceiveAll with nothing arrived = %+v, want none", got)
	}
	if !c.Read(cycle(1), 0x1000, 64, 7) || !c.Read(cycle(2), 0x1010, 16, 8) ||
		!c.Write(cycle(3), 0x2000, []byte{1, 2}, 9) {
		t.Fatal("refused")
	}
	respond(port, 1, cycle(10))
	respond(port, 0, cycle(10))
	got := c.ReceiveAll(cycle(11))
	var tags []uint64
	var merged []bool
	for _, comp := range got {
		tags = append(tags, comp.Tag)
		merged = append(merged, comp.Merged)
	}
	if fmt.Sprint(tags, merged) != fmt.Sprint([]uint64{9, 7, 8}, []bool{false, false, true}) {
		t.Errorf("ReceiveAll tags %v merged %v, want [9 7 8] [false false true]", tags, merged)
	}
	if got[2].Addr != 0x1010 || len(got[2].Data) != 16 || got[2].Data[0] != 0x10 {
		t.Errorf("merged completion %+v", got[2])
	}
	if !c.Idle() || len(c.ReceiveAll(cycle(12))) != 0 {
		t.Error("not idle after ReceiveAll or a second ReceiveAll found more")
	}
}
