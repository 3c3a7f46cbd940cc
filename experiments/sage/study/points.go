package study

import (
	"fmt"
	"strconv"
	"strings"
)

// plan is the list of points of one study run and the sizes they use.
type plan struct {
	w, h int // frame size of the rendering points (tables 1, 2, 5, 6, 7)

	triScenes  []string // table 1
	pipes      []int
	triSamples int
	batches    []int // vertex batch sizes of the reuse sweep (functional)

	fillScenes  []string // tables 2 and 7
	fillSamples []int
	fillMaps    []string // table 7: the fill points again under these sample buffer maps (sage.sample_buffer.map)

	video []videoCase // table 3 (on the triangle scene)

	filterScenes   []string // table 4: table filter against exact
	fw, fh         int
	filterSamples  int
	checkScenes    []string // table 4: 16 samples against 256 (section 10.2)
	cw, ch         int
	orderScenes    []string // table 5
	modes          []string
	orderSamples   int
	hystScene      string // table 6
	hysteresis     []int
	hystSamples    int
	clearW, clearH int // the fast clear of table 2 (a video point at this size)
	clearSamples   int
}

// videoCase is one video point: the triangle scene rendered at FromW x FromH
// (0: W x H) at Samples per pixel, shown at W x H and Refresh Hz with the
// given blanking (0: the configuration's), in video mode Mode, its samples
// placed by sample buffer map Map ("": the configuration's).
type videoCase struct {
	W, H, Samples  int
	Refresh        float64
	HBlank, VBlank float64
	FromW, FromH   int
	Capacity       int // sample buffer capacity override (0: the board's)
	Mode           string
	Map            string // sage.sample_buffer.map ("": the configuration's)
}

func (v videoCase) source() (w, h int) {
	if v.FromW > 0 {
		return v.FromW, v.FromH
	}
	return v.W, v.H
}

// label names the case in tables ("1280x1024@76", "960x768->1280x1024@76",
// "1280x1024@76 pixel map").
func (v videoCase) label() string {
	s := fmt.Sprintf("%dx%d@%s", v.W, v.H, strconv.FormatFloat(v.Refresh, 'f', -1, 64))
	if v.FromW > 0 {
		s = fmt.Sprintf("%dx%d->%s", v.FromW, v.FromH, s)
	}
	if v.Map != "" {
		s += " " + v.Map + " map"
	}
	return s
}

// The filters of table 4, in the configuration's names.
var filterNames = []string{"mitchell", "cylinder", "laplacian", "gaussian", "box"}

// The distribution modes of table 5.
var orderModes = []string{"document", "ordered", "barrier_per_draw"}

func makePlan(o Options) plan {
	p := plan{w: 480, h: 270,
		triScenes: []string{"smalltris", "room"}, pipes: []int{1, 2, 3, 4}, triSamples: 8,
		batches:    []int{32, 64, 128, 256},
		fillScenes: []string{"overdraw", "room"}, fillSamples: []int{1, 4, 8, 16}, fillMaps: []string{"pixel", "line"},
		filterScenes: []string{"room", "smalltris", "overdraw"}, fw: 320, fh: 180, filterSamples: 8,
		checkScenes: []string{"room", "smalltris", "triangle"}, cw: 320, ch: 180,
		orderScenes: []string{"overdraw", "room"}, modes: orderModes, orderSamples: 8,
		hystScene: "room", hysteresis: []int{1, 4, 16, 64, 256, 1024}, hystSamples: 8,
		clearW: 1280, clearH: 1024, clearSamples: 8,
	}
	// 1280x1024 at 76 Hz (VESA totals scaled, the configuration's blanking),
	// 1920x1200 at 60 Hz (VESA DMT totals 2592 x 1245), and the paper's
	// resizing example (section 7.2).
	for _, n := range []int{1, 2, 4, 8, 16} {
		c := videoCase{W: 1280, H: 1024, Samples: n, Refresh: 76}
		if n*1280*1024 > boardCapacity {
			c.Capacity = n * 1280 * 1024
		}
		p.video = append(p.video, c)
	}
	p.video = append(p.video,
		videoCase{W: 1920, H: 1200, Samples: 4, Refresh: 60, HBlank: 672.0 / 1920, VBlank: 45.0 / 1200},
		videoCase{W: 1280, H: 1024, Samples: 8, Refresh: 76, FromW: 960, FromH: 768})
	// The board's design point under table 7's other sample buffer maps: the
	// route reads a burst at its busiest chip's pace.
	for _, m := range p.fillMaps {
		p.video = append(p.video, videoCase{W: 1280, H: 1024, Samples: 8, Refresh: 76, Map: m})
	}
	if o.Quick {
		p.w, p.h = 96, 54
		p.triScenes, p.pipes = []string{"room"}, []int{1, 4}
		p.batches = []int{32, 256}
		p.fillScenes, p.fillSamples = []string{"room"}, []int{1, 8}
		p.filterScenes, p.fw, p.fh = []string{"room"}, 64, 36
		p.checkScenes, p.cw, p.ch = []string{"room"}, 24, 16
		p.orderScenes = []string{"overdraw"}
		p.hysteresis = []int{1, 1024}
		p.clearW, p.clearH = 128, 96
		p.video = []videoCase{{W: 128, H: 96, Samples: 1, Refresh: 76}, {W: 128, H: 96, Samples: 8, Refresh: 76},
			{W: 128, H: 96, Samples: 8, Refresh: 76, Map: "pixel"}}
	}
	if o.Width > 0 && o.Height > 0 {
		p.w, p.h = o.Width, o.Height
	}
	// Every video case runs twice: strict (underruns) and elastic (the rate
	// the chips deliver when the pixel clock waits for them).
	var vs []videoCase
	for _, v := range p.video {
		for _, m := range []string{"strict", "elastic"} {
			v.Mode = m
			vs = append(vs, v)
		}
	}
	p.video = vs
	return p
}

// boardCapacity is the board's sample buffer: 1280x1024 at 8 samples per
// pixel (configs/sage.yaml, sage.sample_buffer.capacity_samples).
const boardCapacity = 10485760

// pointKind says which table a point feeds and how it runs.
type pointKind int

const (
	kindPipes pointKind = iota
	kindReuse
	kindFill
	kindVideo
	kindFilters
	kindCheck
	kindOrder
	kindHysteresis
)

// point is one independent run of the study.
type point struct {
	kind    pointKind
	name    string
	scene   string
	samples int
	pipes   int
	mode    string
	hyst    int
	smap    string // sage.sample_buffer.map ("": the configuration's)
	video   videoCase
}

// points lists the plan's points in order.
func (p plan) points() []point {
	var ps []point
	for _, s := range p.triScenes {
		for _, n := range p.pipes {
			ps = append(ps, point{kind: kindPipes, name: fmt.Sprintf("pipes-%s-%d", s, n), scene: s, samples: p.triSamples, pipes: n})
		}
		ps = append(ps, point{kind: kindReuse, name: "reuse-" + s, scene: s})
	}
	for _, s := range p.fillScenes {
		for _, n := range p.fillSamples {
			ps = append(ps, point{kind: kindFill, name: fmt.Sprintf("fill-%s-%d", s, n), scene: s, samples: n})
		}
	}
	for _, m := range p.fillMaps {
		for _, s := range p.fillScenes {
			for _, n := range p.fillSamples {
				ps = append(ps, point{kind: kindFill, name: fillName(s, n, m), scene: s, samples: n, smap: m})
			}
		}
	}
	for _, v := range p.video {
		pt := point{kind: kindVideo, scene: "triangle", samples: v.Samples, video: v, smap: v.Map}
		pt.name = pt.videoName()
		ps = append(ps, pt)
	}
	for _, s := range p.filterScenes {
		ps = append(ps, point{kind: kindFilters, name: "filters-" + s, scene: s, samples: p.filterSamples})
	}
	for _, s := range p.checkScenes {
		ps = append(ps, point{kind: kindCheck, name: "check-" + s, scene: s, samples: 16})
	}
	for _, s := range p.orderScenes {
		for _, m := range p.modes {
			ps = append(ps, point{kind: kindOrder, name: fmt.Sprintf("order-%s-%s", s, m), scene: s, samples: p.orderSamples, mode: m})
		}
	}
	for _, h := range p.hysteresis {
		ps = append(ps, point{kind: kindHysteresis, name: fmt.Sprintf("hysteresis-%s-%d", p.hystScene, h), scene: p.hystScene,
			samples: p.hystSamples, hyst: h})
	}
	return ps
}

// machineYAML is the point's machine: configs/sage.yaml with the point's
// fields under sage:.
func (pt point) machineYAML() string {
	var f, sb []string // fields under sage: and under sage.sample_buffer:
	switch pt.kind {
	case kindPipes:
		f = append(f, fmt.Sprintf("pipes: %d", pt.pipes))
	case kindOrder:
		f = append(f, fmt.Sprintf("distribution: {mode: %s}", pt.mode))
	case kindHysteresis:
		f = append(f, fmt.Sprintf("sched: {hysteresis: %d}", pt.hyst))
	case kindVideo:
		v := pt.video
		vf := fmt.Sprintf("refresh_hz: %s, mode: %s", strconv.FormatFloat(v.Refresh, 'f', -1, 64), v.Mode)
		if v.FromW > 0 {
			vf += fmt.Sprintf(", width: %d, height: %d", v.W, v.H)
		}
		if v.HBlank > 0 {
			vf += fmt.Sprintf(", h_blank: %s, v_blank: %s", strconv.FormatFloat(v.HBlank, 'g', -1, 64),
				strconv.FormatFloat(v.VBlank, 'g', -1, 64))
		}
		f = append(f, "video: {"+vf+"}")
		if v.Capacity > 0 {
			sb = append(sb, fmt.Sprintf("capacity_samples: %d", v.Capacity))
		}
	}
	if pt.smap != "" {
		sb = append(sb, "map: "+pt.smap)
	}
	if len(sb) > 0 {
		f = append(f, "sample_buffer: {"+strings.Join(sb, ", ")+"}")
	}
	y := "machine: sage\n"
	if len(f) > 0 {
		y += "sage:\n  " + strings.Join(f, "\n  ") + "\n"
	}
	return y
}

// fillName names the fill point of scene at n samples under sample buffer map
// m ("" or "sample": the configuration's, "fill-room-8"; else "fill-room-8-pixel").
func fillName(scene string, n int, m string) string {
	if m == "" || m == "sample" {
		return fmt.Sprintf("fill-%s-%d", scene, n)
	}
	return fmt.Sprintf("fill-%s-%d-%s", scene, n, m)
}

// videoName is a video point's name.
func (pt point) videoName() string {
	v := pt.video
	m := v.Map
	v.Map = ""
	name := fmt.Sprintf("video-%s-%d", strings.ReplaceAll(strings.ReplaceAll(v.label(), "->", "-to-"), "@", "-"), v.Samples)
	if m != "" {
		name += "-" + m
	}
	return name + "-" + v.Mode
}
