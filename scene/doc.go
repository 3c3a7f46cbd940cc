// Package scene holds gfxsim's workloads: the scene data model, the YAML scene
// format with its parser and validation, the built-in scenes, and the wrapping
// of bare mesh files into scenes. The driver (package scene/driver) turns a
// Scene into a command stream; meshes come from package scene/mesh and images
// from package scene/teximage.
//
// # What a scene models
//
// A Scene is one frame for a D3D10/11-class pipeline: the render-target size
// and MSAA sample count, clear values, a perspective camera with a thin lens
// (aperture, focus distance) and a shutter interval for motion and defocus
// blur, up to four lights (the shader ABI's light slots), and the resources
// and draws of the frame:
//
//   - Textures: RGBA8 images (one, or the faces of a cube map, the layers of
//     an array, the slices of a volume) with their storage format (the driver
//     converts and block-compresses them), mipmapping and sampler settings
//     (filter up to anisotropic, address modes per axis, border colour, LOD
//     bias and range).
//   - Meshes: indexed triangle lists (*mesh.Mesh) with normals, texture
//     coordinates and tangents.
//   - Materials: a shader of the library (functional/shader/library) with its
//     parameters and texture bindings, and the fixed-function state (culling,
//     front face, depth test/write/function, blend preset).
//   - Objects: the draws, in API order, each a mesh, a material and its
//     model-to-world matrices at shutter open and close.
//
// Everything with an order is a slice; objects refer to meshes, materials and
// textures by index, so a driver needs no name lookups. Scene.Validate checks
// that a scene (parsed or built in code) is complete and consistent.
//
// # Loading
//
//	s, err := scene.Open("room")                       // a built-in (see BuiltinNames)
//	s, err := scene.Load("scenes/demo.yaml")           // a scene file
//	s, err := scene.FromMeshFile("bunny.obj")          // a mesh with a default camera and light
//	s, err := scene.Builtin(scene.DefaultName,
//		scene.WithResolution(320, 180), scene.WithSamples(1)) // small test renders
//
// The file format is documented in FORMAT.md (next to this file): every key,
// its type, default and meaning, the procedural meshes and textures, and the
// shader table. Errors name the file, the line and the field path
// ("room.yaml:42: materials.brick.textures.normal: unknown texture
// \"brick_n\""), or for mesh and image files their own position; nothing
// panics on bad input.
//
// # Untrusted files
//
// Scene files come from other people, so loading follows package
// internal/inputs: files a scene names must lie inside the scene file's
// folder tree or a folder given with WithAllowPaths (-allow-path), after
// resolving links; only regular files within a cap per kind are read; every
// image's decoding is checked against the memory budget from its header and
// every image a texture keeps is reserved in it as it is made (WithBudget);
// Texture.StorageBytes and Scene.FrameBytes estimate what the driver builds;
// errors quote at most a short escaped excerpt of the file being parsed.
//
// # Conventions
//
//   - Right-handed world, Y up; the view looks down -Z; the projection is
//     D3D's (depth 0 at near, 1 at far). Camera.View and Camera.Projection
//     give the matrices (geom.LookAt, geom.Perspective with aspect
//     Width/Height).
//   - A mesh's front faces +Z (glTF's convention; OBJ has none and is taken
//     to follow it). A mesh's `front` in a scene file turns a file that faces
//     elsewhere to +Z; WithFront frames a bare mesh (FromMeshFile) from its
//     front instead (Front, Spot's OBJ faces -Z).
//   - Meshes are authored counter-clockwise (front faces, outward); they stay
//     counter-clockwise on screen, so materials default to FrontCCW = true
//     (D3D FrontCounterClockwise) with back-face culling.
//   - Texture coordinates have (0, 0) at the top-left of the image; tangents
//     follow glTF (bitangent = w * cross(N, T) towards the image top); normal
//     maps store +Y up.
//   - A directional light's Direction is where the light travels; Color
//     includes the intensity.
//   - Material parameters are stored as given (in the shader's declaration
//     order); parameters not given keep the library's defaults.
//   - Motion: an object's transform and motion poses are linearly
//     interpolated (translation, Euler angles, scale) over the normalised
//     frame time; Transform and EndTransform are the poses at ShutterOpen and
//     ShutterClose. Moving is false when they are equal. The camera's pose
//     (position, target, up) and its end pose (position_end, ...) are
//     interpolated the same way (Camera.View, Camera.ViewEnd, Camera.Moving).
//   - Blur: Scene.Blur (`blur`, WithBlur, SetBlur) scales the lens radius and
//     all motion; Scene.LensRadius, Scene.EndTransform and
//     Scene.ViewProjectionEnd apply it (a matrix lerp, BlurLerp), the stored
//     camera and objects are as written.
//   - Frames: an animated scene has Frames > 1; Load, Builtin, Open and
//     LoadFrame take WithFrame(i) and evaluate keyframed values
//     ({frames: [...], values: [...]}, linear between keys), bats (at tau =
//     frame plus shutter time, in frames) and glTF animations (in seconds:
//     time plus frame/fps) at it.
//   - Decoupled sampling: Material.Decoupled (mode off, on or supersample,
//     rate, adaptive, bilinear), from the material's `decoupled` or the
//     scene's; off by default.
//   - Animated glTF meshes: each node subtree that an animation moves on its
//     own is drawn as its own object (from_file draws per part; with a scene
//     material the parts are merged per moving node into meshes
//     "<mesh>@<node>"), with Transform and EndTransform from the animation at
//     shutter open and close (mesh.Model.Motion).
//   - Determinism: procedural content depends only on its parameters and
//     seeds; the same file gives the same scene, bit for bit.
//
// The shader names, parameters and samplers scenes are checked against live
// in one table, Shaders(), which mirrors functional/shader/library.
package scene
