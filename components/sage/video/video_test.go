package video

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

func TestDefaultTotals(t *testing.T) {
	if h, v := DefaultTotals(1280, 1024); h != 1688 || v != 1066 {
		t.Errorf("DefaultTotals(1280, 1024) = %d, %d, want 1688, 1066", h, v)
	}
	if got := MakeBuilder().PixelClock(); got != 1688*1066*76 {
		t.Errorf("default pixel clock %v, want %v", got, 1688*1066*76)
	}
}

func TestBuilderValidate(t *testing.T) {
	e := sim.NewSerialEngine()
	ok := MakeBuilder().WithEngine(e)
	for _, tc := range []struct {
		b    Builder
		want string
	}{
		{MakeBuilder(), "Engine"},
		{ok.WithSize(0, 10), "Size"},
		{ok.WithTotals(1000, 1066), "HTotal"},
		{ok.WithTotals(1688, 1000), "VTotal"},
		{ok.WithRefresh(0), "Refresh"},
		{ok.WithChannel(0, 3), "Channels 3 must be 1 or 2"},
		{ok.WithChannel(2, 2), "Channel 2 must be in [0, Channels=2)"},
		{ok.WithChannel(-1, 1), "Channel -1"},
		{ok.WithOrigin(-1, 0), "Origin"},
		{ok.WithMode(Mode(7)), "Mode"},
		{ok.WithFIFOPixels(0), "FIFOPixels"},
		{ok.WithInputQueue(0), "InputQueue"},
	} {
		err := tc.b.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate() = %v, want an error naming %s", err, tc.want)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	if err := ok.WithChannel(1, 2).WithOrigin(640, 0).Validate(); err != nil {
		t.Errorf("channel 1 of 2 at (640, 0): %v", err)
	}
	if m, err := ParseMode("strict"); err != nil || m != Strict {
		t.Errorf("ParseMode(strict) = %v, %v", m, err)
	}
	if _, err := ParseMode("lazy"); err == nil {
		t.Error("ParseMode(lazy) accepted")
	}
}
