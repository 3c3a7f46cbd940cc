// Package daisenview serves a gfxsim trace with Akita's Daisen viewer and opens it
// in headless Chromium through ChromeDriver (github.com/tebeka/selenium): the
// machinery of the tracing package's browser test, shared with the tutorial's
// screenshot generator (docs/tutorialgen).
//
// Missing says whether Chromium and ChromeDriver are installed (Debian's chromium
// and chromium-driver); Build compiles Daisen from the module cache; Serve runs it
// on a free loopback port for one trace; OpenBrowser starts ChromeDriver and a
// headless Chromium window of a given size; Browser.Screenshot loads a page, waits
// until a CSS selector matches and saves the window as PNG.
package daisenview

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/tebeka/selenium"
	"github.com/tebeka/selenium/chrome"
)

// Where Debian's chromium and chromium-driver packages install the browser and its
// driver.
const (
	ChromiumPath     = "/usr/bin/chromium"
	ChromedriverPath = "/usr/bin/chromedriver"
)

// Missing returns an error naming the first of Chromium and ChromeDriver that is
// not installed, or nil.
func Missing() error {
	for _, p := range []string{ChromiumPath, ChromedriverPath} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s is missing (apt-get install -y chromium chromium-driver)", p)
		}
	}
	return nil
}

// FreePort returns a TCP port free on the loopback interface.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Build compiles Akita's Daisen into dir and returns the binary's path.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "daisen")
	build := exec.Command("go", "build", "-o", bin, "github.com/sarchlab/akita/v3/daisen")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building daisen: %v\n%s", err, out)
	}
	return bin, nil
}

// Server is a Daisen process serving one SQLite trace on loopback.
type Server struct {
	// URL is the server's base address, http://127.0.0.1:PORT.
	URL string
	cmd *exec.Cmd
}

// Serve starts the Daisen binary bin on trace (a SQLite file) on a free loopback
// port, with dir as its working folder and its output sent to log, and waits up to
// 30 s until it answers.
func Serve(bin, trace, dir string, log *os.File) (*Server, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, "-sqlite", trace, "-http", addr)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + addr, cmd: cmd}
	deadline := time.Now().Add(30 * time.Second)
	for {
		rsp, err := http.Get(s.URL + "/api/compnames")
		if err == nil {
			rsp.Body.Close()
			if rsp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.Close()
			return nil, fmt.Errorf("daisen did not answer on %s: %v", s.URL, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Close stops the server.
func (s *Server) Close() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// ComponentNames returns the components Daisen lists for the trace.
func (s *Server) ComponentNames() ([]string, error) {
	rsp, err := http.Get(s.URL + "/api/compnames")
	if err != nil {
		return nil, err
	}
	defer rsp.Body.Close()
	var names []string
	if err := json.NewDecoder(rsp.Body).Decode(&names); err != nil {
		return nil, fmt.Errorf("/api/compnames: %v", err)
	}
	return names, nil
}

// Browser is a headless Chromium driven by ChromeDriver.
type Browser struct {
	svc *selenium.Service
	// WD is the WebDriver session.
	WD selenium.WebDriver
}

// OpenBrowser starts ChromeDriver and a headless Chromium with a window of width x
// height pixels and its profile in profileDir.
func OpenBrowser(width, height int, profileDir string) (*Browser, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	svc, err := selenium.NewChromeDriverService(ChromedriverPath, port)
	if err != nil {
		return nil, err
	}
	caps := selenium.Capabilities{"browserName": "chrome"}
	caps.AddChrome(chrome.Capabilities{Path: ChromiumPath, W3C: true, Args: []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
		"--hide-scrollbars", fmt.Sprintf("--window-size=%d,%d", width, height),
		"--user-data-dir=" + profileDir}})
	wd, err := selenium.NewRemote(caps, fmt.Sprintf("http://127.0.0.1:%d/wd/hub", port))
	if err != nil {
		_ = svc.Stop()
		return nil, err
	}
	return &Browser{svc: svc, WD: wd}, nil
}

// Close ends the session and stops ChromeDriver.
func (b *Browser) Close() {
	_ = b.WD.Quit()
	_ = b.svc.Stop()
}

// Poll calls ok every 250 ms until it returns true (nil) or d has passed (an
// error saying msg).
func Poll(d time.Duration, ok func() bool, msg string) error {
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			return errors.New(msg)
		}
		time.Sleep(250 * time.Millisecond)
	}
	return nil
}

// Screenshot loads url, waits up to 30 s until an element matches the CSS selector
// wait, lets the page settle for settle, and returns the window as PNG.
func (b *Browser) Screenshot(url, wait string, settle time.Duration) ([]byte, error) {
	if err := b.WD.Get(url); err != nil {
		return nil, err
	}
	err := Poll(30*time.Second, func() bool {
		els, err := b.WD.FindElements(selenium.ByCSSSelector, wait)
		return err == nil && len(els) > 0
	}, fmt.Sprintf("%s: nothing matches %q", url, wait))
	if err != nil {
		return nil, err
	}
	time.Sleep(settle)
	return b.WD.Screenshot()
}
