package configs

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// TestUnitsListTheirPorts: every port of its own (not a peer's) that a unit
// holds in an exported field is one of its Ports(), the list the metrics
// sampler hooks to count a unit's traffic (the tiled machine's binner, tile
// scheduler and tile units once made ports they never added, and their
// traffic read zero).
func TestUnitsListTheirPorts(t *testing.T) {
	portType := reflect.TypeFor[sim.Port]()
	for _, m := range []struct {
		name string
		cfg  *Config
	}{
		{"sort-last", Default()},
		{"tiled", SortMiddleMachine()},
		{"SAGE", SageMachine()},
	} {
		p, err := Build(m.cfg)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		checked := 0
		for _, u := range p.Units {
			listed := map[sim.Port]bool{}
			for _, port := range u.Ports() {
				listed[port] = true
			}
			v := reflect.ValueOf(u)
			for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
				v = v.Elem()
			}
			if v.Kind() != reflect.Struct {
				continue
			}
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if !f.IsExported() || f.Type != portType || v.Field(i).IsNil() {
					continue
				}
				port := v.Field(i).Interface().(sim.Port)
				if port.Component() != u {
					continue // a peer's port the unit sends to
				}
				checked++
				if !listed[port] {
					t.Errorf("%s: %s.%s (%s) is not among the unit's ports", m.name, u.Name(), f.Name, port.Name())
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no port fields found on %d units", m.name, len(p.Units))
		}
	}
}
