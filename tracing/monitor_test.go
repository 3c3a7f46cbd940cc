package tracing

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
)

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "127.3.2.1": true, "::1": true,
		"": false, "0.0.0.0": false, "::": false, "10.0.0.1": false, "example.com": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

func startTestMonitor(t *testing.T, addr string) (*Monitor, string) {
	t.Helper()
	var log bytes.Buffer
	m, err := StartMonitor(addr, &log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, log.String()
}

func post(t *testing.T, url string) monitorStatus {
	t.Helper()
	r, err := http.Post(url, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var s monitorStatus
	if err := json.NewDecoder(r.Body).Decode(&s); err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return s
}

// Pause and continue reach every running simulation once, a run added while
// paused starts paused, a finished run is continued and left alone; only
// POST changes anything; the JSON carries each run's progress and buffers.
func TestMonitorPauseContinue(t *testing.T) {
	m, log := startTestMonitor(t, DefaultMonitorAddr)
	base := "http://" + m.Addr().String()
	if want := "monitor: " + base + "/\n"; log != want {
		t.Errorf("log %q, want %q", log, want)
	}
	a, b, c := &fakeEngine{}, &fakeEngine{}, &fakeEngine{}
	ra := m.AddRun("A", 10, a, func() []timing.BufferState { return []timing.BufferState{{Name: "GPU.X.Buf", Len: 3, Cap: 8}} })
	m.AddRun("B", 20, b, nil)
	ra.update(4, 12345, false)
	if r, err := http.Get(base + "/api/pause"); err != nil || r.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET /api/pause: %v %v, want 405", r.Status, err)
	}
	if a.paused != 0 {
		t.Fatal("GET paused the engine")
	}
	post(t, base+"/api/pause")
	s := post(t, base+"/api/pause")
	m.AddRun("C", 5, c, nil)
	if !s.Paused || a.paused != 1 || b.paused != 1 || c.paused != 1 {
		t.Errorf("after two pauses and a new run: paused %v, engines paused %d %d %d, want true, 1 1 1", s.Paused, a.paused, b.paused, c.paused)
	}
	ra.finish() // a run that ends is continued at once
	s = post(t, base+"/api/continue")
	if s.Paused || a.continued != 1 || b.continued != 1 || c.continued != 1 {
		t.Errorf("after continue: paused %v, engines continued %d %d %d, want false, 1 1 1", s.Paused, a.continued, b.continued, c.continued)
	}
	post(t, base+"/api/pause")
	if a.paused != 1 || b.paused != 2 {
		t.Errorf("a finished run was paused again (%d) or a running one not (%d)", a.paused, b.paused)
	}
	want := `{"name":"A","draws":10,"done":4,"cycle":12345,"finished":true,"buffers":[{"Name":"GPU.X.Buf","Len":3,"Cap":8}]}`
	if got, _ := json.Marshal(s.Runs[0]); string(got) != want {
		t.Errorf("run A:\n got  %s\n want %s", got, want)
	}
	r, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(r.Body)
	r.Body.Close()
	for _, part := range []string{"<h2>A</h2>", "4 of 10 draws, cycle 12345, finished", "<td>GPU.X.Buf</td><td>3</td><td>8</td>", `action="/api/continue"`} {
		if !bytes.Contains(page, []byte(part)) {
			t.Errorf("page lacks %q", part)
		}
	}
}

// A pause that arrives while the engine runs a progress sample (Progress calls
// MonitorRun.update inside its event, holding the engine's pause lock) waits
// for that event and pauses the run; it deadlocked when the monitor held its
// lock while pausing the engine, which update also takes.
func TestPauseDuringProgressSample(t *testing.T) {
	m, err := StartMonitor(DefaultMonitorAddr, io.Discard) // closed at the end: a deadlocked one could not be
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + m.Addr().String()
	e := timing.NewSerialEngine()
	inEvent := make(chan struct{})
	run := m.AddRun("A", 1, e, func() []timing.BufferState {
		close(inEvent)
		time.Sleep(200 * time.Millisecond) // the pause request arrives meanwhile and waits for the event
		return nil
	})
	e.Schedule(monitorEvent{func() { run.update(0, 1, false) }})
	ran := make(chan struct{})
	go func() { e.Run(); close(ran) }()
	<-inEvent
	paused := make(chan monitorStatus)
	go func() {
		r, err := http.Post(base+"/api/pause", "text/plain", nil)
		var s monitorStatus
		if err == nil {
			json.NewDecoder(r.Body).Decode(&s) //nolint:errcheck // checked below
			r.Body.Close()
		}
		paused <- s
	}()
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		panic("deadlock: the run waits for the monitor's lock in update while the pause request holds it and waits for the engine")
	}
	if s := <-paused; !s.Paused {
		t.Errorf("pause answered %+v, want paused", s)
	}
	if s := post(t, base+"/api/continue"); s.Paused {
		t.Errorf("continue answered %+v", s)
	}
	m.Close()
}

// monitorEvent runs f as an event at time 0.
type monitorEvent struct{ f func() }

func (e monitorEvent) Time() sim.VTimeInSec   { return 0 }
func (e monitorEvent) Handler() sim.Handler   { return e }
func (e monitorEvent) IsSecondary() bool      { return false }
func (e monitorEvent) Handle(sim.Event) error { e.f(); return nil }

// On loopback, a request that names another host (DNS rebinding) is refused.
func TestMonitorRefusesOtherHosts(t *testing.T) {
	m, _ := startTestMonitor(t, DefaultMonitorAddr)
	req, _ := http.NewRequest(http.MethodPost, "http://"+m.Addr().String()+"/api/pause", nil)
	req.Host = "attacker.example:80"
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("status %s, want 403", r.Status)
	}
}

// A request another site's page sends (its Origin, or the browser's
// Sec-Fetch-Site) is refused; the monitor's own page's is not.
func TestMonitorRefusesOtherOrigins(t *testing.T) {
	m, _ := startTestMonitor(t, DefaultMonitorAddr)
	base := "http://" + m.Addr().String()
	for _, tc := range []struct {
		header, value string
		status        int
	}{
		{"Origin", "https://evil.example", http.StatusForbidden},
		{"Origin", "null", http.StatusForbidden},
		{"Sec-Fetch-Site", "cross-site", http.StatusForbidden},
		{"Origin", base, http.StatusOK},
		{"Sec-Fetch-Site", "same-origin", http.StatusOK},
	} {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/pause", nil)
		req.Header.Set(tc.header, tc.value)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != tc.status {
			t.Errorf("%s: %s: status %s, want %d", tc.header, tc.value, r.Status, tc.status)
		}
	}
}

func TestMonitorWarnsOffLoopback(t *testing.T) {
	m, log := startTestMonitor(t, "0.0.0.0:0")
	// Every IPv4 interface, and a URL a browser here opens (it printed
	// http://[::]:PORT/ and listened on IPv6 too).
	port := m.Addr().(*net.TCPAddr).Port
	want := fmt.Sprintf("warning: -monitor-addr 0.0.0.0:0 is not a loopback address: anyone who can reach it can pause and watch this simulation\n"+
		"monitor: http://127.0.0.1:%d/\n", port)
	if log != want || m.Addr().String() != fmt.Sprintf("0.0.0.0:%d", port) {
		t.Errorf("log %q, listening on %s; want %q on 0.0.0.0", log, m.Addr(), want)
	}
	if _, err := StartMonitor("nowhere", io.Discard); err == nil || !strings.Contains(err.Error(), "want HOST:PORT") {
		t.Errorf("bad address: %v", err)
	}
}

// listeningAddrs returns the local addresses of the process's listening TCP
// sockets: those of /proc/self/net/tcp and tcp6 (the whole network
// namespace's) in state 0A whose inode is one of the process's open files.
func listeningAddrs(t *testing.T) []net.IP {
	t.Helper()
	mine := map[string]bool{}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	for _, fd := range fds {
		if l, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && strings.HasPrefix(l, "socket:[") {
			mine[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	var ips []net.IP
	for _, file := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		f, err := os.Open(file)
		if err != nil {
			t.Skipf("no %s: %v", file, err)
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // header
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" || !mine[fields[9]] {
				continue
			}
			host, _, _ := strings.Cut(fields[1], ":")
			raw, err := hex.DecodeString(host)
			if err != nil {
				t.Fatalf("%s: %q", file, fields[1])
			}
			// The kernel prints each 32-bit word in host (little-endian) order.
			for i := 0; i+4 <= len(raw); i += 4 {
				raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
			}
			ips = append(ips, net.IP(raw))
		}
		f.Close()
	}
	return ips
}

// monitoredFrame builds the default scene at 64x36 with a monitor on the
// default (loopback) address attached; the session closes when the test
// ends.
func monitoredFrame(t *testing.T) (*Session, *configs.Platform, *driver.Frame, *Instruments) {
	t.Helper()
	f := Flags{Monitor: true, MonitorAddr: DefaultMonitorAddr}
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	sess := f.NewSession(t.TempDir(), 1, io.Discard)
	t.Cleanup(func() { sess.Close() })
	p, fr := buildFrame(t, scene.DefaultName, 64, 36, 1, nil)
	in, err := sess.Attach(p, fr.Draws, "")
	if err != nil {
		t.Fatal(err)
	}
	return sess, p, fr, in
}

// A monitored run listens on no address but loopback, and its monitor shows
// the run's progress and buffers while it runs.
func TestMonitoredRunListensOnLoopbackOnly(t *testing.T) {
	sess, p, fr, in := monitoredFrame(t)
	ips := listeningAddrs(t)
	if len(ips) == 0 {
		t.Fatal("no listening socket found: the monitor is not serving")
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			t.Errorf("listening on %v, not a loopback address", ip)
		}
	}
	if _, err := p.Run(fr); err != nil {
		t.Fatal(err)
	}
	if err := in.Close(p.Engine.CurrentTime()); err != nil {
		t.Fatal(err)
	}
	s := sess.Monitor().status()
	if len(s.Runs) != 1 || !s.Runs[0].Finished || s.Runs[0].Done != fr.Draws || len(s.Runs[0].Buffers) == 0 {
		t.Errorf("monitor after the run: %+v", s)
	}
	port := strconv.Itoa(sess.Monitor().Addr().(*net.TCPAddr).Port)
	if !strings.HasPrefix(sess.Monitor().Addr().String(), "127.0.0.1:") || port == "0" {
		t.Errorf("monitor address %s", sess.Monitor().Addr())
	}
}

// A halt (Ctrl-C, the watchdog) ends a run that the monitor has paused: the
// monitor continues it (it waited for /api/continue).
func TestHaltContinuesPausedRun(t *testing.T) {
	sess, p, fr, in := monitoredFrame(t)
	post(t, "http://"+sess.Monitor().Addr().String()+"/api/pause")
	done := make(chan error, 1)
	go func() {
		_, err := p.Run(fr)
		done <- err
	}()
	stop := errors.New("interrupted")
	p.Halt.Stop(stop)
	select {
	case err := <-done:
		if !errors.Is(err, stop) {
			t.Errorf("Run: %v, want the halt's reason", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the halted run stayed paused")
	}
	if err := in.Close(p.Engine.CurrentTime()); err != nil {
		t.Fatal(err)
	}
}
