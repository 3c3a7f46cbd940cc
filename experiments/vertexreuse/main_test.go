package main

import (
	"os"
	"testing"

	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

func TestQuietRules(t *testing.T) {
	progresstest.Check(t, func(args []string, getenv func(string) string, stderr *os.File) (progresstest.Printed, error) {
		o, err := parseFlags(args, getenv, stderr)
		return progresstest.Printed{Log: o.Log, Summary: o.Summary, Bar: o.Bar, Every: o.Instruments.ProgressEvery}, err
	})
}
