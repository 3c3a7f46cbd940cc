// Command check runs the labs of labs/ and verifies that the outputs a student needs exist
// and are well formed, so that a course can tell when a lab breaks.
//
//	go run ./labs/check LAB...      # one or more labs, by folder name or number (01, 01-vertex-batching)
//	go run ./labs/check all         # every lab
//	go run ./labs/check -full 04    # the lab's full settings (the commands its README gives)
//	go run ./labs/check -list       # the labs and their commands
//
// Each lab folder labs/NN-name/ holds a lab.yaml: its title and its commands, each an
// experiment binary (render, zcull, texcache, rds, decoupled, sage) with the arguments of
// the lab's small settings (small, what the checker and CI run) and of its full settings
// (full, what the README tells the student to run), and the outputs each must produce:
//
//	title: Vertex batching and reuse
//	commands:
//	  - name: batch8
//	    program: render
//	    small: -config labs/01-vertex-batching/batch8.yaml -scene smalltris -width 160 -height 90
//	    full:  -config labs/01-vertex-batching/batch8.yaml -scene smalltris -width 640 -height 360
//	    outputs:
//	      files: [image.png, config.yaml]
//	      stats: [{file: stats.json, keys: [GPU.cycles, GPU.InputAssembler.batches]}]
//	      csv:   [{file: results.csv, columns: [sweep, scene]}]
//	      json:  [points/*.json]
//	    full_outputs: ...   # optional; the outputs of the full settings when they differ
//
// The checker builds every binary the selected labs need once (go build into a temporary
// folder), runs each command from the repository root with "-q -o OUT/<lab>/<command>"
// appended, and then checks: every files pattern matches at least one file; every json
// pattern matches at least one file and each parses; every stats key exists in its file and
// is a finite number; every CSV has the named columns and at least one row. The README of a
// lab quotes each full command as "go run ./experiments/PROGRAM FULL -o out/labs/NN-name/NAME"
// (the test checks it). Errors name the lab, the command and the missing output. Output goes
// to a temporary folder, removed at the end unless -keep DIR is given.
package main
