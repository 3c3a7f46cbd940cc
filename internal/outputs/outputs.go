// Package outputs creates the files experiments write (images, statistics,
// CSV tables, plots, traces) without following links: a symbolic link, or a
// hard link to a file elsewhere, already present in an output folder under
// an output's name is removed (the link, never its target) and a new file is
// created in its place, with O_EXCL and O_NOFOLLOW so that a link made in
// between makes the creation fail instead of redirecting it; a link standing
// for a folder inside an output folder is replaced by a real folder (Dir).
// The output folder itself (-o) is the user's choice and may be a link.
package outputs

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Prepare makes path ready to be created as a new file: it removes a
// symbolic link or a hard-linked file of that name (the name only) and
// refuses a folder or a special file. For writers that open the file by name
// themselves (SQLite); others use Create.
func Prepare(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil && os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return os.Remove(path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: output exists and is not a regular file", path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return os.Remove(path)
	}
	return nil
}

// Dir creates the folder sub (a relative path without "..") inside the output
// folder root, creating root too (root may be a link: the user's choice), and
// returns its path. A symbolic link already standing in root for sub or one
// of its parents is removed (the link, never its target) and a real folder
// made in its place, so that no output is written through it; a file there
// is an error.
func Dir(root, sub string) (string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	p := root
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(sub)), "/") {
		if part == "." || part == "" {
			continue
		}
		if part == ".." {
			return "", fmt.Errorf("%s: an output folder must lie inside %s", filepath.Join(root, sub), root)
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			if err := os.Remove(p); err != nil {
				return "", err
			}
		case err == nil && fi.IsDir():
			continue
		case err == nil:
			return "", fmt.Errorf("%s: output folder exists and is not a folder", p)
		case !os.IsNotExist(err):
			return "", err
		}
		if err := os.Mkdir(p, 0o755); err != nil {
			return "", err
		}
	}
	return p, nil
}

// Create creates path as a new regular file for writing (mode 0644),
// replacing a regular file of that name, and never writing through a link.
func Create(path string) (*os.File, error) {
	if err := Prepare(path); err != nil {
		return nil, err
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
}

// WriteFile writes data to path with Create.
func WriteFile(path string, data []byte) error { return WriteFrom(path, bytes.NewReader(data)) }

// WriteFrom writes what src writes to path, created with Create.
func WriteFrom(path string, src io.WriterTo) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := src.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteCSV writes a table with a header row to path, created as Create does.
func WriteCSV(path string, header []string, rows [][]string) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.Write(header); err != nil {
		f.Close()
		return err
	}
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
