package expt

import (
	"io"
	"testing"
)

// CheckShardsMatch is a study's TestShardsMatch: ShardsMatch with n shards in
// a temporary folder, failing t on the first difference; skipped with -short.
func CheckShardsMatch(t *testing.T, n int, run func(out string, f SweepFlags, w io.Writer) error) {
	t.Helper()
	if testing.Short() {
		t.Skip("short mode")
	}
	if err := ShardsMatch(t.TempDir(), n, run); err != nil {
		t.Error(err)
	}
}
