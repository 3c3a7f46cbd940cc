// Command check runs the labs of labs/ and verifies that the outputs a student needs exist
// and are well formed, and that they still show what each lab teaches (its expectations),
// so that a course can tell when a lab breaks.
//
//	go run ./labs/check LAB...      # one or more labs, by folder name or number (01, 01-vertex-batching)
//	go run ./labs/check all         # every lab
//	go run ./labs/check -full 04    # the lab's full settings (the commands its README gives)
//	go run ./labs/check -list       # the labs and their commands
//	go run ./labs/check -instructor all  # also print each expectation that holds, with its values
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
//	    full_outputs: ...   # optional; the outputs of the full settings when they differ: they
//	                        # replace outputs, so they repeat everything outputs checks (a test checks it)
//	expect:
//	  - that: batch8:GPU.InputAssembler.vertices > batch32:GPU.InputAssembler.vertices
//	    why: smaller batches shade more vertices (question 1)
//	    at: both            # small, full or both (the default)
//
// The checker builds every binary the selected labs need once (go build into a temporary
// folder), runs each command from the repository root with "-q -o OUT/<lab>/<command>"
// appended, and then checks: every files pattern matches at least one file; every json
// pattern matches at least one file and each parses; every stats key exists in its file and
// is a finite number; every CSV has the named columns and at least one row. The README of a
// lab quotes each full command as "go run ./experiments/PROGRAM FULL -o out/labs/NN-name/NAME"
// (the test checks it). Errors name the lab, the command and the missing output; a lab's first
// failing command ends that lab and the next lab runs, so that all reports every failing lab.
// Output goes to a temporary folder, removed at the end unless -keep DIR is given.
//
// # Expectations
//
// After a lab's commands ran, the checker evaluates its expect list on their outputs: each
// entry is a relation between numbers the commands wrote that must hold for the lab to teach
// what its README asks (ORACLE culls at least as much as ZMASK; a larger reorder buffer
// never makes the frame slower). that is the relation, why the teaching point (it appears
// in the failure message), at the settings it applies to: small (what CI runs), full (what
// the README gives) or both. A relation that holds at one settings only is marked so; one
// that holds at neither is a lab to rewrite, not an expectation to weaken. The relations
// give away the direction of a lab's answers, and students run the checker before a lab:
// a run prints only how many held, and -instructor (with -list: the relations and their
// whys) prints each one.
//
//	relation = expr OP expr                       OP: < <= > >= ==
//	expr     = term { ("+" | "-") term }
//	term     = unary { ("*" | "/") unary }
//	unary    = "-" unary | NUMBER | ref | AGG "(" ref ")" | "(" expr ")"
//	AGG      = sum | min | max | mean
//	ref      = COMMAND ":" KEY                     a statistic of the command's stats.json
//	         | COMMAND ":" FILE.csv "[" [ COLUMN "=" VALUE { "," COLUMN "=" VALUE } ] "]" "." COLUMN
//
// A statistic's key may hold "*" for a unit index (one or more digits), as in
// sum(r4:GPU.PrimitiveAssembly.primitives_sent_r*) or mean(ch16:GPU.Memory.Channel[*].row_hit_rate);
// such a key must be inside an aggregate. A CSV reference reads one column of the rows whose
// cells equal the given values exactly (results.csv[sweep=filter, setting=trilinear].texels;
// [] selects every row); it must select one row unless it is inside an aggregate. A cell
// like 2.08% reads as 0.0208. A column or value holding anything but letters, digits and
// _.+%/- is written as a Go string: frames.csv[machine=R8500]."passes per pin". NUMBER is
// decimal (0.5, 1e9). Command names hold dashes, so put spaces around a binary minus. Write
// the relation as a plain YAML scalar (no ": " and no " #" in it) or quote it.
//
// lab.yaml is read strictly: an unknown field, a missing that or why, a syntax error, a
// command the lab does not have, a statistic that command does not list in its outputs
// (a starred key must match one it lists), and a CSV file or column it does not list at the
// settings the entry applies to (a study writes its CSV files only at full settings) are
// errors naming lab.yaml, the line and the field (expect[2].that). A relation that does not
// hold fails the lab with its why, the relation and both sides' values, and the values of
// the references it read when a side is more than one reference; a statistic, file or row
// missing from the outputs is an error too. Every failing relation of a lab is reported.
package main
