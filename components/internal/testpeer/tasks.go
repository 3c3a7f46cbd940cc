package testpeer

import "github.com/sarchlab/akita/v3/tracing"

// TaskLog is a tracer (tracing.CollectTrace) that records the tasks a
// component reports: every task started, in order, and the IDs of the tasks
// ended.
type TaskLog struct {
	Started []tracing.Task
	Ended   map[string]bool
}

// StartTask records t.
func (l *TaskLog) StartTask(t tracing.Task) { l.Started = append(l.Started, t) }

// StepTask ignores steps.
func (l *TaskLog) StepTask(tracing.Task) {}

// EndTask records that t ended.
func (l *TaskLog) EndTask(t tracing.Task) {
	if l.Ended == nil {
		l.Ended = map[string]bool{}
	}
	l.Ended[t.ID] = true
}

// OfKind returns the started tasks of kind kind, in order.
func (l *TaskLog) OfKind(kind string) []tracing.Task {
	return l.where(func(t *tracing.Task) bool { return t.Kind == kind })
}

// Below returns the started tasks whose parent is id, in order.
func (l *TaskLog) Below(id string) []tracing.Task {
	return l.where(func(t *tracing.Task) bool { return t.ParentID == id })
}

// where returns the started tasks for which keep holds, in order.
func (l *TaskLog) where(keep func(*tracing.Task) bool) []tracing.Task {
	var out []tracing.Task
	for i := range l.Started {
		if keep(&l.Started[i]) {
			out = append(out, l.Started[i])
		}
	}
	return out
}
