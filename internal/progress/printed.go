package progress

import (
	"io"
	"time"
)

// Printed is what a parsed command line prints on stderr, decided by Flags:
// the log lines, the closing summary and the bar. A binary's options embed it
// so that its run and its quiet-rules test (progresstest.CheckOptions) read
// the same decision.
type Printed struct {
	Log     io.Writer     // the progress lines (nil: none)
	Summary io.Writer     // the closing lines on stderr (nil: none)
	Stdout  bool          // the summary goes to stdout, always: Summary is not checked
	Bar     bool          // the progress bar
	Every   time.Duration // how often a simulation prints its progress (0: never; negative: not a flag of the binary)
}

// Decided returns p; through embedding it returns the Printed of any options
// that hold one.
func (p Printed) Decided() Printed { return p }
