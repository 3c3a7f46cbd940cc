package configs

import (
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// Multipass is the machine's per-pass fragment-program resources, in the
// terms of Chan et al. 2002 (Table 2: operations, registers, texture units,
// interpolants), and the cost model the driver's partitioner (RDS) minimizes.
// A draw whose pixel shader does not fit one pass is rendered in several
// (scene/driver, functional/shader/multipass). All zero: unlimited, the
// default machine splits nothing.
type Multipass struct {
	Ops          int     `yaml:"ops" desc:"instructions per pass, restores and their address included (0: unlimited)" min:"0" max:"1000000"`
	Registers    int     `yaml:"registers" desc:"temporary registers per pass after allocation (0: unlimited; the ISA has 32)" min:"0" max:"32"`
	TexUnits     int     `yaml:"tex_units" desc:"texture units per pass, one per restored value among them (0: unlimited; the ISA has 16)" min:"0" max:"16"`
	Interpolants int     `yaml:"interpolants" desc:"varyings read per pass, plus one (the screen position) when it restores (0: unlimited)" min:"0" max:"16"`
	TexDepth     int     `yaml:"tex_depth" desc:"levels of dependent texture fetches per pass, a restore being 1 (0: unlimited)" min:"0" max:"64"`
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
	return o
}
