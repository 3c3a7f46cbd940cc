package main

import (
	"path/filepath"
	"slices"

	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/internal/plot"
)

func plots(out string, names []string, results []*result) error {
	model := multipass.CostModels()[0].Name
	// Cost of each algorithm relative to the best partition known (the
	// optimum when the search completed), per case, cost model 15p+5t+i.
	var cats []string
	series := []plot.Series{{Name: "greedy merging"}, {Name: "RDS_h"}, {Name: "RDS"}}
	short := map[string]string{"bowlingpin": "pin", "bumppin": "bump"}
	top := 1.0
	for _, n := range names {
		label := n
		if s, ok := short[n]; ok {
			label = s
		}
		for k, pc := range multipass.PipelineConfigs()[:7] {
			r := pick(results, n, pc.Name, model)
			cats = append(cats, label+itoa(k+1))
			top = max(top, r.Greedy.Cost/r.Opt.Cost)
			series[0].Y = append(series[0].Y, r.Greedy.Cost/r.Opt.Cost)
			series[1].Y = append(series[1].Y, r.RDSh.Cost/r.Opt.Cost)
			series[2].Y = append(series[2].Y, r.RDS.Cost/r.Opt.Cost)
		}
	}
	fig := plot.Figure{Title: "Partition cost relative to the best known (" + model + "); shader and PC number",
		YLabel: "cost / best cost", Categories: cats, Series: series, Width: 30 * 28.35, Height: 10 * 28.35,
		YMin: 0, YMax: 1.3 * top}
	if err := fig.Save(filepath.Join(out, "efficiency.png")); err != nil {
		return err
	}
	// Figure 6: the cost breakdown of RDS's bowling-pin partitions, in order
	// of increasing number of passes.
	var rs []*result
	for _, pc := range multipass.PipelineConfigs() {
		if r := pick(results, "bowlingpin", pc.Name, model); r != nil {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	slices.SortStableFunc(rs, func(a, b *result) int { return a.RDS.Passes - b.RDS.Passes })
	br := []plot.Series{{Name: "per-pass overhead"}, {Name: "saves and restores"}, {Name: "other texture fetches"},
		{Name: "non-texture instructions"}}
	cats = nil
	for _, r := range rs {
		c, m := r.RDS.Parts, r.Model
		cats = append(cats, r.PC.Name)
		br[0].Y = append(br[0].Y, m.Pass*float64(r.RDS.Passes))
		br[1].Y = append(br[1].Y, m.Tex*float64(c.Restores)+m.Inst*float64(c.RestorePasses))
		br[2].Y = append(br[2].Y, m.Tex*float64(c.TexFetches-c.Restores))
		br[3].Y = append(br[3].Y, m.Inst*float64(c.Other-c.RestorePasses))
	}
	fig = plot.Figure{Title: "Bowling pin: cost of RDS's partitions by type (" + model + "), fewest passes first",
		YLabel: "cost", Categories: cats, Series: br}
	return fig.Save(filepath.Join(out, "figure6_cost_breakdown.png"))
}
