package timing

import "github.com/sarchlab/akita/v3/tracing"

// Task is the trace task of the one operation of its kind a unit carries out
// at a time (a control command, from its arrival to the unit's answer): its
// ID while it runs, "" otherwise. Start and End report it only when called,
// so a unit calls Start only when a tracer is attached.
type Task struct{ ID string }

// Start starts the task id of the given kind (what describes it) below the
// task parent in domain.
func (t *Task) Start(domain tracing.NamedHookable, id, parent, kind, what string) {
	t.ID = id
	tracing.StartTask(id, parent, domain, kind, what, nil)
}

// End ends the running task, if any, in domain.
func (t *Task) End(domain tracing.NamedHookable) {
	if t.ID != "" {
		tracing.EndTask(t.ID, domain)
		t.ID = ""
	}
}
