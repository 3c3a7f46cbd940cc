// Package scenetest is test support for tests that run a whole frame: it
// encodes a built-in scene at a chosen resolution, as the driver does for a
// run. Only _test.go files import it.
package scenetest

import (
	"testing"

	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// EncodeBuiltin encodes the built-in scene name at w x h pixels with samples
// samples per pixel, with the driver's default options; a failure fails t.
func EncodeBuiltin(t testing.TB, name string, w, h, samples int) *driver.Frame {
	t.Helper()
	s, err := scene.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResolution(w, h, samples); err != nil {
		t.Fatal(err)
	}
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return f
}
