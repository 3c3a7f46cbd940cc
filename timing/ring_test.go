package timing

import (
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// TestRing pushes and pops in patterns that wrap around the circular slice
// and grow it, and checks the order against a plain slice.
func TestRing(t *testing.T) {
	for _, c := range []struct {
		name string
		room int
		ops  string // p: push the next number, o: pop
	}{
		{"empty", 0, ""},
		{"grows from zero", 0, "ppppppppp" + "ooooooooo"},
		{"wraps without growing", 4, "pppooopppooopppooo"},
		{"grows while wrapped", 4, "pppoopppppppoooooooo"},
		{"interleaved", 1, "popopoppoppoppo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := NewRing[int](c.room)
			var want []int
			next := 0
			for i, op := range c.ops {
				if op == 'p' {
					q.Push(next)
					want = append(want, next)
					next++
				} else {
					if got := *q.Front(); got != want[0] {
						t.Fatalf("op %d: Front = %d, want %d", i, got, want[0])
					}
					if got := q.Pop(); got != want[0] {
						t.Fatalf("op %d: Pop = %d, want %d", i, got, want[0])
					}
					want = want[1:]
				}
				if q.Len() != len(want) {
					t.Fatalf("op %d: Len = %d, want %d", i, q.Len(), len(want))
				}
			}
			q.Clear()
			if q.Len() != 0 {
				t.Errorf("Len after Clear = %d", q.Len())
			}
		})
	}
}

// bufHooks records a buffer's hook positions and items.
type bufHooks struct{ got []string }

func (h *bufHooks) Func(ctx sim.HookCtx) {
	h.got = append(h.got, fmt.Sprint(ctx.Pos.Name, " ", ctx.Item))
}

// TestBuffer: NewBuffer's buffer is a FIFO of its capacity, as Akita's, and
// reports each push and pop to its hooks.
func TestBuffer(t *testing.T) {
	b := NewBuffer("Unit.Buf", 2)
	h := &bufHooks{}
	b.AcceptHook(h)
	if b.Peek() != nil || b.Pop() != nil || !b.CanPush() || b.Size() != 0 || b.Capacity() != 2 || b.Name() != "Unit.Buf" {
		t.Fatalf("a new buffer: Peek %v, CanPush %v, Size %d, Capacity %d, Name %q", b.Peek(), b.CanPush(), b.Size(), b.Capacity(), b.Name())
	}
	b.Push("a")
	b.Push("b")
	if b.CanPush() || b.Size() != 2 || b.Peek() != "a" {
		t.Fatalf("full buffer: CanPush %v, Size %d, Peek %v", b.CanPush(), b.Size(), b.Peek())
	}
	if e := b.Pop(); e != "a" {
		t.Fatalf("Pop = %v, want a", e)
	}
	b.Push("c")
	if e := b.Pop(); e != "b" {
		t.Fatalf("Pop = %v, want b", e)
	}
	b.Clear()
	if b.Size() != 0 || b.Peek() != nil {
		t.Fatalf("after Clear: Size %d, Peek %v", b.Size(), b.Peek())
	}
	want := []string{"Buffer Push a", "Buffer Push b", "Buf Pop a", "Buffer Push c", "Buf Pop b"}
	if fmt.Sprint(h.got) != fmt.Sprint(want) {
		t.Errorf("hooks saw %v, want %v", h.got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("a push into a full buffer did not panic")
		}
	}()
	b.Push("d")
	b.Push("e")
	b.Push("f")
}
