package tracing

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tebeka/selenium"
	"github.com/tebeka/selenium/chrome"
)

const (
	chromiumPath     = "/usr/bin/chromium"
	chromedriverPath = "/usr/bin/chromedriver"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// needBrowser skips the test when Chromium or ChromeDriver is missing, except in
// CI (the variable CI is set), where .ci/run installs them and their absence is a
// failure.
func needBrowser(t *testing.T) {
	t.Helper()
	for _, p := range []string{chromiumPath, chromedriverPath} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (CI is set: .ci/run installs chromium and chromium-driver)", p)
			}
			t.Skipf("%s is missing (apt-get install -y chromium chromium-driver)", p)
		}
	}
}

// startDaisen builds Akita's Daisen and serves trace on loopback; the process is
// stopped when the test ends.
func startDaisen(t *testing.T, trace string) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "daisen")
	build := exec.Command("go", "build", "-o", bin, "github.com/sarchlab/akita/v3/daisen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building daisen: %v\n%s", err, out)
	}
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, "-sqlite", trace, "-http", addr)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		rsp, err := http.Get(base + "/api/compnames")
		if err == nil {
			rsp.Body.Close()
			if rsp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("daisen did not answer on %s: %v", base, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func compNames(t *testing.T, base string) []string {
	t.Helper()
	rsp, err := http.Get(base + "/api/compnames")
	if err != nil {
		t.Fatal(err)
	}
	defer rsp.Body.Close()
	var names []string
	if err := json.NewDecoder(rsp.Body).Decode(&names); err != nil {
		t.Fatal(err)
	}
	return names
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
	base := startDaisen(t, trace)
	names := compNames(t, base)
	for _, want := range expectedComponents {
		if !contains(names, want) {
			t.Fatalf("Daisen's component list %v lacks %s", names, want)
		}
	}

	drvPort := freePort(t)
	svc, err := selenium.NewChromeDriverService(chromedriverPath, drvPort)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Stop()
	caps := selenium.Capabilities{"browserName": "chrome"}
	caps.AddChrome(chrome.Capabilities{Path: chromiumPath, W3C: true, Args: []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
		"--window-size=1600,1000", "--user-data-dir=" + t.TempDir()}})
	wd, err := selenium.NewRemote(caps, fmt.Sprintf("http://127.0.0.1:%d/wd/hub", drvPort))
	if err != nil {
		t.Fatal(err)
	}
	defer wd.Quit()

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
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
