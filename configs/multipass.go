package configs

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gfxsim/gfxsim/functional/framebuffer"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// Multipass is the machine's per-pass fragment-program resources, in the
// terms of Chan et al. 2002 (Table 2: operations, registers, texture units,
// interpolants), and the cost model the driver's partitioner (RDS) minimizes.
// A draw whose pixel shader does not fit one pass is rendered in several
// (scene/driver, functional/shader/multipass). All zero: unlimited, the
// default machine splits nothing. A scene with a pixel shader that no
// partition fits (an instruction that needs more than a limit even with its
// operands restored), or that must be split while the scene has more than
// one sample per pixel (a pass saves one value per pixel), is refused before
// the run naming the limit's field (CheckScene).
type Multipass struct {
	Ops          int     `yaml:"ops" desc:"instructions per pass, restores and their address included (0: unlimited); a shader no partition fits is refused before the run (Small sizes)" min:"0" max:"1000000"`
	Registers    int     `yaml:"registers" desc:"temporary registers per pass after allocation (0: unlimited; the ISA has 32); a shader no partition fits is refused before the run (Small sizes)" min:"0" max:"32"`
	TexUnits     int     `yaml:"tex_units" desc:"texture units per pass, one per restored value among them (0: unlimited; the ISA has 16); a shader no partition fits is refused before the run (Small sizes)" min:"0" max:"16"`
	Interpolants int     `yaml:"interpolants" desc:"varyings read per pass, plus one (the screen position) when it restores (0: unlimited); a shader no partition fits is refused before the run (Small sizes)" min:"0" max:"16"`
	TexDepth     int     `yaml:"tex_depth" desc:"levels of dependent texture fetches per pass, a restore being 1 (0: unlimited); a shader no partition fits is refused before the run (Small sizes)" min:"0" max:"64"`
	CostPass     float64 `yaml:"cost_pass" desc:"partitioning cost of a pass (c_p of c_p*passes + c_t*fetches + c_i*instructions)" min:"0" max:"1e9"`
	CostTex      float64 `yaml:"cost_tex" desc:"partitioning cost of a texture fetch, restores included (c_t)" min:"0" max:"1e9"`
	CostInst     float64 `yaml:"cost_inst" desc:"partitioning cost of another instruction (c_i)" min:"0" max:"1e9"`
}

// Limits returns the per-pass limits.
func (m Multipass) Limits() multipass.Limits {
	return multipass.Limits{Name: "configured machine", Ops: m.Ops, Registers: m.Registers, TexUnits: m.TexUnits,
		Interpolants: m.Interpolants, TexDepth: m.TexDepth}
}

// CostModel returns the partitioning cost model.
func (m Multipass) CostModel() multipass.CostModel {
	return multipass.CostModel{Pass: m.CostPass, Tex: m.CostTex, Inst: m.CostInst}
}

// DriverOptions returns the driver options for frames rendered on this
// machine: the defaults, with the machine's multipass limits.
func (c *Config) DriverOptions() driver.Options {
	o := driver.DefaultOptions()
	o.Multipass = driver.MultipassOptions{Limits: c.Multipass.Limits(), Cost: c.Multipass.CostModel()}
	o.Multipass.Limits.Name = c.multipassName()
	if c.Machine == "sage" {
		o.ColorFormat = framebuffer.RGBA10 // the 3DRAM sample buffer
		o.Multipass = driver.MultipassOptions{}
	}
	return o
}

// multipassName names the machine's multipass limits in the driver's
// errors (a shader that fits in no pass, a frame the passes cannot render):
// the file and line that set them, and the limits, e.g. "the machine of
// r8500.yaml:5 (multipass: ops 16, registers 6, tex_units 6, interpolants 6,
// tex_depth 2)".
func (c *Config) multipassName() string {
	place := DefaultNameOr(c.file)
	if line := c.lineOf("multipass"); line > 0 {
		place = fmt.Sprintf("%s:%d", place, line)
	}
	m := c.Multipass
	var set []string
	for _, f := range []struct {
		key string
		v   int
	}{{"ops", m.Ops}, {"registers", m.Registers}, {"tex_units", m.TexUnits}, {"interpolants", m.Interpolants}, {"tex_depth", m.TexDepth}} {
		if f.v != 0 {
			set = append(set, fmt.Sprintf("%s %d", f.key, f.v))
		}
	}
	return fmt.Sprintf("the machine of %s (multipass: %s)", place, strings.Join(set, ", "))
}

// multipassTraffic measures a frame's multipass overhead: the bytes the ROPs
// write to and read from intermediate targets (the saves; attach it to the
// ROPs' ToMemory ports), beside the driver's split draws and passes. The
// restores are the intermediates' reads at the texture L2, which
// TextureTraffic counts by texture. Hooks may run on the parallel engine's
// goroutines, hence the lock.
type multipassTraffic struct {
	mu            sync.Mutex
	ranges        [][2]uint64 // the intermediate targets' bytes [lo, hi)
	written, read uint64
	draws, passes int
	intermediates int
}

func newMultipassTraffic(f *driver.Frame) *multipassTraffic {
	m := &multipassTraffic{}
	for _, t := range f.Textures {
		if strings.HasPrefix(t.Name, "multipass/") {
			m.ranges = append(m.ranges, [2]uint64{t.Data, t.Data + t.Size})
			m.intermediates++
		}
	}
	for _, d := range f.Multipass {
		m.draws++
		m.passes += d.Passes
	}
	return m
}

func (m *multipassTraffic) inside(addr uint64) bool {
	for _, r := range m.ranges {
		if addr >= r[0] && addr < r[1] {
			return true
		}
	}
	return false
}

// Func implements sim.Hook.
func (m *multipassTraffic) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgSend || len(m.ranges) == 0 {
		return
	}
	switch r := ctx.Item.(type) {
	case *mem.WriteReq:
		if m.inside(r.Address) {
			m.mu.Lock()
			m.written += uint64(len(r.Data))
			m.mu.Unlock()
		}
	case *mem.ReadReq:
		if m.inside(r.Address) {
			m.mu.Lock()
			m.read += r.AccessByteSize
			m.mu.Unlock()
		}
	}
}

// Stats adds GPU.Multipass.*: split_draws, passes (of the split draws),
// intermediate_targets, save_bytes_written and save_bytes_read (ROP traffic
// to the intermediates), restore_l2_bytes and restore_dram_bytes (the
// intermediates' texture reads, from the statistics already gathered).
func (m *multipassTraffic) Stats(st map[string]float64, add func(string, float64)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	add("GPU.Multipass.split_draws", float64(m.draws))
	add("GPU.Multipass.passes", float64(m.passes))
	add("GPU.Multipass.intermediate_targets", float64(m.intermediates))
	add("GPU.Multipass.save_bytes_written", float64(m.written))
	add("GPU.Multipass.save_bytes_read", float64(m.read))
	var l2, dram float64
	for k, v := range st {
		if strings.HasPrefix(k, "GPU.TextureTraffic.multipass_intermediate") {
			switch {
			case strings.HasSuffix(k, ".l2_bytes"):
				l2 += v
			case strings.HasSuffix(k, ".dram_bytes"):
				dram += v
			}
		}
	}
	add("GPU.Multipass.restore_l2_bytes", l2)
	add("GPU.Multipass.restore_dram_bytes", dram)
}
