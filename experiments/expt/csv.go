package expt

import (
	"encoding/csv"

	"github.com/gfxsim/gfxsim/internal/outputs"
)

// WriteCSV writes a table with a header row to path.
func WriteCSV(path string, header []string, rows [][]string) error {
	f, err := outputs.Create(path)
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
