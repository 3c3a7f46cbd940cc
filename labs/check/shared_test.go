package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/internal/testscenes"
)

// TestInstructorSharedSizes: the sizes INSTRUCTOR.md gives for the readings
// students are handed (../shared/seeds/*.txt and ../shared/docs/*.md) are
// their files' sizes in kB (1000 bytes), rounded. Skipped without ../shared,
// failed without it under CI (testscenes).
func TestInstructorSharedSizes(t *testing.T) {
	shared := filepath.Dir(testscenes.Dir(t))
	guide, err := os.ReadFile(filepath.Join("..", "INSTRUCTOR.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(guide)), " ")
	for _, tc := range []struct{ pattern, re string }{
		{"seeds/*.txt", `\(the five source documents, (\d+) KB\)`},
		{"docs/*.md", `\(their digests, (\d+) KB\)`},
	} {
		m := regexp.MustCompile(tc.re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("INSTRUCTOR.md: no %q", tc.re)
		}
		files, err := filepath.Glob(filepath.Join(shared, tc.pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v files, %v", tc.pattern, len(files), err)
		}
		var total int64
		for _, f := range files {
			fi, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			total += fi.Size()
		}
		want := strconv.FormatInt((total+500)/1000, 10)
		if m[1] != want {
			t.Errorf("INSTRUCTOR.md gives ../shared/%s as %s KB; the files hold %d bytes, %s KB", tc.pattern, m[1], total, want)
		}
	}
}
