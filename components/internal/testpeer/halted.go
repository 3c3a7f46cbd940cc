package testpeer

import (
	"strings"
	"testing"
)

// CheckHalted checks err, the reason a unit halted the platform with: it must
// name the unit first ("<unit>: ...") and contain want.
func CheckHalted(t testing.TB, err error, unit, want string) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), unit+": ") || !strings.Contains(err.Error(), want) {
		t.Fatalf("halt reason %v, want one from %s containing %q", err, unit, want)
	}
}
