package tracing

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

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
	shares := regexp.MustCompile(`, scanning out the video frame, (\d+)% of its pixels\n`).FindAllStringSubmatch(out.String(), -1)
	if !strings.Contains(out.String(), " draws done, cycle ") || len(shares) == 0 {
		t.Errorf("no progress line says the video frame is scanning out:\n%s", out.String())
	}
	last := -1
	for _, m := range shares {
		n, _ := strconv.Atoi(m[1])
		if n < last || n > 100 {
			t.Errorf("scan-out shares %v: not rising from 0 to 100%%", shares)
			break
		}
		last = n
	}
	if got, want := p.CommandProcessor.FinishTime(), p.Engine.CurrentTime(); got >= want {
		t.Errorf("the commands finished at %v, the run at %v: the scan-out does not outlast them and the test tests nothing", got, want)
	}
}

// TestProgressETA: without draw estimates the time left goes by the count of
// draws; with them (render) by the share of their estimated work, and says
// the resolve is left out.
func TestProgressETA(t *testing.T) {
	g := &Progress{total: 3}
	for _, tc := range []struct {
		work []float64
		done int
		want string
	}{
		{nil, 1, ", about 18 s left at this rate of draws"},
		{nil, 3, ""},
		{[]float64{3, 1, 0}, 1, ", about 3 s left in the draws (by their screen area), then the resolve"},
		{[]float64{3, 1, 0}, 2, ""}, // the last draw weighs nothing
	} {
		g.Work = tc.work
		if got := g.eta(tc.done, 9*time.Second, 9*time.Second); got != tc.want {
			t.Errorf("work %v, %d done: %q, want %q", tc.work, tc.done, got, tc.want)
		}
	}
}
