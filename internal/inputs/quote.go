package inputs

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxExcerpt is the most bytes of an input file an error message quotes.
const MaxExcerpt = 32

// Quote returns s quoted and escaped as Go's %q does, cut to its first
// MaxExcerpt bytes (on a character boundary, with "..." after the quote when
// cut): the excerpt of a file an error may show.
func Quote(s string) string { return quoteCut(s, MaxExcerpt) }

// MaxPathExcerpt is the most bytes of a file name an error quotes: a name
// the user gave, or that an input file gives, is shown whole up to this
// length (a real path is rarely longer than a few hundred bytes; Linux opens
// at most MaxPath), so that the error names the file it refuses.
const MaxPathExcerpt = 512

// QuotePath is Quote for a file name: quoted and escaped the same way, but
// cut only past MaxPathExcerpt bytes.
func QuotePath(s string) string { return quoteCut(s, MaxPathExcerpt) }

// quoteCut quotes s as %q does, cut to its first max bytes (on a character
// boundary, with "..." after the quote when cut).
func quoteCut(s string, max int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "..."
}

// QuoteBytes is Quote of a byte slice (only its first bytes are copied).
func QuoteBytes(b []byte) string {
	if len(b) > 2*MaxExcerpt {
		b = b[:2*MaxExcerpt]
	}
	return Quote(string(b))
}

// KeyLike reports whether s looks like a key of gfxsim's YAML formats: 1 to
// MaxExcerpt lower-case letters, digits and underscores. A first key that
// does not is not quoted (the file may not be a scene or configuration).
func KeyLike(s string) bool {
	if s == "" || len(s) > MaxExcerpt {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// MaxMessage bounds the text of a library's error that may quote its input.
const MaxMessage = 160

// Clip makes a message from a library that may quote the file it parsed safe
// to print: quoted and escaped as Go's %q does when it holds a control
// character or invalid UTF-8 (an escape sequence must not reach the
// terminal), and cut to MaxMessage bytes (on a character boundary, with "..."
// when cut).
func Clip(msg string) string {
	if strings.IndexFunc(msg, func(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError }) >= 0 {
		msg = strconv.Quote(msg)
	}
	if len(msg) <= MaxMessage {
		return msg
	}
	n := MaxMessage
	for n > 0 && !utf8.RuneStart(msg[n]) {
		n--
	}
	return msg[:n] + "..."
}
