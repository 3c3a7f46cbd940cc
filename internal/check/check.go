// Package check validates a unit's configuration fields and names the first
// bad one: "rop: QuadsPerCycle 0 must be at least 1". Builders' and
// configurations' Validate methods chain its rules instead of repeating a
// switch of fmt.Errorf calls each:
//
//	return check.For("rop").
//		AtLeast("QuadsPerCycle", c.QuadsPerCycle, 1).
//		PowerOfTwo("TileSize", c.TileSize, 2, 256).
//		Index("Index", c.Index, "NumPartitions", c.NumPartitions).
//		Err()
//
// Rules after the first failure are not checked, so a later rule may rely on
// an earlier one (a divisor checked positive before it divides).
package check

import "fmt"

// Rules is a chain of checks on one unit's fields; the zero value of the
// error it reports (Err) is nil when every rule held.
type Rules struct {
	unit string
	err  error
}

// For starts the rules of the unit named unit (the prefix of its messages;
// "" for none).
func For(unit string) *Rules { return &Rules{unit: unit} }

// Err returns the first failed rule's error, or nil.
func (r *Rules) Err() error { return r.err }

// Failf records a failure with a message of its own, unless one is already
// recorded.
func (r *Rules) Failf(format string, args ...any) *Rules {
	if r.err == nil {
		msg := fmt.Sprintf(format, args...)
		if r.unit != "" {
			msg = r.unit + ": " + msg
		}
		r.err = fmt.Errorf("%s", msg)
	}
	return r
}

// Wrap records err, prefixed with the unit, unless a failure is already
// recorded or err is nil; errors.Is and As see through it.
func (r *Rules) Wrap(err error) *Rules {
	if r.err == nil && err != nil {
		if r.unit != "" {
			err = fmt.Errorf("%s: %w", r.unit, err)
		}
		r.err = err
	}
	return r
}

// That fails with the message when ok is false.
func (r *Rules) That(ok bool, format string, args ...any) *Rules {
	if r.err != nil || ok {
		return r
	}
	return r.Failf(format, args...)
}

// AtLeast: "Field v must be at least min".
func (r *Rules) AtLeast(field string, v, min int) *Rules {
	return r.That(v >= min, "%s %d must be at least %d", field, v, min)
}

// AtMost: "Field v must be at most max".
func (r *Rules) AtMost(field string, v, max int) *Rules {
	return r.That(v <= max, "%s %d must be at most %d", field, v, max)
}

// NotNegative: "Field v must not be negative".
func (r *Rules) NotNegative(field string, v int) *Rules {
	return r.That(v >= 0, "%s %d must not be negative", field, v)
}

// Positive: "Field v must be positive" (for clocks, ratios and other
// real-valued fields; NaN fails).
func (r *Rules) Positive(field string, v float64) *Rules {
	return r.That(v > 0, "%s %v must be positive", field, v)
}

// InRange: "Field v must be in [lo, hi]".
func (r *Rules) InRange(field string, v, lo, hi int) *Rules {
	return r.That(v >= lo && v <= hi, "%s %d must be in [%d, %d]", field, v, lo, hi)
}

// Within: "Field: v out of range [lo, hi]", the style of the functional
// layer's descriptors (surface geometries, textures, samplers).
func (r *Rules) Within(field string, v, lo, hi int) *Rules {
	return r.That(v >= lo && v <= hi, "%s: %d out of range [%d, %d]", field, v, lo, hi)
}

// Index: "Field v must be in [0, CountField=n)", for an index into n things.
func (r *Rules) Index(field string, v int, countField string, n int) *Rules {
	return r.That(v >= 0 && v < n, "%s %d must be in [0, %s=%d)", field, v, countField, n)
}

// PowerOfTwo: "Field v must be a power of two in [lo, hi]".
func (r *Rules) PowerOfTwo(field string, v, lo, hi int) *Rules {
	return r.That(v >= lo && v <= hi && v&(v-1) == 0, "%s %d must be a power of two in [%d, %d]", field, v, lo, hi)
}

// Field names one integer field for AllAtLeast.
type Field struct {
	Name  string
	Value int
}

// AllAtLeast checks AtLeast(f.Name, f.Value, min) for each field in order:
// the common rule of queue depths, rates and latencies.
func (r *Rules) AllAtLeast(min int, fields ...Field) *Rules {
	for _, f := range fields {
		r.AtLeast(f.Name, f.Value, min)
	}
	return r
}
