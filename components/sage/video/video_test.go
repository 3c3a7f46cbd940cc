package video

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/timing"
)

func TestDefaultTotals(t *testing.T) {
	if h, v := DefaultTotals(1280, 1024); h != 1688 || v != 1066 {
		t.Errorf("DefaultTotals(1280, 1024) = %d, %d, want 1688, 1066", h, v)
	}
	if got := DefaultConfig().PixelClock(); got != 1688*1066*76 {
		t.Errorf("default pixel clock %v, want %v", got, 1688*1066*76)
	}
}

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[Config]
	testpeer.CheckInvalid(t, DefaultConfig(),
		set(func(c *Config) { c.Width = 0 }, "video: Size 0x1024 must be in [1, 16384] on each side"),
		set(func(c *Config) { c.HTotal, c.VTotal = 1000, 1066 }, "video: HTotal 1000 must be in [Width=1280, 5120]"),
		set(func(c *Config) { c.HTotal, c.VTotal = 1688, 1000 }, "video: VTotal 1000 must be in [Height=1024, 4096]"),
		set(func(c *Config) { c.Refresh = 0 }, "video: Refresh 0 Hz must be in (0, 1000]"),
		set(func(c *Config) { c.Channels = 3 }, "video: Channels 3 must be 1 or 2 (section 7.1)"),
		set(func(c *Config) { c.Channel, c.Channels = 2, 2 }, "video: Channel 2 must be in [0, Channels=2)"),
		set(func(c *Config) { c.Channel = -1 }, "video: Channel -1 must be in [0, Channels=1)"),
		set(func(c *Config) { c.OriginX = -1 }, "video: Origin (-1, 0) must be in [0, 16384] on each axis"),
		set(func(c *Config) { c.Mode = Mode(7) }, "video: Mode 7 must be elastic or strict"),
	)
	testpeer.CheckAtLeast(t, DefaultConfig(), "video", 1, "FIFOPixels", "InputQueue")
	right := DefaultConfig()
	right.Channel, right.Channels, right.OriginX = 1, 2, 640
	testpeer.CheckInvalid(t, right) // channel 1 of 2 at (640, 0)
	testpeer.CheckEnv(t, false, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("Video") })
	if m, err := ParseMode("strict"); err != nil || m != Strict {
		t.Errorf("ParseMode(strict) = %v, %v", m, err)
	}
	if _, err := ParseMode("lazy"); err == nil {
		t.Error("ParseMode(lazy) accepted")
	}
}
