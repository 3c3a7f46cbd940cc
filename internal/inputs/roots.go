package inputs

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Roots are the folder trees an input may read from: the folder of the file
// named on the command line and the folders given with -allow-path. The
// zero value (or nil) allows nothing but what NewRoots adds.
type Roots struct {
	dirs []string // absolute, cleaned, symbolic links resolved
	// names are the folders as given, absolute and cleaned but with links
	// unresolved: a file named through a linked folder (../shared when
	// ../shared is a link) is inside the tree before its links are resolved.
	names []string
}

// NewRoots returns the folder trees dirs (each a folder that exists).
func NewRoots(dirs ...string) (*Roots, error) {
	var r *Roots
	return r.With(dirs...)
}

// With returns r with the folder trees dirs added.
func (r *Roots) With(dirs ...string) (*Roots, error) {
	out := &Roots{}
	if r != nil {
		out.dirs = append(out.dirs, r.dirs...)
		out.names = append(out.names, r.names...)
	}
	for _, d := range dirs {
		real, err := realDir(d)
		if err != nil {
			return nil, err
		}
		if !out.contains(real) {
			out.dirs = append(out.dirs, real)
		}
		if abs, err := filepath.Abs(d); err == nil && abs != real && !within(out.names, abs) {
			out.names = append(out.names, abs)
		}
	}
	return out, nil
}

func realDir(d string) (string, error) {
	if d == "" {
		d = "."
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("folder %s: %v", d, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("folder %s: %v", d, openError(d, err))
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("folder %s: not a folder", d)
	}
	return real, nil
}

// Dirs returns the folder trees, absolute with links resolved.
func (r *Roots) Dirs() []string {
	if r == nil {
		return nil
	}
	return append([]string(nil), r.dirs...)
}

func (r *Roots) contains(p string) bool {
	return r != nil && within(r.dirs, p)
}

// named reports whether p, a path whose links are not resolved yet, is inside
// the trees as resolved or as they were named.
func (r *Roots) named(p string) bool {
	return r != nil && (within(r.dirs, p) || within(r.names, p))
}

// within reports whether path p is one of dirs or inside one.
func within(dirs []string, p string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// MaxPath is the longest file name Resolve takes, in bytes: Linux's
// PATH_MAX, the longest path it opens.
const MaxPath = 4096

// Resolve returns the file that ref, a file name written in an input file,
// names: relative to base (the folder of the file that names it) unless
// absolute, cleaned, with symbolic links resolved. The file must lie inside
// one of the folder trees of r, before and after resolving links; otherwise
// the error is the same whether or not it exists. A reference that does not
// exist inside them is reported as missing. ref must be a plain path: a URI
// scheme ("file:", "http:", or any other) is refused.
func (r *Roots) Resolve(base, ref string) (string, error) {
	if ref == "" {
		return "", fmt.Errorf("empty file name")
	}
	if strings.ContainsRune(ref, 0) {
		return "", fmt.Errorf("file name %s contains a NUL byte", QuotePath(ref))
	}
	if len(ref) > MaxPath {
		// Finding the nearest folder of a missing file walks up the path,
		// component by component: 100,000 of them ("a/a/a/...", 200 kB)
		// took 38 s.
		return "", fmt.Errorf("file name %s: %d bytes, more than %d (the longest path the system opens)", Quote(ref), len(ref), MaxPath)
	}
	if u, err := url.Parse(ref); err == nil && len(u.Scheme) > 1 {
		return "", fmt.Errorf("file name %s: URI scheme %s is not supported (only relative file names)", QuotePath(ref), Quote(u.Scheme+":"))
	}
	p := filepath.Clean(ref)
	if !filepath.IsAbs(p) {
		b, err := realDir(base)
		if err != nil {
			return "", err
		}
		p = filepath.Join(b, p)
	}
	outside := func() error {
		return fmt.Errorf("%s is outside the folders inputs may be read from (%s; add one with -allow-path)",
			QuotePath(ref), strings.Join(r.Dirs(), ", "))
	}
	if !r.named(p) {
		return "", outside()
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		// Missing, or a broken link: say that it is missing only when the
		// nearest folder that exists is inside the roots.
		for d := filepath.Dir(p); ; d = filepath.Dir(d) {
			if rd, err := filepath.EvalSymlinks(d); err == nil {
				if r.contains(rd) {
					return "", fmt.Errorf("%s: %w", QuotePath(ref), noSuchFile{})
				}
				return "", outside()
			}
			if d == filepath.Dir(d) {
				return "", outside()
			}
		}
	}
	if !r.contains(real) {
		return "", outside()
	}
	if AfterResolve != nil {
		AfterResolve(real)
	}
	return real, nil
}

// AfterResolve, when set (by tests), is called with every path Resolve
// returns, before it returns: a test swaps a folder for a link there, as
// someone racing a load could, and checks that the read refuses it.
var AfterResolve func(path string)

// ReadFile is the package's ReadFile for a file that Resolve returned: it
// opens the file through the folder tree that holds it (os.Root), so that the
// open itself stays inside the tree. A folder on the path that someone swaps
// for a link leading outside between Resolve and the open (or a file swapped
// for such a link) is refused, not followed; so is a link with an absolute
// target (os.Root follows relative links that stay inside the tree only).
// Links present when Resolve ran are not a concern: it returns the path with
// them resolved. A path outside every tree (a file named on the command line,
// which is the user's choice) is read as ReadFile reads it.
func (r *Roots) ReadFile(path string, kind Kind) ([]byte, error) {
	dir := r.holder(path)
	if dir == "" {
		return ReadFile(path, kind)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("folder %s: %v", dir, openError(dir, err))
	}
	defer root.Close()
	f, err := root.OpenFile(rel, openFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, openError(path, err)
		}
		// os.Root refuses a path that leaves the tree through a link.
		return nil, fmt.Errorf("%s: a folder on its path, or the file itself, became a link leading outside the folders inputs may be read from after the path was checked (%v)",
			path, errors.Unwrap(err))
	}
	return readOpen(f, path, kind)
}

// holder returns the outermost folder tree of r (links resolved) that holds
// path, or "" when none does: a folder inside it (a mesh file's own folder)
// could itself be swapped for a link, the outermost one only by someone who
// can write beside the file named on the command line.
func (r *Roots) holder(path string) string {
	best := ""
	if r == nil {
		return best
	}
	for _, d := range r.dirs {
		if (best == "" || len(d) < len(best)) && within([]string{d}, path) {
			best = d
		}
	}
	return best
}
