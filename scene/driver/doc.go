// Package driver plays the role of the user-mode graphics driver: it turns a scene
// into what the GPU consumes, a command stream and the resources it refers to, laid
// out in a simulated memory image (package functional/command).
//
// For each frame it allocates the render targets (colour RGBA8, or RGBA10 for SAGE, and depth D24S8 by
// default, with the scene's samples per pixel), uploads every texture (2D, array,
// cube or 3D) converted to its storage format, block-compressed for BC1-BC5 with
// texture.EncodeBlock, with its mip chain in the configured texel layout, together
// with a texture descriptor (its sampler settings go into BindTexture; Frame.Textures
// says where each texture lives), every
// mesh as an interleaved vertex buffer (position, normal, texcoord, tangent, colour
// when present; float32) and an index buffer (16-bit indices when they fit, else
// 32-bit), the shader programs of the materials in their binary form, and one
// constant buffer per draw and stage. The command stream sets the targets, clears
// them, then for each object in scene order emits only the state that changed since
// the previous draw (as a real driver filters redundant state), binds the buffers and
// issues a DrawIndexed; it ends with a Present, a sync token (the frame's fence, after the present) and End.
//
// Multipass rendering (multipass.go): when Options.Multipass sets per-pass
// fragment-program limits (the machine's multipass section), a draw whose
// pixel shader does not fit them in one pass is split by RDS
// (functional/shader/multipass, exact-derivative mode) and drawn once per
// pass with the pass's generated program: every pass but the last renders
// opaque into an RGBA32F intermediate target tiled in 4x4 pixels, which later
// passes bind as a point-sampled texture over the same bytes; the first pass
// tests and writes depth as the material says, the later ones test Equal
// without writing, so the same fragments shade in every pass; a sync token
// after each pass but the last lets it finish before the next fetches what it
// saved. Frame.Multipass lists the split draws; the intermediates are listed
// in Frame.Textures (so their reads are counted by texture).
//
// Frame.DrawEstimates holds each draw's estimated work for progress reports
// (DrawEstimate: its triangles' screen area through its mvp, clipped to the
// view frustum and culled as its state says, and its primitives); it is a guess
// made before anything runs, which no statistic uses.
//
// Geometry shaders and stream-out (geometry.go): a material with a geometry
// shader binds it (and unbinds it for the next draw without one); an object's
// topology draws its mesh as points (a non-indexed Draw of its vertices) or as
// triangles with adjacency (an index buffer built once per mesh, neighbours
// matched by position); stream_out binds the scene's stream buffer (every
// output of the last stage before the pixel shader, 16 bytes each) and turns
// stream-out on for the draw only; draw_auto binds the buffer as the vertex
// buffer with the layout that reads those outputs back and issues DrawAuto
// with the buffer's counter. Frame.StreamBuffers says where the buffers live.
//
// Index reordering (reorder.go): with Options.ReorderIndices > 0 the driver
// uploads the index buffer of each mesh whose every draw is order-independent
// (opaque, depth tested with less/greater (or equal) and depth written:
// OrderIndependent), streams nothing out and has no geometry shader that reads
// sv_primitiveid (Reorderable) with its triangles reordered for vertex reuse by
// vertexcache.Tipsify; the triangles and their windings stay the same, so the
// image changes only where two triangles of the mesh meet a sample at exactly
// the same depth. Blended meshes keep their order. With
// Options.ReorderVertices the vertex buffer of each reordered mesh is stored
// in the order the new list first uses its vertices (vertexcache.FetchOrder),
// which changes no value. The reference renderer and the timed machine read
// the same buffers from the frame's memory. MeshOrders returns what the
// driver uploads.
//
// Constants follow the library ABI (functional/shader/library): named blocks mvp,
// mvp_end, model, normal_matrix, camera_pos, ambient, light_count, lights, and the
// material parameters. Directional lights are passed as the direction towards the
// light (w = 0), point lights as their position (w = 1).
//
// Lens, shutter and motion (what the 5D rasterizer needs; the MSAA pipeline ignores
// them and renders at shutter open):
//   - mvp = P * V * M at shutter open; mvp_end = P * V_end * M_end at shutter close,
//     with V_end = BlurLerp(V, Camera.ViewEnd(), Blur) and M_end =
//     BlurLerp(Transform, EndTransform, Blur) (Scene.ViewProjectionEnd,
//     Scene.EndTransform: a matrix lerp a + Blur*(b - a), exact for blur 0 and 1). A
//     static object under a static camera, or blur 0, gets mvp_end == mvp bit for bit.
//     Every library vertex shader writes position_end = mvp_end * position.
//   - SetLens, once per frame after the viewport (LensOf): Kx = P00*R/F, Ky = P11*R/F,
//     F with R = Aperture * Blur and F = FocusDistance (command.Lens gives the shear
//     and its derivation); a pinhole sends Kx = Ky = 0. The shutter interval is not
//     sent: it is folded into mvp (open) and mvp_end (close), so sample time t in
//     [0, 1] spans them.
//   - SetDecoupling, the material's Decoupled setting, before the first draw and
//     whenever it differs from the previous draw's (redundant-state filtering, as for
//     the other state; multipass passes too).
package driver
