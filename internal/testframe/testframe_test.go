package testframe

import "testing"

func TestEncodeDefault(t *testing.T) {
	f := EncodeDefault(t, "triangle", 48, 32, 4)
	if f.StreamBytes == 0 || f.Memory == nil {
		t.Fatalf("frame %+v: no command stream", f)
	}
}
