package filter

import "math/rand"

// gridPositions places n samples on a regular g x g grid in each pixel, g the
// smallest square side holding n (sample s in row-major order).
type gridPositions struct{ n int }

func (p gridPositions) Offset(_, _, s int) (int16, int16) {
	g := 1
	for g*g < p.n {
		g++
	}
	at := func(i int) int16 { return int16((2*i+1)*256/(2*g) - 128) }
	return at(s % g), at(s / g)
}

// fixedPositions puts every sample at the same offset.
type fixedPositions struct{ ox, oy int16 }

func (p fixedPositions) Offset(_, _, _ int) (int16, int16) { return p.ox, p.oy }

// jitterPositions is a seeded random pattern repeating every 8x8 pixels.
type jitterPositions struct{ off [8][8][MaxSamples][2]int16 }

func newJitterPositions(seed int64) *jitterPositions {
	r := rand.New(rand.NewSource(seed))
	p := &jitterPositions{}
	for y := range p.off {
		for x := range p.off[y] {
			for s := range p.off[y][x] {
				p.off[y][x][s] = [2]int16{int16(r.Intn(256) - 128), int16(r.Intn(256) - 128)}
			}
		}
	}
	return p
}

func (p *jitterPositions) Offset(x, y, s int) (int16, int16) {
	o := p.off[y&7][x&7][s]
	return o[0], o[1]
}

// sliceSamples is a w x h screen of n samples per pixel, row-major.
type sliceSamples struct {
	w, h, n int
	data    [][4]uint16
}

func newSliceSamples(w, h, n int) *sliceSamples {
	return &sliceSamples{w: w, h: h, n: n, data: make([][4]uint16, w*h*n)}
}

func (b *sliceSamples) Sample(x, y, s int) ([4]uint16, bool) {
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return [4]uint16{}, false
	}
	return b.data[(y*b.w+x)*b.n+s], true
}

func (b *sliceSamples) set(x, y, s int, c [4]uint16) { b.data[(y*b.w+x)*b.n+s] = c }

func (b *sliceSamples) fill(f func(x, y, s int) [4]uint16) *sliceSamples {
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			for s := 0; s < b.n; s++ {
				b.set(x, y, s, f(x, y, s))
			}
		}
	}
	return b
}

func randomField(w, h, n int, seed int64) *sliceSamples {
	r := rand.New(rand.NewSource(seed))
	return newSliceSamples(w, h, n).fill(func(_, _, _ int) [4]uint16 {
		return [4]uint16{uint16(r.Intn(1024)), uint16(r.Intn(1024)), uint16(r.Intn(1024)), uint16(r.Intn(1024))}
	})
}

func mustTable(k Kernel) *Table {
	t, err := NewTable(k, DefaultParams())
	if err != nil {
		panic(err)
	}
	return t
}

func namedKernels() map[string]Kernel {
	m := map[string]Kernel{}
	for _, name := range KernelNames {
		k, err := KernelByName(name)
		if err != nil {
			panic(err)
		}
		m[name] = k
	}
	return m
}
