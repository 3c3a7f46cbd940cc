package backendtest

import (
	"reflect"
	"slices"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// FlushCase is a case of the flush test of a unit with a write-back cache:
// four lines dirtied and flushed, a later quad dirtying two of them, and a
// second flush; with Invalidate the flushes drop every line (Dropped in all),
// so the later quad reads its two lines again (ReadsAfter).
type FlushCase struct {
	Name       string
	Invalidate bool
	ReadsAfter int
	Dropped    float64
}

// FlushCases are the flush test's cases: invalidating and keeping the lines.
var FlushCases = []FlushCase{
	{Name: "invalidate", Invalidate: true, ReadsAfter: 2, Dropped: 4 + 2},
	{Name: "keep", Invalidate: false, ReadsAfter: 0, Dropped: 0},
}

// FlushWant is what the memory must have seen in a flush test: a first
// flush sent at cycle Flush, later traffic (a quad and a second flush) from
// cycle Later on.
type FlushWant struct {
	Flush, Later uint64
	// LineBytes is the size of every write-back of the first flush.
	LineBytes uint64
	// FirstWrites and LaterWrites are the write-backs' addresses, each once:
	// before Later, and from Later on (in any order).
	FirstWrites, LaterWrites []uint64
	// ReadsBefore and ReadsAfter are the line reads before Flush and from
	// Later on; none may come in between (during the flush).
	ReadsBefore, ReadsAfter int
}

// CheckFlush checks the memory log against w and returns the cycle of the
// first flush's last write-back.
func (m *Memory) CheckFlush(t testing.TB, w FlushWant) (lastFirst uint64) {
	t.Helper()
	var first, later []uint64
	before, after := 0, 0
	for _, a := range m.Log {
		switch {
		case a.Write && a.Cycle < w.Later:
			first = append(first, a.Addr)
			lastFirst = a.Cycle
			if a.Size != w.LineBytes {
				t.Errorf("write-back of line 0x%x moved %d bytes, want %d", a.Addr, a.Size, w.LineBytes)
			}
		case a.Write:
			later = append(later, a.Addr)
		case a.Cycle < w.Flush:
			before++
		case a.Cycle >= w.Later:
			after++
		default:
			t.Errorf("line 0x%x read during the flush", a.Addr)
		}
	}
	slices.Sort(first)
	slices.Sort(later)
	if !reflect.DeepEqual(first, w.FirstWrites) {
		t.Errorf("first flush wrote %x, want each of %x once", first, w.FirstWrites)
	}
	if !reflect.DeepEqual(later, w.LaterWrites) {
		t.Errorf("second flush wrote %x, want the lines the later quad dirtied, %x", later, w.LaterWrites)
	}
	if before != w.ReadsBefore || after != w.ReadsAfter {
		t.Errorf("%d lines read before the flush, %d after; want %d, %d", before, after, w.ReadsBefore, w.ReadsAfter)
	}
	return lastFirst
}

// TaskLog is a tracer that finds a command's task and the tasks below it
// (testpeer.TaskLog is one).
type TaskLog interface {
	tracing.Tracer
	CheckCommandTask(t testing.TB, kind, msgID string) string
	Below(id string) []tracing.Task
}

// CheckFlushTraced traces u into log, sends an invalidating FlushCmd from cp
// to u's control port at cycle 100, runs the bench (run) and checks that the
// flush is a "flush" task "flush<msg ID>" below the sender's req_out task,
// ended with the Done, with u's two write-backs below it: the test of a unit
// that flushes the two dirty lines the test's earlier messages left.
func CheckFlushTraced(t testing.TB, u tracing.NamedHookable, control sim.Port, cp *Peer, run func(), log TaskLog) {
	t.Helper()
	tracing.CollectTrace(u, log)
	flush := protocol.NewFlushCmd(true)
	cp.SendAt(100, control, flush)
	run()
	id := log.CheckCommandTask(t, protocol.KindFlush, flush.ID)
	if below := log.Below(id); len(below) != 2 {
		t.Errorf("%d tasks below the flush, want the 2 write-backs: %+v", len(below), below)
	}
}
