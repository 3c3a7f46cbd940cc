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
//
// A texture binding (TextureBinding) resolves the descriptor in memory to a
// texture.Texture of its type (2D, array, cube, 3D), format and layout, and the
// BindTexture payload to a texture.SamplerState (filter, address modes per axis,
// LOD bias and range, maximum anisotropy, border colour). A draw whose shader
// declares a sampler for one texture type while a texture of another type is
// bound to that unit is an error.
//
// SetLens and SetDecoupling are tracked like any state: each draw's snapshot
// carries the lens (Draw.Lens, a pinhole until set) and the decoupled-sampling
// setting (Draw.Decoupling, command.DefaultDecoupling until set) in effect
// when it was issued.
package state
