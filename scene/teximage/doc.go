// Package teximage holds the texture images of gfxsim's workloads: decoding PNG
// and JPEG files into RGBA8, downscaling large images on load, and deterministic
// procedural textures (a solid colour, checker, bricks and their normal map, fractal noise, an
// alpha-masked leaf, a bump normal map, gradients), procedural cube maps (a
// sky: CubeGenerator) and volumes (3D noise and checkers: VolumeGenerator).
//
// Conventions:
//   - An Image is RGBA8, 4 bytes per texel, rows stored top to bottom
//     (row-major, the first row is the top of the picture). A texture
//     coordinate (u, v) = (0, 0) addresses the top-left corner (D3D).
//   - Alpha is straight (not premultiplied): a decoded PNG keeps its alpha as
//     stored; texels with alpha 0 keep a meaningful colour (the procedural leaf
//     fills them with its edge colour) so that filtering does not darken edges.
//   - Colours are float32 in [0, 1]; they become bytes as round(c*255) after
//     clamping. No sRGB conversion is done here: texels are UNORM values (a
//     scene marks a texture sRGB, and the sampler decodes it).
//   - Normal maps are tangent-space, encoded rgb = n*0.5 + 0.5, with +X to the
//     right of the image (+u), +Y to the top of the image (-v) and +Z out of the
//     surface: the OpenGL/glTF convention, the one glTF assets such as
//     DamagedHelmet use, paired with tangents whose bitangent
//     B = w * cross(N, T) points towards -v (see package scene/mesh).
//   - Procedural textures are pure functions of their parameters and seed; the
//     periodic ones (checker, bricks, noise, bumps) tile seamlessly under wrap
//     addressing.
//   - Images are limited to MaxSize texels per side; decoders check the header
//     before allocating: the size, and the decoder's peak memory (width x
//     height x its bytes per pixel for the colour model, interlacing and
//     progressive JPEG coefficients, plus the RGBA8 result) against a memory
//     budget (DecodeWithin; Decode uses the default). Files are read by
//     Cache.Load, through the folder trees that resolved their paths.
package teximage
