package scenetest

import "testing"

func TestEncodeBuiltin(t *testing.T) {
	f := EncodeBuiltin(t, "triangle", 48, 32, 4)
	if f.StreamBytes == 0 || f.Memory == nil {
		t.Fatalf("frame %+v: no command stream", f)
	}
}
