package timing

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/sarchlab/akita/v3/sim"
)

// Counter is one statistic of a unit: its name under the unit's prefix and its
// value.
type Counter struct {
	Name  string
	Value uint64
}

// AddCounters reports each counter as prefix+c.Name through add, in order: the
// one home of the table of counters every unit's Stats method reports.
func AddCounters(prefix string, add func(string, float64), cs ...Counter) {
	for _, c := range cs {
		add(prefix+c.Name, float64(c.Value))
	}
}

// AddTagged reports, through add, every field of the struct st (a struct or a
// pointer to one) that carries a statistic's name in a tag, `stat:"name"`, as
// prefix+name, in the order of the fields: the one home of the table of
// counters every unit's Stats method reports, the name written beside its
// counter. A tagged field is an integer (signed or unsigned) or a float; a
// struct field tagged `stat:"name,prefix"` reports its own tagged fields under
// prefix+name. Untagged fields are skipped. A tagged field of any other kind, or
// a value that is not a struct, is a programming error: AddTagged panics with
// the type and the field.
//
// It reads the fields by reflection: Stats runs at the end of a run and at
// metrics intervals, never in a tick.
func AddTagged(prefix string, add func(string, float64), st any) {
	v := reflect.Indirect(reflect.ValueOf(st))
	if v.Kind() != reflect.Struct {
		panic(fmt.Sprintf("timing.AddTagged: %T is not a struct or a pointer to one", st))
	}
	addTagged(prefix, add, v)
}

// addTagged reports the tagged fields of the struct v under prefix.
func addTagged(prefix string, add func(string, float64), v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("stat")
		if !ok {
			continue
		}
		name, opt, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		switch k := fv.Kind(); {
		case opt == "prefix" && k == reflect.Struct:
			addTagged(prefix+name, add, fv)
		case opt != "":
			panic(fmt.Sprintf("timing.AddTagged: %s.%s: tag option %q needs a struct field, and prefix is the only option", t, f.Name, opt))
		case k >= reflect.Int && k <= reflect.Int64:
			add(prefix+name, float64(fv.Int()))
		case k >= reflect.Uint && k <= reflect.Uint64:
			add(prefix+name, float64(fv.Uint()))
		case k == reflect.Float32 || k == reflect.Float64:
			add(prefix+name, fv.Float())
		default:
			panic(fmt.Sprintf("timing.AddTagged: %s.%s is a %s, not a counter", t, f.Name, f.Type))
		}
	}
}

// WakeForNext asks w for a tick at cycle next when it lies after cycle (now is
// cycle's time); next == ^uint64(0) means nothing is due. The last step of a
// unit's tick that made no progress: sleep until the earliest cycle at which
// something can happen without a port event.
func (w *Waker) WakeForNext(now sim.VTimeInSec, cycle, next uint64) {
	if next != ^uint64(0) && next > cycle {
		w.WakeIn(now, int(next-cycle))
	}
}
