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
	eachField(reflect.ValueOf(def).Elem(), "", func(fp string, f reflect.StructField, fv reflect.Value) error {
		valid := ""
		if one := f.Tag.Get("oneof"); one != "" {
			valid = strings.ReplaceAll(one, ",", ", ")
		} else if lo, hi := f.Tag.Get("min"), f.Tag.Get("max"); lo != "" || hi != "" {
			valid = fmt.Sprintf("%s..%s", lo, hi)
		}
		if f.Tag.Get("pow2") == "true" {
			valid += ", power of two"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %v | %s |\n", fp, f.Tag.Get("unit"), valid, fv.Interface(), f.Tag.Get("desc"))
		return nil
	})
	return b.String()
}
