package timing

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// unitConfig is a configuration that validates when N is positive.
type unitConfig struct{ N int }

func (c unitConfig) Validate() error {
	if c.N < 1 {
		return errors.New("N must be at least 1")
	}
	return nil
}

// built records what the build step was given.
type built struct {
	env  Env
	cfg  unitConfig
	name string
}

func buildUnit(env Env, cfg unitConfig, name string) *built { return &built{env, cfg, name} }

func TestBuilder(t *testing.T) {
	e := sim.NewSerialEngine()
	env := Env{Engine: e, Freq: 2 * sim.GHz, Halt: &Halt{}}
	b := NewBuilder("unit", unitConfig{N: 3}, buildUnit)
	if got := b.Config(); got.N != 3 {
		t.Errorf("Config() = %+v, want the default N 3", got)
	}
	u := b.WithEnv(env).WithConfig(unitConfig{N: 5}).Build("GPU.Unit")
	if u.env != env || u.cfg.N != 5 || u.name != "GPU.Unit" {
		t.Errorf("built %+v", u)
	}
	for _, tc := range []struct {
		b    Builder[unitConfig, *built]
		want string
	}{
		{b, "unit GPU.Unit: Env: no engine"},
		{b.WithEnv(Env{Engine: e}), "unit GPU.Unit: Env: the clock must be positive"},
		{b.WithEnv(env).WithConfig(unitConfig{}), "unit GPU.Unit: N must be at least 1"},
	} {
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); got != tc.want {
					t.Errorf("panic %q, want %q", got, tc.want)
				}
			}()
			tc.b.Build("GPU.Unit")
		}()
	}
	clocked := NewClockedBuilder("unit", unitConfig{N: 1}, func(c unitConfig) sim.Freq { return sim.Freq(c.N) * sim.MHz },
		buildUnit)
	if u := clocked.WithEnv(env).WithConfig(unitConfig{N: 7}).Build("GPU.Unit"); u.env.Freq != 7*sim.MHz {
		t.Errorf("clocked unit at %v, want 7 MHz (its configuration's clock, not the Env's)", u.env.Freq)
	}
}
