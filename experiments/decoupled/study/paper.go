package study

// The paper's numbers (Ragan-Kelley et al. 2011, section 5 and the captions of
// Figs. 6 and 9-13), printed beside ours in columns labelled as theirs. They
// were measured on Half-Life 2 (defocus), Team Fortress 2 (motion) and the bats
// animation; they are comparisons, never inputs.
const (
	PaperFig10Global   = "rate within 3x over blur and 8-64 spp (HL2/TF2); <20% variation (bats)"
	PaperFig10Tiled    = "tiled 2-12x below supersampling (HL2/TF2)"
	PaperFig10Cache    = "4k entries save 4-35x; beats ideal SS from 128 samples (32 quads)"
	PaperFig11         = "motion grows bin spread more than defocus; steeper at higher spp"
	PaperFig12Blur     = "at most 50-60% over no-blur MSAA; 27 spp: 750-1200 MB/frame (1280x720)"
	PaperFig12Line     = "4-byte lines: blurred = unblurred; line size the stronger lever"
	PaperFig9          = "SL rate varies <20%; ideal rate >3; FB bandwidth over a 50% range; blur diameter 30-90 px"
	PaperTexMSAA       = 0.996 // per-texel hit rate, 8x MSAA, no blur (5.3.2)
	PaperTexDecoupled  = 0.997 // "over 99.7%" with blur, decoupled, all rates
	PaperTexBilinear   = 0.995 // with bilinear reconstruction (5.3.5)
	PaperBilinearExtra = 0.20  // bilinear adds at most 20% shading (5.3.5)
	PaperFig6Adaptive  = 1.3   // shades per pixel, adaptive + bilinear, 256-quad cache (Fig. 6)
	PaperFig6Plain     = 2.05  // shades per pixel with the 1:1 mapping (Fig. 6)
	PaperFig13         = "64 spp: SL/T 2-4x less total and 3-6x less shading than SS; mapping 19-38% of the frame"
)
