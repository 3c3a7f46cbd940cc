package timing

import "fmt"

// Credits counts tokens for a resource held elsewhere (slots in a downstream
// buffer): a sender takes one per item sent and gets it back when the receiver
// frees the slot.
type Credits struct {
	avail, max int
}

// NewCredits returns n credits, all available.
func NewCredits(n int) *Credits { return &Credits{avail: n, max: n} }

// Available returns the credits that can be taken.
func (c *Credits) Available() int { return c.avail }

// Max returns the total number of credits.
func (c *Credits) Max() int { return c.max }

// Take takes n credits; it reports false (and takes none) when fewer are available.
func (c *Credits) Take(n int) bool {
	if n > c.avail {
		return false
	}
	c.avail -= n
	return true
}

// Give returns n credits. Returning more than were taken is a bug and panics.
func (c *Credits) Give(n int) {
	if c.avail+n > c.max {
		panic(fmt.Sprintf("timing: %d credits returned with %d of %d available", n, c.avail, c.max))
	}
	c.avail += n
}
