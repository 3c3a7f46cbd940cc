// Package testpeer holds the scripted peers that the component packages' tests
// put around the component under test: a scripted peer that sends a script and
// records what it receives (Peer), a source on one port (Source), a memory
// that answers reads from an image (Memory), a schedule of messages to send at
// given cycles (Schedule; its Serve is the tick of a many-port peer that
// answers through it), and a unit's statistics by name (StatMap, CheckStats)
// and a tracer that records the tasks a unit reports (TaskLog). A paced sender
// (Sender) sends one message a cycle; SendDue is the sending loop of the
// peers, the sources and the fake memories (here and in
// components/rop/backendtest): the due head of a queue of Scripted messages.
// Run starts units and runs a rig's engine; RunAndFinish also closes the
// units' activity accounting, RunClean fails on a halt. NewSink is a Peer
// without a script (its port is In), NewPeers plugs n peers into one
// connection, and Delayed holds messages until their cycle. The frame rig
// (frame.go) encodes scenes (EncodeScene, GeoScene, Builtin), walks their
// command streams (WalkFrame, WalkStream), lists and shades their draws
// (Frame, FrameDraws, ShadeDraw, Primitives, TestDraw) and renders them with
// the reference renderer (Reference). config.go builds units from their
// DefaultConfig (Env, Edit; BuildOn from a timing.Builder) and checks their
// Validate (CheckValidate, CheckInvalid, CheckAtLeast) and their panics
// (Panics); CheckBufferNames and CheckExact check a unit's buffers and exact
// statistics.
//
// It is test support: only _test.go files and the test-support package
// components/rop/backendtest import it (by convention; Go has no test-only
// packages). Every peer runs at 1 GHz, so a cycle is a
// nanosecond, and names its ports "<name>.<port>".
package testpeer
