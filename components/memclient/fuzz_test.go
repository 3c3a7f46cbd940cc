package memclient_test

import (
	"bytes"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"

	"github.com/gfxsim/gfxsim/components/memclient"
)

// FuzzClient drives a client with a random sequence of reads, writes,
// out-of-order responses and receives against a model memory, and checks every
// completion: its tag belongs to a pending request, each request completes
// exactly once with its own address and size, reads return the model's bytes
// (the fuzzer never issues a request that overlaps an in-flight write, nor a
// write that overlaps any in-flight request, since the client does not order
// requests; so the expected data is exact even for merged reads), and no more than MaxOutstanding
// requests are in flight.
func FuzzClient(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, uint8(2), true)
	f.Add([]byte{0x10, 0x10, 0x10, 0x31, 0x42, 0x53, 0x64, 0x75, 0x86}, uint8(1), false)
	f.Fuzz(func(t *testing.T, prog []byte, maxOut uint8, merge bool) {
		cfg := memclient.Config{MaxOutstanding: int(maxOut%8) + 1, MergeReads: merge, MaxMerged: 2}
		c, port, _ := setup(t, cfg)
		model := make([]byte, 1024)
		for i := range model {
			model[i] = byte(i * 7)
		}
		type req struct {
			addr, size uint64
			write      bool
			done       bool
		}
		var reqs []req            // by tag
		var sentIdx int           // next sent message to answer
		var pendingRsp []int      // indices into port.sent not yet answered
		busy := make([]int, 1024) // in-flight requests per byte; a write needs all free
		wbusy := make([]bool, 1024)
		now := 0
		for i := 0; i+1 < len(prog); i += 2 {
			now++
			op, arg := prog[i], prog[i+1]
			addr := uint64(arg) * 4 % 960
			size := uint64(op>>4)%4*16 + 16
			switch op % 4 {
			case 0: // read, only where no write is in flight (the client does not order)
				free := true
				for b := addr; b < addr+size; b++ {
					free = free && !wbusy[b]
				}
				if free && c.Read(cycle(now), addr, size, uint64(len(reqs))) {
					reqs = append(reqs, req{addr: addr, size: size})
					for b := addr; b < addr+size; b++ {
						busy[b]++
					}
				}
			case 1: // write, only where no request is in flight
				free := true
				for b := addr; b < addr+size; b++ {
					free = free && busy[b] == 0
				}
				data := bytes.Repeat([]byte{arg}, int(size))
				if free && c.Write(cycle(now), addr, data, uint64(len(reqs))) {
					reqs = append(reqs, req{addr: addr, size: size, write: true})
					for b := addr; b < addr+size; b++ {
						busy[b]++
						wbusy[b] = true
					}
				}
			case 2: // the memory answers one request (any order)
				for ; sentIdx < len(port.sent); sentIdx++ {
					pendingRsp = append(pendingRsp, sentIdx)
				}
				if len(pendingRsp) == 0 {
					continue
				}
				k := int(arg) % len(pendingRsp)
				m := port.sent[pendingRsp[k]]
				pendingRsp = append(pendingRsp[:k], pendingRsp[k+1:]...)
				switch r := m.(type) {
				case *mem.ReadReq:
					data := append([]byte(nil), model[r.Address:r.Address+r.AccessByteSize]...)
					port.in = append(port.in, mem.DataReadyRspBuilder{}.WithRspTo(r.ID).WithData(data).Build())
				case *mem.WriteReq:
					copy(model[r.Address:], r.Data)
					port.in = append(port.in, mem.WriteDoneRspBuilder{}.WithRspTo(r.ID).Build())
				}
			case 3: // receive everything available
				for {
					comp, ok := c.Receive(cycle(now))
					if !ok {
						break
					}
					if comp.Tag >= uint64(len(reqs)) || reqs[comp.Tag].done {
						t.Fatalf("completion for unknown or finished tag %d", comp.Tag)
					}
					r := &reqs[comp.Tag]
					r.done = true
					if comp.Addr != r.addr || comp.Size != r.size || comp.Write != r.write {
						t.Fatalf("completion %+v for request %+v", comp, *r)
					}
					for b := r.addr; b < r.addr+r.size; b++ {
						busy[b]--
						wbusy[b] = false
					}
					if !r.write {
						if !bytes.Equal(comp.Data, model[r.addr:r.addr+r.size]) {
							t.Fatalf("read %d at 0x%x: % x, want % x", comp.Tag, r.addr, comp.Data,
								model[r.addr:r.addr+r.size])
						}
					}
				}
			}
			if c.Outstanding() > cfg.MaxOutstanding {
				t.Fatalf("%d outstanding", c.Outstanding())
			}
		}
	})
}
