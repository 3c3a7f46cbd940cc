package main

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Expectation is one entry of a lab.yaml's expect list: a relation between numbers the lab's
// commands output, which must hold for the lab to teach what its README asks.
//
//	expect:
//	  - that: oracle:GPU.HiZ[0].culling_rate >= zmask:GPU.HiZ[0].culling_rate
//	    why: ORACLE is the bound for culling by depth alone
//	    at: full          # small, full or both (the default)
type Expectation struct {
	That string // the relation as written
	Why  string // the teaching point it encodes
	At   string // "small", "full" or "both"
	Line int    // line of the entry in lab.yaml

	rel  Relation
	node *yaml.Node
}

// UnmarshalYAML keeps the entry's node; Lab.parseExpectations reads it, so that its errors
// can name the entry's index, line and field.
func (e *Expectation) UnmarshalYAML(n *yaml.Node) error {
	e.node = n
	return nil
}

// parseExpectations reads and checks every entry of the lab's expect list against its
// commands: each reference must name a command of the lab and, at every setting the entry
// applies to, a statistic, CSV file and columns that command declares in its outputs.
func (l *Lab) parseExpectations() error {
	for i := range l.Expect {
		e := &l.Expect[i]
		if e.node == nil { // built in Go, not read from lab.yaml
			continue
		}
		n := e.node
		e.Line = n.Line
		field := fmt.Sprintf("expect[%d]", i)
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: %s: want a mapping with that, why and at", n.Line, field)
		}
		lines := map[string]int{}
		for j := 0; j+1 < len(n.Content); j += 2 {
			k, v := n.Content[j], n.Content[j+1]
			name := k.Value
			if lines[name] != 0 {
				return fmt.Errorf("line %d: %s.%s: given twice", k.Line, field, name)
			}
			lines[name] = v.Line
			if name != "that" && name != "why" && name != "at" {
				return fmt.Errorf("line %d: %s: unknown field %q (that, why, at)", k.Line, field, name)
			}
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				return fmt.Errorf("line %d: %s.%s: want a string", v.Line, field, name)
			}
			switch name {
			case "that":
				e.That = v.Value
			case "why":
				e.Why = strings.TrimSpace(v.Value)
			case "at":
				e.At = v.Value
			}
		}
		switch {
		case e.That == "":
			return fmt.Errorf("line %d: %s.that: missing (the relation to check)", n.Line, field)
		case e.Why == "":
			return fmt.Errorf("line %d: %s.why: missing (the teaching point the relation checks)", n.Line, field)
		case e.At == "":
			e.At = "both"
		case e.At != "small" && e.At != "full" && e.At != "both":
			return fmt.Errorf("line %d: %s.at: %q: want small, full or both", lines["at"], field, e.At)
		}
		rel, err := ParseRelation(e.That)
		if err != nil {
			return fmt.Errorf("line %d: %s.that: %w", lines["that"], field, err)
		}
		refs := rel.Refs()
		if len(refs) == 0 {
			return fmt.Errorf("line %d: %s.that: reads no output of a command, so it cannot fail", lines["that"], field)
		}
		for _, r := range refs {
			if err := l.checkRef(r, *e); err != nil {
				return fmt.Errorf("line %d: %s.that: %s: %w", lines["that"], field, r.Text, err)
			}
		}
		e.rel = rel
	}
	return nil
}

// checkRef checks that a reference names a command of the lab and outputs it declares.
func (l *Lab) checkRef(r *Ref, e Expectation) error {
	var c *Command
	var names []string
	for i := range l.Commands {
		names = append(names, l.Commands[i].Name)
		if l.Commands[i].Name == r.Command {
			c = &l.Commands[i]
		}
	}
	if c == nil {
		return fmt.Errorf("no command %q in this lab (%s)", r.Command, strings.Join(names, ", "))
	}
	wild := strings.Contains(r.Key, "*")
	switch {
	case !r.IsCSV() && wild && r.Agg == "":
		return fmt.Errorf("%s names a statistic per unit; wrap it in sum, min, max or mean", r.Key)
	case !r.IsCSV() && !wild && r.Agg != "":
		return fmt.Errorf("%s() of one statistic; write * for the unit index, or drop %s()", r.Agg, r.Agg)
	}
	for _, full := range []bool{false, true} {
		if !e.Applies(full) {
			continue
		}
		setting := "small"
		if full {
			setting = "full"
		}
		want := c.Want(full)
		if r.IsCSV() {
			declared := map[string]bool{}
			found := false
			for _, check := range want.CSV {
				if check.File == r.File {
					found = true
					for _, col := range check.Columns {
						declared[col] = true
					}
				}
			}
			if !found {
				return fmt.Errorf("command %s declares no %s at its %s settings (outputs.csv; a study writes its CSV files only at full settings: add at: full)", c.Name, r.File, setting)
			}
			for _, col := range append(r.columns(), r.Column) {
				if !declared[col] {
					return fmt.Errorf("column %q is not among the columns command %s declares for %s", col, c.Name, r.File)
				}
			}
			continue
		}
		var keys []string
		for _, check := range want.Stats {
			if check.File == StatsFile {
				keys = append(keys, check.Keys...)
			}
		}
		if len(keys) == 0 {
			return fmt.Errorf("command %s declares no %s at its %s settings (outputs.stats)", c.Name, StatsFile, setting)
		}
		if wild {
			re := r.Pattern()
			if !slices.ContainsFunc(keys, re.MatchString) {
				return fmt.Errorf("%s matches none of the statistics command %s declares for %s (outputs.stats)", r.Key, c.Name, StatsFile)
			}
		} else if !slices.Contains(keys, r.Key) {
			return fmt.Errorf("%s is not among the statistics command %s declares for %s (outputs.stats)", r.Key, c.Name, StatsFile)
		}
	}
	return nil
}

// Applies tells whether the expectation is checked at the small or full settings.
func (e Expectation) Applies(full bool) bool {
	switch e.At {
	case "small":
		return !full
	case "full":
		return full
	}
	return true
}

// Relation is a parsed relation: two expressions and a comparison.
type Relation struct {
	Left, Right Expr
	Op          string // <, <=, >, >=, ==
}

// Expr is an arithmetic expression over numbers and references to outputs.
type Expr interface {
	fmt.Stringer
	// eval computes the value; it appends the values of the references it read to seen.
	eval(src source, seen *[]string) (float64, error)
	refs() []*Ref
}

// Ref names numbers in one command's outputs: a statistic of its stats.json (Key), or a
// column of the rows of one of its CSV files that match Where.
type Ref struct {
	Text    string // as written
	Command string
	File    string // stats.json, or a CSV file
	Key     string // statistic; "*" stands for a unit index (one or more digits)
	Where   []Cond // CSV: conditions on the row
	Column  string // CSV: the column read
	Agg     string // "", sum, min, max or mean
}

// Cond selects CSV rows whose Column holds exactly Value.
type Cond struct{ Column, Value string }

// StatsFile is the file a reference without a CSV file reads.
const StatsFile = "stats.json"

// Pattern is the regular expression a statistic key with "*" stands for.
func (r *Ref) Pattern() *regexp.Regexp {
	parts := strings.Split(r.Key, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "[0-9]+") + "$")
}

// IsCSV tells whether the reference reads a CSV file.
func (r *Ref) IsCSV() bool { return r.File != StatsFile }

type number float64

type binary struct {
	op   byte
	l, r Expr
}

type negate struct{ x Expr }

type refExpr struct{ r *Ref }

func (n number) refs() []*Ref  { return nil }
func (b binary) refs() []*Ref  { return append(b.l.refs(), b.r.refs()...) }
func (n negate) refs() []*Ref  { return n.x.refs() }
func (e refExpr) refs() []*Ref { return []*Ref{e.r} }

// String gives the relation fully parenthesized, with every reference in its canonical form:
// what the parser understood.
func (r Relation) String() string {
	if r.Left == nil || r.Right == nil {
		return ""
	}
	return fmt.Sprintf("%s %s %s", r.Left, r.Op, r.Right)
}

func (n number) String() string  { return strconv.FormatFloat(float64(n), 'g', -1, 64) }
func (b binary) String() string  { return fmt.Sprintf("(%s %c %s)", b.l, b.op, b.r) }
func (n negate) String() string  { return fmt.Sprintf("(-%s)", n.x) }
func (e refExpr) String() string { return e.r.String() }

// String gives the reference in its canonical form.
func (r *Ref) String() string {
	var s string
	if r.IsCSV() {
		conds := make([]string, len(r.Where))
		for i, c := range r.Where {
			conds[i] = quoteName(c.Column) + "=" + quoteName(c.Value)
		}
		s = fmt.Sprintf("%s:%s[%s].%s", r.Command, r.File, strings.Join(conds, ", "), quoteName(r.Column))
	} else {
		s = r.Command + ":" + r.Key
	}
	if r.Agg != "" {
		s = r.Agg + "(" + s + ")"
	}
	return s
}

var bareName = regexp.MustCompile(`^[A-Za-z0-9_.+%/-]+$`)

// quoteName writes a CSV column or value bare when the parser reads it so, else as a Go string.
func quoteName(s string) string {
	if bareName.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// Refs returns every reference of the relation, left to right.
func (r Relation) Refs() []*Ref {
	if r.Left == nil || r.Right == nil {
		return nil
	}
	return append(r.Left.refs(), r.Right.refs()...)
}

var (
	aggregates  = map[string]bool{"sum": true, "min": true, "max": true, "mean": true}
	numberRegex = regexp.MustCompile(`^([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$`)
)

// ParseRelation parses the text of an expectation's that field:
//
//	relation = expr OP expr                       OP: < <= > >= ==
//	expr     = term { ("+" | "-") term }
//	term     = unary { ("*" | "/") unary }
//	unary    = "-" unary | NUMBER | ref | AGG "(" ref ")" | "(" expr ")"
//	AGG      = sum | min | max | mean
//	ref      = COMMAND ":" KEY                     a statistic of the command's stats.json
//	         | COMMAND ":" FILE.csv "[" [ COLUMN "=" VALUE { "," COLUMN "=" VALUE } ] "]" "." COLUMN
//
// A statistic key may hold "*" for a unit index (GPU.ShaderCore[*].vs_invocations); such a
// key, and a CSV reference matching several rows, must be inside an aggregate. A CSV column
// or value that holds anything but letters, digits and _.+%/- is written as a Go string
// ("passes per pin"). Command names hold dashes, so put spaces around a binary minus.
func ParseRelation(s string) (Relation, error) {
	p := &parser{s: s}
	left, err := p.expr()
	if err != nil {
		return Relation{}, err
	}
	p.space()
	op := p.comparison()
	if op == "" {
		return Relation{}, p.errorf("want a comparison (<, <=, >, >=, ==), found %s", p.found())
	}
	right, err := p.expr()
	if err != nil {
		return Relation{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return Relation{}, p.errorf("unexpected %s after the relation", p.found())
	}
	return Relation{Left: left, Right: right, Op: op}, nil
}

type parser struct {
	s string
	i int
}

// errorf reports an error at the current character (counted from 1).
func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("character %d: %s", p.i+1, fmt.Sprintf(format, args...))
}

// found describes what is at the current position, for errors.
func (p *parser) found() string {
	if p.i >= len(p.s) {
		return "the end"
	}
	rest := p.s[p.i:]
	if len(rest) > 12 {
		rest = rest[:12] + "..."
	}
	return strconv.Quote(rest)
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) comparison() string {
	for _, op := range []string{"<=", ">=", "==", "<", ">"} {
		if strings.HasPrefix(p.s[p.i:], op) {
			p.i += len(op)
			return op
		}
	}
	return ""
}

func (p *parser) expr() (Expr, error) { return p.chain("+-", p.term) }

func (p *parser) term() (Expr, error) { return p.chain("*/", p.unary) }

// chain parses operands (next) joined by the left-associative operators ops.
func (p *parser) chain(ops string, next func() (Expr, error)) (Expr, error) {
	x, err := next()
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		op := p.peek()
		if op == 0 || !strings.ContainsRune(ops, rune(op)) {
			return x, nil
		}
		p.i++
		y, err := next()
		if err != nil {
			return nil, err
		}
		x = binary{op: op, l: x, r: y}
	}
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// exponent tells whether a word read so far is a number up to its exponent's "e", so that a
// "+" continues it (1e+09).
func exponent(word string) bool {
	return len(word) > 1 && (word[0] >= '0' && word[0] <= '9' || word[0] == '.') && (word[len(word)-1] == 'e' || word[len(word)-1] == 'E')
}

func (p *parser) unary() (Expr, error) {
	p.space()
	switch c := p.peek(); {
	case c == '-':
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return negate{x}, nil
	case c == '(':
		p.i++
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.peek() != ')' {
			return nil, p.errorf("want ), found %s", p.found())
		}
		p.i++
		return x, nil
	case !isWord(c):
		return nil, p.errorf("want a number, a reference or (, found %s", p.found())
	}
	start := p.i
	for p.i < len(p.s) && (isWord(p.s[p.i]) || p.s[p.i] == '+' && exponent(p.s[start:p.i])) {
		p.i++
	}
	word := p.s[start:p.i]
	switch p.peek() {
	case ':':
		r, err := p.ref(start, word)
		if err != nil {
			return nil, err
		}
		return refExpr{r}, nil
	case '(':
		if !aggregates[word] {
			return nil, fmt.Errorf("character %d: %q is not an aggregate (sum, min, max, mean)", start+1, word)
		}
		p.i++
		p.space()
		inner := p.i
		for p.i < len(p.s) && isWord(p.s[p.i]) {
			p.i++
		}
		if p.peek() != ':' {
			p.i = inner
			return nil, p.errorf("want a reference COMMAND:... inside %s(), found %s", word, p.found())
		}
		r, err := p.ref(inner, p.s[inner:p.i])
		if err != nil {
			return nil, err
		}
		p.space()
		if p.peek() != ')' {
			return nil, p.errorf("want ) closing %s(, found %s", word, p.found())
		}
		p.i++
		r.Agg = word
		r.Text = p.s[start:p.i]
		return refExpr{r}, nil
	}
	if !numberRegex.MatchString(word) {
		return nil, fmt.Errorf("character %d: %q is neither a number nor a reference COMMAND:... (put spaces around a minus)", start+1, word)
	}
	v, err := strconv.ParseFloat(word, 64)
	if err != nil {
		return nil, fmt.Errorf("character %d: %q: %v", start+1, word, err)
	}
	return number(v), nil
}

// ref parses what follows "COMMAND" (already read, starting at start) and its colon.
func (p *parser) ref(start int, command string) (*Ref, error) {
	if !commandPattern.MatchString(command) {
		return nil, fmt.Errorf("character %d: %q is not a command name (lower-case words and dashes)", start+1, command)
	}
	p.i++ // the colon
	p.space()
	r := &Ref{Command: command, File: StatsFile}
	head := p.i
	for p.i < len(p.s) && (isWord(p.s[p.i]) && p.s[p.i] != '-' || p.s[p.i] == '*') {
		p.i++
	}
	name := p.s[head:p.i]
	if strings.HasSuffix(name, ".csv") {
		r.File = name
		if err := p.csvSelector(r); err != nil {
			return nil, err
		}
	} else {
		for p.peek() == '[' {
			open := p.i
			p.i++
			for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '*') {
				p.i++
			}
			if p.peek() != ']' || p.i == open+1 {
				p.i = open
				return nil, p.errorf("want a unit index [N] or [*] in the statistic, found %s", p.found())
			}
			p.i++
			for p.i < len(p.s) && (isWord(p.s[p.i]) && p.s[p.i] != '-' || p.s[p.i] == '*') {
				p.i++
			}
		}
		r.Key = p.s[head:p.i]
		if r.Key == "" {
			return nil, p.errorf("want a statistic or FILE.csv[...].COLUMN after %q, found %s", command+":", p.found())
		}
		if strings.HasPrefix(r.Key, ".") || strings.HasSuffix(r.Key, ".") || strings.Contains(r.Key, "..") {
			return nil, fmt.Errorf("character %d: %q is not a statistic (dot-separated names)", head+1, r.Key)
		}
	}
	r.Text = p.s[start:p.i]
	return r, nil
}

// csvSelector parses "[COLUMN=VALUE, ...].COLUMN" after a CSV file name.
func (p *parser) csvSelector(r *Ref) error {
	if p.peek() != '[' {
		return p.errorf("want [ after %s (FILE.csv[COLUMN=VALUE, ...].COLUMN), found %s", r.File, p.found())
	}
	p.i++
	p.space()
	for p.peek() != ']' {
		if len(r.Where) > 0 {
			if p.peek() != ',' {
				return p.errorf("want , or ] in the row selector, found %s", p.found())
			}
			p.i++
			p.space()
		}
		col, err := p.name("a column")
		if err != nil {
			return err
		}
		p.space()
		if p.peek() != '=' {
			return p.errorf("want = after the column %q, found %s", col, p.found())
		}
		p.i++
		p.space()
		val, err := p.name("a value")
		if err != nil {
			return err
		}
		p.space()
		r.Where = append(r.Where, Cond{Column: col, Value: val})
	}
	p.i++
	if p.peek() != '.' {
		return p.errorf("want .COLUMN after the row selector, found %s", p.found())
	}
	p.i++
	col, err := p.name("a column")
	if err != nil {
		return err
	}
	r.Column = col
	return nil
}

// name reads a bare name (letters, digits, _.+%/-) or a Go string.
func (p *parser) name(what string) (string, error) {
	if p.peek() == '"' {
		q, err := strconv.QuotedPrefix(p.s[p.i:])
		if err != nil {
			return "", p.errorf("want %s, found an unterminated string %s", what, p.found())
		}
		s, _ := strconv.Unquote(q)
		if s == "" {
			return "", p.errorf("want %s, found an empty string", what)
		}
		p.i += len(q)
		return s, nil
	}
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !isWord(c) && c != '+' && c != '%' && c != '/' {
			break
		}
		p.i++
	}
	if p.i == start {
		return "", p.errorf("want %s, found %s", what, p.found())
	}
	return p.s[start:p.i], nil
}

// source reads the outputs of a lab's commands.
type source interface {
	stats(command string) (map[string]any, error)
	csv(command, file string) ([][]string, error)
}

// folder reads the outputs under dir/<command>/, each file once.
type folder struct {
	dir   string
	cache map[string]any // path: map[string]any or [][]string
}

func newFolder(dir string) *folder { return &folder{dir: dir, cache: map[string]any{}} }

func (f *folder) stats(command string) (map[string]any, error) {
	path := filepath.Join(f.dir, command, StatsFile)
	if v, ok := f.cache[path]; ok {
		return v.(map[string]any), nil
	}
	stats, err := readStats(filepath.Join(f.dir, command), StatsFile)
	if err != nil {
		return nil, err
	}
	f.cache[path] = stats
	return stats, nil
}

func (f *folder) csv(command, file string) ([][]string, error) {
	path := filepath.Join(f.dir, command, file)
	if v, ok := f.cache[path]; ok {
		return v.([][]string), nil
	}
	records, err := readCSV(filepath.Join(f.dir, command), file)
	if err != nil {
		return nil, err
	}
	f.cache[path] = records
	return records, nil
}

// values returns the numbers a reference names: one per matching statistic or CSV row.
func (r *Ref) values(src source) ([]float64, error) {
	if r.IsCSV() {
		return r.csvValues(src)
	}
	stats, err := src.stats(r.Command)
	if err != nil {
		return nil, err
	}
	var keys []string
	if strings.Contains(r.Key, "*") {
		re := r.Pattern()
		for k := range stats {
			if re.MatchString(k) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return nil, fmt.Errorf("%s: no statistic matches %s", StatsFile, r.Key)
		}
		sort.Strings(keys)
	} else {
		if _, ok := stats[r.Key]; !ok {
			return nil, fmt.Errorf("%s: missing statistic %s", StatsFile, r.Key)
		}
		keys = []string{r.Key}
	}
	vals := make([]float64, len(keys))
	for i, k := range keys {
		f, ok := stats[k].(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: statistic %s is %v, not a finite number", StatsFile, k, stats[k])
		}
		vals[i] = f
	}
	return vals, nil
}

func (r *Ref) csvValues(src source) ([]float64, error) {
	records, err := src.csv(r.Command, r.File)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, h := range records[0] {
		index[h] = i
	}
	for _, col := range append(r.columns(), r.Column) {
		if _, ok := index[col]; !ok {
			return nil, fmt.Errorf("%s: missing column %q", r.File, col)
		}
	}
	var vals []float64
rows:
	for n, row := range records[1:] {
		for _, c := range r.Where {
			if row[index[c.Column]] != c.Value {
				continue rows
			}
		}
		cell := row[index[r.Column]]
		f, err := parseCell(cell)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: row %d, column %q is %q, not a finite number", r.File, n+2, r.Column, cell)
		}
		vals = append(vals, f)
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("%s: no row matches %s", r.File, r.where())
	}
	return vals, nil
}

// parseCell reads a CSV cell as a number; a percentage ("2.08%") reads as a fraction (0.0208).
func parseCell(cell string) (float64, error) {
	cell = strings.TrimSpace(cell)
	if p, ok := strings.CutSuffix(cell, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		return f / 100, err
	}
	return strconv.ParseFloat(cell, 64)
}

// columns are the CSV columns the row selector reads.
func (r *Ref) columns() []string {
	cols := make([]string, len(r.Where))
	for i, c := range r.Where {
		cols[i] = c.Column
	}
	return cols
}

func (r *Ref) where() string {
	if len(r.Where) == 0 {
		return "[] (every row)"
	}
	parts := make([]string, len(r.Where))
	for i, c := range r.Where {
		parts[i] = fmt.Sprintf("%s=%s", c.Column, c.Value)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (n number) eval(source, *[]string) (float64, error) { return float64(n), nil }

func (n negate) eval(src source, seen *[]string) (float64, error) {
	v, err := n.x.eval(src, seen)
	return -v, err
}

func (b binary) eval(src source, seen *[]string) (float64, error) {
	l, err := b.l.eval(src, seen)
	if err != nil {
		return 0, err
	}
	r, err := b.r.eval(src, seen)
	if err != nil {
		return 0, err
	}
	switch b.op {
	case '+':
		return l + r, nil
	case '-':
		return l - r, nil
	case '*':
		return l * r, nil
	}
	if r == 0 {
		return 0, fmt.Errorf("division by zero")
	}
	return l / r, nil
}

func (e refExpr) eval(src source, seen *[]string) (float64, error) {
	r := e.r
	vals, err := r.values(src)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", r.Text, err)
	}
	var v float64
	switch r.Agg {
	case "":
		if len(vals) != 1 {
			return 0, fmt.Errorf("%s: %d rows match; select one, or use sum, min, max or mean", r.Text, len(vals))
		}
		v = vals[0]
	case "sum", "mean":
		for _, x := range vals {
			v += x
		}
		if r.Agg == "mean" {
			v /= float64(len(vals))
		}
	case "min":
		v = slices.Min(vals)
	case "max":
		v = slices.Max(vals)
	}
	*seen = append(*seen, fmt.Sprintf("%s = %s", r.Text, formatValue(v)))
	return v, nil
}

func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// holds compares two values.
func holds(l float64, op string, r float64) bool {
	switch op {
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	return l == r
}

// Outcome is an evaluated relation.
type Outcome struct {
	Left, Right float64
	Holds       bool
	Values      []string // "REF = VALUE" for every reference read, left to right
	rel         Relation
}

// String gives both sides' values ("0.61 >= 0.52"), followed by the references' values
// when a side is more than a single reference or number.
func (o Outcome) String() string {
	ls, rs := formatValue(o.Left), formatValue(o.Right)
	if ls == rs && o.Left != o.Right {
		ls, rs = strconv.FormatFloat(o.Left, 'g', -1, 64), strconv.FormatFloat(o.Right, 'g', -1, 64)
	}
	s := fmt.Sprintf("%s %s %s", ls, o.rel.Op, rs)
	if !simple(o.rel.Left) || !simple(o.rel.Right) {
		s += " (" + strings.Join(o.Values, ", ") + ")"
	}
	return s
}

// Evaluate computes both sides of the relation on the outputs of src.
func (r Relation) Evaluate(src source) (Outcome, error) {
	o := Outcome{rel: r}
	var err error
	if o.Left, err = r.Left.eval(src, &o.Values); err != nil {
		return o, err
	}
	if o.Right, err = r.Right.eval(src, &o.Values); err != nil {
		return o, err
	}
	o.Holds = holds(o.Left, r.Op, o.Right)
	return o, nil
}

// simple tells whether an expression is a single number or reference, whose value needs no
// more explanation than itself.
func simple(e Expr) bool {
	switch e.(type) {
	case number, refExpr:
		return true
	}
	return false
}
