package memory_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
)

// pattern returns n bytes that differ at every offset within 251 bytes.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i%251) ^ seed
	}
	return b
}

const imageBase = 0x10000 // command.BaseAddress

// TestIdealRoundTrip pins the cycle counts of one request through an ideal
// controller of latency L on a direct connection, all clocks 1 GHz: the agent
// sends in cycle 0; the connection delivers into the controller's port in cycle
// 0; the controller takes it in cycle 1 and responds in cycle 1+L; the agent
// receives it in cycle 2+L. The channel's latency counter (port arrival to
// response departure) reads L+1.
func TestIdealRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		latency int
		write   bool
	}{
		{1, false}, {10, false}, {100, false}, {100, true}, {37, true},
	} {
		t.Run(fmt.Sprintf("L%d/write=%v", tc.latency, tc.write), func(t *testing.T) {
			cfg := memory.Config{Type: memory.TypeIdeal, NumChannels: 2,
				Ideal: memory.IdealConfig{Latency: tc.latency}}
			o := op{addr: imageBase + 0x100, size: 64, tag: 7}
			if tc.write {
				o = op{write: true, addr: imageBase + 0x100, data: pattern(64, 3), tag: 7}
			}
			r := newRig(t, cfg, nil, memclient.Config{}, []op{o})
			r.run(t)
			d := r.agent.done[0]
			want := uint64(tc.latency + 2)
			if r.agent.issued[0] != 0 || d.cycle != want || d.Latency != want || d.Tag != 7 || d.Write != tc.write {
				t.Errorf("issued %d, completed %+v in cycle %d; want issue 0, completion in cycle %d",
					r.agent.issued[0], d.Completion, d.cycle, want)
			}
			s := stats(r.mem.Stats)
			kind := "read"
			if tc.write {
				kind = "write"
			}
			ch := "GPU.Memory.Channel[1]." // 0x10100 / 256 = 257, odd
			if got := s[ch+kind+"_latency_avg"]; got != float64(tc.latency+1) {
				t.Errorf("%s%s_latency_avg = %v, want %d", ch, kind, got, tc.latency+1)
			}
			if got := s[ch+kind+"_latency_max"]; got != float64(tc.latency+1) {
				t.Errorf("%s%s_latency_max = %v, want %d", ch, kind, got, tc.latency+1)
			}
			if s[ch+kind+"s"] != 1 || s["GPU.Memory.Channel[0].reads"]+s["GPU.Memory.Channel[0].writes"] != 0 {
				t.Errorf("counters %v", s)
			}
		})
	}
}

// TestDRAMIdleReadLatency pins one read through an idle GDDR5 channel with
// Akita's default timings, DRAM and requester both at 1 GHz. The requester sends
// in cycle 0 and the request enters the port in cycle 0; the controller parses
// it in cycle 1, queues its command in cycle 2, activates the bank in cycle 3
// (busy tRCDRD = 24 cycles), issues the read-with-precharge in cycle 27 (Akita
// keeps the bank busy tRP = 11 cycles for it), sees it complete in cycle 38,
// responds in cycle 39, and the requester receives the data in cycle 40.
func TestDRAMIdleReadLatency(t *testing.T) {
	for _, write := range []bool{false, true} {
		o := op{addr: imageBase, size: 64}
		if write {
			o = op{write: true, addr: imageBase, data: pattern(64, 1)}
		}
		r := newRig(t, memory.Config{NumChannels: 1, Freq: agentFreq}, nil, memclient.Config{}, []op{o})
		r.run(t)
		s := stats(r.mem.Stats)
		kind := "read"
		if write {
			kind = "write"
		}
		if d := r.agent.done[0]; d.cycle != 40 || s["GPU.Memory.Channel[0]."+kind+"_latency_max"] != 39 {
			t.Errorf("%s: completed in cycle %d, channel latency %v; want 40 and 39", kind, d.cycle,
				s["GPU.Memory.Channel[0]."+kind+"_latency_max"])
		}
	}
}

// TestReadsReturnImageBytes loads an image and reads lines in every channel.
func TestReadsReturnImageBytes(t *testing.T) {
	for _, typ := range []string{memory.TypeDRAM, memory.TypeIdeal} {
		t.Run(typ, func(t *testing.T) {
			img := pattern(64<<10, 0x5a)
			var script []op
			// Two lines per channel: granule k of the image is in channel k%4.
			for k := 0; k < 8; k++ {
				script = append(script, op{addr: imageBase + uint64(k)*256 + uint64(k%4)*64,
					size: 64, tag: uint64(k)})
			}
			// One unaligned read inside a granule.
			script = append(script, op{addr: imageBase + 0x3013, size: 40, tag: 8})
			r := newRig(t, memory.Config{Type: typ}, nil, memclient.Config{}, script)
			if err := r.mem.LoadImage(imageBase, img); err != nil {
				t.Fatal(err)
			}
			r.run(t)
			for _, d := range r.agent.done {
				o := script[d.Tag]
				want := img[o.addr-imageBase : o.addr-imageBase+o.size]
				if d.Addr != o.addr || !bytes.Equal(d.Data, want) {
					t.Errorf("read 0x%x: got % x, want % x", o.addr, d.Data, want)
				}
			}
			s := stats(r.mem.Stats)
			wantReads := []float64{3, 2, 2, 2} // 0x13013 is in granule 0x130, channel 0
			for c, w := range wantReads {
				name := fmt.Sprintf("GPU.Memory.Channel[%d].", c)
				if s[name+"reads"] != w || s[name+"bytes_read"] != 64*w-24*boolf(c == 0) {
					t.Errorf("channel %d: reads %v bytes %v, want %v", c, s[name+"reads"], s[name+"bytes_read"], w)
				}
			}
		})
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestWriteThenRead writes full and partial lines, then reads them back after
// the writes completed.
func TestWriteThenRead(t *testing.T) {
	for _, typ := range []string{memory.TypeDRAM, memory.TypeIdeal} {
		t.Run(typ, func(t *testing.T) {
			img := pattern(8<<10, 0x11)
			full, part := pattern(64, 0xc3), pattern(16, 0x3c)
			script := []op{
				{write: true, addr: imageBase + 0x540, data: full, tag: 0}, // channel 1
				{write: true, addr: imageBase + 0x224, data: part, tag: 1}, // channel 2
				{at: 1000, addr: imageBase + 0x540, size: 64, tag: 2},
				{at: 1000, addr: imageBase + 0x200, size: 64, tag: 3},
			}
			r := newRig(t, memory.Config{Type: typ}, nil, memclient.Config{}, script)
			if err := r.mem.LoadImage(imageBase, img); err != nil {
				t.Fatal(err)
			}
			r.run(t)
			wantLine := append([]byte(nil), img[0x200:0x240]...)
			copy(wantLine[0x24:], part)
			for _, d := range r.agent.done {
				switch d.Tag {
				case 0, 1:
					if !d.Write || d.cycle >= 1000 {
						t.Errorf("write %d completed in cycle %d", d.Tag, d.cycle)
					}
				case 2:
					if !bytes.Equal(d.Data, full) {
						t.Errorf("full line read back % x, want % x", d.Data, full)
					}
				case 3:
					if !bytes.Equal(d.Data, wantLine) {
						t.Errorf("partial line read back % x, want % x", d.Data, wantLine)
					}
				}
			}
			got := make([]byte, 64)
			r.mem.ReadAt(got, imageBase+0x200)
			if !bytes.Equal(got, wantLine) {
				t.Errorf("ReadAt after the run: % x, want % x", got, wantLine)
			}
			s := stats(r.mem.Stats)
			if s["GPU.Memory.Channel[1].bytes_written"] != 64 || s["GPU.Memory.Channel[2].bytes_written"] != 16 {
				t.Errorf("bytes written: %v", s)
			}
		})
	}
}

// TestInterleaving checks the channel, local and storage address of global
// addresses, the finder, and that a DRAM controller sees the storage address
// while the request is in flight and the sender gets its global address back.
func TestInterleaving(t *testing.T) {
	for _, tc := range []struct {
		channels   int
		interleave uint64
		addr       uint64
		channel    int
		local      uint64
	}{
		{4, 256, 0x0, 0, 0x0},
		{4, 256, 0xff, 0, 0xff},
		{4, 256, 0x100, 1, 0x0},
		{4, 256, 0x3ff, 3, 0xff},
		{4, 256, 0x400, 0, 0x100},
		{4, 256, 0x10543, 1, 0x4143}, // granule 0x105 = 261: round 65, channel 1
		{3, 4096, 0x2fff, 2, 0xfff},
		{3, 4096, 0x3000, 0, 0x1000},
		{3, 4096, 0x7123, 1, 0x2123}, // granule 7: round 2, channel 1
		{1, 256, 0x123456, 0, 0x123456},
	} {
		t.Run(fmt.Sprintf("%dx%d/0x%x", tc.channels, tc.interleave, tc.addr), func(t *testing.T) {
			m, err := memory.Build(memory.Config{NumChannels: tc.channels, InterleaveBytes: tc.interleave},
				sim.NewSerialEngine(), "GPU.Memory")
			if err != nil {
				t.Fatal(err)
			}
			if got := m.ChannelOf(tc.addr); got != tc.channel {
				t.Errorf("ChannelOf = %d, want %d", got, tc.channel)
			}
			if got := m.Finder.Find(tc.addr); got != m.Tops[tc.channel] {
				t.Errorf("Finder.Find = %s, want %s", got.Name(), m.Tops[tc.channel].Name())
			}
			if got := m.LocalAddress(tc.addr); got != tc.local {
				t.Errorf("LocalAddress = 0x%x, want 0x%x", got, tc.local)
			}
			s := m.StorageAddress(tc.addr)
			if want := uint64(tc.channel)<<40 | tc.local; s != want {
				t.Errorf("StorageAddress = 0x%x, want 0x%x", s, want)
			}
			if g := m.GlobalAddress(s); g != tc.addr {
				t.Errorf("GlobalAddress(StorageAddress) = 0x%x", g)
			}
		})
	}

	// End to end: what the DRAM controller sees.
	var script []op
	for k := uint64(0); k < 6; k++ {
		script = append(script, op{addr: k*0x140 + 0x8, size: 32, tag: k})
	}
	r := newRig(t, memory.Config{}, nil, memclient.Config{}, script)
	seen := &addrRecorder{}
	for _, p := range r.mem.Tops {
		p.AcceptHook(seen) // runs after the package's own hooks
	}
	r.run(t)
	if len(seen.reqs) != len(script) {
		t.Fatalf("%d requests seen", len(seen.reqs))
	}
	for i, req := range seen.reqs {
		g := script[i].addr
		if seen.addrs[i] != r.mem.StorageAddress(g) || req.Address != g {
			t.Errorf("request for 0x%x: controller saw 0x%x (want 0x%x), sender has 0x%x afterwards",
				g, seen.addrs[i], r.mem.StorageAddress(g), req.Address)
		}
		if p := seen.ports[i]; p != r.mem.Tops[r.mem.ChannelOf(g)] {
			t.Errorf("request for 0x%x went to %s", g, p.Name())
		}
	}
}

// addrRecorder records the requests arriving at ports and their addresses then.
type addrRecorder struct {
	reqs  []*mem.ReadReq
	addrs []uint64
	ports []sim.Port
}

func (a *addrRecorder) Func(ctx sim.HookCtx) {
	if r, ok := ctx.Item.(*mem.ReadReq); ok && ctx.Pos == sim.HookPosPortMsgRecvd {
		a.reqs = append(a.reqs, r)
		a.addrs = append(a.addrs, r.Address)
		a.ports = append(a.ports, ctx.Domain.(sim.Port))
	}
}

// TestL2HitsAndMisses runs a known access pattern through one L2 bank.
func TestL2HitsAndMisses(t *testing.T) {
	img := pattern(16<<10, 0x77)
	part := pattern(16, 0xee)
	full := pattern(64, 0x99)
	// Two channels, 256-byte granules: lines 0x10000..0x100c0 and 0x10200.. are
	// in bank 0.
	const a, b, c, d = imageBase, imageBase + 0x40, imageBase + 0x80, imageBase + 0x200
	script := []op{
		{at: 0, addr: a, size: 64, tag: 0},                      // read miss
		{at: 1, addr: a + 16, size: 16, tag: 1},                 // read MSHR hit
		{at: 400, addr: a, size: 64, tag: 2},                    // read hit
		{at: 500, write: true, addr: a, data: full, tag: 3},     // write hit
		{at: 600, write: true, addr: b, data: full, tag: 4},     // write miss, full line: no fetch
		{at: 700, write: true, addr: c + 8, data: part, tag: 5}, // write miss, partial: fetch
		{at: 1200, addr: c, size: 64, tag: 6},                   // read hit
		{at: 1200, addr: d, size: 64, tag: 7},                   // read miss
		{at: 1600, addr: b, size: 64, tag: 8},                   // read hit
	}
	l2 := memory.L2Config{SizeBytes: 16 << 10}
	r := newRig(t, memory.Config{Type: memory.TypeIdeal, NumChannels: 2}, &l2, memclient.Config{}, script)
	if err := r.mem.LoadImage(imageBase, img); err != nil {
		t.Fatal(err)
	}
	r.run(t)
	s := stats(r.l2.Stats)
	want := map[string]float64{
		"read_hits": 3, "read_misses": 2, "read_mshr_hits": 1,
		"write_hits": 1, "write_misses": 2, "write_mshr_hits": 0,
		"reads": 6, "writes": 3, "bytes_read": 64*5 + 16, "bytes_written": 64*2 + 16,
		"read_hit_rate": 0.5,
	}
	for k, v := range want {
		if got := s["GPU.L2.Bank[0]."+k]; got != v {
			t.Errorf("Bank[0].%s = %v, want %v", k, got, v)
		}
		if got := s["GPU.L2.Bank[1]."+k]; got != 0 {
			t.Errorf("Bank[1].%s = %v, want 0", k, got)
		}
	}
	// Memory saw the three fetches (a, c, d) and no write-back yet.
	ms := stats(r.mem.Stats)
	if ms["GPU.Memory.Channel[0].reads"] != 3 || ms["GPU.Memory.Channel[0].writes"] != 0 {
		t.Errorf("memory counters %v", ms)
	}
	wantC := append([]byte(nil), img[0x80:0xc0]...)
	copy(wantC[8:], part)
	for _, dn := range r.agent.done {
		var want []byte
		switch dn.Tag {
		case 0, 2:
			want = img[:64]
		case 1:
			want = img[16:32]
		case 6:
			want = wantC
		case 7:
			want = img[0x200:0x240]
		case 8:
			want = full
		default:
			continue
		}
		if !bytes.Equal(dn.Data, want) {
			t.Errorf("read %d: % x, want % x", dn.Tag, dn.Data, want)
		}
	}
}

// TestGDDR5Throughput streams sequential 64-byte reads through one GDDR5
// channel (Akita's default timings, 64-bit bus, burst 8, 1.6 GHz) with 64
// reads in flight and reports the delivered bytes per DRAM cycle. The peak is
// 32 B/cycle (4 transfers of 8 bytes per clock); Akita closes the row after
// every access, so each access pays activate, read and precharge, and the
// stream is limited by how many banks work in parallel.
func TestGDDR5Throughput(t *testing.T) {
	for _, tc := range []struct {
		name     string
		channels int
		columns  int
		lo, hi   float64 // bytes per DRAM cycle, all channels
	}{
		{"1ch", 1, 0, 15, 24},
		{"4ch", 4, 0, 60, 96},
		{"1ch-akita-columns", 1, 1024, 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 600
			script := make([]op, n)
			for i := range script {
				script[i] = op{addr: imageBase + uint64(i)*64, size: 64, tag: uint64(i)}
			}
			cfg := memory.Config{NumChannels: tc.channels, DRAM: memory.DRAMConfig{Columns: tc.columns}}
			r := newRig(t, cfg, nil, memclient.Config{MaxOutstanding: 64 * tc.channels}, script)
			r.run(t)
			last := r.agent.done[n-1].cycle
			dramCycles := float64(last) / float64(agentFreq) * float64(memory.DefaultDRAMFreq)
			bpc := n * 64 / dramCycles
			t.Logf("%d sequential 64 B reads over %d channel(s): %d agent cycles (1 GHz) = %.0f DRAM cycles: %.2f B/DRAM cycle",
				n, tc.channels, last, dramCycles, bpc)
			if bpc < tc.lo || bpc > tc.hi {
				t.Errorf("%.2f B/cycle outside the sanity range [%v, %v]", bpc, tc.lo, tc.hi)
			}
		})
	}
}

// TestConfigErrorsNameTheField checks Validate and Build on bad values.
func TestConfigErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		field string
		cfg   memory.Config
	}{
		{"Type", memory.Config{Type: "sram"}},
		{"NumChannels", memory.Config{NumChannels: -1}},
		{"InterleaveBytes", memory.Config{InterleaveBytes: 384}},
		{"Freq", memory.Config{Freq: -5}},
		{"DRAM.Protocol", memory.Config{DRAM: memory.DRAMConfig{Protocol: "DDR9"}}},
		{"DRAM.BusWidth", memory.Config{DRAM: memory.DRAMConfig{BusWidth: 48}}},
		{"DRAM.BurstLength", memory.Config{DRAM: memory.DRAMConfig{Protocol: "GDDR6", BurstLength: 8}}},
		{"DRAM.Ranks", memory.Config{DRAM: memory.DRAMConfig{Ranks: 3}}},
		{"DRAM.Columns", memory.Config{DRAM: memory.DRAMConfig{Columns: 4}}},
		{"DRAM.Banks", memory.Config{DRAM: memory.DRAMConfig{Ranks: 64, Banks: 128}}},
		{"DRAM.Rows", memory.Config{DRAM: memory.DRAMConfig{Rows: 1 << 30, Columns: 1 << 10}}},
		{"DRAM.TransactionQueue", memory.Config{InterleaveBytes: 4096, DRAM: memory.DRAMConfig{TransactionQueue: 32}}},
		{"DRAM.CommandQueue", memory.Config{DRAM: memory.DRAMConfig{CommandQueue: -2}}},
		{"DRAM.Timing.TCL", memory.Config{DRAM: memory.DRAMConfig{Timing: memory.Timing{TCL: -1}}}},
		{"DRAM.Timing.TAL", memory.Config{DRAM: memory.DRAMConfig{Timing: memory.Timing{TAL: 30}}}},
		{"Ideal.Latency", memory.Config{Type: "ideal", Ideal: memory.IdealConfig{Latency: -1}}},
		{"Ideal.Width", memory.Config{Type: "IDEAL", Ideal: memory.IdealConfig{Width: -1}}},
		{"Ideal.TopBufferSize", memory.Config{Type: "ideal", Ideal: memory.IdealConfig{TopBufferSize: -3}}},
		{"Ideal.BytesPerCycle", memory.Config{Type: "ideal", Ideal: memory.IdealConfig{BytesPerCycle: -1}}},
		{"Ideal.MaxOutstanding", memory.Config{Type: "ideal", Ideal: memory.IdealConfig{MaxOutstanding: 1 << 17}}},
		{"DRAMCtl.Preset", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{Preset: "DDR9"}}},
		{"DRAMCtl.Timing.TRC", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{Timing: dramctl.Timing{TRC: 60}}}},
		{"DRAMCtl.Timing.TRAS", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{Timing: dramctl.Timing{TRAS: 20}}}},
		{"DRAMCtl.Geometry.Banks", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{Geometry: dramctl.Geometry{Banks: 3}}}},
		{"DRAMCtl.Mapping", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{Mapping: "row,bank,column"}}},
		{"DRAMCtl.ReadQueue", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{ReadQueue: 4}}}, // 256/32 = 8 bursts
		{"DRAMCtl.WriteLow", memory.Config{Type: "dramctl", DRAMCtl: dramctl.Config{WriteHigh: 8, WriteLow: 8}}},
		{"DRAMCtl.Geometry.BusWidth", memory.Config{Type: "dramctl", InterleaveBytes: 16}},
	} {
		t.Run(tc.field, func(t *testing.T) {
			err := tc.cfg.Validate()
			var fe *memory.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("Validate() = %v, want an error on %s", err, tc.field)
			}
			if _, err := memory.Build(tc.cfg, sim.NewSerialEngine(), "GPU.Memory"); !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("Build: %v, want an error on %s", err, tc.field)
			}
		})
	}
	if err := (memory.Config{}).Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	if _, err := memory.Build(memory.Config{}, sim.NewSerialEngine(), "gpu.memory"); err == nil {
		t.Error("Build accepted an invalid Akita name")
	}
}

func TestL2ConfigErrorsNameTheField(t *testing.T) {
	m := memory.Config{NumChannels: 4}
	for _, tc := range []struct {
		field string
		cfg   memory.L2Config
	}{
		{"L2.LineBytes", memory.L2Config{LineBytes: 96}},
		{"L2.LineBytes", memory.L2Config{LineBytes: 512}},
		{"L2.Ways", memory.L2Config{Ways: -1}},
		{"L2.SizeBytes", memory.L2Config{SizeBytes: 1000}},
		{"L2.MSHRs", memory.L2Config{MSHRs: -1}},
		{"L2.DirectoryLatency", memory.L2Config{DirectoryLatency: -1}},
		{"L2.BankLatency", memory.L2Config{BankLatency: -1}},
		{"L2.ReqPerCycle", memory.L2Config{ReqPerCycle: -1}},
		{"L2.Freq", memory.L2Config{Freq: -1}},
	} {
		t.Run(tc.field, func(t *testing.T) {
			var fe *memory.FieldError
			if err := tc.cfg.Validate(m); !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("Validate() = %v, want an error on %s", err, tc.field)
			}
		})
	}
	if err := (memory.L2Config{}).Validate(m); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

func TestParseProtocol(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"GDDR5", true}, {"gddr6", true}, {"Hbm2", true}, {"DDR3", true}, {"DDR4", true},
		{"HMC", false}, {"", false}, {"GDDR 5", false},
	} {
		if _, err := memory.ParseProtocol(tc.in); (err == nil) != tc.ok {
			t.Errorf("ParseProtocol(%q) = %v", tc.in, err)
		}
	}
}

func TestLoadImageBounds(t *testing.T) {
	m, err := memory.Build(memory.Config{NumChannels: 1}, sim.NewSerialEngine(), "GPU.Memory")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadImage(m.Capacity()-4, make([]byte, 8)); err == nil {
		t.Error("LoadImage past the capacity succeeded")
	}
	if err := m.LoadImage(m.Capacity()-4, []byte{1, 2, 3, 4}); err != nil {
		t.Error(err)
	}
	got := make([]byte, 8)
	m.ReadAt(got, m.Capacity()-4)
	if !bytes.Equal(got, []byte{1, 2, 3, 4, 0, 0, 0, 0}) {
		t.Errorf("ReadAt across the end: % x", got)
	}
}

func FuzzParseProtocol(f *testing.F) {
	for _, s := range []string{"GDDR5", "hbm", "", "ddr3x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := memory.ParseProtocol(s)
		if err != nil {
			return
		}
		// A protocol name that parses is one of the listed names.
		found := false
		for _, n := range memory.ProtocolNames() {
			q, _ := memory.ParseProtocol(n)
			found = found || q == p
		}
		if !found {
			t.Errorf("%q parsed to an unlisted protocol %v", s, p)
		}
	})
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"dram", "Ideal", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := memory.ParseType(s)
		if err == nil && typ != memory.TypeDRAM && typ != memory.TypeIdeal {
			t.Errorf("%q parsed to %q", s, typ)
		}
	})
}

// FuzzConfig checks that Validate never panics and that Build succeeds on every
// configuration Validate accepts.
func FuzzConfig(f *testing.F) {
	f.Add(4, uint64(256), 64, 8, 2, 1, 8, 32768, 8, 32, 8, 11, "GDDR5", false)
	f.Add(1, uint64(64), 32, 16, 1, 4, 4, 1024, 16, 64, 4, 0, "gddr6", true)
	f.Fuzz(func(t *testing.T, ch int, il uint64, bw, bl, ranks, bg, banks, rows, cols, tq, cq, tcl int,
		proto string, ideal bool) {
		cfg := memory.Config{NumChannels: ch % 64, InterleaveBytes: il,
			DRAM: memory.DRAMConfig{Protocol: proto, BusWidth: bw, BurstLength: bl, Ranks: ranks,
				BankGroups: bg, Banks: banks, Rows: rows, Columns: cols, TransactionQueue: tq,
				CommandQueue: cq, Timing: memory.Timing{TCL: tcl}}}
		if ideal {
			cfg.Type = memory.TypeIdeal
		}
		if cfg.Validate() != nil {
			return
		}
		if _, err := memory.Build(cfg, sim.NewSerialEngine(), "GPU.Memory"); err != nil {
			t.Errorf("Validate accepted %+v but Build failed: %v", cfg, err)
		}
	})
}
