// Package inputs is how gfxsim reads files it did not write: scenes, meshes,
// materials, images and machine configurations that may come from other
// people (course hand-outs, shared benchmark folders, downloads). It holds the
// rules of the README's "Untrusted inputs" section in one place:
//
//   - Files (ReadFile): only regular files are read (no devices, pipes or
//     folders), opened without blocking, and at most the byte cap of their
//     kind (Kind): a file larger than the cap, or growing past it while it is
//     read, is refused before it is parsed.
//   - Places (Roots): every file a scene, mesh or material names is resolved
//     relative to the file that names it and must lie, after cleaning and
//     resolving symbolic links, inside one of the allowed folder trees: the
//     folder of the file given on the command line, and the folders given
//     with -allow-path. A reference outside them is refused with the same
//     message whether or not the file exists. Roots.ReadFile then opens the
//     file through the outermost tree that holds it (os.Root), so a folder
//     or the file swapped for a link leading outside after the check is
//     refused, not followed.
//   - Memory (Budget): loaders reserve what they are about to allocate
//     (decoded images, vertex arrays, texture storage, framebuffers, caches)
//     before allocating it, and a load or run whose estimate exceeds the
//     budget (-max-memory, by default a share of the machine's physical
//     memory read from /proc/meminfo) ends with an error that gives the
//     estimate.
//   - Errors (Quote): an error quotes at most MaxExcerpt bytes of the file
//     being parsed, escaped. A file name (QuotePath) is quoted whole up to
//     MaxPathExcerpt bytes, escaped the same way, so that a refused file is
//     named in full.
//
// Nothing here knows a file format; the loaders (scene, scene/mesh,
// scene/teximage, configs) call it.
package inputs
