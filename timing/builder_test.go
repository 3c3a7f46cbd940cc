package timing

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

type unitConfig struct{ Size int }

func (c unitConfig) Validate() error {
	if c.Size < 1 {
		return errors.New("Size 0 must be at least 1")
	}
	return nil
}

func TestBuilder(t *testing.T) {
	e := sim.NewSerialEngine()
	env := Env{Engine: e, Freq: 1 * sim.GHz, Halt: &Halt{}}
	var gotEnv Env
	b := NewBuilder("unit", unitConfig{Size: 2}, func(name string, env Env, cfg unitConfig) string {
		gotEnv = env
		return fmt.Sprintf("%s:%d", name, cfg.Size)
	})
	if got := b.WithEnv(env).Build("GPU.Unit"); got != "GPU.Unit:2" || gotEnv != env {
		t.Errorf("Build = %q with %+v, want GPU.Unit:2 with %+v", got, gotEnv, env)
	}
	b3 := b.WithEnv(env).WithConfig(unitConfig{Size: 3})
	if got := b3.Build("GPU.Unit"); got != "GPU.Unit:3" {
		t.Errorf("Build = %q, want GPU.Unit:3", got)
	}
	if b.Config().Size != 2 || b3.Config().Size != 3 || b3.Env() != env || b.Env() != (Env{}) {
		t.Errorf("With changed the builder it was called on, or the accessors are wrong")
	}
	for _, c := range []struct {
		b    Builder[unitConfig, string]
		want string
	}{
		{b, "unit GPU.Unit: Env: no engine"},
		{b.WithEnv(Env{Engine: e}), "unit GPU.Unit: Env: the clock must be positive"},
		{b.WithEnv(env).WithConfig(unitConfig{}), "unit GPU.Unit: Size 0 must be at least 1"},
	} {
		func() {
			defer func() {
				if r := recover(); r != c.want {
					t.Errorf("Build panicked with %v, want %q", r, c.want)
				}
			}()
			c.b.Build("GPU.Unit")
		}()
	}
}

func TestClockedBuilderTakesTheConfigurationsClock(t *testing.T) {
	env := Env{Engine: sim.NewSerialEngine(), Freq: 1 * sim.GHz, Halt: &Halt{}}
	var got sim.Freq
	b := NewClockedBuilder("unit", unitConfig{Size: 7}, func(c unitConfig) sim.Freq { return sim.Freq(c.Size) * sim.MHz },
		func(name string, env Env, cfg unitConfig) string { got = env.Freq; return name })
	b.WithEnv(env).Build("GPU.Unit")
	if got != 7*sim.MHz {
		t.Errorf("clocked unit at %v, want 7 MHz (its configuration's clock, not the Env's)", got)
	}
}
