package hiz

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/functional/state"
)

// ClearKey returns the key every sample of a depth target holds right after a
// depth clear (the key of sample 0, which the clear wrote everywhere).
func ClearKey(db *framebuffer.DepthTarget) uint32 {
	v, _ := db.Load(0, 0, 0)
	k, _ := StoredKey(v, db.Format)
	return k
}

// targetID identifies a depth target by the first byte of its memory.
type targetID *byte

func idOf(db *framebuffer.DepthTarget) targetID {
	b := db.Bytes()
	if len(b) == 0 {
		return nil
	}
	return &b[0]
}

// buffers holds the coarse depth buffers of the depth targets seen, in the
// order they were first seen.
type buffers struct {
	cfg   Config
	ids   []targetID
	bufs  []*Buffer
	err   error
	table *OracleTable
}

func (s *buffers) get(db *framebuffer.DepthTarget) *Buffer {
	id := idOf(db)
	for i, v := range s.ids {
		if v == id {
			return s.bufs[i]
		}
	}
	b, err := NewBuffer(s.cfg, Target{Width: db.Width, Height: db.Height, Samples: db.Samples, Format: db.Format})
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return nil
	}
	b.SetOracle(s.table)
	s.ids = append(s.ids, id)
	s.bufs = append(s.bufs, b)
	return b
}

func (s *buffers) stats() Stats {
	var st Stats
	for _, b := range s.bufs {
		st.Add(b.Stats())
	}
	return st
}

// Filter is hierarchical Z for the reference renderer: it implements
// reference.Hooks (BeginDraw, Tile, DepthTest, Clear) and culls, in API order,
// the samples a coarse depth buffer of configuration Config proves to fail.
// With a deterministic configuration (Oracle, Forward, ZMask, the ideal
// feedback; not Packed, whose lossy step happens at HiZ-cache evictions) it
// makes exactly the decisions of the timed HiZ units, so the reference
// renderer with a Filter counts what the timed machine counts.
type Filter struct {
	bufs  buffers
	d     *state.Draw
	cfg   *raster.Config
	dc    DrawContext
	buf   *Buffer
	draws uint64
}

// NewFilter returns a filter with configuration cfg.
func NewFilter(cfg Config) (*Filter, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Mode == Off {
		return nil, fmt.Errorf("hiz: NewFilter: Mode is off")
	}
	return &Filter{bufs: buffers{cfg: cfg}}, nil
}

// Err returns the first error (a depth target HiZ cannot tile).
func (f *Filter) Err() error { return f.bufs.err }

// SetOracle gives an Oracle-mode filter the frame's exact verdicts (see
// OracleTable); call it before rendering.
func (f *Filter) SetOracle(t *OracleTable) { f.bufs.table = t }

// Stats returns the counters summed over the depth targets.
func (f *Filter) Stats() Stats { return f.bufs.stats() }

// BeginDraw implements reference.Hooks.
func (f *Filter) BeginDraw(d *state.Draw, cfg *raster.Config) {
	f.d, f.cfg, f.dc, f.buf = d, cfg, NewDrawContext(d), nil
	f.draws = uint64(d.Index) + 1
	if f.dc.Active {
		f.buf = f.bufs.get(d.DepthBuf)
	}
}

// Tile implements reference.Hooks.
func (f *Filter) Tile(p *pipeline.Primitive, tx, ty int, quads []raster.Quad, live []raster.SampleMask) {
	if f.buf == nil {
		return
	}
	f.buf.ProcessQuads(&f.dc, f.cfg, p, quads, live, Pos{Draw: uint64(f.d.Index), Prim: PrimOrder(p.Source, p.Part)})
}

// Tile5D implements reference.BlurHooks: the tiles a 5D primitive's quads
// cover (it is not tested) are forgotten (Buffer.Forget).
func (f *Filter) Tile5D(p *pipeline.Primitive, quads []raster5d.Quad) {
	if f.buf == nil {
		return
	}
	pos := Pos{Draw: uint64(f.d.Index), Prim: PrimOrder(p.Source, p.Part)}
	for i := range quads {
		f.buf.Forget(&f.dc, quads[i].X, quads[i].Y, quads[i].Coverage, pos)
	}
}

// DepthTest implements reference.Hooks (nothing to do).
func (f *Filter) DepthTest(p *pipeline.Primitive, q raster.Quad, live raster.SampleMask, out *pipeline.QuadOutput) {
}

// Clear implements reference.Hooks: a depth clear resets the target's tiles.
func (f *Filter) Clear(a state.Action) {
	if a.Clear.Flags&command.ClearDepth == 0 || a.DepthBuf == nil {
		return
	}
	if b := f.bufs.get(a.DepthBuf); b != nil {
		b.Clear(ClearKey(a.DepthBuf), Pos{Draw: f.draws})
	}
}

// Violation is a sample a configuration culled although the exact depth test
// passes it.
type Violation struct {
	Config       int
	Draw         int
	X, Y, Sample int
}

func (v Violation) String() string {
	return fmt.Sprintf("config %d culled sample %d of pixel (%d, %d) in draw %d, which passes the depth test",
		v.Config, v.Sample, v.X, v.Y, v.Draw)
}

// Study runs several configurations side by side in observation mode (nothing
// is culled: the render is the reference's) and checks, sample by sample at
// the moment of the real depth test, that no configuration ever culled a
// sample the exact test passes, and that none culled a sample the Oracle did
// not (Config[0] must be the Oracle when OracleFirst is set). It implements
// reference.Hooks.
type Study struct {
	Configs []Config
	// Violations holds the first 16 violations; ViolationCount all of them.
	Violations     []Violation
	ViolationCount int
	// BeyondOracle counts samples a configuration culled that the Oracle kept.
	BeyondOracle []uint64
	// Checked counts the culled samples checked against the exact test.
	Checked []uint64
	// OracleFirst makes Configs[0] the reference for BeyondOracle.
	OracleFirst bool

	bufs    []buffers
	d       *state.Draw
	cfg     *raster.Config
	dc      DrawContext
	draws   uint64
	scratch []raster.SampleMask
	pending []raster.SampleMask // per quad in API order: len(Configs) culled masks
	pHead   int
}

// NewStudy prepares a study of the configurations.
func NewStudy(configs ...Config) (*Study, error) {
	s := &Study{}
	for i, c := range configs {
		c = c.WithDefaults()
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("config %d: %w", i, err)
		}
		if c.Mode == Off {
			return nil, fmt.Errorf("config %d: Mode is off", i)
		}
		s.Configs = append(s.Configs, c)
		s.bufs = append(s.bufs, buffers{cfg: c})
	}
	s.BeyondOracle = make([]uint64, len(configs))
	s.Checked = make([]uint64, len(configs))
	s.OracleFirst = len(configs) > 0 && s.Configs[0].Mode == Oracle
	return s, nil
}

// Err returns the first error.
func (s *Study) Err() error {
	for i := range s.bufs {
		if s.bufs[i].err != nil {
			return s.bufs[i].err
		}
	}
	return nil
}

// Stats returns configuration i's counters.
func (s *Study) Stats(i int) Stats { return s.bufs[i].stats() }

// SetOracle gives every configuration the frame's exact verdicts (the Oracle
// culls by them, the ideal feedback follows them); call it before rendering.
func (s *Study) SetOracle(t *OracleTable) {
	for i := range s.bufs {
		s.bufs[i].table = t
	}
}

// BeginDraw implements reference.Hooks.
func (s *Study) BeginDraw(d *state.Draw, cfg *raster.Config) {
	s.d, s.cfg, s.dc = d, cfg, NewDrawContext(d)
	s.draws = uint64(d.Index) + 1
}

// Tile implements reference.Hooks.
func (s *Study) Tile(p *pipeline.Primitive, tx, ty int, quads []raster.Quad, live []raster.SampleMask) {
	n := len(s.Configs)
	base := len(s.pending)
	for range quads {
		for c := 0; c < n; c++ {
			s.pending = append(s.pending, raster.SampleMask{})
		}
	}
	if !s.dc.Active {
		return
	}
	pos := Pos{Draw: uint64(s.d.Index), Prim: PrimOrder(p.Source, p.Part)}
	for c := 0; c < n; c++ {
		b := s.bufs[c].get(s.d.DepthBuf)
		if b == nil {
			continue
		}
		s.scratch = append(s.scratch[:0], live...)
		b.ProcessQuads(&s.dc, s.cfg, p, quads, s.scratch, pos)
		for i := range quads {
			s.pending[base+i*n+c] = live[i].AndNot(s.scratch[i])
		}
	}
}

// Tile5D implements reference.BlurHooks: every configuration forgets the
// tiles a 5D primitive covers (Buffer.Forget); nothing is culled.
func (s *Study) Tile5D(p *pipeline.Primitive, quads []raster5d.Quad) {
	if !s.dc.Active {
		return
	}
	pos := Pos{Draw: uint64(s.d.Index), Prim: PrimOrder(p.Source, p.Part)}
	for c := range s.bufs {
		b := s.bufs[c].get(s.d.DepthBuf)
		if b == nil {
			continue
		}
		for i := range quads {
			b.Forget(&s.dc, quads[i].X, quads[i].Y, quads[i].Coverage, pos)
		}
	}
}

// DepthTest implements reference.Hooks: the culled samples of the quad must
// all fail the exact test.
func (s *Study) DepthTest(p *pipeline.Primitive, q raster.Quad, live raster.SampleMask, out *pipeline.QuadOutput) {
	n := len(s.Configs)
	if s.pHead+n > len(s.pending) {
		return
	}
	culled := s.pending[s.pHead : s.pHead+n]
	s.pHead += n
	if s.pHead == len(s.pending) {
		s.pending, s.pHead = s.pending[:0], 0
	}
	anyCulled := false
	for _, m := range culled {
		anyCulled = anyCulled || !m.Empty()
	}
	if !anyCulled {
		return
	}
	exact := ExactPass(s.d, s.cfg, p, q, live, out)
	for c, m := range culled {
		s.Checked[c] += uint64(m.Count())
		if s.OracleFirst {
			s.BeyondOracle[c] += uint64(m.AndNot(culled[0]).Count())
		}
		for bad := m.And(exact); !bad.Empty(); {
			pix, smp := bad.Pop()
			s.ViolationCount++
			if len(s.Violations) < 16 {
				s.Violations = append(s.Violations, Violation{Config: c, Draw: s.d.Index,
					X: int(q.X) + pix&1, Y: int(q.Y) + pix>>1, Sample: smp})
			}
		}
	}
}

// Clear implements reference.Hooks.
func (s *Study) Clear(a state.Action) {
	if a.Clear.Flags&command.ClearDepth == 0 || a.DepthBuf == nil {
		return
	}
	for c := range s.bufs {
		if b := s.bufs[c].get(a.DepthBuf); b != nil {
			b.Clear(ClearKey(a.DepthBuf), Pos{Draw: s.draws})
		}
	}
}
