// Package command defines gfxsim's command stream: the binary format in which the
// driver (package scene/driver) describes a frame to the GPU, an encoder for it, a
// decoder for it (DecodeAll; DecodeStream reads the stream from a memory image first),
// and the simulated memory image the stream and every resource live in.
//
// The command processor (components/commandprocessor) fetches the stream from
// simulated memory by DMA and decodes it with this package; the reference renderer
// decodes the same bytes. Resources (vertex and index buffers, shader code, constant
// buffers, texture descriptors and texels, render targets) are referred to by address.
//
// # Format
//
// The stream is a sequence of little-endian 32-bit words. Every command starts with a
// header word: bits 0-7 hold the opcode and bits 8-31 the number of payload words
// that follow. Addresses are 64-bit, split into two words (low, high). Floats are
// IEEE-754 binary32 bit patterns.
//
//	opcode            payload words
//	Nop               any (skipped)
//	SetViewport       x y width height minZ maxZ (floats)
//	SetScissor        enable x0 y0 x1 y1   (pixels, half-open)
//	SetRaster         cullMode frontCCW
//	SetDepthStencil   flags(1 depth, 2 depth write, 4 stencil) depthFunc
//	                  ref|readMask<<8|writeMask<<16
//	                  front: func|fail<<8|depthFail<<16|pass<<24   back: same
//	SetBlend          target enable|writeMask<<8 srcRGB|dstRGB<<8|opRGB<<16
//	                  srcA|dstA<<8|opA<<16 constant(4 floats)
//	SetColorTarget    slot addrLo addrHi width height samples format layout tileW tileH
//	SetDepthTarget    addrLo addrHi width height samples format layout tileW tileH
//	BindShader        stage addrLo addrHi sizeBytes
//	SetConstants      stage firstRegister count addrLo addrHi   (count*16 bytes in memory)
//	BindTexture       stage slot descAddrLo descAddrHi filter addressU addressV
//	                  lodBias minLOD maxLOD (floats) addressW maxAnisotropy(0..16)
//	                  border(4 floats)   (a 10-word payload, the first version,
//	                  ends after maxLOD: addressW 0, maxAnisotropy 0, border 0)
//	SetInputLayout    stride count, then count x (semantic offset components)
//	BindVertexBuffer  addrLo addrHi sizeBytes
//	BindIndexBuffer   addrLo addrHi format(16|32) sizeBytes   (address 0: no buffer)
//	SetTopology       topology
//	Draw              vertexCount startVertex
//	DrawIndexed       indexCount startIndex baseVertex(int32)
//	Clear             flags(1 colour, 2 depth, 4 stencil) colour(4 floats) depth(float) stencil
//	SyncToken         value addrLo addrHi
//	Present           slot
//	End               (none) the end of the stream
//	SetLens           kx ky f (floats): the thin lens as a clip-space shear
//	                  x' = x + u*kx*(w - f), y' = y + v*ky*(w - f) for a lens
//	                  sample (u, v) on the unit disk; kx = P00*R/f, ky = P11*R/f
//	                  (R the lens radius, f the focus distance, P the
//	                  projection); kx = ky = 0 is a pinhole (see Lens); all
//	                  finite and f > 0, else a decode error
//	SetDecoupling     mode(0 off, 1 on, 2 supersample) rate(float, [1/65536, 64])
//	                  flags(1 adaptive, 2 bilinear)
//
//	BindStreamOut     slot addrLo addrHi sizeBytes stride offset(0xFFFFFFFF: append)
//	                  filledAddrLo filledAddrHi count, then count x (register components byteOffset)
//	SetStreamOut      flags(1 enable, 2 no rasterization) statsAddrLo statsAddrHi
//	DrawAuto          filledAddrLo filledAddrHi  (vertices: the u32 at filledAddr / the layout's stride)
//
// Stages are vertex 0, pixel 1, geometry 2 (BindShader with address and size
// 0 unbinds the geometry shader); topologies are trianglelist 0,
// trianglestrip 1, pointlist 2, linelist 3, linelistadj 4, trianglelistadj 5. A
// strip's odd triangle i is its vertices (i, i+2, i+1); in an indexed triangle
// strip, the index 0xFFFF (16-bit) or 0xFFFFFFFF (32-bit) cuts the strip (see
// package functional/vertex).
// Stream-out (opcodes 23-25, streamout.go) writes the primitives leaving the
// geometry stage to up to four buffers; each buffer's filled-size counter is
// a u32 in memory, which DrawAuto reads.
//
// A texture descriptor in memory is 12 words: format width height levels layout
// dataAddrLo dataAddrHi sizeBytes type depth reserved reserved (numbering of
// package functional/texture: formats RGBA8 0, RGBA8_SRGB 1, R8 2, RG8 3,
// RGBA16F 4, RGBA32F 5, BC1-BC5 6-10; types 2D 0, 2D array 1, cube 2, 3D 3;
// depth is the layers of an array or the depth of a 3D texture); the texel
// bytes follow the layout of package functional/texture. Filters are point 0,
// bilinear 1, trilinear 2, anisotropic 3; address modes wrap 0, clamp 1,
// mirror 2, border 3, mirror-once 4.
//
// SetLens and SetDecoupling (opcodes 21 and 22) carry what the 5D rasterizer
// and the decoupled-sampling renderers need; they change no pixel of the
// MSAA renderer. The driver sends SetLens once per frame, before the first
// draw, and SetDecoupling before the first draw and whenever a material's
// setting differs from the previous draw's. Until then a tracker has a
// pinhole lens (Lens{}) and DefaultDecoupling (off, rate 1). Motion blur needs
// no command: the vertex shader writes the clip position at shutter open
// (semantic position) and at shutter close (position_end).
//
// Decode errors name the byte offset of the command and the field that is wrong.
package command
