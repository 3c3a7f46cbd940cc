package check

import (
	"fmt"
	"reflect"
)

// FieldsAtLeast checks AtLeast(name, v, min) for each named integer field of
// the struct cfg, in order: the rule every count, depth and queue of a
// configuration shares, without a Field literal per field. A name that is
// not an integer field of cfg is a programming error: it panics.
func (r *Rules) FieldsAtLeast(min int, cfg any, names ...string) *Rules {
	v := reflect.ValueOf(cfg)
	for _, name := range names {
		f := v.FieldByName(name)
		if !f.IsValid() || !f.CanInt() {
			panic(fmt.Sprintf("check: %T has no integer field %s", cfg, name))
		}
		r.AtLeast(name, int(f.Int()), min)
	}
	return r
}
