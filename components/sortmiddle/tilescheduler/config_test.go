package tilescheduler

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/timing"
)

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[Config]
	testpeer.CheckValidate(t, DefaultConfig(),
		set(func(c *Config) { c.TileUnits = 0 }, "tile scheduler: TileUnits 0: the tiled machine needs at least one tile unit"),
		set(func(c *Config) { c.JobsPerUnit = 0 }, "tile scheduler: JobsPerUnit 0 must be at least 1"),
		set(func(c *Config) { c.Order = 5 }, "tile scheduler: Order 5 is not one of rowmajor, zorder"),
	)
	for _, s := range []string{"rowmajor", "zorder"} {
		if o, err := ParseOrder(s); err != nil || o.String() != s {
			t.Errorf("ParseOrder(%q) = %v, %v", s, o, err)
		}
	}
	if _, err := ParseOrder("hilbert"); err == nil || err.Error() != `"hilbert" is not one of rowmajor, zorder` {
		t.Errorf("ParseOrder(hilbert): %v", err)
	}
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("TileScheduler") })
}
