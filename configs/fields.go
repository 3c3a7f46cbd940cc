package configs

import (
	"reflect"

	"github.com/gfxsim/gfxsim/internal/yamlnode"
)

// eachField calls leaf for every field of the configuration struct v that has
// a yaml tag and is not itself a struct (those are walked into), depth first
// in declaration order, with the field's path ("raster.tile_size" under path
// ""), its declaration and its value. The first error leaf returns stops the
// walk.
func eachField(v reflect.Value, path string, leaf func(path string, f reflect.StructField, fv reflect.Value) error) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("yaml")
		if name == "" {
			continue
		}
		fp, fv := yamlnode.Join(path, name), v.Field(i)
		var err error
		if fv.Kind() == reflect.Struct {
			err = eachField(fv, fp, leaf)
		} else {
			err = leaf(fp, f, fv)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
