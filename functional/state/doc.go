// Package state tracks the GPU state that the command stream sets and resolves each
// draw into a self-contained snapshot (Draw): the shaders decoded from memory, the
// constants at the time of the draw (state versioning: later SetConstants do not
// affect a draw already issued), textures and render targets as views of simulated
// memory, and the fixed-function state converted to the functional packages' types.
//
// The reference renderer and the timed command processor both apply commands through
// a Tracker, so they see exactly the same draws. Errors name the command's address,
// the command and the field or binding at fault.
//
// Render targets and textures are views of the memory image (no copy): what a draw
// renders into a target is visible to a later draw that binds the same bytes as a
// texture.
package state
