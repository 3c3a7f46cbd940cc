// Package pipeline holds the per-stage operations of the D3D10/11-class pipeline,
// built from the functional packages, at the granularity the hardware works in: a
// vertex batch, a triangle, a quad. The reference renderer (functional/reference)
// strings them together in API order; the timed components of components/ call the
// same functions at the moments the hardware would, so both produce the same image
// bit for bit.
//
// The stages:
//
//   - ShadeBatch: fetch the batch's vertices and run the vertex shader over them
//     (warps of up to 64 lanes: a batch larger than shader.MaxLanes runs as
//     several).
//   - ShadeGeometry (geometry.go): the geometry shader over a batch's primitives
//     (up to 64 per warp), then the second primitive assembly (AssembleEmitted)
//     that cuts each lane's output strips into primitives, in API order;
//     PassThrough gives a batch's primitives without a geometry shader.
//   - StreamOutWriter: stream-out of the primitives in API order to the draw's
//     buffers, with D3D11's overflow rule and the filled-size counters and
//     statistics in memory.
//   - Geometry.Triangle (a Geometry per draw, NewGeometry): clip codes,
//     trivial reject, clipping against the near, far and guard-band planes
//     (clipped polygons are fanned from their first vertex), perspective
//     divide, viewport transform, snapping, culling and triangle setup,
//     producing Primitives with their vertices' attributes.
//   - EarlyDepth / LateDepth: the per-sample depth/stencil test of a quad, before or
//     after shading.
//   - LoadQuad: the pixel shader inputs of one quad (interpolated attributes, system
//     values, helper lanes).
//   - WriteQuad: the output merger for one shaded quad: late depth/stencil when
//     needed, then blending and the write to the render target.
//
// Early Z runs when the pixel shader neither discards nor writes depth
// (depth.EarlyZAllowed); otherwise the depth/stencil test runs after shading. The
// choice is made per draw and both paths give the same image.
package pipeline
