package configs

import (
	"fmt"
	"reflect"
	"strings"
)

// FieldTable returns the Markdown table of every configuration field: its path,
// unit, valid values, default and description (the table in configs/README.md).
func FieldTable() string {
	var b strings.Builder
	b.WriteString("| field | unit | valid values | default | description |\n| --- | --- | --- | --- | --- |\n")
	def := Default()
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := f.Tag.Get("yaml")
			if name == "" {
				continue
			}
			fp := join(path, name)
			if v.Field(i).Kind() == reflect.Struct {
				walk(v.Field(i), fp)
				continue
			}
			valid := ""
			if one := f.Tag.Get("oneof"); one != "" {
				valid = strings.ReplaceAll(one, ",", ", ")
			} else if lo, hi := f.Tag.Get("min"), f.Tag.Get("max"); lo != "" || hi != "" {
				valid = fmt.Sprintf("%s..%s", lo, hi)
			}
			if f.Tag.Get("pow2") == "true" {
				valid += ", power of two"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %v | %s |\n", fp, f.Tag.Get("unit"), valid, v.Field(i).Interface(), f.Tag.Get("desc"))
		}
	}
	walk(reflect.ValueOf(def).Elem(), "")
	return b.String()
}
