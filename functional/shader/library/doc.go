// Package library holds gfxsim's material shaders as embedded .gsa files
// (functional/shader assembly) and pairs them into materials.
//
// A material is a vertex shader and a pixel shader, linked by semantic:
//
//	material    vertex shader  pixel shader       .param (default)                          .sampler
//	unlit       standard       unlit.ps.gsa       color (1,1,1,1)                           -
//	gouraud     gouraud        gouraud.ps.gsa     diffuse, specular (w = shininess), in the VS  -
//	blinnphong  standard       blinnphong.ps.gsa  diffuse, specular (w = shininess)         -
//	textured    standard       textured.ps.gsa    tint                                      albedo
//	normalmap   standard       normalmap.ps.gsa   specular (w = shininess)                  albedo, normal
//	alphatest   standard       alphatest.ps.gsa   tint, cutoff (x)                          albedo
//	depthwrite  standard       depthwrite.ps.gsa  color, amplitude (x), frequency (x)       -
//	long        standard       long.ps.gsa        color_a, color_b, specular (w = shininess) -
//	bowlingpin  pin            bowlingpin.ps.gsa  diffuse, specular; slideN_s/_t/_q/_pos in the VS  pinbase, bruns, circle, coated, marks, slide0..slide3
//	bumppin     object         bumppin.ps.gsa     diffuse, specular (w = shininess)         pinbase, bruns, marks, bump
//	wood        object         wood.ps.gsa        ringscale, grainscale, specular, planks   noise, turbulence, grain, palette, planks, varnish
//	envmap      standard       envmap.ps.gsa      tint                                      env (cube)
//	layered     standard       layered.ps.gsa     tint, layer (x)                           layers (2darray)
//	volume      standard       volume.ps.gsa      tint, scale (xyz), offset (xyz)           volume (3d)
//	grass            standard  vcolor.ps.gsa  ground, base, tip, blade, wind, width (x); GS grass.gs.gsa
//	grass_instanced  standard  vcolor.ps.gsa  as grass; GS grass_instanced.gs.gsa (.instances 2)
//	silhouette       standard  unlit.ps.gsa   width (x), bias (x), color; GS silhouette.gs.gsa
//	particle_step    particle  unlit.ps.gsa   dt (x), gravity, lifetime (x), spray (w: spread); GS particle_step.gs.gsa
//	particle_sprite  particle  vcolor.ps.gsa  size (x), hot, cold, lifetime (x); GS sprite.gs.gsa
//
// The geometry shader materials (the fourth column of materialTable) add a
// geometry shader between the two: grass amplifies each triangle into itself
// and a blade (grass_instanced does the same with two instances, the
// triangle in one and the blade in the other), silhouette reads triangles with adjacency and draws the
// silhouette edges as thin quads, particle_step advances a particle system
// by one step for stream-out (points in, points out; sources spawn, old
// particles die) and particle_sprite expands particles into squares. Their
// parameters are the geometry shader's (Material.Params lists VS, GS, PS).
//
// bowlingpin, bumppin and wood are the test shaders of the multipass partitioner
// (functional/shader/multipass), written after the three shaders of Chan et
// al., "Efficient Partitioning of Fragment Shaders for Multipass Rendering on
// Programmable Graphics Hardware" (2002): the RenderMan bowling pin with a
// point light and four textured lights (many interpolants and texture units:
// 7 varyings and 9 samplers), a bump-mapped pin with one point light
// (balanced), and a procedural wood after Gritz's wood2.sl (178 instructions,
// chains of dependent fetches 11 deep). pin.vs.gsa writes o1 pin = (u,
// object-space position), o2 normal, o3 worldpos and, for each textured light
// (a slide projector given by its rows s, t, q and its position, world
// space), o4..o7 = (s, t, N.L, q); object.vs.gsa writes o1 pin, o2 normal, o3
// worldpos, o4 tangent and o5 texcoord. The pin stands along object-space Y
// in [-1, 1]. Their multipass passes read one more named block, inv_target_size
// (1/width, 1/height, 0, 0 of the render target; see the multipass package).
//
// envmap, layered and volume sample the texture types other than 2D: envmap
// reflects the view direction about the normal into a cube map (unlit,
// times tint), layered reads layer (x) of a texture array at texcoord,
// volume reads a 3D texture at worldpos * scale + offset.
//
// The shared vertex shader standard.vs.gsa reads the vertex attributes
// position, normal, texcoord and tangent (xyz + w handedness) and writes o0
// = mvp * position, o1 normal (normal_matrix * normal, world space), o2
// texcoord, o3 worldpos (model * position) and o4 tangent (model * tangent.xyz,
// w = handedness times the model's, normal_matrix row 0's w) and o5 position_end = mvp_end * position (the clip position
// at shutter close, which the 5D rasterizer reads by semantic; it is not an
// interpolant). A mesh without an attribute reads (0,0,0,1) for it, and a
// 3-component position has w = 1: filling missing attributes is the input
// assembler's job.
//
// # The constant ABI
//
// The driver fills the named constant blocks a program declares (.const),
// looking them up by name (shader.Program.ConstBlock):
//
//	mvp            4 registers: the rows of projection*view*model at shutter open
//	mvp_end        4: the same at shutter close (motion blur): every library
//	               vertex shader writes mvp_end * position to its output with
//	               semantic position_end (standard o5, gouraud o2, object o6,
//	               pin o8); for a static object and camera mvp_end == mvp
//	model          4: rows of the model (object to world) matrix
//	normal_matrix  3: rows of model.NormalMatrix(); row 0's w (which dp3
//	               ignores) is the model's handedness, -1 when it mirrors
//	               (negative determinant), else 1
//	camera_pos     1: world-space eye position (xyz)
//	ambient        1: ambient light colour (rgb)
//	light_count    1: x = number of lights (0..4)
//	lights         8: light i at registers 2i and 2i+1: position (w = 1, point
//	               light) or the unit direction from the surface towards the
//	               light (w = 0, directional) at 2i, colour (rgb) at 2i+1;
//	               unused lights are zero
//	inv_target_size 1: (1/width, 1/height, 0, 0) of the render target (the
//	               restores of multipass passes)
//
// The lighting shaders compute L = lights[2i].xyz - P*lights[2i].w, so one
// code path serves both kinds of light; light i contributes only when
// i < light_count. Lighting is ambient*diffuse + sum over lights of
// colour*(diffuse*max(N.L, 0) + specular*(N.H)^shininess), without attenuation.
// The material parameters (.param) default to the values in the .gsa files
// (Program.InitConstants) and are overridden by name; samplers are bound by
// name (Program.SamplerUnit).
package library
