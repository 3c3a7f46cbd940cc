package mesh

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/internal/inputs"
)

// lineReader splits text into logical lines for the OBJ and MTL parsers:
// "\r\n" and "\n" end a line, a trailing backslash continues it on the next
// line, '#' starts a comment, and fields are separated by spaces and tabs. A
// UTF-8 byte order mark at the start is skipped (editors on Windows write one).
type lineReader struct {
	file   string // the file's name, in errors
	data   []byte
	pos    int
	line   int // number of the first physical line of the current logical line
	next   int // number of the next physical line
	joined []byte
	fields [][]byte
}

func newLineReader(file string, data []byte) *lineReader {
	return &lineReader{file: file, data: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), next: 1}
}

// errf returns an error at the current line, naming its keyword:
// "file:line: keyword: message".
func (r *lineReader) errf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s: %s", r.file, r.line, r.fields[0], fmt.Sprintf(format, a...))
}

// scan advances to the next logical line that has at least one field; it
// returns false at the end of the input. The fields stay valid until the next
// call.
func (r *lineReader) scan() bool {
	for r.pos < len(r.data) || r.joined != nil {
		r.line = r.next
		line := r.physical()
		if l := trimRightSpace(line); len(l) > 0 && l[len(l)-1] == '\\' {
			r.joined = append(r.joined[:0], l[:len(l)-1]...)
			for r.pos < len(r.data) {
				next := trimRightSpace(r.physical())
				if len(next) > 0 && next[len(next)-1] == '\\' {
					r.joined = append(append(r.joined, ' '), next[:len(next)-1]...)
					continue
				}
				r.joined = append(append(r.joined, ' '), next...)
				break
			}
			line = r.joined
			r.joined = nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		r.fields = splitFields(r.fields[:0], line)
		if len(r.fields) > 0 {
			return true
		}
	}
	return false
}

// physical returns the next physical line without its terminator.
func (r *lineReader) physical() []byte {
	rest := r.data[r.pos:]
	i := bytes.IndexByte(rest, '\n')
	var line []byte
	if i < 0 {
		line, r.pos = rest, len(r.data)
	} else {
		line, r.pos = rest[:i], r.pos+i+1
	}
	r.next++
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line
}

func trimRightSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

func splitFields(out [][]byte, line []byte) [][]byte {
	i := 0
	for i < len(line) {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		start := i
		for i < len(line) && !isSpace(line[i]) {
			i++
		}
		if i > start {
			out = append(out, line[start:i])
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// parseFloat parses a finite float32.
func parseFloat(b []byte) (float32, error) {
	f, err := strconv.ParseFloat(string(b), 32)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("bad number %s", inputs.QuoteBytes(b))
	}
	return float32(f), nil
}

// parseFloats parses every field of fs into out (len(out) >= len(fs)).
func parseFloats(fs [][]byte, out []float32) error {
	for i, f := range fs {
		v, err := parseFloat(f)
		if err != nil {
			return err
		}
		out[i] = v
	}
	return nil
}

// notFormat is the error for a file whose first statement is not one of its
// format: it quotes nothing of the file, which may be any file at all (a
// mtllib naming a file of secrets must not print them).
func notFormat(name string, line int, format string) error {
	return fmt.Errorf("%s:%d: not %s file (its first statement is not %s statement)", name, line, aOrAn(format), aOrAn(format))
}

func aOrAn(format string) string {
	if format == "" || !strings.ContainsRune("AEIOU", rune(format[0])) && format != "MTL" {
		return "a " + format
	}
	return "an " + format
}

// mtlStatements are the statements ParseMTL knows (read or ignored).
var mtlStatements = map[string]bool{
	"newmtl": true, "Ka": true, "Kd": true, "Ks": true, "Ns": true, "d": true, "Tr": true, "illum": true,
	"map_Kd": true, "map_d": true, "norm": true,
	"Ke": true, "Ni": true, "Tf": true, "Pr": true, "Pm": true, "Ps": true, "Pc": true, "Pcr": true,
	"aniso": true, "anisor": true, "sharpness": true, "map_Ka": true, "map_Ks": true, "map_Ns": true,
	"map_Ke": true, "map_Pr": true, "map_Pm": true, "map_Ps": true, "map_bump": true, "map_Bump": true,
	"bump": true, "disp": true, "decal": true, "refl": true, "map_refl": true, "map_aat": true,
}
