package timing

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/sarchlab/akita/v3/sim"
)

// Counter is one statistic of a unit: its name under the unit's prefix and its
// value.
type Counter struct {
	Name  string
	Value uint64
}

// AddCounters reports each counter as prefix+c.Name through add, in order: for
// counts a unit reads from a struct that cannot carry its names (a functional
// package's statistics, such as hiz.Stats); a unit's own counters are tagged
// and reported by AddTagged.
func AddCounters(prefix string, add func(string, float64), cs ...Counter) {
	for _, c := range cs {
		add(prefix+c.Name, float64(c.Value))
	}
}

// AddTagged reports, through add, every field of the struct st (a struct or a
// pointer to one) that carries a statistic's name in a tag, `stat:"name"`, as
// prefix+name, in the order of the fields: the one home of the table of
// counters every unit's Stats method reports, the name written beside its
// counter. A tagged field is an integer (signed or unsigned) or a float;
// untagged fields are skipped. A tagged field of any other kind, or a value
// that is not a struct, is a programming error: AddTagged panics with the type
// and the field.
//
// It reads the fields by reflection (the tagged fields of each type are found
// once): Stats runs at the end of a run and at metrics intervals, never in a
// tick.
func AddTagged(prefix string, add func(string, float64), st any) {
	v := reflect.Indirect(reflect.ValueOf(st))
	if v.Kind() != reflect.Struct {
		panic(fmt.Sprintf("timing.AddTagged: %T is not a struct or a pointer to one", st))
	}
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		switch f.read {
		case readInt:
			add(prefix+f.name, float64(fv.Int()))
		case readUint:
			add(prefix+f.name, float64(fv.Uint()))
		case readFloat:
			add(prefix+f.name, fv.Float())
		}
	}
}

// taggedField is a tagged field of a struct type: its index, its statistic's
// name and how to read it.
type taggedField struct {
	index int
	name  string
	read  fieldRead
}

type fieldRead uint8

const (
	readInt fieldRead = iota
	readUint
	readFloat
)

// taggedFields caches the tagged fields of each struct type AddTagged has seen.
var taggedFields sync.Map // reflect.Type -> []taggedField

// fieldsOf returns the tagged fields of struct type t, and panics at a tagged
// field AddTagged cannot report.
func fieldsOf(t reflect.Type) []taggedField {
	if fs, ok := taggedFields.Load(t); ok {
		return fs.([]taggedField)
	}
	var fs []taggedField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("stat")
		if !ok {
			continue
		}
		k := f.Type.Kind()
		tf := taggedField{index: i, name: tag}
		switch {
		case k >= reflect.Int && k <= reflect.Int64:
			tf.read = readInt
		case k >= reflect.Uint && k <= reflect.Uint64:
			tf.read = readUint
		case k == reflect.Float32 || k == reflect.Float64:
			tf.read = readFloat
		default:
			panic(fmt.Sprintf("timing.AddTagged: %s.%s is a %s, not a counter", t, f.Name, f.Type))
		}
		fs = append(fs, tf)
	}
	taggedFields.Store(t, fs)
	return fs
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
