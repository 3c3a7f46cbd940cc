// Package filter is the SAGE convolve chip's reconstruction filter (Deering and
// Naegle, "The SAGE Graphics Architecture", SIGGRAPH 2002, section 7): the bit-exact
// arithmetic of the 5x5 filter processor array, which the reference renderer and
// the timed convolve chips both call, and a float64 reference (Exact) to measure it
// against.
//
// # Inputs
//
// Sample positions come through Positions (offsets from the pixel centre in 1/256
// pixel, int16 in [-128, 127]; sample s of pixel (x, y) is at (256x+128+ox,
// 256y+128+oy)), colours through Samples (10-bit RGBA, 0..1023, and whether the
// pixel exists). The whole frame (reference) and a 6-swath-line cache (timed chip)
// can both implement them. A convolution centre is any point in 1/256 pixel from
// the screen's top-left corner.
//
// # Kernels
//
// Kernel is radial: At(r), zero at and beyond Radius(). MitchellNetravali{B, C}
// (radius 2; the paper's 4x4 filter is B = C = 1/3), Cylinder{R} (the paper's
// diameter 4 is R = 2), Gaussian{Sigma, R}, Laplacian{Sigma, K, R} and Box() =
// Cylinder{0.5}: the hardware is radial only, so a square 1x1 box is not
// expressible and the box is the disc of one pixel's diameter. KernelByName gives
// the configurations' names (mitchell, cylinder, laplacian, gaussian, box). The
// paper does not define its Fig. 9 "Laplacian filter"; ours is a Gaussian sharpened
// by its Laplacian, G - K*Lap(G), with the default Sigma 0.5, K 0.25, R 2 (peak 3,
// negative beyond r = 0.5*sqrt(3) px, about 5% of the peak at r = 1 px). The
// hardware accepts radii in [1/16, 2.5] pixels (MinRadius, MaxRadius); Exact any.
//
// # The arithmetic (Convolver.Pixel10)
//
// Window: the 5x5 pixels around the pixel holding the centre, less those none of
// whose samples can lie within the radius (their nearest point is at or beyond
// it). A centre at a pixel centre reaches 2.5 px in every direction, so radius 2.5
// fits; an off-centre centre (resizing) with a radius above 2 may miss samples
// beyond the window, as the hardware would. Pixels that do not exist (off screen)
// contribute nothing: the normalisation below renormalises at the border (paper
// section 9), with no hidden 2-pixel strip.
//
// For each of the first n samples of each window pixel:
//
//  1. r2 = dx*dx + dy*dy, dx, dy = sample - centre in 1/256 pixel: exact, uint32
//     (R2), in units of 2^-16 pixel^2.
//  2. u = r2 * Scale, exact in uint64, where Scale = round(2^ScaleFracBits / R^2)
//     (Params.Scale; 16 fraction bits by default), so u has 16+ScaleFracBits
//     fraction bits. u >= 1: outside, coefficient 0.
//  3. Encode8(u): truncation to the 8-bit float, 3-bit exponent, 5-bit mantissa,
//     hidden bit; exponent 0 is zero and the denormals [m, m+1) * 2^-12, exponents
//     1..7 the binades [2^(e-8), 2^(e-7)) in 32 steps each. The 256 codes tile
//     [0, 1) in order.
//  4. The code indexes the 256-entry Table. NewTable puts in entry c the kernel at
//     the radius of the centre of code c's interval, R*sqrt((lo+hi)/2), rounded to
//     nearest-even in the signed 14-bit coefficient float: sign, 4-bit exponent
//     with bias 14 (exponent 0: zero and denormals m*2^-22), 9-bit mantissa with a
//     hidden bit, magnitudes up to 3.996 (Params.CoeffExponentBits,
//     CoeffMantissaBits). TableFrom takes 256 values from a configuration.
//  5. The multiplier aligns the coefficient to the product's binary point
//     (truncating its magnitude toward zero) and multiplies it by each 10-bit
//     channel: a 27-bit signed product with 1 sign, 12 integer and 14 fraction bits
//     (Params.ProductBits - 13 fraction bits). The aligned coefficient itself is
//     summed beside the four channel sums. All sums are integers, so the order of
//     summation cannot matter, and because the products and the coefficient sum use
//     the same aligned coefficient a flat field is reproduced exactly.
//
// Then, if the coefficient sum S is positive: each channel sum A times the
// reciprocal of S, a float with 16 mantissa bits below the hidden bit rounded to
// nearest (Params.ReciprocalMantissaBits), rounded half up to an integer. A result
// below 0 (at most -1 after rounding) is clamped to 0 and counted in
// Stats.NegativeClamps, its magnitude in Stats.NegativeHistogram (bin i holds
// [2^i, 2^(i+1)) LSBs, the last bin everything from 1024; paper section 8.1, the
// frequency and extent of negative lobes); above 1023 it is clamped to 1023
// (Stats.OverflowClamps). If S is zero or negative (no sample within the radius,
// e.g. the box at one sample per pixel, or cancelling lobes), the pixel outputs
// the sample nearest the centre in the whole 5x5 window (ties: first in row, column,
// sample order; paper section 9) and counts Stats.Nearest.
//
// Pixel passes the result through the output LUT: 8-bit = round(255 *
// (v/1023)^(1/Gamma)) for R, G, B (Params.Gamma, default 1: identity, so images
// compare with our other machines; 2.2 for a CRT) and linear for alpha. Pixel does
// not allocate. Convolver.SamplesPerPixel(n) is the most samples one output pixel
// reads (25 x 16 = 400 at 16 samples for a radius above sqrt(2), the paper's "400
// samples per output pixel"); Stats.SamplesRead counts n per existing window pixel
// (plus the window again for a nearest fallback), Stats.WindowRead the same split
// by window position (one filter processor's work each), Stats.MACs 4 per sample
// read.
//
// # Choices where the paper is silent
//
//   - Scale register: round to nearest, 16 fraction bits (ScaleFracBits).
//   - 8-bit float: truncation; denormal codes for u < 2^-7.
//   - Table entry: the kernel at the centre of the code's interval in u (not in r).
//   - 14-bit float: sign + 4-bit exponent (bias 14) + 9-bit mantissa, round to
//     nearest even when the table is built; no infinities (4 or more is an error).
//   - Product: coefficient truncated to 14 fraction bits before the multiply; 27
//     bits = sign + 12 integer + 14 fraction; 64-bit accumulators.
//   - Reciprocal: 16 mantissa bits, round to nearest; result rounded half up.
//   - Negative-lobe histogram: 11 power-of-two bins in 10-bit LSBs.
//   - Window pruning by radius; off-screen pixels skipped; nearest fallback over
//     the full 5x5 window.
//   - Gamma LUT after the filter, default 1.0; alpha linear.
//
// # Error against Exact
//
// Exact is the same filter in float64 (exact distances, kernel values and
// division) over a window of any odd size. For one channel, with hardware weights
// w' (the aligned coefficients), exact weights w, A' = sum w'v, B' = sum w', A =
// sum wv, B = sum w, the hardware output differs from clamp(A/B) by at most
//
//	1/2 + |A'/B'| * 2^-17 + sum |w' - w| * |v - A/B| / B'
//
// (final rounding, reciprocal, coefficient error; clamping only shrinks the
// difference). The tests check this bound for every pixel of seeded random and
// smooth fields. The coefficient term is dominated by the 8-bit distance code (the
// table's worst error against the kernel is 0.6-0.7% of its peak for Mitchell,
// Gaussian and the Laplacian, 0 for cylinder and box); it grows when B' is small,
// so few samples per pixel and strong negative lobes are the worst cases.
//
// Display and DisplayExact filter a whole frame, the centre of output pixel (i, j)
// at ((i+0.5)*step, (j+0.5)*step) source pixels (rounded to 1/256 pixel for the
// hardware), which also covers the paper's video resizing (section 7.2).
package filter
