// Package decouple is the decoupling logic of decoupled sampling (Ragan-Kelley
// et al., "Decoupled Sampling for Graphics Pipelines", 2011; digest:
// ../shared/docs/decoupled-sampling.md): the map S from a visibility sample to the shading
// points it reads, the shading points themselves, and functional models of the
// shading cache (unbounded memoization, a bounded LRU, the per-tile caches of a
// sort-middle machine) with the statistics of the paper's studies. It is pure
// and deterministic; the reference renderer and the timed machine call the same
// functions.
//
// # The map
//
// NewMap is called once per triangle with its clip-space positions at shutter
// open (t = 0) and close (t = 1), both from the lens centre, and chooses the
// reference view (the paper's 3.2):
//
//   - ViewOpen, the t = 0 triangle, unless it is degenerate: a vertex with
//     w <= 0 (behind the eye) or a non-finite coordinate, a projected vertex at
//     or beyond geom.SnapLimit, or zero snapped area (a line or a point);
//   - else ViewClose, the t = 1 triangle under the same test (statistic
//     degenerate_t1, MapStats.DegenerateT1);
//   - else ViewBarycentric, a regular grid over barycentric space (statistic
//     degenerate_barycentric).
//
// Index takes the clip-space barycentrics b of a visibility sample (the sample's
// point on the warped triangle is sum b_k p_k) and finds its point on the
// reference triangle, sum b_k ref_k, on screen. It projects through the
// snapped reference triangle (geom.Viewport.ToScreen of each vertex, the
// triangle the 2D rasterizer sees): screen-linear weights
// l_k = b_k*w_k / sum_j b_j*w_j, point = V0 + l1*(V1-V0) + l2*(V2-V0) in 1/256
// pixel units, float64, which is the projection of sum b_k ref_k up to the
// vertex snapping (at most 1/512 pixel). The point is then rounded half to even
// to the 1/256 pixel grid (a sample of a static triangle thus lands exactly on
// its pattern position) and saturated at +-geom.SnapLimit; if sum b_j*w_j is 0
// it is vertex 0.
//
// For ViewBarycentric the grid space is barycentric: (b1, b2), each clamped to
// [0, 1], scaled to BarycentricCells cells per unit (default 32, so a triangle
// holds 32*32/2 = 512 cells, 128 shading quads, at rate 1, whatever its size on
// screen) and rounded half to even to 1/256 of a cell. The cells beyond b1 = 1
// or b2 = 1 exist only for samples exactly on those vertices.
//
// # The grid, quads and lanes
//
// The grid spacing S (in 1/256 units: of a pixel, or of a barycentric cell) is
// the rate rounded half to even, in [1, 2^24]. The grid is anchored at the
// screen origin: cell (i, j) covers [i*S, (i+1)*S) x [j*S, (j+1)*S) and its
// shading point is its centre ((i+1/2)*S, (j+1/2)*S) (ShadingPoint). With
// nearest-neighbour reconstruction a sample at grid position (u, v) reads cell
// (floor(u/S), floor(v/S)): at rate 1 the pixel holding it, a point on a pixel
// edge belonging to the pixel on its right or below, as in raster. Shading
// points are grouped in shading quads of 2x2 cells for derivatives: the quad is
// Tag{Prim, QuadX: i &^ 1, QuadY: j &^ 1} and the lane (i&1) + 2*(j&1), the
// pixel numbering of raster. With no blur (ref == end, no lens) and rate 1 every
// sample of pixel (x, y) maps to pixel (x, y)'s centre, and the shading quads
// are the pixel quads: MSAA's mapping.
//
// # Shading points and snapping
//
// Barycentrics(tag, lane) gives the perspective-correct clip-space barycentrics
// on the reference triangle at which a lane is shaded, and Quad gives all four
// lanes. Every lane of a quad is shaded whenever the quad is, so its value must
// not depend on which samples asked for it; the kind of a lane is therefore a
// property of the geometry only:
//
//   - PointInside: the grid point's barycentrics are all >= 0; they are the
//     weights raster.Triangle.Barycentrics(x, y, true) gives on the snapped
//     reference triangle, bit for bit (the same float32 arithmetic). With no
//     blur at rate 1 these are exactly the pixel-centre weights pipeline.LoadQuad
//     interpolates with, for a triangle that is not clipped.
//   - PointSnapped: the grid point is outside the triangle but a sample can map
//     to the lane: the cell's reconstruction footprint (the cell for nearest,
//     the square of half-width S around the point for bilinear), grown by one
//     1/256 unit on every side, touches the closed snapped triangle (exact
//     integer test). The lane is shaded at the grid point's barycentrics with
//     the negative weights set to 0 and the rest divided by their sum (a point
//     on the nearest edge or vertex along the weights' direction, which is the
//     same under perspective because w > 0), like MSAA's centroid, which moves an
//     outside evaluation into the triangle.
//   - PointHelper: no sample can reach the lane; like a helper pixel of
//     pipeline.LoadQuad it keeps its grid position and the extrapolated
//     barycentrics there ((1/3, 1/3, 1/3) if they are not finite), serves only
//     the quad's derivatives and is never read (Quad's Helper mask).
//
// Derivatives come from differences between lanes as today; a snapped lane
// bends them at the triangle's edge as a centroid input does. Note that MSAA's
// ordinary (non-centroid) inputs extrapolate at a pixel centre outside the
// triangle, where decoupling snaps: with no blur the images differ only in such
// edge pixels of such inputs.
//
// # Options
//
// Rate (the paper's 3.3) is the spacing in pixels: 1 shades pixel centres, 0.5
// four points per pixel, 2 one point per 2x2 pixels; 0 means 1; valid rates are
// [1/256, 65536]. Adaptive makes the spacing max(Rate, k*minCoC) with k =
// AdaptiveScale (0 means 1) and minCoC the smallest circle-of-confusion radius
// of the reference view's three vertices (Lens.CoC: the lens model
// x' = x + u*Kx*(w-F) moves a vertex on screen by u*Kx*(w-F)/w in NDC, so its
// radius is max(|Kx*(w-F)/w|*Width/2, |Ky*(w-F)/w|*Height/2) pixels); at the
// default rate that is max(1, k*minCoC). It is off when the shader discards
// (Discards: alpha testing makes shading decide visibility) and for
// ViewBarycentric. Bilinear makes Index return the four shading points around
// the sample, cells (i0, j0) .. (i0+1, j0+1) with i0 = floor((u - S/2)/S), and
// weights (1-fx)(1-fy), fx(1-fy), (1-fx)fy, fx*fy computed exactly in integers
// and divided once (so they sum to exactly 1 when S is a power of two of at most
// 2^11 units: rates 1/256, ..., 0.5, 1, 2, 4, 8); zero weights are dropped, so a sample on a shading point gets the
// nearest tap alone. The taps may span up to four shading quads.
//
// A shaded value is a function of (primitive, tag, lane) only, so an image can
// never depend on cache size, hit and miss order, warps or timing.
//
// # Cache models
//
// Cache entries are shading quads; a look-up is one tap of one sample, a miss
// shades the quad and inserts it at once (the paper's 3.1).
//
//   - Memo: unbounded memoization, an open-addressing table (linear probing,
//     at most half full, O(1) Clear by epoch) that allocates only while it
//     grows: misses = distinct tags since the last Clear, hits + misses =
//     look-ups. Clear per primitive or per draw.
//   - LRU: Entries shading quads, fully associative, the least recently
//     looked-up entry evicted on a miss when full; O(1) per look-up (the table
//     and a doubly linked recency list). This purely functional model has no
//     reference counts and no ready flags: an entry is consumed when it is looked
//     up, so every entry is evictable and nothing stalls (the timed reorder
//     buffer models those). It never misses less often than Memo on the same
//     sequence, and equals it when Entries >= the distinct tags.
//   - TiledModel: the sort-middle machine (4.4). TileSize is the largest
//     rectangle of powers of two w x h, w >= h, w <= 2h, with
//     w*h*samples*BytesPerSample <= the tile memory (DefaultTileMemory 128 KB;
//     8 B = 4 B colour + 4 B depth per sample): 128x128 at 1 sample, 64x64 at 4,
//     64x32 at 8, 32x16 at 27, 16x16 at 64. BinSpread is the number of tiles a
//     primitive's union box (over time and lens) touches; BeginTile clears the
//     tile's cache, so no shading is shared between tiles.
//
// # Statistics
//
// ShadingRate = 4*shading quads / covered pixels (primitive-pixel pairs with a
// visible sample); Savings = visible samples / (4*shading quads), against an
// idealized supersampler that shades each visible sample once; BlurArea, fed
// (tag, lane, pixel) per tap, gives the mean number of distinct pixels one
// shading sample touches (1 with no blur at rate 1), keeping only the current
// primitive's sets; MapStats counts the degenerate views; TiledModel counts bin
// entries.
package decouple
