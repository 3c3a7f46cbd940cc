// Package testframe gives tests a built-in scene at a frame size and sample
// count, and that scene encoded by the driver: the first steps of every test
// that renders or simulates a built-in scene. A failure ends the test.
package testframe

import (
	"testing"

	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// Scene returns the built-in scene name at w x h pixels with samples per
// pixel (0: the scene's own).
func Scene(t testing.TB, name string, w, h, samples int) *scene.Scene {
	t.Helper()
	s, err := scene.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResolution(w, h, samples); err != nil {
		t.Fatal(err)
	}
	return s
}

// Encode returns Scene(name, w, h, samples) and its frame encoded with the
// driver options o.
func Encode(t testing.TB, name string, w, h, samples int, o driver.Options) (*scene.Scene, *driver.Frame) {
	t.Helper()
	s := Scene(t, name, w, h, samples)
	f, err := driver.Encode(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

// EncodeDefault returns the frame of Scene(name, w, h, samples) encoded with
// the driver's default options.
func EncodeDefault(t testing.TB, name string, w, h, samples int) *driver.Frame {
	t.Helper()
	_, f := Encode(t, name, w, h, samples, driver.DefaultOptions())
	return f
}
