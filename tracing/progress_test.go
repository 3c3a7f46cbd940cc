package tracing

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
)

// TestProgressCoversVideoScanOut: on SAGE the video output scans out after
// the frame's commands have finished; progress goes on reporting until the
// last line is out, and says that is what remains.
func TestProgressCoversVideoScanOut(t *testing.T) {
	cfg, err := configs.Parse("video.yaml", []byte("machine: sage\nsage: {video: {width: 640, height: 400}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, f := buildOn(t, cfg, "triangle", 64, 40, 1)
	var out bytes.Buffer
	NewProgress(p, f.Draws, &out, 0, nil) // a line every sample
	if _, err := p.Run(f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), " draws done, cycle ") || !strings.Contains(out.String(), ", scanning out the video frame\n") {
		t.Errorf("no progress line says the video frame is scanning out:\n%s", out.String())
	}
	if got, want := p.CommandProcessor.FinishTime(), p.Engine.CurrentTime(); got >= want {
		t.Errorf("the commands finished at %v, the run at %v: the scan-out does not outlast them and the test tests nothing", got, want)
	}
}
