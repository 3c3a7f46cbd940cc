package teximage

import (
	"cmp"
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
)

// Generator is a procedural texture: a parameter set that generates an image.
// Generate validates the parameters and returns an error naming the bad one.
type Generator interface {
	Generate() (*Image, error)
}

// Solid is an image of one colour.
type Solid struct {
	Width, Height int
	Color         geom.Vec4
}

// Checker is a checkerboard of Cells[0] x Cells[1] cells alternating between
// Colors[0] (the top-left cell) and Colors[1]. Pixel (x, y) is in cell
// (x*Cells[0]/Width, y*Cells[1]/Height) (integer division).
type Checker struct {
	Width, Height int
	Cells         [2]int
	Colors        [2]geom.Vec4
}

// Bricks is a running-bond brick wall: Rows rows of Columns bricks, odd rows
// shifted by half a brick, separated by mortar joints Mortar brick-heights wide
// (0 < Mortar < 0.5). Each brick's colour is Colors[0] scaled by a seeded
// factor in [1-Variation, 1+Variation] and by a fine noise grain; the mortar is
// Colors[1]. It tiles when Rows is even.
type Bricks struct {
	Width, Height int
	Rows, Columns int
	Mortar        float32
	Colors        [2]geom.Vec4
	Variation     float32
	Seed          uint64
}

// BricksNormal is the tangent-space normal map of the Bricks layout with the
// same Rows, Columns and Mortar: brick faces are flat (0, 0, 1), joints are
// recessed, with a bevel one joint-width wide whose slope is scaled by
// Strength.
type BricksNormal struct {
	Width, Height int
	Rows, Columns int
	Mortar        float32
	Strength      float32
}

// Noise is tileable fractal value noise: Octaves octaves, the first with
// Frequency lattice cells across the image, blended between Colors[0] (noise
// 0) and Colors[1] (noise 1).
type Noise struct {
	Width, Height int
	Frequency     int
	Octaves       int
	Colors        [2]geom.Vec4
	Seed          uint64
}

// Leaf is an alpha-masked leaf for alpha testing: a pointed blade from the stem
// at the bottom centre to the tip at the top, alpha 255 inside and 0 outside,
// coloured Colors[0] with a seeded mottling and veins in Colors[1]. Texels
// outside the leaf carry the leaf colour with alpha 0.
type Leaf struct {
	Width, Height int
	Colors        [2]geom.Vec4
	Seed          uint64
}

// BumpsNormal is a tangent-space normal map of hemispherical bumps on a
// Count[0] x Count[1] grid, one per cell, of radius Radius cell widths
// (0 < Radius <= 0.5) scaled per bump by a seeded factor in [0.7, 1] and
// displaced by a seeded offset that keeps it inside its cell. Strength scales
// the slopes (1 = true hemispheres).
type BumpsNormal struct {
	Width, Height int
	Count         [2]int
	Radius        float32
	Strength      float32
	Seed          uint64
}

// Gradient blends linearly from Colors[0] to Colors[1]: from the top row to the
// bottom row, or from the left column to the right one when Horizontal. Texel
// centres are used: t = (y+0.5)/Height.
type Gradient struct {
	Width, Height int
	Colors        [2]geom.Vec4
	Horizontal    bool
}

func checkColor(name string, c geom.Vec4) error {
	for _, v := range c {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("%s: colour component %v is not finite", name, v)
		}
	}
	return nil
}

func checkColors(cs ...geom.Vec4) error {
	for i, c := range cs {
		if err := checkColor(fmt.Sprintf("colors[%d]", i), c); err != nil {
			return err
		}
	}
	return nil
}

// Generate implements Generator.
func (p Solid) Generate() (*Image, error) {
	im, err := newChecked(p.Width, p.Height, checkColor("color", p.Color))
	if err != nil {
		return nil, err
	}
	b := ToBytes(p.Color)
	for i := 0; i < len(im.Pix); i += 4 {
		copy(im.Pix[i:i+4], b[:])
	}
	return im, nil
}

// newChecked returns a new width x height image for a generator whose other
// parameters checked as paramErr; New's error comes first.
func newChecked(width, height int, paramErr error) (*Image, error) {
	im, err := New(width, height)
	if err != nil {
		return nil, err
	}
	if paramErr != nil {
		return nil, paramErr
	}
	return im, nil
}

// checkGrid checks a grid of n[0] x n[1] cells over a w x h image: at least
// one cell, at most one per pixel, each way (what names the field).
func checkGrid(what string, n [2]int, w, h int) error {
	if n[0] < 1 || n[0] > w || n[1] < 1 || n[1] > h {
		return fmt.Errorf("%s %dx%d out of range [1, image size %dx%d]", what, n[0], n[1], w, h)
	}
	return nil
}

// Generate implements Generator.
func (p Checker) Generate() (*Image, error) {
	im, err := newChecked(p.Width, p.Height, cmp.Or(checkGrid("cells", p.Cells, p.Width, p.Height), checkColors(p.Colors[:]...)))
	if err != nil {
		return nil, err
	}
	c := [2][4]byte{ToBytes(p.Colors[0]), ToBytes(p.Colors[1])}
	for y := 0; y < p.Height; y++ {
		cy := y * p.Cells[1] / p.Height
		for x := 0; x < p.Width; x++ {
			cx := x * p.Cells[0] / p.Width
			im.SetRGBA(x, y, c[(cx+cy)&1])
		}
	}
	return im, nil
}

// brickLayout locates pixel-space points in a running-bond brick pattern.
type brickLayout struct {
	w, h       float64 // image size
	bw, bh     float64 // brick size in pixels
	rows, cols int
	joint      float64 // joint width in pixels
}

func newBrickLayout(width, height, rows, cols int, mortar float32) (brickLayout, error) {
	if rows < 1 || rows > height || cols < 1 || cols > width {
		return brickLayout{}, fmt.Errorf("rows %d, columns %d out of range [1, image size %dx%d]", rows, cols, width, height)
	}
	if !(mortar > 0 && mortar < 0.5) {
		return brickLayout{}, fmt.Errorf("mortar %v out of range (0, 0.5)", mortar)
	}
	l := brickLayout{w: float64(width), h: float64(height), rows: rows, cols: cols}
	l.bw, l.bh = l.w/float64(cols), l.h/float64(rows)
	l.joint = float64(mortar) * l.bh
	return l, nil
}

// locate returns the brick (column, row) containing (x, y) (wrapped into the
// image) and the distance from (x, y) to the brick's border, in pixels.
func (l brickLayout) locate(x, y float64) (col, row int, edge float64) {
	y = math.Mod(y, l.h)
	if y < 0 {
		y += l.h
	}
	row = min(int(y/l.bh), l.rows-1)
	if row%2 == 1 {
		x += l.bw / 2
	}
	x = math.Mod(x, l.w)
	if x < 0 {
		x += l.w
	}
	col = min(int(x/l.bw), l.cols-1)
	lx, ly := x-float64(col)*l.bw, y-float64(row)*l.bh
	edge = math.Min(math.Min(lx, l.bw-lx), math.Min(ly, l.bh-ly))
	return col, row, edge
}

// height is 0 in the joints, 1 on brick faces, with a smooth bevel one joint
// wide in between.
func (l brickLayout) height(x, y float64) float64 {
	_, _, e := l.locate(x, y)
	t := (e - l.joint/2) / l.joint
	switch {
	case t <= 0:
		return 0
	case t >= 1:
		return 1
	}
	return t * t * (3 - 2*t)
}

// newBricks returns the w x h image of a brick texture and its layout of
// rows x columns bricks with mortar joints, for a generator whose other
// parameters checked as paramErr (the image's and layout's errors first).
func newBricks(w, h, rows, columns int, mortar float32, paramErr error) (*Image, brickLayout, error) {
	im, err := New(w, h)
	if err != nil {
		return nil, brickLayout{}, err
	}
	l, err := newBrickLayout(w, h, rows, columns, mortar)
	return im, l, cmp.Or(err, paramErr)
}

// checkUpTo checks a parameter in [0, hi] (NaN fails).
func checkUpTo(name string, v, hi float32) error {
	if !(v >= 0 && v <= hi) {
		return fmt.Errorf("%s %v out of range [0, %v]", name, v, hi)
	}
	return nil
}

// Generate implements Generator.
func (p Bricks) Generate() (*Image, error) {
	im, l, err := newBricks(p.Width, p.Height, p.Rows, p.Columns, p.Mortar,
		cmp.Or(checkUpTo("variation", p.Variation, 1), checkColors(p.Colors[:]...)))
	if err != nil {
		return nil, err
	}
	// A fine grain: value noise with about one lattice cell per 4 texels,
	// periodic over the image.
	grain := max(1, min(p.Width, p.Height)/4)
	gx, gy := float64(grain)/float64(p.Width), float64(grain)/float64(p.Height)
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			col, row, e := l.locate(float64(x)+0.5, float64(y)+0.5)
			if e < l.joint/2 {
				im.Set(x, y, p.Colors[1])
				continue
			}
			f := 1 + p.Variation*(2*rng.Hash2(int32(col), int32(row), p.Seed)-1)
			g := rng.ValueNoise2Periodic((float64(x)+0.5)*gx, (float64(y)+0.5)*gy, int32(grain), p.Seed+1)
			f *= 0.9 + 0.2*g
			c := p.Colors[0]
			im.Set(x, y, geom.Vec4{c[0] * f, c[1] * f, c[2] * f, c[3]})
		}
	}
	return im, nil
}

// encodeNormal stores the unit vector n as rgb = n*0.5+0.5, alpha 255.
func encodeNormal(im *Image, x, y int, nx, ny, nz float64) {
	l := math.Sqrt(nx*nx + ny*ny + nz*nz)
	im.Set(x, y, geom.Vec4{float32(nx/l*0.5 + 0.5), float32(ny/l*0.5 + 0.5), float32(nz/l*0.5 + 0.5), 1})
}

// Generate implements Generator.
func (p BricksNormal) Generate() (*Image, error) {
	im, l, err := newBricks(p.Width, p.Height, p.Rows, p.Columns, p.Mortar, checkUpTo("strength", p.Strength, 100))
	if err != nil {
		return nil, err
	}
	s := float64(p.Strength)
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			cx, cy := float64(x)+0.5, float64(y)+0.5
			dx := (l.height(cx+1, cy) - l.height(cx-1, cy)) / 2
			dy := (l.height(cx, cy+1) - l.height(cx, cy-1)) / 2
			// The surface z = h(u, v') with v' up (= -y): n ~ (-dh/dx, +dh/dy, 1).
			encodeNormal(im, x, y, -dx*s, dy*s, 1)
		}
	}
	return im, nil
}

// checkNoise checks the parameters of fractal value noise (Noise, Noise3D):
// the lattice frequency, the octaves and the colours.
func checkNoise(frequency, octaves int, colors []geom.Vec4) error {
	if frequency < 1 || frequency > 4096 {
		return fmt.Errorf("frequency %d out of range [1, 4096]", frequency)
	}
	if octaves < 1 || octaves > 12 {
		return fmt.Errorf("octaves %d out of range [1, 12]", octaves)
	}
	return checkColors(colors...)
}

// Generate implements Generator.
func (p Noise) Generate() (*Image, error) {
	im, err := newChecked(p.Width, p.Height, checkNoise(p.Frequency, p.Octaves, p.Colors[:]))
	if err != nil {
		return nil, err
	}
	fx := float64(p.Frequency) / float64(p.Width)
	fy := float64(p.Frequency) / float64(p.Height)
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			v := rng.Fractal2Periodic((float64(x)+0.5)*fx, (float64(y)+0.5)*fy, p.Octaves, int32(p.Frequency), p.Seed)
			im.Set(x, y, p.Colors[0].Lerp(p.Colors[1], v))
		}
	}
	return im, nil
}

// Generate implements Generator.
func (p Leaf) Generate() (*Image, error) {
	im, err := newChecked(p.Width, p.Height, checkColors(p.Colors[:]...))
	if err != nil {
		return nil, err
	}
	const (
		base = 0.12 // blade start (fraction of the height from the bottom)
		tip  = 0.98 // blade end
	)
	outside := p.Colors[0]
	outside[3] = 0
	for y := 0; y < p.Height; y++ {
		t := 1 - (float64(y)+0.5)/float64(p.Height) // 0 at the bottom (stem), 1 at the top
		for x := 0; x < p.Width; x++ {
			u := (float64(x)+0.5)/float64(p.Width)*2 - 1 // -1 left, +1 right
			au := math.Abs(u)
			s := (t - base) / (tip - base)
			inBlade := false
			var hw float64
			if s > 0 && s < 1 {
				wobble := 1 + 0.12*(float64(rng.ValueNoise2(s*5, 0.5+float64(signBit(u)), p.Seed))-0.5)
				hw = 0.46 * math.Pow(math.Sin(math.Pi*math.Pow(s, 0.8)), 0.9) * wobble
				inBlade = au < hw
			}
			inStem := t >= 0.01 && t < base+0.03 && au < 0.03
			if !inBlade && !inStem {
				im.Set(x, y, outside)
				continue
			}
			if inStem && !inBlade {
				im.Set(x, y, p.Colors[1])
				continue
			}
			mainVein := au < 0.012+0.012*(1-s)
			side := s - 0.7*au
			sideVein := au < hw*0.85 && side > 0.02 && frac(side*8) < 0.07
			if mainVein || sideVein {
				im.Set(x, y, p.Colors[1])
				continue
			}
			m := 0.8 + 0.35*float64(rng.Fractal2(u*6, t*6, 3, p.Seed+7)) + 0.1*(1-au/hw)
			c := p.Colors[0]
			im.Set(x, y, geom.Vec4{c[0] * float32(m), c[1] * float32(m), c[2] * float32(m), 1})
		}
	}
	return im, nil
}

func signBit(u float64) int {
	if u < 0 {
		return 1
	}
	return 0
}

func frac(v float64) float64 { return v - math.Floor(v) }

// Generate implements Generator.
func (p BumpsNormal) Generate() (*Image, error) {
	im, err := newChecked(p.Width, p.Height, checkGrid("count", p.Count, p.Width, p.Height))
	if err != nil {
		return nil, err
	}
	if !(p.Radius > 0 && p.Radius <= 0.5) {
		return nil, fmt.Errorf("radius %v out of range (0, 0.5]", p.Radius)
	}
	if err := checkUpTo("strength", p.Strength, 100); err != nil {
		return nil, err
	}
	cw := float64(p.Width) / float64(p.Count[0])
	ch := float64(p.Height) / float64(p.Count[1])
	cell := math.Min(cw, ch)
	s := float64(p.Strength)
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			cx, cy := min(int(px/cw), p.Count[0]-1), min(int(py/ch), p.Count[1]-1)
			r := float64(p.Radius) * cell * (0.7 + 0.3*float64(rng.Hash2(int32(cx), int32(cy), p.Seed)))
			slackX, slackY := cw/2-r, ch/2-r
			ox := (cx2(rng.Hash2(int32(cx), int32(cy), p.Seed+1))) * slackX
			oy := (cx2(rng.Hash2(int32(cx), int32(cy), p.Seed+2))) * slackY
			dx := px - ((float64(cx)+0.5)*cw + ox)
			dy := py - ((float64(cy)+0.5)*ch + oy)
			d2 := dx*dx + dy*dy
			if d2 >= r*r {
				encodeNormal(im, x, y, 0, 0, 1)
				continue
			}
			h := math.Sqrt(r*r - d2)
			// Hemisphere of height h over the plane: n ~ (dx, -dy, h) with +Y up.
			encodeNormal(im, x, y, dx*s, -dy*s, h)
		}
	}
	return im, nil
}

// cx2 maps [0, 1) to [-1, 1).
func cx2(v float32) float64 { return 2*float64(v) - 1 }

// Generate implements Generator.
func (p Gradient) Generate() (*Image, error) {
	im, err := newChecked(p.Width, p.Height, checkColors(p.Colors[:]...))
	if err != nil {
		return nil, err
	}
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			t := (float32(y) + 0.5) / float32(p.Height)
			if p.Horizontal {
				t = (float32(x) + 0.5) / float32(p.Width)
			}
			im.Set(x, y, p.Colors[0].Lerp(p.Colors[1], t))
		}
	}
	return im, nil
}
