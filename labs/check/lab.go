package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// programs are the experiment binaries a lab may run (the folders of experiments/).
var programs = map[string]bool{
	"render": true, "zcull": true, "texcache": true, "rds": true, "decoupled": true, "sage": true,
}

// Lab is one folder labs/NN-name/ and its lab.yaml.
type Lab struct {
	Dir      string        `yaml:"-"` // folder name, e.g. 01-vertex-batching
	Title    string        `yaml:"title"`
	Commands []Command     `yaml:"commands"`
	Expect   []Expectation `yaml:"expect"`
}

// Command is one run of an experiment binary, at the lab's small and full settings.
type Command struct {
	Name        string   `yaml:"name"`
	Program     string   `yaml:"program"`
	Small       string   `yaml:"small"`
	Full        string   `yaml:"full"`
	Outputs     Outputs  `yaml:"outputs"`
	FullOutputs *Outputs `yaml:"full_outputs"`
}

// Outputs are what a command must leave in its output folder. Paths are relative to it and
// may be glob patterns.
type Outputs struct {
	Files []string     `yaml:"files"`
	JSON  []string     `yaml:"json"`
	Stats []StatsCheck `yaml:"stats"`
	CSV   []CSVCheck   `yaml:"csv"`
}

// StatsCheck names keys of a flat JSON object of statistics that must be finite numbers.
type StatsCheck struct {
	File string   `yaml:"file"`
	Keys []string `yaml:"keys"`
}

// CSVCheck names columns a CSV file must have; it must also have at least one row.
type CSVCheck struct {
	File    string   `yaml:"file"`
	Columns []string `yaml:"columns"`
}

var (
	labDirPattern  = regexp.MustCompile(`^[0-9][0-9]-[a-z0-9-]+$`)
	commandPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// Args returns the command's arguments at the small or full settings.
func (c Command) Args(full bool) []string {
	if full {
		return strings.Fields(c.Full)
	}
	return strings.Fields(c.Small)
}

// Want returns the outputs to check at the small or full settings.
func (c Command) Want(full bool) Outputs {
	if full && c.FullOutputs != nil {
		return *c.FullOutputs
	}
	return c.Outputs
}

// ReadmeCommand is the full command as a lab's README quotes it.
func (c Command) ReadmeCommand(lab string) string {
	return fmt.Sprintf("go run ./experiments/%s %s -o out/labs/%s/%s", c.Program, c.Full, lab, c.Name)
}

// LoadLabs reads every labs/NN-name/lab.yaml under root, in folder order.
func LoadLabs(root string) ([]Lab, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "labs", "*", "lab.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	var labs []Lab
	for _, path := range dirs {
		lab, err := LoadLab(path)
		if err != nil {
			return nil, err
		}
		labs = append(labs, lab)
	}
	if len(labs) == 0 {
		return nil, fmt.Errorf("no labs/*/lab.yaml under %s", root)
	}
	return labs, nil
}

// LoadLab reads and validates one lab.yaml; its folder name is the lab's name.
func LoadLab(path string) (Lab, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Lab{}, err
	}
	var lab Lab
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&lab); err != nil {
		return Lab{}, fmt.Errorf("%s: %w", path, err)
	}
	lab.Dir = filepath.Base(filepath.Dir(path))
	if err := lab.validate(); err != nil {
		return Lab{}, fmt.Errorf("%s: %w", path, err)
	}
	return lab, nil
}

func (l *Lab) validate() error {
	if !labDirPattern.MatchString(l.Dir) {
		return fmt.Errorf("folder %q: want NN-name (two digits, a dash, lower-case words)", l.Dir)
	}
	if l.Title == "" {
		return fmt.Errorf("title: missing")
	}
	if len(l.Commands) == 0 {
		return fmt.Errorf("commands: none")
	}
	seen := map[string]bool{}
	for i, c := range l.Commands {
		field := fmt.Sprintf("commands[%d]", i)
		switch {
		case !commandPattern.MatchString(c.Name):
			return fmt.Errorf("%s.name: %q: want lower-case words and dashes", field, c.Name)
		case seen[c.Name]:
			return fmt.Errorf("%s.name: %q appears twice", field, c.Name)
		case !programs[c.Program]:
			return fmt.Errorf("%s.program: %q is not an experiment (render, zcull, texcache, rds, decoupled, sage)", field, c.Program)
		case c.Small == "" || c.Full == "":
			return fmt.Errorf("%s: small and full arguments are both required", field)
		}
		for _, args := range []string{c.Small, c.Full} {
			for _, a := range strings.Fields(args) {
				if a == "-o" || a == "-q" {
					return fmt.Errorf("%s: %q is added by the checker; leave it out", field, a)
				}
			}
		}
		if err := c.Outputs.validate(); err != nil {
			return fmt.Errorf("%s.outputs: %w", field, err)
		}
		if c.FullOutputs != nil {
			if err := c.FullOutputs.validate(); err != nil {
				return fmt.Errorf("%s.full_outputs: %w", field, err)
			}
		}
		seen[c.Name] = true
	}
	return l.parseExpectations()
}

func (o Outputs) validate() error {
	if len(o.Files)+len(o.JSON)+len(o.Stats)+len(o.CSV) == 0 {
		return fmt.Errorf("nothing to check")
	}
	for _, s := range o.Stats {
		if s.File == "" || len(s.Keys) == 0 {
			return fmt.Errorf("stats: a file and at least one key are required")
		}
	}
	for _, c := range o.CSV {
		if c.File == "" || len(c.Columns) == 0 {
			return fmt.Errorf("csv: a file and at least one column are required")
		}
	}
	return nil
}

// Select returns the labs named by args: "all", a folder name, or its number ("04").
func Select(labs []Lab, args []string) ([]Lab, error) {
	var out []Lab
	for _, a := range args {
		if a == "all" {
			return labs, nil
		}
		found := false
		for _, l := range labs {
			if l.Dir == a || strings.HasPrefix(l.Dir, a+"-") {
				out = append(out, l)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no lab %q (go run ./labs/check -list)", a)
		}
	}
	return out, nil
}
