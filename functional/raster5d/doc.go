// Package raster5d is gfxsim's stochastic 5D rasterizer: it tests a triangle
// that moves over the shutter interval and is seen through a thin lens against
// visibility samples in five dimensions, screen x, y, lens u, v and time t, as
// section 5.1 and appendix A of Ragan-Kelley et al., "Decoupled Sampling for
// Graphics Pipelines" (2011) describe. It is pure functional code: the
// reference renderer and the timed rasterizer call the same functions. Per
// visible sample it gives the clip-space barycentrics that functional/decouple
// maps to a shading point, and the sample's depth.
//
// # Conventions
//
// Input positions are clip-space float32 (geom conventions: D3D, 0 <= z <= w)
// at shutter open (p0) and close (p1), unclipped. A vertex moves linearly in
// clip space, p(t) = p0 + t*(p1 - p0), t in [0, 1] the normalized shutter time.
// The lens (Lens{Kx, Ky, F}) shears clip space, z folded into w:
//
//	x' = x + u*Kx*(w - F),   y' = y + v*Ky*(w - F)
//
// with Kx = P00*R/F, Ky = P11*R/F for aperture radius R and focus depth F
// (LensFromProjection). The viewport maps the result to screen-homogeneous
// coordinates h = (hx, hy, w): hx = x'*W/2 + w*(X + W/2), hy = -y'*H/2 +
// w*(Y + H/2), so that the screen position is (hx/w, hy/w) pixels, y down.
// Every operation is float64 from the float32 inputs, each product rounded
// separately (explicit float64 conversions stop fused multiply-adds); the one
// definition of the warped vertex is Triangle.warp.
//
// Samples: pixel (px, py) covers [px, px+1) x [py, py+1); sample s sits at
// (px*256 + 128 + dx_s, py*256 + 128 + dy_s) in 1/256 pixel, (dx_s, dy_s) the
// pattern's offsets (the same in every pixel, as functional/raster places
// them), converted exactly to float64 pixels (value/256).
//
// # Sample pattern
//
// NewPattern takes the x, y offsets and a seed. Lens position and time are
// stored per (px mod 32, py mod 32, s) in flat float32 arrays (32*32*n entries),
// so a look-up is an index. Per pixel, the n samples are drawn in the unit cube
// [0, 1)^3 (two square lens coordinates a, b and t): when n = k^3 (1, 8, 27, 64)
// a jittered k x k x k grid, the cells assigned to samples by a random
// permutation per pixel (so no sample index is tied to a lens or time region);
// otherwise a Latin hypercube, each dimension's n strata holding one sample, by
// three independent permutations per pixel. Each value is uniform inside its
// stratum, rounded to float32 and nudged back into the stratum if the rounding
// left it. (a, b) goes onto the unit disk by Shirley and Chiu's concentric map
// (areas and strata stay compact); t stays in [0, 1). One sample per pixel is
// the k = 1 case: a jittered point per pixel, not (0, 0, 0.5), so blur stays
// unbiased at one sample. The generator is SplitMix64 seeded with the seed, in
// a fixed order: the same seed gives the same pattern.
//
// # Setup and the four cases
//
// Setup classifies the triangle once: Static (p0 == p1 and a pinhole lens),
// Moving (motion, pinhole), Defocused (still, lens), Both. Following Olano and
// Greer, it works in homogeneous 2D without clipping: with the columns h_0,
// h_1, h_2 of the warped triangle at a sample's (u, v, t), the edge function of
// the edge opposite vertex k (from V[k+1] to V[k+2]) at screen point (X, Y) is
//
//	E_k = (A_k*X + B_k*Y) + C_k,   (A_k, B_k, C_k) = h_{k+1} x h_{k+2}
//
// and d = det(h_0, h_1, h_2). The point is on the triangle, in front of the
// eye, exactly when every E_k has the sign of d (the homogeneous barycentrics
// E_k/d are >= 0), whatever the signs of the vertices' w: a triangle crossing
// w = 0 at some (u, v, t) needs no clipping, and one wholly behind the eye
// covers nothing. The four cases differ in how E_k and d are obtained:
//
//   - Static: A, B, C and d are constants.
//   - Moving (Akenine-Moller et al. 2007): h_k(t) = H_k + t*D_k is linear in t,
//     so A, B, C are quadratic in t (c0 = H_i x H_j, c1 = H_i x D_j + D_i x H_j,
//     c2 = D_i x D_j, evaluated as c0 + t*(c1 + t*c2)) and d is cubic.
//   - Defocused (appendix A): the shear adds u*ax_k = u*Kx*W/2*(w_k - F) to hx_k
//     and v*by_k to hy_k, so A = A0 + v*A1, B = B0 + u*B1, C = (C0 + u*Cu) + v*Cv:
//     the paper's (Av+B, Cu+D, Eu+Fv+G). The uv term of C, ax_i*by_j - by_i*ax_j,
//     is identically zero and is dropped; d = N(u, v) = (N0 + u*Nu) + v*Nv is
//     linear. The hit test is on the unnormalized values.
//   - Both: the three vertices are warped to the sample's (u, v, t) and the
//     cross products and d are taken directly (cheaper than 5D edge functions).
//
// The evaluation form belongs to the edge, not to the triangle, so that two
// triangles of different cases sharing an edge evaluate it identically: with a
// pinhole lens every edge uses the Moving form (an edge of two still vertices
// has c1 = c2 = 0, which gives exactly the Static value); with a lens an edge of
// two still vertices uses the Defocused form (also inside a Both triangle) and
// an edge with a moving vertex the warp. The coefficients are computed from the
// edge's two vertices in a canonical order (their p0 then p1 coordinates
// compared lexicographically) and multiplied by the orientation sign (an exact
// negation), so shared edges give the same float64 value with opposite signs.
// (The formulas used are also antisymmetric term by term; the canonical order
// keeps that true for any future formula.)
//
// # Hit test, exactness and ties
//
// A sample is covered when: d is non-zero (a degenerate warped triangle covers
// nothing) and the cull mode keeps its face; every edge is inside; and the
// depth z/w at the sample is in [0, 1] (near and far planes, per sample). Face:
// d > 0 is clockwise on screen (geom.SignedArea > 0), front unless
// Config.FrontCCW; since d is the orientation of the eye against the triangle's
// plane, this holds for triangles crossing w = 0 too. Culling is decided per
// sample (a triangle can turn its back during the shutter); Setup rejects a
// Static triangle that is culled, and a Moving or Defocused one whose d cannot
// change sign and is culled.
//
// Edge inside: sign(d)*E_k > 0; or E_k == 0 exactly and the tie rule gives the
// edge to this triangle: sign(d)*A_k > 0, or A_k == 0 and sign(d)*B_k > 0. This
// is the D3D top-left rule ((A, B) is the inside-pointing gradient; a left edge
// has it pointing right, a top edge, horizontal, down), equivalent to moving
// the sample by an infinitesimal (eps, eps^2): a sample on a shared edge or a
// shared vertex belongs to exactly one triangle of a watertight mesh at every
// (u, v, t). With w = 1 and exact screen positions (on the 1/256 grid, a
// power-of-two viewport) every value is exact and Static equals
// functional/raster's integer rasterizer sample for sample, ties included.
// Elsewhere Static follows the unsnapped float positions, which differ from
// raster's snapped ones by up to 1/512 pixel: triangles of one mesh must all go
// through one rasterizer to stay watertight.
//
// # Barycentrics and depth
//
// At a sample the perspective-correct (clip-space) barycentrics are
// b_k = E_k / (E_0 + E_1 + E_2): the sample's point on the triangle is
// sum b_k*p_k(u, v, t) in clip space (and, the warp being affine, sum b_k*p_k(t)
// on the unwarped triangle), and the weights sum to 1 up to rounding
// (Barycentrics returns them as float32). The clip depth is
// z/w = sum E_k*z_k(t) / sum E_k*w_k(t); SampleDepth maps it like
// geom.Viewport.ToScreen, MinZ + float32(z/w)*(MaxZ - MinZ), clamped to the
// viewport's range. The near/far test uses the float64 z/w.
//
// # Traversal
//
// Setup computes the union screen box of the triangle over t in [0, 1] and
// |u|, |v| <= 1 (BBox), within Config.Bounds, as the union of the boxes of the
// buckets of the (u, v, t) domain (the paper's sub-rectangles from the strata):
// a Moving triangle has 16 intervals of t, a Defocused one 8 x 8 cells of
// (u, v), Both 4 intervals of t times 4 x 4 cells of (u, v), Static one bucket.
// Over a time interval the moving triangle lies in the convex hull of its
// vertices at the interval's ends; a covered sample's point has w > 0 and
// z/w >= 0, so only the part of that hull in front of the near plane matters:
// the hull is clipped to z/w >= -1e-6 (a tolerance for the rounding of the
// depth ratio), which keeps the vertices in front and adds the crossings of the
// plane by the segments between a vertex in front and one behind. When every
// kept point has w > 0, the part projects to a convex set spanned by the
// projections of its points, and a point's screen x is linear in the lens u
// (y in v), so the bucket's box is spanned by the kept points sheared to the
// corners of the bucket's (u, v) cell. When no point is kept the bucket is
// empty (a triangle behind the near plane over the whole shutter is Rejected);
// when a kept point has w <= 0 the box is the whole Bounds. Each box is widened
// by a tolerance (1e-6 pixel plus 1e-9 of the coordinate) for rounding, so it
// is conservative: every covered sample lies in its bucket's box.
//
// The pattern stores each sample's bucket per case. Tiles lists the 32x32-pixel
// tiles of the box that some bucket box overlaps, in Morton order (x in the low
// bit, relative to the box's first tile, as raster.ZOrder). TileQuads scans a
// tile's 2x2 quads in Morton order; per pixel column and row it knows which
// bucket boxes hold it (a 64-bit mask each), and a sample is tested only when
// its pixel lies in its bucket's box and the bucket was not rejected for the
// pixel's 8x8 block (BlockSize). Quads with a covered sample are appended with
// raster.SampleMask coverage (word = pixel (x&1) + 2*(y&1), bit = sample);
// nothing is allocated when the output slice has room.
//
// Block rejection (Fatahalian et al. 2009's interval test, per stratum): for a
// fixed lens position (u, v) the warped vertices move linearly in t, so every
// edge function is E = A(t)*X + B(t)*Y + C(t) with A, B, C quadratic in t (the
// Moving form; formLens has no t terms, formWarp's coefficients come from the
// vertices warped to (u, v)); and for fixed (X, Y, t) every form is affine in u
// and in v (u enters only the hx column, v only hy), so its extremes over a
// bucket's lens cell are at the cell's four corners. Over a block of sample
// positions with centre (Xc, Yc) and half-extents (hx, hy),
// E <= max_t G(t) + max_t|A(t)|*hx + max_t|B(t)|*hy with G = A*Xc + B*Yc + C,
// a quadratic whose range over the bucket's time interval is taken exactly. If
// the sign that d has at a covered sample of the bucket is known, s, and some
// edge has s*E below -1e-9 of the magnitude of its terms at every corner, no
// sample of the bucket in that block is covered: the margin exceeds the
// rounding of the per-sample evaluation many times over, so the skipped samples
// are exactly those the per-sample test would reject. s is the sign the cull
// mode keeps, or else d's sign when it is fixed over the bucket (with the same
// margin): Static's constant, Moving's cubic in t by interval arithmetic,
// Defocused's linear d at the cell's corners, Both's d (bilinear in (u, v),
// cubic in t at a fixed (u, v)) by the cubics at the cell's corners. A bucket
// whose d has a fixed sign the cull mode discards is empty. TileQuads tests a
// bucket first against the tile's part of its box, then against each block it
// overlaps, and only when the bucket expects at least 64 samples in the tile
// (fewer cost more to bound than to test). There is no trivial accept: the
// depth test needs every edge value anyway.
//
// # What is counted
//
// Stats.SampleTests[case] counts the samples whose coverage was evaluated (the
// full edge, face and depth test), by the triangle's case: the cost the timed
// rasterizer charges. Samples skipped by the bucket boxes or a block rejection
// are not counted; Stats.BlockTests counts the bucket bound evaluations (per
// tile and per block). SamplesCovered, Quads and Tiles count the output.
//
// # Performance
//
// The built-in study scenes at 1280x720 and 8 samples per pixel through the
// reference renderer (go test ./functional/reference -bench
// FunctionalDecoupled -benchtime 1x; CPU seconds per frame on a shared 2-core
// AMD EPYC, noisy to about 10%), before the near-plane clip of the bucket
// boxes, with it, and with the block rejection too; and the sample tests per
// visible sample (after early Z):
//
//	scene       before    clip     + blocks   tests/visible
//	bats        52.9 s    5.7 s    5.9 s      301 -> 3.3 -> 2.5
//	defocus      8.5 s    7.0 s    7.0 s      8.0 -> 2.6 -> 1.7
//	egomotion   15.1 s    7.9 s    8.8 s       35 -> 2.8 -> 1.7
//
// Nearly all of bats' and egomotion's old cost was triangles with a vertex
// behind the eye, whose box was the whole screen. At 8 samples the frame is
// now mostly the decoupling map and shading. TileQuads alone over the same
// scenes' triangles (one thread, CPU): at 8 samples bats 50 s -> 1.13 s ->
// 1.09 s, defocus 1.9 -> 0.94 -> 0.86 s, egomotion 6.8 -> 0.97 -> 0.69 s; at
// 64 samples (random x, y offsets) with the clip 7.3, 5.5 and 6.7 s, with the
// blocks too 6.2, 3.8 and 4.3 s, at 2.2, 1.56 and 1.52 sample tests per covered
// sample. The block tests pay at 64 samples (about 64 samples per block and
// bucket); at 8 they roughly break even.
package raster5d
