// Package shader models the programmable shader units of a D3D10/11-class GPU
// (Giesen, "A trip through the Graphics Pipeline 2011", parts 3, 4 and 8): a
// vec4-register instruction set in the style of shader bytecode, its text
// assembler, a binary encoding stored in simulated memory, and an interpreter
// that runs one program over a warp of up to MaxLanes lanes in lockstep.
//
// # Registers
//
// r0..r31 are per-lane temporaries (zero at the start of a warp), v0..v15
// per-lane read-only inputs, c0..c255 read-only constants shared by the warp,
// o0..o15 per-lane write-only outputs (a pixel shader's are its render
// targets, o0..o7), oDepth the pixel depth output (x only),
// s0..s15 texture units. Every register is a vector of four float32.
//
// # Text format (.gsa)
//
// One statement per line; ';' or '#' starts a comment; mnemonics, register
// names, semantics and interpolation modes are case-insensitive, constant,
// parameter and sampler names are not. The stage directive comes first:
//
//	.ps                                  ; or .vs, or .gs (see Geometry shaders)
//	.input v0 texcoord perspective       ; PS: semantic + perspective|noperspective|flat [centroid] (default perspective)
//	.input v1 sv_position                ; PS system value: (X+0.5, Y+0.5, Z, 1/w) of the pixel
//	.input v2 sv_isfrontface             ; PS system value: (1,1,1,1) front facing, (0,0,0,0) back facing
//	.input v0 position                   ; VS: vertex attribute: position normal texcoord tangent color
//	.output o0 color                     ; PS: oN is render target N (semantic color); .output oDepth depth
//	.output o0 position                  ; VS: o0 is the clip-space position, and only o0 has semantic position
//	.output o5 position_end              ; VS: the clip-space position at shutter close (motion blur), any oN but o0
//	.output o1 texcoord                  ; VS: varyings link to PS inputs by semantic (see Link)
//	.const c0 mvp 4                      ; a named block of constant registers filled by the driver
//	.param c16 diffuse 0.8 0.8 0.8 1     ; a material parameter and its default (1 to 4 numbers; missing are 0)
//	.def c20 0 1 0.5 2                   ; a literal constant (1 to 4 numbers; missing are 0)
//	.sampler s0 albedo                   ; a named texture unit (2D)
//	.sampler s1 sky cube                 ; a texture unit for a cube map (also 2darray, 3d)
//	mad_sat r0.xyz, -r1.xxxx, |c2|, r3   ; _sat, negate, |abs| (also -|x|), swizzles, write masks
//
// A swizzle has 1 to 4 letters from xyzw or rgba; a shorter swizzle repeats
// its last letter (.x is .xxxx, .xy is .xyyy). A write mask lists distinct
// letters in order. Every constant register read must be declared by .const,
// .param or .def; every input, output and sampler used must be declared.
//
// # Instructions
//
//	MOV d, a          ADD d, a, b        MUL d, a, b        MAD d, a, b, c   (a*b rounded, then + c)
//	DP3 d, a, b       DP4 d, a, b        (products rounded, summed left to right, replicated)
//	MIN d, a, b       MAX d, a, b        (a NaN operand yields the other one, as in D3D10)
//	SLT d, a, b       SGE d, a, b        (1 or 0)
//	FRC d, a          FLR d, a           (FRC = a - floor(a): FRC(-0.25) = 0.75)
//	LRP d, a, b, c    (a*b + (1-a)*c)    CMP d, a, b, c     (a >= 0 ? b : c)
//	RCP RSQ EX2 LG2 SIN COS d, a         POW d, a, b        (scalar: first component, replicated)
//	DDX d, a          DDY d, a           KIL a              (no destination)
//	TEX d, coord, sN  TEXB d, coord, sN  TEXL d, coord, sN  TEXD d, coord, ddx, ddy, sN
//
// RCP x = 1/x (RCP 0 = +Inf), RSQ x = 1/sqrt(|x|), LG2 x = log2(|x|)
// (LG2 0 = -Inf), POW a, b = 2^(b*log2(|a|)) (so POW 0, 0 is NaN). Float
// semantics are float32 with explicit rounding after each operation (no
// fused multiply-add); the transcendentals (RSQ EX2 LG2 POW SIN COS) are
// computed in float64 with Go's math package and rounded once to float32.
// _sat clamps the result to [0,1], NaN becoming 0. Each opcode has a class
// for the timing model (Opcode.Class: ALU, SFU, derivative, texture, kill,
// emit).
//
// # Pixel shader specifics
//
// In a pixel shader each aligned group of 4 lanes is a quad in pixel order
// (0,0), (1,0), (0,1), (1,1). DDX and DDY are fine derivatives: ddx = v[x=1]
// - v[x=0] of the lane's row, ddy = v[y=1] - v[y=0] of its column; lanes of
// an incomplete trailing quad, and every lane of a vertex shader, get 0. KIL
// kills a lane when any component of its operand is < 0; killed and helper
// lanes keep executing (they provide derivatives) but the caller stores only
// the lanes of Warp.StoreMask. KIL and TEXB are not allowed in a vertex
// shader; TEX in a vertex shader samples LOD 0.
//
// A sampler is declared for a type of texture, `.sampler sN name [type]`
// with type 2d (the default), 2darray, cube or 3d (SamplerDecl.Type); the
// type fixes the coordinates its texture instructions read (Instr.TexCoords):
// coord.xy for 2d, coord.xyz for the others (the layer in z for 2darray, a
// direction for cube, uvw for 3d). TEX takes its LOD from the quad
// derivatives of those coordinates, TEXB adds the bias coord.w, TEXL uses the
// LOD coord.w, TEXD the gradients ddx and ddy (the same components). Requests
// go through the TextureSampler interface (Step, Run) or, for the timed
// shader core, as a request/response pair (TexRequests, CompleteTex).
//
// # Geometry shaders
//
// A geometry shader (.gs) runs once per input primitive (times .instances),
// one invocation per lane:
//
//	.gs
//	.input_primitive triangle_adj   ; point, line, triangle, line_adj, triangle_adj
//	.output_topology triangle_strip ; point, line_strip, triangle_strip
//	.max_vertices 12                ; 1..1024, and max_vertices * 4 * outputs <= 1024 scalars
//	.instances 2                    ; optional, 1..32: D3D11's [instance(n)], n invocations per primitive
//	.input v0 position 0            ; semantic of a VS output, and the primitive's vertex (0..5)
//	.input v1 sv_primitiveid        ; the primitive's index in its draw (strip-cut indices take none)
//	.input v2 sv_gsinstanceid       ; the invocation's instance, 0 .. instances-1
//	.output o0 position             ; o0 is the clip position, as in a vertex shader
//	emit                            ; append o0.. to the lane's output strip
//	emitc r0                        ; emit where no component of r0 is < 0 (data-dependent output)
//	cut                             ; end the strip
//
// The instances of a primitive run as consecutive invocations, so their output
// follows in instance order before the next primitive's (D3D11's order).
// Output strips are cut into primitives in D3D's order (pipeline.AssembleEmitted):
// a triangle strip's triangle i is its vertices (i, i+1, i+2) when i is even and
// (i, i+2, i+1) when odd, leading with vertex i; a line strip's line i is (i, i+1);
// after a cut the next strip starts even again.
//
// Adjacency vertices follow D3D10: a line is 1-2 with neighbours 0 and 3, a
// triangle 0, 2, 4 with the vertex across 0-2 at 1, 2-4 at 3, 4-0 at 5. The
// output registers keep their values after an emit. A program whose
// unconditional emits exceed .max_vertices does not assemble; at run time
// an emit past the limit (an emitc) is dropped and counted in
// Stats.EmitsDropped, never stored. Warp.Emitted and Warp.EmittedVertex read
// a lane's output buffer back (functional/pipeline.AssembleEmitted cuts it
// into primitives). Texture instructions sample LOD 0, as in a vertex shader.
//
// # Analysis
//
// Instr.Reads and Instr.Writes give the registers and components each
// instruction reads and writes (Instr.ReadMask one source's components after
// its swizzle, Instr.TempRead the temp a source reads, the one home of that
// test for the analyses), Program.Dependencies the operation DAG,
// Program.Resources the counts a core allocates by and a multipass
// partitioner checks (instructions, ALU and texture operations, temporaries,
// interpolants, constants, samplers, texture dependency depth).
//
// # Binary form and determinism
//
// Program.Encode and Decode convert to and from the binary form described in
// encode.go; they round-trip exactly. Everything here is deterministic and
// free of global mutable state; the interpreter does not allocate per
// instruction (a Warp preallocates its registers for its lane capacity).
package shader
