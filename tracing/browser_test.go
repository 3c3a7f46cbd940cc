package tracing

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tebeka/selenium"

	"github.com/gfxsim/gfxsim/internal/daisenview"
)

// needBrowser skips the test when Chromium or ChromeDriver is missing, except in
// CI (the variable CI is set), where .ci/run installs them and their absence is a
// failure.
func needBrowser(t *testing.T) {
	t.Helper()
	if err := daisenview.Missing(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v (CI is set: .ci/run installs chromium and chromium-driver)", err)
		}
		t.Skip(err)
	}
}

// startDaisen builds Akita's Daisen and serves trace on loopback; the process is
// stopped when the test ends.
func startDaisen(t *testing.T, trace string) *daisenview.Server {
	t.Helper()
	dir := t.TempDir()
	bin, err := daisenview.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := daisenview.Serve(bin, trace, dir, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserShowsTheTrace renders a small frame with tracing on, serves the trace
// with Daisen on loopback, opens it in headless Chromium and checks that gfxsim's
// components are listed on the dashboard and that a component's task view draws
// tasks.
func TestBrowserShowsTheTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the browser test runs on Linux")
	}
	needBrowser(t)
	trace := traceSmallFrame(t, t.TempDir())
	srv := startDaisen(t, trace)
	base := srv.URL
	names, err := srv.ComponentNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range expectedComponents {
		if !slices.Contains(names, want) {
			t.Fatalf("Daisen's component list %v lacks %s", names, want)
		}
	}

	browser, err := daisenview.OpenBrowser(1600, 1000, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer browser.Close()
	wd := browser.WD

	if err := wd.Get(base + "/dashboard"); err != nil {
		t.Fatal(err)
	}
	var titles []string
	poll(t, 30*time.Second, func() bool {
		titles = titles[:0]
		els, err := wd.FindElements(selenium.ByCSSSelector, "div.widget .title-bar h6")
		if err != nil {
			return false
		}
		for _, e := range els {
			if s, err := e.Text(); err == nil {
				titles = append(titles, strings.TrimSpace(s))
			}
		}
		return len(titles) > 0
	}, "the dashboard shows no component widget")
	found := false
	for _, s := range titles {
		if strings.HasPrefix(s, "GPU.") {
			found = true
		}
	}
	if !found {
		t.Fatalf("the dashboard shows %v, no gfxsim component", titles)
	}

	// The task view of a gfxsim unit (not an Akita memory component) draws its
	// tasks, gfxsim's own kinds among them.
	comp := expectedComponents[0]
	kinds := taskKindsAt(t, base, comp)
	own := false
	for _, k := range kinds {
		own = own || (k != "req_out" && k != "req_in")
	}
	if !own {
		t.Fatalf("Daisen has tasks of kinds %v at %s, none of the unit's own", kinds, comp)
	}
	if err := wd.Get(base + "/component?name=" + comp); err != nil {
		t.Fatal(err)
	}
	var bars int
	poll(t, 30*time.Second, func() bool {
		els, err := wd.FindElements(selenium.ByCSSSelector, ".task-bar rect")
		bars = len(els)
		return err == nil && bars > 0
	}, "the task view of "+comp+" draws no task")
	t.Logf("dashboard widgets: %v; %s task view: %d task bars; kinds %v", titles, comp, bars, kinds)
}

// taskKindsAt returns the kinds of the tasks Daisen serves for component comp,
// sorted.
func taskKindsAt(t *testing.T, base, comp string) []string {
	t.Helper()
	rsp, err := http.Get(base + "/api/trace?where=" + url.QueryEscape(comp))
	if err != nil {
		t.Fatal(err)
	}
	defer rsp.Body.Close()
	var tasks []struct {
		Kind string `json:"kind"`
	}
	if err := json.NewDecoder(rsp.Body).Decode(&tasks); err != nil {
		t.Fatalf("/api/trace?where=%s: %v", comp, err)
	}
	seen := map[string]bool{}
	var kinds []string
	for _, x := range tasks {
		if !seen[x.Kind] {
			seen[x.Kind] = true
			kinds = append(kinds, x.Kind)
		}
	}
	sort.Strings(kinds)
	return kinds
}

func poll(t *testing.T, d time.Duration, ok func() bool, msg string) {
	t.Helper()
	if err := daisenview.Poll(d, ok, msg); err != nil {
		t.Fatal(err)
	}
}
