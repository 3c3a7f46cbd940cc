package command

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Memory is read access to simulated memory.
type Memory interface {
	// ReadAt fills p with the bytes at addr. Bytes outside the allocated image read
	// as zero; ReadAt never fails for in-range 64-bit addresses.
	ReadAt(p []byte, addr uint64)
}

// BaseAddress is the first address the memory image hands out; address 0 stays
// unmapped so that it can mean "no buffer".
const BaseAddress = 0x10000

// Image is a flat simulated memory image: the driver allocates and fills it, the
// timed model copies it into its DRAM storage and the reference renderer reads it.
type Image struct {
	data []byte // data[i] is the byte at BaseAddress+i
}

// NewImage returns an empty image.
func NewImage() *Image { return &Image{} }

// NewImageCap returns an empty image with room for n bytes: allocations that
// total up to n never copy it (a growing image holds its old and new copies
// at once). Room never written is not resident.
func NewImageCap(n uint64) *Image { return &Image{data: make([]byte, 0, n)} }

// Alloc reserves size bytes aligned to align (a power of two) and returns the
// address. The bytes read as zero until written.
func (m *Image) Alloc(size, align uint64) uint64 {
	if align == 0 {
		align = 1
	}
	end := BaseAddress + uint64(len(m.data))
	addr := (end + align - 1) &^ (align - 1)
	m.data = append(m.data, make([]byte, addr+size-end)...)
	return addr
}

// Put allocates room for b (aligned) and copies it in.
func (m *Image) Put(b []byte, align uint64) uint64 {
	a := m.Alloc(uint64(len(b)), align)
	copy(m.data[a-BaseAddress:], b)
	return a
}

// Write copies b to addr, which must lie inside an allocation.
func (m *Image) Write(addr uint64, b []byte) error {
	if addr < BaseAddress || addr-BaseAddress+uint64(len(b)) > uint64(len(m.data)) {
		return fmt.Errorf("memory image: write of %d bytes at 0x%x outside [0x%x, 0x%x)",
			len(b), addr, BaseAddress, BaseAddress+len(m.data))
	}
	copy(m.data[addr-BaseAddress:], b)
	return nil
}

// ReadAt implements Memory.
func (m *Image) ReadAt(p []byte, addr uint64) {
	for i := range p {
		p[i] = 0
	}
	if addr >= BaseAddress+uint64(len(m.data)) || addr+uint64(len(p)) <= BaseAddress || addr+uint64(len(p)) < addr {
		return
	}
	start := int64(addr) - BaseAddress
	src, dst := start, int64(0)
	if src < 0 {
		dst, src = -src, 0
	}
	copy(p[dst:], m.data[src:])
}

// Size returns the number of bytes allocated, from BaseAddress.
func (m *Image) Size() uint64 { return uint64(len(m.data)) }

// End returns the first address after the allocations.
func (m *Image) End() uint64 { return BaseAddress + uint64(len(m.data)) }

// Bytes returns the image contents; Bytes()[i] is the byte at BaseAddress+i.
func (m *Image) Bytes() []byte { return m.data }

// ReadU32 reads a little-endian word.
func ReadU32(m Memory, addr uint64) uint32 {
	var b [4]byte
	m.ReadAt(b[:], addr)
	return binary.LittleEndian.Uint32(b[:])
}

// ReadF32 reads a float32.
func ReadF32(m Memory, addr uint64) float32 { return math.Float32frombits(ReadU32(m, addr)) }

// TextureDescriptor is the in-memory description of a texture (12 words):
// format width height levels layout dataLo dataHi sizeBytes type depth and two
// reserved words (0). Type and Depth follow functional/texture (0 is a 2D
// texture; Depth counts array layers or 3D slices), so a descriptor of the
// first, 8-word version followed by zeros reads as the same 2D texture.
type TextureDescriptor struct {
	Format, Width, Height, Levels, Layout uint32
	Data                                  uint64
	Size                                  uint32
	Type, Depth                           uint32
}

// TextureDescriptorBytes is the size of an encoded texture descriptor.
const TextureDescriptorBytes = 48

// Encode returns the descriptor's bytes.
func (d TextureDescriptor) Encode() []byte {
	b := make([]byte, 0, TextureDescriptorBytes)
	for _, v := range []uint32{d.Format, d.Width, d.Height, d.Levels, d.Layout,
		uint32(d.Data), uint32(d.Data >> 32), d.Size, d.Type, d.Depth, 0, 0} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// ReadTextureDescriptor reads the descriptor at addr.
func ReadTextureDescriptor(m Memory, addr uint64) TextureDescriptor {
	var b [TextureDescriptorBytes]byte
	m.ReadAt(b[:], addr)
	w := func(i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	return TextureDescriptor{Format: w(0), Width: w(1), Height: w(2), Levels: w(3), Layout: w(4),
		Data: uint64(w(5)) | uint64(w(6))<<32, Size: w(7), Type: w(8), Depth: w(9)}
}

// Slice returns the image's bytes [addr, addr+size) without copying, or false when
// the range is not entirely allocated. Render targets and textures are views of the
// image, so what a draw writes is what a later read of that memory sees.
func (m *Image) Slice(addr, size uint64) ([]byte, bool) {
	if addr < BaseAddress || addr-BaseAddress > uint64(len(m.data)) || size > uint64(len(m.data))-(addr-BaseAddress) {
		return nil, false
	}
	o := addr - BaseAddress
	return m.data[o : o+size : o+size], true
}
