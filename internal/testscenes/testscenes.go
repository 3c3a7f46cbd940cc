// Package testscenes finds the real meshes made by others that tests use:
// ../shared/scenes beside the repository (see its PROVENANCE.md). A test that
// needs them skips when they are absent, and fails instead when the
// environment variable CI is set, so a CI run never passes by skipping them.
package testscenes

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared scenes folder: ../shared/scenes next to the module
// root (the folder holding go.mod, found upwards from the working directory).
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return require(t, filepath.Join(filepath.Dir(dir), "shared", "scenes"))
		}
	}
	t.Fatal("testscenes: no go.mod above the working directory")
	return ""
}

// File returns the shared scenes file rel (a path inside Dir).
func File(t testing.TB, rel string) string {
	t.Helper()
	return require(t, filepath.Join(Dir(t), rel))
}

// require returns p when it exists; else the test skips, or fails under CI.
func require(t testing.TB, p string) string {
	t.Helper()
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing (CI is set: the shared scenes must be present beside the repository)", p)
		}
		t.Skipf("%s not available (../shared/scenes is missing; with CI set this fails)", p)
	}
	return p
}
