package testpeer

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// CheckCommandTask checks the task a unit reports for the command message
// msgID (a FlushCmd: kind protocol.KindFlush): exactly one task of kind,
// "<kind><msgID>", below the sender's req_out task of the message, and
// ended. It returns the task's ID.
func (l *TaskLog) CheckCommandTask(t testing.TB, kind, msgID string) string {
	t.Helper()
	id, parent := kind+msgID, protocol.ReqOutTaskID(msgID)
	if tasks := l.OfKind(kind); len(tasks) != 1 || tasks[0].ID != id || tasks[0].ParentID != parent || !l.Ended[id] {
		t.Fatalf("%s tasks %+v, want one %q below %q, ended", kind, tasks, id, parent)
	}
	return id
}
