package configs

import (
	_ "embed"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/names"
	"github.com/gfxsim/gfxsim/internal/yamlnode"
	"gopkg.in/yaml.v3"
)

//go:embed sortlast.yaml
var sortlastYAML []byte

//go:embed sage.yaml
var sageYAML []byte

//go:embed sortmiddle.yaml
var sortmiddleYAML []byte

//go:embed akita-dram.yaml
var akitaDRAMYAML []byte

// AkitaDRAMName is the file name under which the embedded Akita-DRAM machine
// (the default machine on Akita's mem/dram) is known.
const AkitaDRAMName = "configs/akita-dram.yaml"

// SortMiddleName is the file name under which the embedded tiled machine is
// known: its path in the repository, as errors name it.
const SortMiddleName = "configs/sortmiddle.yaml"

// SageName is the file name under which the embedded SAGE machine is known.
const SageName = "configs/sage.yaml"

// DefaultName is the file name under which the embedded default machine is
// known; errors about the default machine name it.
const DefaultName = "configs/sortlast.yaml"

// Error is a configuration error: the file, the line of the offending YAML node,
// the field path ("raster.tile_size") and the message. It is the error of
// every YAML loader (internal/yamlnode).
type Error = yamlnode.Error

// defaultDecoded is the default machine, decoded once and not validated
// (validation compares with it: another machine's sections, another memory
// type's fields and SAGE's unused back end may only repeat its values); it
// must not be changed.
var defaultDecoded = sync.OnceValue(func() *Config {
	c, err := decode(DefaultName, sortlastYAML, embeddedSections())
	if err != nil {
		panic("configs: the embedded default machine is invalid: " + err.Error())
	}
	return c
})

// embeddedSections decodes the embedded SAGE and tiled machines' sections
// (sage.yaml's sage, sortmiddle.yaml's sortmiddle) into a new configuration.
func embeddedSections() *Config {
	c, err := decode(SageName, section(sageYAML, "sage"), &Config{})
	if err == nil {
		c, err = decode(SortMiddleName, section(sortmiddleYAML, "sortmiddle"), c)
	}
	if err != nil {
		panic("configs: the embedded default machine is invalid: " + err.Error())
	}
	return c
}

// Default returns the default machine (sortlast.yaml, embedded in the binary).
//
// Its sage section holds the embedded SAGE machine's values (sage.yaml), used
// when a configuration says "machine: sage"; its sortmiddle section, the
// embedded tiled machine's (sortmiddle.yaml). Its errors name sortlast.yaml:
// the sections are decoded first, then the default machine's own file.
func Default() *Config {
	c, err := decode(DefaultName, sortlastYAML, embeddedSections())
	if err != nil {
		panic("configs: the embedded default machine is invalid: " + err.Error())
	}
	if err := c.Validate(); err != nil {
		panic("configs: the embedded default machine is invalid: " + err.Error())
	}
	return c
}

// Load reads a configuration file: the fields it sets override the default
// machine. A file that sets no field is refused (an unsaved file would run the
// default machine without a word).
func Load(path string) (*Config, error) {
	data, err := inputs.ReadFile(path, inputs.ConfigFile)
	if err != nil {
		return nil, err
	}
	c, err := Parse(path, data)
	if err == nil && len(c.lines) == 0 {
		// Most likely a file that was not saved: the run would quietly be
		// the default machine's.
		return nil, &Error{File: path, Msg: "the file sets no field (it is empty or holds only comments): write the fields to change, or machine: sortlast for the default machine"}
	}
	return c, err
}

// SageMachine returns the embedded SAGE machine (sage.yaml on top of the default).
func SageMachine() *Config { return embedded(SageName, sageYAML, "SAGE") }

// SortMiddleMachine returns the embedded tiled machine (sortmiddle.yaml on top
// of the default).
func SortMiddleMachine() *Config { return embedded(SortMiddleName, sortmiddleYAML, "tiled") }

// embedded decodes the embedded machine file name on top of the default
// machine and validates it; an error is a bug of gfxsim (a panic naming the
// machine what).
func embedded(name string, data []byte, what string) *Config {
	c, err := decode(name, data, Default())
	if err == nil {
		err = c.validate(name)
	}
	if err != nil {
		panic("configs: the embedded " + what + " machine is invalid: " + err.Error())
	}
	return c
}

// AkitaDRAMMachine returns the embedded akita-dram.yaml on top of the default
// machine: the same machine as configs.Load("configs/akita-dram.yaml") run
// from the repository's root, wherever the binary runs.
func AkitaDRAMMachine() *Config {
	c, err := Parse(AkitaDRAMName, akitaDRAMYAML)
	if err != nil {
		panic("configs: the embedded Akita-DRAM machine is invalid: " + err.Error())
	}
	return c
}

// Parse decodes data (named filename in errors) on top of the default machine,
// or of the embedded SAGE machine when data says "machine: sage", and
// validates the result.
func Parse(filename string, data []byte) (*Config, error) {
	base := Default()
	switch machineOf(data) {
	case "sage":
		base = SageMachine()
	case "sortmiddle":
		base = SortMiddleMachine()
	}
	c, err := decode(filename, data, base)
	if err != nil {
		return nil, err
	}
	if err := c.validate(filename); err != nil {
		return nil, err
	}
	return c, nil
}

// YAML returns the complete configuration as YAML (written next to every run's
// results so that it can be reproduced). On dramctl memory it ends with a
// comment giving the geometry and timing the preset fills in for their zero
// fields: the values the channels ran with, which the fields themselves
// leave to the preset (so that a copy whose preset is changed takes the new
// part's values).
func (c *Config) YAML() []byte {
	b, err := yaml.Marshal(c)
	if err != nil {
		panic(err) // plain structs always marshal
	}
	if c.Memory.Type == memory.TypeDRAMCtl {
		d := c.DRAMCtlConfig()
		b = fmt.Appendf(b, "# memory: the %s preset fills geometry's and timing's zero fields; the channels ran with\n", d.Preset)
		b = fmt.Appendf(b, "#   geometry: {%s}\n#   timing: {%s}\n", resolvedFields(c.Memory.Geometry, d.Geometry), resolvedFields(c.Memory.Timing, d.Timing))
	}
	return b
}

// resolvedFields lists the fields of section (DRAMGeometry or DRAMTiming) by
// their YAML names with the values of the same-named fields of resolved
// (dramctl's Geometry or Timing): "bus_width: 16, burst_length: 16, ...".
func resolvedFields(section, resolved any) string {
	t, r := reflect.TypeOf(section), reflect.ValueOf(resolved)
	var parts []string
	for i := range t.NumField() {
		f := t.Field(i)
		if v := r.FieldByName(f.Name); v.IsValid() {
			parts = append(parts, fmt.Sprintf("%s: %v", strings.Split(f.Tag.Get("yaml"), ",")[0], v.Interface()))
		}
	}
	return strings.Join(parts, ", ")
}

// section returns the top-level section key of an embedded machine's YAML as
// a document of its own.
func section(data []byte, key string) []byte {
	var doc map[string]yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		panic("configs: an embedded machine is not YAML: " + err.Error())
	}
	n := doc[key]
	b, err := yaml.Marshal(map[string]*yaml.Node{key: &n})
	if err != nil {
		panic(err)
	}
	return b
}

// machineOf returns the top-level "machine" value of a YAML document, or "".
func machineOf(data []byte) string {
	var doc struct {
		Machine string `yaml:"machine"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return "" // decode reports the error
	}
	return doc.Machine
}

type decoder struct {
	file  string
	lines map[string]int // field path -> line it was set at
}

func decode(file string, data []byte, into *Config) (c *Config, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, &Error{File: file, Msg: fmt.Sprintf("yaml: malformed document (%v)", r)}
		}
	}()
	root, err := yamlnode.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: file, lines: map[string]int{}}
	if root == nil || root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		into.lines, into.file = d.lines, file
		return into, nil // an empty file changes nothing
	}
	if err := d.value(root, reflect.ValueOf(into).Elem(), "", reflect.StructField{}, 0); err != nil {
		return nil, err
	}
	into.lines = d.lines
	into.file = file
	return into, nil
}

func (d *decoder) errf(n *yaml.Node, field, format string, a ...any) error {
	return yamlnode.At(d.file, n, field, format, a...)
}

func kindName(n *yaml.Node) string {
	if k := yamlnode.Collection(n); k != "" {
		return k
	}
	if n.Kind == yaml.AliasNode {
		return "an alias"
	}
	return inputs.Quote(n.Value)
}

func (d *decoder) value(n *yaml.Node, v reflect.Value, path string, f reflect.StructField, depth int) error {
	if depth > 32 {
		return d.errf(n, path, "nested too deeply")
	}
	for i := 0; n.Kind == yaml.AliasNode; i++ {
		if i > 32 || n.Alias == nil {
			return d.errf(n, path, "alias chain too long")
		}
		n = n.Alias
	}
	if v.Kind() == reflect.Struct {
		if n.Kind != yaml.MappingNode && path == "" {
			// The whole file: it may be any file at all, quote none of it.
			return d.errf(n, path, "not a YAML mapping of keys (a configuration file starts with keys such as raster:, shader_core:)")
		}
		if n.Kind != yaml.MappingNode {
			return d.errf(n, path, "want a mapping, got %s", kindName(n))
		}
		return d.mapping(n, v, path, depth)
	}
	if v.Kind() == reflect.Slice {
		return d.list(n, v, path, f, depth)
	}
	if n.Kind != yaml.ScalarNode {
		return d.errf(n, path, "want %s, got %s", typeName(v), kindName(n))
	}
	d.lines[path] = n.Line
	switch v.Kind() {
	case reflect.Int:
		if n.Tag != "!!int" && !yamlnode.HugeInt(n) {
			return d.errf(n, path, "want an integer, got %s", inputs.Quote(n.Value))
		}
		if yamlnode.LeadingZero(n) {
			return d.errf(n, path, "%s has a leading zero, which YAML reads as an octal number: write it without the zero", n.Value)
		}
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil || i < math.MinInt32 || i > math.MaxInt32 {
			return d.errf(n, path, "integer %s out of range", inputs.Quote(n.Value))
		}
		v.SetInt(i)
	case reflect.Float64:
		if n.Tag != "!!int" && n.Tag != "!!float" && !yamlnode.HugeFloat(n) {
			return d.errf(n, path, "want a number, got %s", inputs.Quote(n.Value))
		}
		if n.Tag == "!!int" && yamlnode.LeadingZero(n) {
			return d.errf(n, path, "%s has a leading zero, which YAML reads as an octal number: write it without the zero", n.Value)
		}
		x, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return d.errf(n, path, "want a finite number, got %s", inputs.Quote(n.Value))
		}
		v.SetFloat(x)
	case reflect.String:
		if n.Tag != "!!str" {
			return d.errf(n, path, "want a string, got %s", inputs.Quote(n.Value))
		}
		v.SetString(n.Value)
	case reflect.Bool:
		if n.Tag != "!!bool" {
			return d.errf(n, path, "want true or false, got %s", inputs.Quote(n.Value))
		}
		v.SetBool(n.Value == "true" || n.Value == "True" || n.Value == "TRUE")
	default:
		return d.errf(n, path, "unsupported field type %v", v.Type())
	}
	return checkField(f, v, func(format string, a ...any) error { return d.errf(n, path, format, a...) })
}

// maxList bounds the length of a list field (the longest, a SAGE coefficient
// table, has 256 entries).
const maxList = 4096

// list decodes a YAML sequence of scalars into a slice field ([]float64,
// []string): it replaces the default list; each element is checked like a
// scalar field and its error names the element (table[3]).
func (d *decoder) list(n *yaml.Node, v reflect.Value, path string, f reflect.StructField, depth int) error {
	if n.Kind != yaml.SequenceNode {
		return d.errf(n, path, "want a list, got %s", kindName(n))
	}
	if len(n.Content) > maxList {
		return d.errf(n, path, "%d entries, at most %d", len(n.Content), maxList)
	}
	d.lines[path] = n.Line
	if len(n.Content) == 0 {
		v.Set(reflect.Zero(v.Type())) // [] is the empty list, as nil marshals
		return nil
	}
	out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, e := range n.Content {
		if err := d.value(e, out.Index(i), fmt.Sprintf("%s[%d]", path, i), f, depth+1); err != nil {
			return err
		}
	}
	v.Set(out)
	return nil
}

func typeName(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Int:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	}
	return "a string"
}

func (d *decoder) mapping(n *yaml.Node, v reflect.Value, path string, depth int) error {
	t := v.Type()
	fields := map[string]int{}
	var fieldNames []string
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
			fields[tag] = i
			fieldNames = append(fieldNames, tag)
		}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return d.errf(k, path, "keys must be plain names")
		}
		key := k.Value
		if len(key) > inputs.MaxExcerpt || strings.ContainsAny(key, "\x00\n\r\t\"\\") {
			key = inputs.Quote(key)
		}
		fp := yamlnode.Join(path, key)
		idx, ok := fields[k.Value]
		if !ok && path == "" && i == 0 && !inputs.KeyLike(k.Value) {
			// Nothing of the file was a configuration yet: quote none of it.
			sort.Strings(fieldNames)
			return d.errf(k, "", "not a configuration file: its first key is not a configuration key (allowed: %s)", strings.Join(fieldNames, ", "))
		}
		if !ok && k.Tag == "!!merge" {
			return d.errf(k, fp, "merge keys are not supported in configuration files: write the fields out (an anchor and alias of a whole value work)")
		}
		if !ok {
			sort.Strings(fieldNames)
			return d.errf(k, fp, "unknown field%s (want one of %s)", names.DidYouMean(k.Value, fieldNames), strings.Join(fieldNames, ", "))
		}
		if seen[k.Value] {
			return d.errf(k, fp, "duplicate key")
		}
		seen[k.Value] = true
		if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
			if v.Field(idx).Kind() == reflect.Struct {
				continue // a section with no fields (all of them commented out): keep the defaults
			}
			// A field typed without its value: keeping the default without a
			// word would hide the slip.
			return d.errf(val, fp, "no value: give one, or remove the line to keep the default (%s)", defaultText(v.Field(idx)))
		}
		if err := d.value(val, v.Field(idx), fp, t.Field(idx), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// defaultText is a field's current (default) value as a configuration file
// writes it.
func defaultText(v reflect.Value) string {
	if v.Kind() == reflect.String {
		return strconv.Quote(v.String())
	}
	return fmt.Sprint(v.Interface())
}

// checkField applies the min, max, pow2 and oneof tags of f to v.
func checkField(f reflect.StructField, v reflect.Value, fail func(string, ...any) error) error {
	num := func() (float64, bool) {
		switch v.Kind() {
		case reflect.Int:
			return float64(v.Int()), true
		case reflect.Float64:
			return v.Float(), true
		}
		return 0, false
	}
	if x, ok := num(); ok {
		lo, hasLo := tagFloat(f, "min")
		hi, hasHi := tagFloat(f, "max")
		if (hasLo && x < lo) || (hasHi && x > hi) {
			return fail("%s out of range [%v, %v]%s", fmtBound(x, true, ""), fmtBound(lo, hasLo, "-inf"), fmtBound(hi, hasHi, "inf"), unitSuffix(f))
		}
		if f.Tag.Get("pow2") == "true" && (v.Kind() != reflect.Int || v.Int() <= 0 || bits.OnesCount64(uint64(v.Int())) != 1) {
			return fail("%s is not a power of two", fmtBound(x, true, ""))
		}
	}
	if one := f.Tag.Get("oneof"); one != "" && v.Kind() == reflect.String {
		for _, o := range strings.Split(one, ",") {
			if o == v.String() {
				return nil
			}
		}
		return fail("%s is not one of %s%s", inputs.Quote(v.String()), strings.ReplaceAll(one, ",", ", "),
			names.DidYouMean(v.String(), strings.Split(one, ",")))
	}
	return nil
}

func unitSuffix(f reflect.StructField) string {
	if u := f.Tag.Get("unit"); u != "" {
		return " " + u
	}
	return ""
}

func fmtBound(x float64, ok bool, none string) string {
	if !ok {
		return none
	}
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatInt(int64(x), 10) // 1048576, not 1.048576e+06
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func tagFloat(f reflect.StructField, key string) (float64, bool) {
	s := f.Tag.Get(key)
	if s == "" {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil
}
