package teximage

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
)

// MaxDepth is the largest depth of a generated volume.
const MaxDepth = 2048

// VolumeGenerator is a procedural 3D texture: it generates Depth slices of
// Width x Height, slice 0 first.
type VolumeGenerator interface {
	GenerateVolume() ([]*Image, error)
}

// CubeGenerator is a procedural cube map: it generates six square faces in the
// order +X, -X, +Y, -Y, +Z, -Z with D3D's face orientation (see
// functional/texture): texel (x, y) of a face of size n looks along the
// direction of face coordinates s = (x+0.5)/n, t = (y+0.5)/n.
type CubeGenerator interface {
	GenerateCube() ([]*Image, error)
}

// Noise3D is tileable fractal value noise in a volume: Octaves octaves, the
// first with Frequency lattice cells across every axis, blended between
// Colors[0] (noise 0) and Colors[1] (noise 1).
type Noise3D struct {
	Width, Height, Depth int
	Frequency            int
	Octaves              int
	Colors               [2]geom.Vec4
	Seed                 uint64
}

// Checker3D is a 3D checkerboard of Cells[0] x Cells[1] x Cells[2] cells
// alternating between Colors[0] (the cell at the origin) and Colors[1]; texel
// (x, y, z) is in cell (x*Cells[0]/Width, y*Cells[1]/Height, z*Cells[2]/Depth).
type Checker3D struct {
	Width, Height, Depth int
	Cells                [3]int
	Colors               [2]geom.Vec4
}

// Sky is a cube map of a sky: a vertical gradient from Colors[1] (the horizon)
// to Colors[0] (the zenith) above the horizon and to Colors[2] (the ground)
// below it, blended by |dir.y|^0.5, plus a sun disk of SunColor around the
// direction Sun whose angular radius is SunSize degrees, with a soft edge of
// the same width.
type Sky struct {
	Size     int
	Colors   [3]geom.Vec4
	Sun      geom.Vec3
	SunColor geom.Vec4
	SunSize  float32
}

func checkVolume(w, h, d int) error {
	if err := checkSize(w, h); err != nil {
		return err
	}
	if d < 1 || d > MaxDepth {
		return fmt.Errorf("depth %d out of range [1, %d]", d, MaxDepth)
	}
	if uint64(w)*uint64(h)*uint64(d) > 1<<26 {
		return fmt.Errorf("volume %dx%dx%d has more than 2^26 texels", w, h, d)
	}
	return nil
}

func newSlices(w, h, d int) []*Image {
	out := make([]*Image, d)
	for i := range out {
		out[i] = &Image{Width: w, Height: h, Pix: make([]byte, w*h*4)}
	}
	return out
}

// hash3 is a uniform value in [0, 1) for the lattice point (x, y, z).
func hash3(x, y, z int32, seed uint64) float64 {
	return float64(rng.Hash2(x, y, seed^uint64(uint32(z))*0x9e3779b97f4a7c15))
}

func fade(t float64) float64 { return t * t * t * (t*(t*6-15) + 10) }

func wrapLattice(i, n int32) int32 {
	i %= n
	if i < 0 {
		i += n
	}
	return i
}

// noise3 is periodic value noise in [0, 1) with the quintic fade.
func noise3(x, y, z float64, period int32, seed uint64) float64 {
	fx, fy, fz := math.Floor(x), math.Floor(y), math.Floor(z)
	ix, iy, iz := int32(fx), int32(fy), int32(fz)
	tx, ty, tz := fade(x-fx), fade(y-fy), fade(z-fz)
	var v [2][2][2]float64
	for k := int32(0); k < 2; k++ {
		for j := int32(0); j < 2; j++ {
			for i := int32(0); i < 2; i++ {
				v[k][j][i] = hash3(wrapLattice(ix+i, period), wrapLattice(iy+j, period), wrapLattice(iz+k, period), seed)
			}
		}
	}
	lerp := func(a, b, t float64) float64 { return a + (b-a)*t }
	var plane [2]float64
	for k := 0; k < 2; k++ {
		plane[k] = lerp(lerp(v[k][0][0], v[k][0][1], tx), lerp(v[k][1][0], v[k][1][1], tx), ty)
	}
	return lerp(plane[0], plane[1], tz)
}

// GenerateVolume implements VolumeGenerator.
func (p Noise3D) GenerateVolume() ([]*Image, error) {
	if err := checkVolume(p.Width, p.Height, p.Depth); err != nil {
		return nil, err
	}
	if err := checkNoise(p.Frequency, p.Octaves, p.Colors[:]); err != nil {
		return nil, err
	}
	out := newSlices(p.Width, p.Height, p.Depth)
	f := [3]float64{float64(p.Frequency) / float64(p.Width), float64(p.Frequency) / float64(p.Height),
		float64(p.Frequency) / float64(p.Depth)}
	for z, im := range out {
		for y := 0; y < p.Height; y++ {
			for x := 0; x < p.Width; x++ {
				var sum, norm float64
				amp, freq, period := 1.0, 1.0, int32(p.Frequency)
				for o := 0; o < p.Octaves; o++ {
					sum += amp * noise3((float64(x)+0.5)*f[0]*freq, (float64(y)+0.5)*f[1]*freq, (float64(z)+0.5)*f[2]*freq,
						period, p.Seed+uint64(o)*0x51ed27)
					norm += amp
					amp, freq = amp*0.5, freq*2
					if period < 1<<30 {
						period *= 2
					}
				}
				im.Set(x, y, p.Colors[0].Lerp(p.Colors[1], float32(sum/norm)))
			}
		}
	}
	return out, nil
}

// GenerateVolume implements VolumeGenerator.
func (p Checker3D) GenerateVolume() ([]*Image, error) {
	if err := checkVolume(p.Width, p.Height, p.Depth); err != nil {
		return nil, err
	}
	for i, c := range p.Cells {
		if c < 1 || c > MaxSize {
			return nil, fmt.Errorf("cells[%d] %d out of range [1, %d]", i, c, MaxSize)
		}
	}
	if err := checkColors(p.Colors[:]...); err != nil {
		return nil, err
	}
	out := newSlices(p.Width, p.Height, p.Depth)
	for z, im := range out {
		cz := z * p.Cells[2] / p.Depth
		for y := 0; y < p.Height; y++ {
			cy := y * p.Cells[1] / p.Height
			for x := 0; x < p.Width; x++ {
				cx := x * p.Cells[0] / p.Width
				im.Set(x, y, p.Colors[(cx+cy+cz)&1])
			}
		}
	}
	return out, nil
}

// GenerateCube implements CubeGenerator.
func (p Sky) GenerateCube() ([]*Image, error) {
	if err := checkSize(p.Size, p.Size); err != nil {
		return nil, err
	}
	if err := checkColors(append(p.Colors[:], p.SunColor)...); err != nil {
		return nil, err
	}
	if !(p.SunSize >= 0 && p.SunSize <= 90) {
		return nil, fmt.Errorf("sun size %v out of range [0, 90] degrees", p.SunSize)
	}
	sun := [3]float64{float64(p.Sun[0]), float64(p.Sun[1]), float64(p.Sun[2])}
	sl := math.Sqrt(sun[0]*sun[0] + sun[1]*sun[1] + sun[2]*sun[2])
	if !(sl > 0) || math.IsInf(sl, 0) {
		return nil, fmt.Errorf("sun direction %v has no length", p.Sun)
	}
	cosIn := math.Cos(float64(p.SunSize) * math.Pi / 180)
	cosOut := math.Cos(2 * float64(p.SunSize) * math.Pi / 180)
	out := newSlices(p.Size, p.Size, 6)
	n := float64(p.Size)
	for f, im := range out {
		for y := 0; y < p.Size; y++ {
			for x := 0; x < p.Size; x++ {
				d := texture.CubeDirection(f, 2*(float64(x)+0.5)/n-1, 2*(float64(y)+0.5)/n-1)
				l := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
				up := d[1] / l
				c := p.Colors[0]
				other := p.Colors[1]
				if up < 0 {
					c = p.Colors[2]
				}
				col := other.Lerp(c, float32(math.Sqrt(math.Abs(up))))
				cs := (d[0]*sun[0] + d[1]*sun[1] + d[2]*sun[2]) / (l * sl)
				if p.SunSize > 0 && cs > cosOut {
					t := math.Min(1, (cs-cosOut)/(cosIn-cosOut))
					col = col.Lerp(p.SunColor, float32(t))
				}
				im.Set(x, y, col)
			}
		}
	}
	return out, nil
}
