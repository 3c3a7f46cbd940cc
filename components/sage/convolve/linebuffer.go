package convolve

// line is one swath line of the buffer: source row row (-1: free), the samples
// of the chip's source columns, pixel-major, and how many have arrived.
type line struct {
	row  int
	data [][4]uint16
	got  int
}

// lineBuffer is the chip's 6-swath-line sample cache. It implements
// filter.Samples over the chip's source columns [c0, c1): a pixel off the
// screen does not exist; a pixel on the screen that the buffer does not hold is
// a modelling error (missing), never silently zero.
type lineBuffer struct {
	srcW, srcH, n int
	c0, c1        int
	rowSlot       []int32 // source row -> index in lines, -1 when not held
	lines         []line
	missing       bool
}

func newLineBuffer(srcW, srcH, n, lines int) *lineBuffer {
	b := &lineBuffer{srcW: srcW, srcH: srcH, n: n, rowSlot: make([]int32, srcH), lines: make([]line, lines)}
	b.reset()
	return b
}

// setColumns sizes the lines for source columns [c0, c1).
func (b *lineBuffer) setColumns(c0, c1 int) {
	b.c0, b.c1 = c0, c1
	for i := range b.lines {
		b.lines[i].data = make([][4]uint16, (c1-c0)*b.n)
	}
}

// reset frees every line.
func (b *lineBuffer) reset() {
	for i := range b.rowSlot {
		b.rowSlot[i] = -1
	}
	for i := range b.lines {
		b.lines[i].row, b.lines[i].got = -1, 0
	}
	b.missing = false
}

// Sample implements filter.Samples.
func (b *lineBuffer) Sample(x, y, s int) ([4]uint16, bool) {
	if x < 0 || x >= b.srcW || y < 0 || y >= b.srcH {
		return [4]uint16{}, false
	}
	k := b.rowSlot[y]
	if k < 0 || x < b.c0 || x >= b.c1 || b.lines[k].got < len(b.lines[k].data) {
		b.missing = true
		return [4]uint16{}, true
	}
	return b.lines[k].data[(x-b.c0)*b.n+s], true
}

// complete reports whether source row r is held whole.
func (b *lineBuffer) complete(r int) bool {
	k := b.rowSlot[r]
	return k >= 0 && b.lines[k].got == len(b.lines[k].data)
}

// slot returns the line holding row r, taking a free one if r is not held;
// nil when every line is taken.
func (b *lineBuffer) slot(r int) *line {
	if k := b.rowSlot[r]; k >= 0 {
		return &b.lines[k]
	}
	for i := range b.lines {
		if b.lines[i].row < 0 {
			b.lines[i].row, b.lines[i].got = r, 0
			b.rowSlot[r] = int32(i)
			return &b.lines[i]
		}
	}
	return nil
}

// evictBelow frees the lines of rows above r (smaller row numbers); it reports
// whether it freed any.
func (b *lineBuffer) evictBelow(r int) bool {
	freed := false
	for i := range b.lines {
		l := &b.lines[i]
		if l.row >= 0 && l.row < r {
			b.rowSlot[l.row] = -1
			l.row, l.got = -1, 0
			freed = true
		}
	}
	return freed
}

// held returns the number of lines in use.
func (b *lineBuffer) held() int {
	n := 0
	for i := range b.lines {
		if b.lines[i].row >= 0 {
			n++
		}
	}
	return n
}
