package expt

import (
	"flag"
	"io"
	"os"
	"testing"
)

func TestStudyFlagsParse(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-shard", "3/3"}, `invalid value "3/3" for flag -shard: K (this shard) is 3; it must be in 0..2, shards count from 0`},
		{[]string{"-q", "-v"}, "-q and -v: -q prints no progress, -v asks for it in CI; give one"},
		{[]string{"-merge", "-shard", "0/2"}, "-merge and -shard 0/2: a merge reads the points of every shard; drop -shard"},
		{[]string{"-q"}, ""},
	}
	for _, tc := range tests {
		var sw SweepFlags
		sf := StudyFlags{Sweep: &sw}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		sf.Register(fs)
		err := sf.Parse(fs, tc.args, func(string) string { return "" }, os.Stderr)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
		if err == nil && (sf.Log != nil || sf.Bar) {
			t.Errorf("%v: -q still logs or shows a bar", tc.args)
		}
	}
}
