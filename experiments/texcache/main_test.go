package main

import (
	"testing"

	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, parseFlags) }
