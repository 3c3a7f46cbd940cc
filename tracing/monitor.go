package tracing

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// DefaultMonitorAddr is where -monitor listens unless -monitor-addr says
// otherwise: the loopback interface, a port the system chooses.
const DefaultMonitorAddr = "127.0.0.1:0"

// Monitor is gfxsim's web monitor (-monitor): while a process simulates, it
// serves each run's progress (draws done of the frame's, simulated cycle),
// the occupancy of every buffer of a process's only simulation, and pause and
// continue, as JSON under /api/ and as a minimal HTML page at /. It is built
// on Akita's public engine API (Pause, Continue) and gfxsim's buffer states
// (timing.BufferState); Akita v3.1.0's own monitor cannot be given an
// address (it binds every interface) and its API can also tick any component
// and read any field, so gfxsim does not start it.
//
// What it shows is sampled by the runs' Progress components inside the
// simulation (every 10,000 core cycles), so the server never reads a
// component while the engine changes it. Pause and Continue are POST only, and
// on a loopback address a request must name a loopback host (a page of another
// site cannot drive it through DNS rebinding).
type Monitor struct {
	ln       net.Listener
	srv      *http.Server
	loopback bool

	// Two locks, never held in the other order: pauseMu serializes pause and
	// continue (it is held while Pause waits for the engine's current event
	// to end); mu guards the runs and what they show, and is taken inside
	// that event by Progress (MonitorRun.update), so it is never held while
	// the engine is paused or continued.
	pauseMu sync.Mutex
	mu      sync.Mutex
	runs    []*MonitorRun
	paused  bool // written under both locks
}

// MonitorRun is one simulation's entry in a Monitor.
type MonitorRun struct {
	m      *Monitor
	engine sim.Engine
	paused bool // the monitor paused engine and has not continued it (pauseMu)
	closed bool // finish ran: no more pause (pauseMu)
	// state is what the page shows; written by Progress in the simulation.
	state runState
}

type runState struct {
	Name     string               `json:"name"`
	Draws    int                  `json:"draws"`
	Done     int                  `json:"done"`
	Cycle    uint64               `json:"cycle"`
	Finished bool                 `json:"finished"`
	Buffers  []timing.BufferState `json:"buffers,omitempty"`
	buffers  func() []timing.BufferState
}

// StartMonitor listens on addr (host:port; port 0: any free port) and serves
// the monitor until Close. A non-loopback address is allowed but warned
// about on log: anyone who can reach it can pause the runs and read them.
func StartMonitor(addr string, log io.Writer) (*Monitor, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-monitor-addr %q: want HOST:PORT (e.g. %s): %v", addr, DefaultMonitorAddr, err)
	}
	network := "tcp" // a name: what it resolves to
	if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
		network = "tcp4" // 0.0.0.0 is IPv4's every address, not IPv6's too
	} else if ip != nil {
		network = "tcp6"
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("-monitor-addr %q: %v", addr, err)
	}
	m := &Monitor{ln: ln, loopback: IsLoopback(host)}
	mux := http.NewServeMux()
	mux.HandleFunc("/", m.page)
	mux.HandleFunc("/api/progress", m.progress)
	mux.HandleFunc("/api/pause", m.pauseOrContinue(true))
	mux.HandleFunc("/api/continue", m.pauseOrContinue(false))
	m.srv = &http.Server{Handler: m.guard(mux), ReadHeaderTimeout: 10 * time.Second}
	go m.srv.Serve(ln) //nolint:errcheck // returns http.ErrServerClosed at Close
	if !m.loopback {
		fmt.Fprintf(log, "warning: -monitor-addr %s is not a loopback address: anyone who can reach it can pause and watch this simulation\n", addr)
	}
	fmt.Fprintf(log, "monitor: http://%s/\n", browsable(ln.Addr()))
	return m, nil
}

// browsable is a listener's address as a browser on this machine can open
// it: an unspecified address (every interface) is reached on loopback.
func browsable(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	switch {
	case !ok || !t.IP.IsUnspecified():
		return a.String()
	case t.IP.To4() != nil:
		return fmt.Sprintf("127.0.0.1:%d", t.Port)
	}
	return fmt.Sprintf("[::1]:%d", t.Port)
}

// IsLoopback reports whether host (a name or an address, without port) is
// the loopback interface: localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Addr returns the address the monitor listens on.
func (m *Monitor) Addr() net.Addr { return m.ln.Addr() }

// Close stops the server; a paused run is continued first.
func (m *Monitor) Close() error {
	m.setPaused(false)
	err := m.srv.Close()
	m.ln.Close() // in case Serve has not started yet: the socket closes now
	return err
}

// AddRun adds a simulation of draws draws on engine; buffers (nil: none)
// lists its buffers. A run added while the monitor is paused starts paused.
func (m *Monitor) AddRun(name string, draws int, engine sim.Engine, buffers func() []timing.BufferState) *MonitorRun {
	m.pauseMu.Lock()
	defer m.pauseMu.Unlock()
	r := &MonitorRun{m: m, engine: engine, state: runState{Name: name, Draws: draws, buffers: buffers}}
	m.mu.Lock()
	m.runs = append(m.runs, r)
	m.mu.Unlock()
	if m.paused {
		r.pause(true)
	}
	return r
}

// update records the run's progress (called from its Progress component,
// inside the simulation).
func (r *MonitorRun) update(done int, cycle uint64, finished bool) {
	var bufs []timing.BufferState
	if r.state.buffers != nil {
		bufs = r.state.buffers()
	}
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	r.state.Done, r.state.Cycle, r.state.Finished = done, cycle, finished
	if bufs != nil {
		r.state.Buffers = bufs
	}
}

// finish marks the run finished; it no longer takes pause and continue.
func (r *MonitorRun) finish() {
	r.m.pauseMu.Lock()
	r.pause(false)
	r.closed = true
	r.m.pauseMu.Unlock()
	r.m.mu.Lock()
	r.state.Finished = true
	r.m.mu.Unlock()
}

// pause pauses or continues the run's engine once (gfxsim's engines ignore a
// second Pause, but Akita's parallel engine deadlocks on one); pauseMu is
// held, mu is not (Pause waits for the engine's current event, which may be
// Progress waiting for mu).
func (r *MonitorRun) pause(p bool) {
	switch {
	case p && !r.paused && !r.closed && !r.finished():
		r.engine.Pause()
		r.paused = true
	case !p && r.paused:
		r.engine.Continue()
		r.paused = false
	}
}

// finished reports whether Progress saw the run finish.
func (r *MonitorRun) finished() bool {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	return r.state.Finished
}

func (m *Monitor) setPaused(p bool) {
	m.pauseMu.Lock()
	defer m.pauseMu.Unlock()
	m.mu.Lock()
	m.paused = p
	runs := append([]*MonitorRun(nil), m.runs...)
	m.mu.Unlock()
	for _, r := range runs {
		r.pause(p)
	}
}

// monitorStatus is the JSON of /api/progress.
type monitorStatus struct {
	Paused bool       `json:"paused"`
	Runs   []runState `json:"runs"`
}

func (m *Monitor) status() monitorStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := monitorStatus{Paused: m.paused, Runs: []runState{}}
	for _, r := range m.runs {
		s.Runs = append(s.Runs, r.state)
	}
	return s
}

func (m *Monitor) progress(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(m.status()) //nolint:errcheck // the client went away
}

func (m *Monitor) pauseOrContinue(pause bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		m.setPaused(pause)
		m.progress(w, r)
	}
}

// guard refuses, on a loopback address, requests whose Host is not a
// loopback name (DNS rebinding), and, on any address, requests that another
// site's page sent (an Origin other than the monitor's own, or a browser's
// Sec-Fetch-Site of cross-site): a page open in the user's browser could
// otherwise pause the run.
func (m *Monitor) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if m.loopback && !IsLoopback(host) {
			http.Error(w, "the monitor answers only requests to a loopback host", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host || r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			http.Error(w, "the monitor answers only its own page, not another site's", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// page is a minimal HTML view of /api/progress that refreshes itself.
func (m *Monitor) page(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	s := m.status()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">`+
		`<title>gfxsim monitor</title></head><body><h1>gfxsim monitor</h1>`)
	state, action, label := "running", "/api/pause", "Pause"
	if s.Paused {
		state, action, label = "paused", "/api/continue", "Continue"
	}
	fmt.Fprintf(w, `<form method="post" action="%s">Simulation %s. <button>%s</button></form>`, action, state, label)
	for _, run := range s.Runs {
		name := run.Name
		if name == "" {
			name = "frame"
		}
		status := ""
		if run.Finished {
			status = ", finished"
		}
		fmt.Fprintf(w, "<h2>%s</h2><p><progress max=\"%d\" value=\"%d\"></progress> %d of %d draws, cycle %d%s</p>",
			html.EscapeString(name), max(1, run.Draws), run.Done, run.Done, run.Draws, run.Cycle, status)
		if len(run.Buffers) > 0 {
			fmt.Fprint(w, "<table><tr><th>buffer</th><th>holds</th><th>of</th></tr>")
			for _, b := range run.Buffers {
				capacity := "unbounded"
				if b.Cap > 0 {
					capacity = fmt.Sprint(b.Cap)
				}
				fmt.Fprintf(w, "<tr><td>%s</td><td>%d</td><td>%s</td></tr>", html.EscapeString(b.Name), b.Len, capacity)
			}
			fmt.Fprint(w, "</table>")
		}
	}
	fmt.Fprint(w, `<p>JSON: <a href="/api/progress">/api/progress</a>; POST /api/pause, /api/continue.</p></body></html>`)
}
