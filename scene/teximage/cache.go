package teximage

import (
	"fmt"
	"path/filepath"

	"github.com/gfxsim/gfxsim/internal/inputs"
)

// Cache decodes each image file once: a file named by several textures or
// materials is read (through Roots, which resolved its path), decoded (its
// peak checked against Budget) and reserved in Budget once, downscaled to
// MaxSize (0: full size).
type Cache struct {
	MaxSize int
	Budget  *inputs.Budget
	Roots   *inputs.Roots
	byPath  map[string]*Image
}

// Load returns the image of the file at path, decoding it the first time.
func (c *Cache) Load(path string) (*Image, error) {
	return c.LoadNamed(path, path)
}

// LoadNamed is Load for a file that an input names as name (the file name as
// written, quoted, or as found beside a mesh): errors about its contents name
// it so. Errors about the file itself (not a regular file, too large, moved
// while read) name the resolved path.
func (c *Cache) LoadNamed(path, name string) (*Image, error) {
	if im, ok := c.byPath[path]; ok {
		return im, nil
	}
	data, err := c.Roots.ReadFile(path, inputs.ImageFile)
	if err != nil {
		return nil, err
	}
	im, err := decode(name, data, c.Budget)
	if err != nil {
		return nil, err
	}
	im = im.Downscale(c.MaxSize)
	if err := c.Budget.Reserve("image "+filepath.Base(path), int64(len(im.Pix))); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if c.byPath == nil {
		c.byPath = map[string]*Image{}
	}
	c.byPath[path] = im
	return im, nil
}
