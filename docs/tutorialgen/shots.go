package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/gfxsim/gfxsim/internal/daisenview"
)

// The size of the browser window the screenshots are taken in.
const shotWidth, shotHeight = 1400, 800

// takeShots serves each trace the shots name with Daisen, opens every view in
// headless Chromium and writes it as PNG into imageDir.
func (r *runner) takeShots(shots []shot, imageDir string, log func(string)) error {
	if len(shots) == 0 {
		return nil
	}
	if err := daisenview.Missing(); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "tutorialgen-daisen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := daisenview.Build(tmp)
	if err != nil {
		return err
	}
	browser, err := daisenview.OpenBrowser(shotWidth, shotHeight, filepath.Join(tmp, "profile"))
	if err != nil {
		return err
	}
	defer browser.Close()
	servers := map[string]*daisenview.Server{}
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()
	for _, s := range shots {
		srv, ok := servers[s.trace]
		if !ok {
			srv, err = daisenview.Serve(bin, r.path(s.trace), tmp, os.Stderr)
			if err != nil {
				return err
			}
			servers[s.trace] = srv
		}
		page, wait, err := r.shotURL(s)
		if err != nil {
			return fmt.Errorf("line %d: %v", s.line+1, err)
		}
		log(s.file + ": " + page)
		png, err := browser.Screenshot(srv.URL+page, wait, 2*time.Second)
		if err != nil {
			return fmt.Errorf("line %d: %v", s.line+1, err)
		}
		if err := os.WriteFile(filepath.Join(imageDir, s.file), png, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// shotURL returns the Daisen page of s and the CSS selector that shows it has
// drawn. Daisen's times are simulated seconds: the window's cycles are converted
// with the core clock of the run, read from the stats.json beside the trace.
func (r *runner) shotURL(s shot) (string, string, error) {
	q := url.Values{}
	if s.window[1] > 0 {
		stats, err := readStats(filepath.Join(filepath.Dir(r.path(s.trace)), "stats.json"))
		if err != nil {
			return "", "", err
		}
		if stats["GPU.cycles"] <= 0 {
			return "", "", fmt.Errorf("no GPU.cycles beside %s", s.trace)
		}
		period := stats["GPU.frame_seconds"] / stats["GPU.cycles"]
		q.Set("starttime", fmt.Sprintf("%.9g", float64(s.window[0])*period))
		q.Set("endtime", fmt.Sprintf("%.9g", float64(s.window[1])*period))
	}
	switch s.view {
	case "component":
		q.Set("name", s.arg)
		return "/component?" + q.Encode(), ".task-bar rect", nil
	case "task":
		q.Set("id", s.arg)
		return "/task?" + q.Encode(), ".task-bar rect", nil
	default:
		q.Set("filter", s.arg)
		return "/dashboard?" + q.Encode(), "div.widget .title-bar h6", nil
	}
}
