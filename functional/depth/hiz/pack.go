package hiz

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// MaskCost returns the size in bits of a selection mask of s samples
// compressed by blocks of b samples with m mixed blocks (the paper's section
// 4.1): every block costs a "uniform" bit, a uniform block one more bit for
// its layer, a mixed block b bits of explicit mask: c = 2*s/b + (b-1)*m.
func MaskCost(s, b, m int) int { return 2*s/b + (b-1)*m }

// MaxMixedBlocks returns the mixed blocks a packed tile can afford.
func (c Config) MaxMixedBlocks() int {
	return (c.MaskBudget() - 2*c.TileSamples/c.MaskBlock) / (c.MaskBlock - 1)
}

// blockMask returns the mask of block k (samples [k*bs, (k+1)*bs)).
func blockMask(k, bs int) Mask { return Range(k*bs, (k+1)*bs) }

// Pack brings tile ti to what a PACKED ZMASK tile in memory can hold (the HiZ
// unit applies it when the tile's line is written back): z-min and the layers'
// z-max rounded outwards to 15-bit reduced floats, and a selection mask whose
// compressed size fits the budget: when more blocks are mixed than
// MaxMixedBlocks allows, the mixed blocks with the fewest samples on the nearer
// layer (ties: the lower block) are forced onto the farther layer, which stays
// conservative since the farther z-max bounds the nearer layer's samples too.
// It returns the number of blocks forced. Pack on an unpacked configuration
// changes nothing.
func (b *Buffer) Pack(ti int) int {
	if !b.cfg.Packed {
		return 0
	}
	t := &b.tiles[ti]
	b.st.Packs++
	if !t.Known {
		return 0
	}
	f := b.geo.Format
	t.Lo = RoundBound(t.Lo, f, false, t.Greater)
	for i := 0; i < b.layers(); i++ {
		if !t.Layer[i].Empty() {
			t.Hi[i] = RoundBound(t.Hi[i], f, true, t.Greater)
		}
	}
	forced := b.compressMask(t, b.valid(ti))
	b.st.BlocksForced += uint64(forced)
	return forced
}

// mixedBlock is a block of a packed tile with samples on both layers.
type mixedBlock struct {
	k, near int
}

// compressMask enforces the mixed-block budget on tile t's two layers.
func (b *Buffer) compressMask(t *TileState, valid Mask) int {
	if t.Layer[0].Empty() || t.Layer[1].Empty() {
		return 0
	}
	far, near := 0, 1
	if t.Hi[1] > t.Hi[0] {
		far, near = 1, 0
	}
	bs := b.cfg.MaskBlock
	var mixed [MaxTileSamples / 2]mixedBlock
	nm := 0
	for k := 0; k < b.geo.TileSamples/bs; k++ {
		bm := blockMask(k, bs).And(valid)
		n0, n1 := t.Layer[near].And(bm).Count(), t.Layer[far].And(bm).Count()
		if n0 > 0 && n1 > 0 {
			mixed[nm] = mixedBlock{k: k, near: n0}
			nm++
		}
	}
	excess := nm - b.cfg.MaxMixedBlocks()
	if excess <= 0 {
		return 0
	}
	list := mixed[:nm]
	sort.SliceStable(list, func(i, j int) bool { return list[i].near < list[j].near })
	for _, m := range list[:excess] {
		bm := blockMask(m.k, bs)
		moved := t.Layer[near].And(bm)
		t.Layer[near] = t.Layer[near].AndNot(moved)
		t.Layer[far] = t.Layer[far].Or(moved)
	}
	if t.Layer[near].Empty() {
		t.Hi[near] = 0
	}
	return excess
}

// MixedBlocks returns the mixed blocks of tile ti's selection mask (packed
// configurations).
func (b *Buffer) MixedBlocks(ti int) int {
	t := &b.tiles[ti]
	valid := b.valid(ti)
	n := 0
	for k := 0; k < b.geo.TileSamples/b.cfg.MaskBlock; k++ {
		bm := blockMask(k, b.cfg.MaskBlock).And(valid)
		if t.Layer[0].Intersects(bm) && t.Layer[1].Intersects(bm) {
			n++
		}
	}
	return n
}

// bitWriter appends bits little-endian first.
type bitWriter struct {
	buf []byte
	n   int
}

func (w *bitWriter) put(v uint64, bits int) {
	for i := 0; i < bits; i++ {
		if w.n%8 == 0 {
			w.buf = append(w.buf, 0)
		}
		if v&(1<<i) != 0 {
			w.buf[w.n/8] |= 1 << (w.n % 8)
		}
		w.n++
	}
}

type bitReader struct {
	buf []byte
	n   int
}

func (r *bitReader) get(bits int) (uint64, bool) {
	var v uint64
	for i := 0; i < bits; i++ {
		if r.n/8 >= len(r.buf) {
			return 0, false
		}
		if r.buf[r.n/8]&(1<<(r.n%8)) != 0 {
			v |= 1 << i
		}
		r.n++
	}
	return v, true
}

// TileBytes returns the size of a tile in memory in bytes.
func (c Config) TileBytes() int { return (c.MemoryTileBits() + 7) / 8 }

// Encode appends tile ti's memory representation to dst and returns it.
// Packed tiles (call Pack first) take PackedBits: a form bit, z-min and two
// z-max as reduced codes of depth values (greater form: the z-max and the two
// z-min), then per block of MaskBlock samples a "mixed" bit followed by the
// layer bit (uniform) or one bit per sample (mixed). Unpacked tiles take
// TileBits: z-min and Layers z-max as 32-bit keys, then LayerBits per sample.
// Either is zero-padded to whole bytes.
func (b *Buffer) Encode(ti int, dst []byte) []byte {
	t := &b.tiles[ti]
	var w bitWriter
	if !b.cfg.Packed {
		lo, hi := t.Lo, t.Hi
		if !t.Known {
			lo, hi = KeyMin, [MaxLayers]uint32{KeyUnknown}
		}
		w.buf = binary.LittleEndian.AppendUint32(w.buf, lo)
		w.n = 32
		for i := 0; i < b.layers(); i++ {
			w.put(uint64(hi[i]), 32)
		}
		lb := b.cfg.LayerBits()
		for s := 0; s < b.geo.TileSamples; s++ {
			l := 0
			for i := 1; i < b.layers(); i++ {
				if t.Layer[i].Has(s) {
					l = i
				}
			}
			w.put(uint64(l), lb)
		}
		return append(dst, w.buf...)
	}
	f := b.geo.Format
	var form uint64
	lo, h0, h1 := uint32(0), uint32(reducedUnknown), uint32(0)
	if t.Known {
		if t.Greater {
			form = 1
			lo = ReduceKey(^t.Lo, f, true)
			h0, h1 = ReduceKey(^t.Hi[0], f, false), ReduceKey(^t.Hi[1], f, false)
		} else {
			lo = ReduceKey(t.Lo, f, false)
			h0, h1 = ReduceKey(t.Hi[0], f, true), ReduceKey(t.Hi[1], f, true)
		}
	}
	w.put(form, 1)
	w.put(uint64(lo), ReducedBits)
	w.put(uint64(h0), ReducedBits)
	w.put(uint64(h1), ReducedBits)
	bs := b.cfg.MaskBlock
	valid := b.valid(ti)
	for k := 0; k < b.geo.TileSamples/bs; k++ {
		bm := blockMask(k, bs).And(valid)
		in1 := t.Layer[1].And(bm)
		switch {
		case in1.Empty():
			w.put(0, 2)
		case in1 == bm:
			w.put(0b10, 2) // uniform, layer 1
		default:
			w.put(1, 1)
			for s := k * bs; s < (k+1)*bs; s++ {
				v := uint64(0)
				if t.Layer[1].Has(s) {
					v = 1
				}
				w.put(v, 1)
			}
		}
	}
	for w.n < b.cfg.PackedBits {
		w.put(0, 1)
	}
	return append(dst, w.buf...)
}

// DecodeError reports a malformed encoded tile: the byte offset and the field.
type DecodeError struct {
	Offset int
	Field  string
	Msg    string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("hiz: encoded tile @%d: %s: %s", e.Offset, e.Field, e.Msg)
}

// Decode reads a tile in the representation Encode writes for this buffer's
// configuration; valid is the tile's valid samples (samples outside it are
// dropped). A tile whose every bound is unknown decodes as not Known.
func (b *Buffer) Decode(data []byte, valid Mask) (TileState, error) {
	var t TileState
	r := bitReader{buf: data}
	need := b.cfg.TileBytes()
	if len(data) < need {
		return t, &DecodeError{Offset: len(data), Field: "size", Msg: fmt.Sprintf("%d bytes, want %d", len(data), need)}
	}
	L := b.layers()
	if !b.cfg.Packed {
		lo, _ := r.get(32)
		t.Lo = uint32(lo)
		for i := 0; i < L; i++ {
			v, _ := r.get(32)
			t.Hi[i] = uint32(v)
		}
		lb := b.cfg.LayerBits()
		for s := 0; s < b.geo.TileSamples; s++ {
			off := r.n / 8
			v, _ := r.get(lb)
			if int(v) >= L {
				return TileState{}, &DecodeError{Offset: off, Field: fmt.Sprintf("mask[%d]", s),
					Msg: fmt.Sprintf("layer %d of %d", v, L)}
			}
			if valid.Has(s) {
				t.Layer[v].Set(s)
			}
		}
		t.Known = !(t.Lo == KeyMin && t.Hi[0] == KeyUnknown && t.Layer[0] == valid)
	} else {
		f := b.geo.Format
		form, _ := r.get(1)
		codes := [3]uint32{}
		for i := range codes {
			off := r.n / 8
			v, _ := r.get(ReducedBits)
			codes[i] = uint32(v)
			if i == 0 && v == reducedUnknown {
				return TileState{}, &DecodeError{Offset: off, Field: "zmin", Msg: "the unknown code is not a lower bound"}
			}
		}
		bs := b.cfg.MaskBlock
		for k := 0; k < b.geo.TileSamples/bs; k++ {
			mixed, _ := r.get(1)
			if mixed == 0 {
				l, _ := r.get(1)
				if l == 1 {
					t.Layer[1] = t.Layer[1].Or(blockMask(k, bs))
				}
				continue
			}
			for s := k * bs; s < (k+1)*bs; s++ {
				l, _ := r.get(1)
				if l == 1 {
					t.Layer[1].Set(s)
				}
			}
		}
		t.Layer[1] = t.Layer[1].And(valid)
		t.Layer[0] = valid.AndNot(t.Layer[1])
		t.Greater = form == 1
		if t.Greater {
			t.Lo = ^ExpandKey(codes[0], f, true)
			t.Hi[0], t.Hi[1] = ^ExpandKey(codes[1], f, false), ^ExpandKey(codes[2], f, false)
		} else {
			t.Lo = ExpandKey(codes[0], f, false)
			t.Hi[0], t.Hi[1] = ExpandKey(codes[1], f, true), ExpandKey(codes[2], f, true)
		}
		t.Known = !(form == 0 && codes[0] == 0 && codes[1] == reducedUnknown && t.Layer[1].Empty())
	}
	for i := 0; i < L; i++ {
		if t.Layer[i].Empty() {
			t.Hi[i] = 0
		}
	}
	if !t.Known {
		t = TileState{}
	}
	return t, nil
}
