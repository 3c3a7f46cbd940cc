package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// Kind is a kind of input file with the largest size gfxsim reads of it.
type Kind struct {
	Name string // what the file is, for errors ("MTL file")
	Cap  int64  // bytes
}

// The kinds of input files and their caps (README, "Untrusted inputs").
var (
	SceneFile  = Kind{"scene file", 16 << 20}
	ConfigFile = Kind{"configuration file", 1 << 20}
	OBJFile    = Kind{"OBJ file", 512 << 20}
	MTLFile    = Kind{"MTL file", 16 << 20}
	GLTFFile   = Kind{"glTF file", 256 << 20} // .gltf JSON (with data URIs) or .glb
	BufferFile = Kind{"glTF buffer", 1 << 30}
	ImageFile  = Kind{"image file", 256 << 20}
	PointFile  = Kind{"point file", 64 << 20} // a study's result for one point (-merge)
)

// ReadFile reads the file at path, which must be a regular file (not a
// folder, device, named pipe or socket) of at most kind.Cap bytes. It opens
// the file without blocking (a named pipe with no writer does not hang it)
// and stops reading at the cap even when the file grows while it is read.
// Errors start with path.
func ReadFile(path string, kind Kind) ([]byte, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	return readOpen(f, path, kind)
}

// openFlags open an input for reading without blocking on a named pipe and
// without making a terminal the process's controlling terminal.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// readOpen is ReadFile's check and read of the file f opened at path; it
// closes f.
func readOpen(f *os.File, path string, kind Kind) ([]byte, error) {
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := regular(path, fi, kind); err != nil {
		return nil, err
	}
	// /proc and similar files report size 0: read up to the cap plus one byte.
	data, err := io.ReadAll(io.LimitReader(f, kind.Cap+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if int64(len(data)) > kind.Cap {
		return nil, fmt.Errorf("%s: %s larger than %s (the cap of %s)", path, kind.Name, Bytes(kind.Cap), kind.an())
	}
	return data, nil
}

// Stat checks, without reading it, that path is a regular file within the
// cap of kind, and returns its size.
func Stat(path string, kind Kind) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, openError(path, err)
	}
	if err := regular(path, fi, kind); err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// an is the kind's name with its article: "an OBJ file", "a glTF buffer".
func (k Kind) an() string {
	first, _, _ := strings.Cut(k.Name, " ")
	vowel := strings.ContainsAny(first[:1], "aeiouAEIOU")
	if first == strings.ToUpper(first) { // an acronym, read letter by letter
		vowel = strings.ContainsAny(first[:1], "AEFHILMNORSX")
	}
	if vowel {
		return "an " + k.Name
	}
	return "a " + k.Name
}

func regular(path string, fi fs.FileInfo, kind Kind) error {
	m := fi.Mode()
	if !m.IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s): %s must be a regular file", path, modeName(m), kind.an())
	}
	if fi.Size() > kind.Cap {
		return fmt.Errorf("%s: %s of %s, larger than %s (the cap of %s)", path, kind.Name, Bytes(fi.Size()), Bytes(kind.Cap), kind.an())
	}
	return nil
}

func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// noSuchFile is the error of a missing input: it reads "no such file" and is
// fs.ErrNotExist, so that a caller may add advice of its own.
type noSuchFile struct{}

func (noSuchFile) Error() string        { return "no such file" }
func (noSuchFile) Is(target error) bool { return target == fs.ErrNotExist }

func openError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %w", path, noSuchFile{})
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return err
}
