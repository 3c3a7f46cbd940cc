// Command tutorialgen regenerates what docs/tutorial.md quotes: it runs every
// `go run` command of the tutorial's sh blocks from the repository root, fills each
// ```text block that follows an <!-- output: REGEXP --> directive with the lines of
// the closest command above whose output (stdout and stderr) match, and each one after an
// <!-- stats: FILE REGEXP --> directive with the counters of that stats.json whose
// names match, and takes the Daisen screenshots named by <!-- daisen: ... -->
// directives into docs/images/tutorial/ (Daisen served on loopback, opened in
// headless Chromium through ChromeDriver: internal/daisenview).
//
//	go run ./docs/tutorialgen            # excerpts and screenshots
//	go run ./docs/tutorialgen -shots=false  # excerpts only (no browser needed)
//
// The test in this folder runs the same commands and fails when an excerpt the
// tutorial quotes no longer appears in what they print (numbers aside).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	doc := flag.String("doc", "docs/tutorial.md", "the tutorial, from the repository root")
	images := flag.String("images", "docs/images/tutorial", "where the screenshots are written")
	shots := flag.Bool("shots", true, "also take the Daisen screenshots (needs chromium and chromium-driver)")
	flag.Parse()
	if err := generate(*doc, *images, *shots); err != nil {
		fmt.Fprintln(os.Stderr, "tutorialgen:", err)
		os.Exit(1)
	}
}

func generate(doc, images string, shots bool) error {
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run from the repository root (go run ./docs/tutorialgen): %v", err)
	}
	text, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	d, err := parse(string(text))
	if err != nil {
		return fmt.Errorf("%s: %v", doc, err)
	}
	bins, err := os.MkdirTemp("", "tutorialgen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bins)
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	r := &runner{root: root, outRoot: root, binDir: bins, bins: map[string]string{}}
	log := func(s string) { fmt.Fprintln(os.Stderr, s) }
	outs, err := r.runAll(d, log)
	if err != nil {
		return err
	}
	updated, err := r.update(d, outs)
	if err != nil {
		return err
	}
	if err := os.WriteFile(doc, []byte(updated), 0o644); err != nil {
		return err
	}
	if !shots {
		return nil
	}
	if err := os.MkdirAll(images, 0o755); err != nil {
		return err
	}
	return r.takeShots(d.shots, filepath.Clean(images), log)
}
