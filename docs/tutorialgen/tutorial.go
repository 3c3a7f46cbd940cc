package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A document is docs/tutorial.md cut into lines, with the positions of its commands
// and directives.
type document struct {
	lines    []string
	commands []command
	excerpts []excerpt
	shots    []shot
}

// A command is one `go run PKG ARGS...` line of a fenced sh block.
type command struct {
	line int // index in document.lines
	pkg  string
	args []string
}

// An excerpt is a fenced text block that the generator fills: with the lines of a
// command's output (stdout and stderr) that match a regular expression (<!-- output: RE -->:
// the closest command above it; <!-- output of ARG: RE -->: the closest above with
// the argument ARG, such as its output folder), or with the counters of a
// stats.json whose names match one (<!-- stats: FILE RE -->).
type excerpt struct {
	directive  int // index of the directive line
	start, end int // the block's content is lines[start:end]
	cmd        int // index in document.commands (output excerpts)
	stats      string
	re         *regexp.Regexp
}

// A shot is a Daisen screenshot: <!-- daisen: FILE.png TRACE VIEW [window=START:END] -->
// with VIEW component=NAME, task=ID or dashboard=FILTER and the window in core
// cycles.
type shot struct {
	line        int
	file, trace string
	view, arg   string
	window      [2]uint64 // core cycles; zero: the whole run
}

var (
	outputRe = regexp.MustCompile(`^<!-- output(?: of (\S+))?: (.+) -->$`)
	statsRe  = regexp.MustCompile(`^<!-- stats: (\S+) (.+) -->$`)
	daisenRe = regexp.MustCompile(`^<!-- daisen: (\S+\.png) (\S+) (component|task|dashboard)=(\S+)(?: window=(\d+):(\d+))? -->$`)
)

// parse reads the tutorial's text.
func parse(text string) (*document, error) {
	d := &document{lines: strings.Split(text, "\n")}
	for i := 0; i < len(d.lines); i++ {
		l := d.lines[i]
		switch {
		case l == "```sh":
			for i++; i < len(d.lines) && d.lines[i] != "```"; i++ {
				if c, ok, err := parseCommand(d.lines[i]); err != nil {
					return nil, fmt.Errorf("line %d: %v", i+1, err)
				} else if ok {
					c.line = i
					d.commands = append(d.commands, c)
				}
			}
		case outputRe.MatchString(l), statsRe.MatchString(l):
			e, err := d.parseExcerpt(i)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			d.excerpts = append(d.excerpts, e)
			i = e.end
		case strings.HasPrefix(l, "<!-- daisen:"):
			s, err := parseShot(l)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			s.line = i
			d.shots = append(d.shots, s)
		}
	}
	return d, nil
}

func parseCommand(l string) (command, bool, error) {
	if !strings.HasPrefix(l, "go run ") {
		return command{}, false, nil
	}
	words, err := splitWords(strings.TrimPrefix(l, "go run "))
	if err != nil {
		return command{}, false, err
	}
	if len(words) == 0 || !strings.HasPrefix(words[0], "./") {
		return command{}, false, fmt.Errorf("%q: want go run ./PACKAGE ...", l)
	}
	return command{pkg: words[0], args: words[1:]}, true, nil
}

// splitWords splits a command line at blanks, honouring single quotes.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
			}
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("%q: unterminated quote", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

func (d *document) parseExcerpt(i int) (excerpt, error) {
	e := excerpt{directive: i, cmd: len(d.commands) - 1}
	expr := ""
	if m := outputRe.FindStringSubmatch(d.lines[i]); m != nil {
		if m[1] != "" {
			e.cmd = d.lastWithArg(m[1])
		}
		if e.cmd < 0 {
			return e, fmt.Errorf("an output excerpt before any command (of %q)", m[1])
		}
		expr = m[2]
	} else {
		m := statsRe.FindStringSubmatch(d.lines[i])
		e.stats, expr = m[1], m[2]
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return e, err
	}
	e.re = re
	if i+1 >= len(d.lines) || d.lines[i+1] != "```text" {
		return e, fmt.Errorf("the directive must be followed by a ```text block")
	}
	e.start = i + 2
	for e.end = e.start; e.end < len(d.lines) && d.lines[e.end] != "```"; e.end++ {
	}
	if e.end == len(d.lines) {
		return e, fmt.Errorf("unterminated ```text block")
	}
	return e, nil
}

// lastWithArg returns the index of the last command so far that has the argument
// arg (its output folder), or -1.
func (d *document) lastWithArg(arg string) int {
	for i := len(d.commands) - 1; i >= 0; i-- {
		for _, a := range d.commands[i].args {
			if a == arg {
				return i
			}
		}
	}
	return -1
}

func parseShot(l string) (shot, error) {
	m := daisenRe.FindStringSubmatch(l)
	if m == nil {
		return shot{}, fmt.Errorf("%q: want <!-- daisen: FILE.png TRACE component=NAME|task=ID|dashboard=FILTER [window=START:END] -->", l)
	}
	s := shot{file: m[1], trace: m[2], view: m[3], arg: m[4]}
	if m[5] != "" {
		s.window[0], _ = strconv.ParseUint(m[5], 10, 64)
		s.window[1], _ = strconv.ParseUint(m[6], 10, 64)
		if s.window[1] <= s.window[0] {
			return s, fmt.Errorf("%q: the window must end after it starts", l)
		}
	}
	return s, nil
}

// A runner runs the tutorial's commands from the repository root, with every
// argument and file under out/ moved to outRoot (the root itself for the
// generator, a temporary folder for the test), and each package built once into
// binDir.
type runner struct {
	root, outRoot, binDir string
	bins                  map[string]string
}

func (r *runner) path(p string) string {
	if strings.HasPrefix(p, "out/") {
		return filepath.Join(r.outRoot, p)
	}
	return filepath.Join(r.root, p)
}

// moved says whether out/ is moved away from the root.
func (r *runner) moved() bool { return r.outRoot != r.root }

// run builds c's package if needed, runs it and returns what it printed (standard
// output and error).
func (r *runner) run(c command) ([]byte, error) {
	bin, ok := r.bins[c.pkg]
	if !ok {
		bin = filepath.Join(r.binDir, filepath.Base(c.pkg))
		build := exec.Command("go", "build", "-o", bin, c.pkg)
		build.Dir = r.root
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build %s: %v\n%s", c.pkg, err, out)
		}
		r.bins[c.pkg] = bin
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = a
		if r.moved() && strings.HasPrefix(a, "out/") {
			args[i] = r.path(a)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = r.root
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go run %s %s: %v\n%s", c.pkg, strings.Join(c.args, " "), err, output.Bytes())
	}
	out := output.Bytes()
	if r.moved() {
		// The output names the moved folders as the tutorial does.
		out = bytes.ReplaceAll(out, []byte(r.outRoot+string(filepath.Separator)), nil)
	}
	return out, nil
}

// runAll runs every command in order and returns each one's output.
func (r *runner) runAll(d *document, log func(string)) ([][]byte, error) {
	outs := make([][]byte, len(d.commands))
	for i, c := range d.commands {
		log(d.lines[c.line])
		out, err := r.run(c)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", c.line+1, err)
		}
		outs[i] = out
	}
	return outs, nil
}

// fill returns the lines excerpt e quotes, from the commands' outputs.
func (r *runner) fill(e excerpt, outs [][]byte) ([]string, error) {
	var got []string
	if e.stats == "" {
		for _, l := range strings.Split(string(outs[e.cmd]), "\n") {
			if e.re.MatchString(l) {
				got = append(got, strings.TrimRight(l, " "))
			}
		}
	} else {
		stats, err := readStats(r.path(e.stats))
		if err != nil {
			return nil, err
		}
		var names []string
		width := 0
		for k := range stats {
			if e.re.MatchString(k) {
				names = append(names, k)
				width = max(width, len(k))
			}
		}
		sort.Strings(names)
		for _, k := range names {
			got = append(got, fmt.Sprintf("%-*s  %s", width, k, strconv.FormatFloat(stats[k], 'g', 6, 64)))
		}
	}
	if len(got) == 0 {
		return nil, fmt.Errorf("line %d: the excerpt %q quotes nothing", e.directive+1, e.re)
	}
	return got, nil
}

func readStats(file string) (map[string]float64, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var stats map[string]float64
	if err := json.Unmarshal(b, &stats); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return stats, nil
}

// update returns the document's text with every excerpt filled from outs.
func (r *runner) update(d *document, outs [][]byte) (string, error) {
	var b strings.Builder
	next := 0
	for _, e := range d.excerpts {
		got, err := r.fill(e, outs)
		if err != nil {
			return "", err
		}
		for _, l := range d.lines[next:e.start] {
			b.WriteString(l + "\n")
		}
		for _, l := range got {
			b.WriteString(l + "\n")
		}
		next = e.end
	}
	b.WriteString(strings.Join(d.lines[next:], "\n"))
	return b.String(), nil
}

// number matches a decimal number that is not an index in brackets.
var number = regexp.MustCompile(`-?\d+(\.\d+)?(e[-+]\d+)?`)

// stable is the part of an excerpt line that must not change when the model's
// timing does: the line with every number (but an index like [2]) replaced by #
// and its blanks collapsed. Names of units, counters, stall causes and the
// table's shape remain.
func stable(l string) string {
	var b strings.Builder
	last := 0
	for _, m := range number.FindAllStringIndex(l, -1) {
		if m[0] > 0 && l[m[0]-1] == '[' {
			continue
		}
		b.WriteString(l[last:m[0]])
		b.WriteString("#")
		last = m[1]
	}
	b.WriteString(l[last:])
	return strings.Join(strings.Fields(b.String()), " ")
}
