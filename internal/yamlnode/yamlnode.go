// Package yamlnode reads YAML documents as yaml.v3 nodes for the loaders that
// report errors by file, line and field (scene files, machine
// configurations). It holds the one Error type they share and the one parse
// step that gives every YAML syntax error the line it is on: yaml.v3 says
// "line N" for most of them but not for bytes that are not UTF-8, control
// characters or an unknown anchor, which Parse locates itself. A file with
// more than one document is refused, since only the first would be read.
// Join builds the field paths ("raster.tile_size") errors name.
package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Error is an error in a YAML file: the file, the line of the offending node
// (0: not known), the dotted path of the field ("raster.tile_size",
// "objects[3].material"; empty: the whole file) and the message.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error formats e as "file:line: field: message", leaving out what is unknown.
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Field != "":
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.Field != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// HugeInt reports whether scalar n is a decimal integer too large for 64
// bits, which YAML resolves as a float ("!!float"): a sign, then digits and
// _ separators only. Loaders report it as out of range, not as "not an
// integer".
func HugeInt(n *yaml.Node) bool {
	v := strings.TrimLeft(n.Value, "+-")
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && v != "" && strings.Trim(v, "0123456789_") == ""
}

// LeadingZero reports whether scalar n is a plain integer written with a
// leading zero ("010"), which YAML reads as octal (8): loaders refuse it,
// since "010 rasterizers" meant ten.
func LeadingZero(n *yaml.Node) bool {
	v := strings.ReplaceAll(strings.TrimLeft(n.Value, "+-"), "_", "")
	return n.Kind == yaml.ScalarNode && n.Style == 0 && len(v) > 1 && v[0] == '0' && v[1] >= '0' && v[1] <= '9'
}

// HugeFloat reports whether scalar n is a plain (unquoted) number too large
// for 64 bits ("1e400"), which YAML resolves as a string. Loaders report it
// as out of range, not as "not a number".
func HugeFloat(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Style != 0 || n.ShortTag() != "!!str" {
		return false
	}
	_, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	return errors.Is(err, strconv.ErrRange)
}

// At returns the Error of field at node n (nil: line unknown) of file.
func At(file string, n *yaml.Node, field, format string, a ...any) *Error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, a...)}
}

var (
	lineRE   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	anchorRE = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)
)

// Parse parses data (named file in errors) and returns the root node of its
// document, or nil for an empty file. Syntax errors, a panic inside the YAML
// library and a second document become *Errors with the line where known.
func Parse(file string, data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{File: file, Msg: fmt.Sprintf("yaml: malformed document (%v)", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err == io.EOF {
		return nil, nil
	} else if err != nil {
		return nil, syntaxError(file, data, err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		return nil, syntaxError(file, data, err)
	default:
		return nil, &Error{File: file, Line: documentLine(&next), Msg: "yaml: a second document (after ---) would not be read: keep one document per file"}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// documentLine is the line a document starts on: its "---" is the line
// before its first node.
func documentLine(doc *yaml.Node) int {
	if len(doc.Content) > 0 && doc.Content[0].Line > 1 {
		return doc.Content[0].Line - 1
	}
	return doc.Line
}

// syntaxError turns a yaml.v3 error into an Error with the line it names, or
// the line of the byte or anchor it is about.
func syntaxError(file string, data []byte, err error) *Error {
	msg := err.Error()
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			// yaml.v3 numbers a parser error's line from 0; one found at the
			// end of the file is on its last line.
			line = min(line+1, lastLine(data))
		}
		if strings.Contains(m[2], "tab character") {
			line = lineOfTab(data, line)
		}
		return &Error{File: file, Line: line, Msg: "yaml: " + m[2]}
	}
	if m := anchorRE.FindStringSubmatch(msg); m != nil {
		return &Error{File: file, Line: lineOfAlias(data, m[1]), Msg: msg}
	}
	if strings.HasPrefix(msg, "yaml: invalid ") || strings.HasPrefix(msg, "yaml: control characters") ||
		strings.Contains(msg, "UTF-8") || strings.Contains(msg, "UTF-16") || strings.Contains(msg, "surrogate") {
		return &Error{File: file, Line: lineOfBadByte(data), Msg: msg}
	}
	if strings.HasPrefix(msg, "yaml: ") {
		// yaml.v3 leaves out "line N" when the error's marks are on the
		// first line (line index 0): a syntax error there is on line 1.
		line := 1
		if strings.Contains(msg, "tab character") {
			line = lineOfTab(data, 1)
		}
		return &Error{File: file, Line: line, Msg: msg}
	}
	return &Error{File: file, Msg: msg}
}

// parserProblems are the problems yaml.v3's parser (not its scanner)
// reports. Their "line N" is the mark's line counted from 0 (yaml.v3's
// parser.fail adds 1 for scanner errors only): the line where the construct
// at fault starts (a flow list left open, a block mapping's bad key) is N+1.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found undefined tag handle":             true,
	"found duplicate %YAML directive":        true,
	"found duplicate %TAG directive":         true,
	"found incompatible YAML document":       true,
}

// lastLine returns the number of data's last line (1 for empty data).
func lastLine(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return max(n, 1)
}

// lineOfTab returns the first line from line on whose indentation holds a
// tab: the scanner's tab errors name the line where the scalar or token it
// was reading started, which may be lines before the tab (line when none).
func lineOfTab(data []byte, line int) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if i+1 < line {
			continue
		}
		indent := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return i + 1
		}
	}
	return line
}

// lineOfBadByte returns the line of the first byte that is not UTF-8 or is a
// control character YAML does not allow (0: none found).
func lineOfBadByte(data []byte) int {
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return line
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return 0
}

// lineOfAlias returns the line of the first alias "*name" in data (0: none).
func lineOfAlias(data []byte, name string) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if idx := bytes.Index(l, []byte("*"+name)); idx >= 0 {
			end := idx + 1 + len(name)
			if end == len(l) || strings.IndexByte(" \t,]}\r#", l[end]) >= 0 {
				return i + 1
			}
		}
	}
	return 0
}

// Collection names a mapping or a list node as errors do ("a mapping", "a
// list"); "" for any other node.
func Collection(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return ""
}

// Join returns the field path of key inside field ("raster.tile_size"; key
// alone at the top level), as errors name a field.
func Join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}
