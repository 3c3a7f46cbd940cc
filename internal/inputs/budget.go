package inputs

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// MemoryShare is the share of the machine's physical memory (or of its
// cgroup's limit, when smaller) that the default memory budget allows.
const MemoryShare = 4 // one quarter

// fallbackMemory is the default budget when the machine's memory cannot be read.
const fallbackMemory = 4 << 30

// DefaultMaxMemory returns the default memory budget: a quarter of the
// physical memory (MemTotal in /proc/meminfo, or the cgroup v2 memory.max
// when smaller), or 4 GiB when neither can be read.
func DefaultMaxMemory() int64 {
	defaultOnce.Do(func() {
		total := memTotal()
		if cg := cgroupMax(); cg > 0 && (total == 0 || cg < total) {
			total = cg
		}
		if total <= 0 {
			defaultMax = fallbackMemory
			return
		}
		defaultMax = total / MemoryShare
	})
	return defaultMax
}

var (
	defaultOnce sync.Once
	defaultMax  int64
)

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fs[1], 10, 64)
			if err == nil && kb > 0 {
				return kb << 10
			}
		}
	}
	return 0
}

func cgroupMax() int64 {
	b, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return 0 // "max": no limit
	}
	return v
}

// Budget is the memory a load or a run may use, and what it has reserved so
// far. Loaders call Reserve before they allocate what stays (images, vertex
// arrays, texture storage) and Check before a transient peak (a decoder's
// working memory). A nil *Budget is the default budget for each call alone
// (nothing accumulates). A Budget is safe for concurrent use.
type Budget struct {
	// Source says where the budget comes from, in its errors ("": the
	// -max-memory flag).
	Source string

	max  int64
	mu   sync.Mutex
	used int64
}

// NewBudget returns a budget of max bytes (max <= 0: DefaultMaxMemory()).
func NewBudget(max int64) *Budget {
	if max <= 0 {
		max = DefaultMaxMemory()
	}
	return &Budget{max: max}
}

// Max returns the budget in bytes.
func (b *Budget) Max() int64 {
	if b == nil {
		return DefaultMaxMemory()
	}
	return b.max
}

// Used returns the bytes reserved so far.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Reserve adds n bytes, which what is about to allocate, to the budget; it
// returns an error giving the estimate when the total would exceed it (and
// then reserves nothing).
func (b *Budget) Reserve(what string, n int64) error {
	return b.take(what, n, true)
}

// Check reports whether n more bytes, which what needs for a while (a
// decoder's peak), fit the budget now; it reserves nothing.
func (b *Budget) Check(what string, n int64) error {
	return b.take(what, n, false)
}

// Release returns n reserved bytes.
func (b *Budget) Release(n int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.used = max(0, b.used-n)
	b.mu.Unlock()
}

func (b *Budget) take(what string, n int64, keep bool) error {
	if n < 0 {
		n = 1 << 62 // an overflowed estimate
	}
	if b == nil {
		if m := DefaultMaxMemory(); n > m {
			return &OverBudgetError{What: what, Need: n, Max: m}
		}
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.max-b.used {
		return &OverBudgetError{What: what, Need: n, Used: b.used, Max: b.max, Source: b.Source}
	}
	if keep {
		b.used += n
	}
	return nil
}

// OverBudgetError is the refusal of an estimate that exceeds the budget.
type OverBudgetError struct {
	What       string
	Need, Used int64
	Max        int64
	Source     string // the Budget's Source
}

func (e *OverBudgetError) Error() string {
	src := e.Source
	if src == "" {
		src = "-max-memory"
	}
	if e.Used > 0 {
		return fmt.Sprintf("%s needs about %s, and %s is already reserved: more than the memory budget of %s (%s)",
			e.What, Bytes(e.Need), Bytes(e.Used), Bytes(e.Max), src)
	}
	return fmt.Sprintf("%s needs about %s, more than the memory budget of %s (%s)", e.What, Bytes(e.Need), Bytes(e.Max), src)
}

// Bytes formats a byte count: "512 B", "3.0 KiB", "1.5 GiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 5 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[i])
}

// ParseBytes reads a size: a positive number of bytes with an optional unit
// K, M, G or T (powers of 1024; "KiB", "KB" and lower case work too), e.g.
// "6G", "512MiB", "1.5g"; at least one byte.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mul := int64(1)
	low := strings.ToLower(t)
	low = strings.TrimSuffix(strings.TrimSuffix(low, "ib"), "b")
	if n := len(low); n > 0 {
		if i := strings.IndexByte("kmgt", low[n-1]); i >= 0 {
			mul = int64(1) << (10 * (i + 1))
			low = low[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(low), 64)
	if err != nil || !(v*float64(mul) >= 1 && v*float64(mul) <= 1<<62) { // NaN fails both
		return 0, fmt.Errorf("%s: want a size such as 6G, 512M or 1048576", Quote(s))
	}
	return int64(v * float64(mul)), nil
}
