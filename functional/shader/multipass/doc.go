// Package multipass splits a fragment shader that does not fit a machine's
// per-pass resources into several rendering passes: the Recursive Dominator
// Split (RDS) of Chan, Ng, Sen, Proudfoot and Hanrahan, "Efficient
// Partitioning of Fragment Shaders for Multipass Rendering on Programmable
// Graphics Hardware" (Graphics Hardware 2002), with the pieces it is built
// from and measured against.
//
// # The model
//
// A shader is a DAG of operations (Graph): node i is an instruction, its kids
// the instructions whose results it reads (reaching definitions per register
// component, so one operand may read several producers); nodes are numbered
// in program order and the root writes the output. A partition marks nodes:
// a node is marked if and only if it is the root of a pass (the root of the
// DAG always is). The subregion of a node is the node and, recursively, its
// unmarked kids; the pass of a marked node computes its subregion and
// restores the marked kids it reads. Operations reachable from several passes
// are recomputed in each.
//
// Each pass has one 4-component output (o0). A saved value is written to a
// float render target (RGBA32F: exact) and comes back by a texture fetch in
// the passes that read it: the restore
//
//	mul  rA, sv_position, inv_target_size   ; once per pass, before the first restore
//	texl rX.mask, rA, sK                    ; in place of the saved instruction
//
// fetches level 0 at the pixel's own texel of the intermediate texture k that
// holds the value (sampler IntermediateName(k), "intermediate<k>"). After
// partitioning, the passes are ordered (postorder of their roots: every pass
// after the passes whose values it reads) and the saved values are assigned
// to intermediate textures by Chaitin's graph colouring of their lifetimes (a
// pass never renders into a texture it reads), which uses as few textures as
// values are ever live at once.
//
// # The back end: VALID by code generation
//
// Shader is the compiler back end for gfxsim's ISA (functional/shader).
// Analyze normalizes a pixel shader (several writes of o0 are assembled in a
// free temporary and moved once; dead code is removed) and builds its DAG.
// VALID generates the candidate pass for real: its instructions in program
// order with restores in place of the saved instructions; definitions that
// reach a common use form webs and share a register; registers are
// allocated by colouring the webs' live intervals in order of their starts,
// a web taking the lowest register whose components it uses are free (so
// scalars in x and y share a register, as in hand-written code). The pass's
// Usage counts its instructions (o: restores and their address included),
// registers (r), texture units (t: the program's samplers plus one per
// restored value), interpolants (v: varyings read, plus one for the screen
// position when the pass restores: the one vertex interpolant of the
// document's minimum), input registers, and the longest chain of dependent
// fetches (a restore is depth 1). Limits holds a machine's per-pass limits
// (0 = unlimited; the ISA's 32 temporaries, 16 units and 16 inputs always
// apply); PipelineConfigs are PC1-PC8 of the document's Table 2.
// PassProgram emits the pass as a shader.Program with declarations.
//
// # The algorithms
//
//   - COST (CostModel): c_p*passes + c_t*texture fetches + c_i*other
//     instructions, summed over the passes; CostModels are the five models of
//     section 5.2.
//   - RECOMPUTE (Limits.Recompute): recompute a subregion iff each resource
//     is under half its limit. MERGE (Limits.Less): the pass using fewer
//     resources; when neither uses less of every resource, the smaller sum of
//     the fractions of the limits used, then fewer operations, registers,
//     units, interpolants, levels; then the first candidate.
//   - Greedy bottom-up merging (section 3.2): in postorder, merge each node
//     with the subregions of as many of its unmarked kids as give a valid
//     pass, largest subsets first, MERGE among equals; the others are marked.
//     Problem.Greedy applies it to the whole DAG.
//   - Graph.Dominators (Cooper, Harvey and Kennedy), the dominator tree and
//     the partial dominator tree (PDT: multiply-referenced nodes, their
//     immediate dominators and the root).
//   - RDS_h (Problem.RDSh, section 3.4): Subdivide the PDT from its root: if
//     a node's subregion is invalid, subdivide its PDT children in postorder
//     and decide save or recompute for each multiply-referenced child by
//     RECOMPUTE; then merge greedily.
//   - RDS (Problem.RDS, section 3.5): for each multiply-referenced node in
//     postorder, run Subdivide with the node fixed as saved and as
//     recomputed (the decision applies when Subdivide reaches it) and keep
//     the cheaper; the result is the last partition.
//   - The exhaustive optimum (Problem.Optimal, section 3.1) by branch and
//     bound over all markings, with a step budget (and an optional stop
//     callback for a wall-clock budget); it reports whether it finished
//     (SearchResult.Complete) or gave up with the best partition found.
//   - Problem.Partition evaluates a given marking.
//
// Two safeguards go beyond the document's pseudocode. A node marked late
// (a multiply-referenced kid that its second parent cannot merge) turns a
// recomputation in an earlier pass into a restore, which can push that pass
// over a limit (a restore takes a texture unit and the interpolant); such
// passes are merged again until every pass is valid. And before any search
// each node is checked to fit a pass with all its operands restored; if one
// does not, no partition exists and the error (ImpossibleError) names the
// instruction and the limit.
//
// # Exact multipass rendering
//
// A restore is exact in the lanes a pass stored, but a quad's helper lanes
// (and lanes covered by a neighbouring triangle) fetch another fragment's
// value, so a derivative of a restored value (DDX, DDY, the implicit LOD of
// TEX and TEXB) can differ from the single pass. With
// Options.ExactDerivatives, every node in the operand cone of a derivative
// is never saved (Graph.NoSave): it is recomputed in the pass that takes the
// derivative, and multipass rendering equals the single pass bit for bit.
// Shaders with KIL, oDepth or several render targets are rejected.
//
// Everything here is deterministic: no maps are iterated for results, ties
// are broken by node order, and budgets count steps, not time.
package multipass
