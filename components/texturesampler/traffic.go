package texturesampler

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
)

// TrafficTexture is a texture whose traffic TextureTraffic attributes: the
// bytes [Data, Data+Size) of the memory image.
type TrafficTexture struct {
	Name       string
	Data, Size uint64
}

// TextureTraffic counts the bytes of texture reads by texture, at two points
// of the memory hierarchy: the reads the samplers send to the texture L2
// (attach L2Hook to the L2 banks' Top ports) and the reads the L2 sends to
// DRAM on its misses (attach DRAMHook to the banks' Bottom ports). A read is
// attributed to the texture whose bytes contain its address; reads of no
// texture are counted as "other". Hooks may run on the parallel engine's
// goroutines, hence the lock; the counts do not depend on the engine.
type TextureTraffic struct {
	name string

	mu       sync.Mutex
	textures []TrafficTexture // sorted by Data
	keys     []string         // stat name of each texture
	l2, dram []uint64
	other    [2]uint64
}

// NewTextureTraffic returns a counter whose statistics are named
// "<name>.<texture>.l2_bytes" and "<name>.<texture>.dram_bytes".
func NewTextureTraffic(name string) *TextureTraffic { return &TextureTraffic{name: name} }

// SetTextures sets the textures to attribute reads to (their order does not
// matter; names are made into statistic names: characters other than
// letters, digits and '_' become '_', and repeated names get a suffix). It
// resets the counts.
func (t *TextureTraffic) SetTextures(ts []TrafficTexture) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.textures = append([]TrafficTexture(nil), ts...)
	sort.SliceStable(t.textures, func(i, j int) bool { return t.textures[i].Data < t.textures[j].Data })
	t.keys = make([]string, len(t.textures))
	used := map[string]int{}
	for i, x := range t.textures {
		k := statName(x.Name)
		used[k]++
		if n := used[k]; n > 1 {
			k = fmt.Sprintf("%s_%d", k, n)
		}
		t.keys[i] = k
	}
	t.l2 = make([]uint64, len(t.textures))
	t.dram = make([]uint64, len(t.textures))
	t.other = [2]uint64{}
}

func statName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "texture"
	}
	return b.String()
}

// count adds a read of size bytes at addr to counter k (0: L2, 1: DRAM).
func (t *TextureTraffic) count(k int, addr, size uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := sort.Search(len(t.textures), func(i int) bool { return t.textures[i].Data+t.textures[i].Size > addr })
	if i < len(t.textures) && t.textures[i].Data <= addr {
		if k == 0 {
			t.l2[i] += size
		} else {
			t.dram[i] += size
		}
		return
	}
	t.other[k] += size
}

type trafficHook struct {
	t   *TextureTraffic
	k   int
	pos *sim.HookPos
}

// Func implements sim.Hook.
func (h trafficHook) Func(ctx sim.HookCtx) {
	if ctx.Pos != h.pos {
		return
	}
	if r, ok := ctx.Item.(*mem.ReadReq); ok {
		h.t.count(h.k, r.Address, r.AccessByteSize)
	}
}

// L2Hook returns the hook to attach to the L2 banks' Top ports: it counts
// every read a bank receives.
func (t *TextureTraffic) L2Hook() sim.Hook { return trafficHook{t, 0, sim.HookPosPortMsgRecvd} }

// DRAMHook returns the hook to attach to the L2 banks' Bottom ports: it
// counts every read a bank sends to memory.
func (t *TextureTraffic) DRAMHook() sim.Hook { return trafficHook{t, 1, sim.HookPosPortMsgSend} }

// Stats reports, per texture in address order, l2_bytes and dram_bytes, and
// the reads of no texture as other.l2_bytes and other.dram_bytes.
func (t *TextureTraffic) Stats(add func(name string, v float64)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, k := range t.keys {
		add(t.name+"."+k+".l2_bytes", float64(t.l2[i]))
		add(t.name+"."+k+".dram_bytes", float64(t.dram[i]))
	}
	add(t.name+".other.l2_bytes", float64(t.other[0]))
	add(t.name+".other.dram_bytes", float64(t.other[1]))
}
