package timing

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// taskDomain is a named hookable that logs the task events its hooks see.
type taskDomain struct {
	*sim.HookableBase
	log []string
}

func (d *taskDomain) Name() string { return "Unit" }

func (d *taskDomain) Func(ctx sim.HookCtx) {
	t := ctx.Item.(tracing.Task)
	switch ctx.Pos {
	case tracing.HookPosTaskStart:
		d.log = append(d.log, "start "+t.ID+" below "+t.ParentID+" "+t.Kind+" "+t.What)
	case tracing.HookPosTaskEnd:
		d.log = append(d.log, "end "+t.ID)
	}
}

func TestTask(t *testing.T) {
	d := &taskDomain{HookableBase: sim.NewHookableBase()}
	d.AcceptHook(d)
	var task Task
	task.End(d) // nothing runs: nothing ends
	task.Start(d, "flush7", "req_out7", "flush", "flush")
	if task.ID != "flush7" {
		t.Errorf("ID %q while running, want flush7", task.ID)
	}
	task.End(d)
	task.End(d) // already ended
	if task.ID != "" {
		t.Errorf("ID %q after End, want empty", task.ID)
	}
	want := []string{"start flush7 below req_out7 flush flush", "end flush7"}
	if !reflect.DeepEqual(d.log, want) {
		t.Errorf("task events %q, want %q", d.log, want)
	}
}
