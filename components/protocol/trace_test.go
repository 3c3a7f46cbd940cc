package protocol

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

func TestTaskIDs(t *testing.T) {
	p := &pipeline.Primitive{Source: 57, Part: 2}
	var none raster.Rect
	win := raster.Rect{X0: 16, Y0: 32, X1: 32, Y1: 48}
	for _, c := range []struct{ got, want string }{
		{CommandTaskID(0x1a2f0), "cmd@0x1a2f0"},
		{CommandTaskID(0), "cmd@0x0"},
		{DrawTaskID(12), "draw12"},
		{BatchTaskID(3, 41, 10496, ""), "draw3.t10496.batch41"},
		{BatchTaskID(3, 41, 0, AtCore), "draw3.t0.batch41@core"},
		{BatchTaskID(3, 41, 0, AtPA), "draw3.t0.batch41@pa"},
		{RasterizeTaskID(7, none, p, 1), "draw7.prim57.2@r1"},
		{TileTaskID(7, none, p, 15, 4, ""), "draw7.prim57.2.tile15.4"},
		{TileTaskID(7, none, p, 15, 4, AtHiZ), "draw7.prim57.2.tile15.4@hiz"},
		{TileTaskID(7, none, p, -1, 0, AtDU), "draw7.prim57.2.tile-1.0@du"},
		{TileTaskID(7, none, nil, 0, 0, AtDU), "draw7.prim.tile0.0@du"},
		{TileTaskID(1<<63, none, &pipeline.Primitive{Source: 1<<31 - 1, Part: 99}, 1<<31-1, 1<<31-1, AtHiZ),
			"draw9223372036854775808.prim2147483647.99.tile2147483647.2147483647@hiz"},
		// The tiled machine: a primitive in a window (screen tile).
		{WindowDrawTaskID(7, none), "draw7"},
		{WindowDrawTaskID(7, win), "draw7.win16.32"},
		{RasterizeTaskID(7, win, p, 0), "draw7.win16.32.prim57.2@r0"},
		{TileTaskID(7, win, p, 0, 1, ""), "draw7.win16.32.prim57.2.tile0.1"},
		{TileTaskID(7, win, p, 0, 1, AtDU), "draw7.win16.32.prim57.2.tile0.1@du"},
		{TileTaskID(1<<63, raster.Rect{X0: 1<<31 - 2, Y0: 1<<31 - 2, X1: 1<<31 - 1, Y1: 1<<31 - 1},
			&pipeline.Primitive{Source: 1<<31 - 1, Part: 99}, 1<<31-1, 1<<31-1, AtHiZ),
			"draw9223372036854775808.win2147483646.2147483646.prim2147483647.99.tile2147483647.2147483647@hiz"},
		{PrimTaskID(7, p, AtBin), "draw7.prim57.2@bin"},
		{PassTaskID(3), "pass3"},
		{ScreenTileTaskID(3, 41), "pass3.tile41"},
		{ScreenTileWhat(3, 41), "tile 41 of pass 3"},
		{WarpTaskID(905, ""), "warp905"},
		{WarpTaskID(905, AtROB), "warp905@rob"},
		{WarpTaskID(905, AtCore), "warp905@core"},
		{WarpTaskID(1<<40-1, ""), "warp1099511627775"},
		{WarpTaskID(TileUnitWarpBase(0)+905, AtROB), "tu0.warp905@rob"},
		{WarpTaskID(TileUnitWarpBase(63), AtCore), "tu63.warp0@core"},
		{ShadingWarpTaskID(12), "shade12@core"},
		{ShadingWarpTaskID(TileUnitWarpBase(1) + 12), "tu1.shade12@core"},
		{ReqOutTaskID("4417"), "4417_req_out"},
		{DrawChunkTaskID(12, 3), "draw12@pipe3"},
		{SampleWarpTaskID(2, 905, AtFill), "pipe2.warp905@fill"},
		{SampleWarpTaskID(0, 7, AtCore), "pipe0.warp7@core"},
		{MessageTaskID("write", "4417"), "write4417"},
		{LineTaskID("4417", 39, SwathSuffix(3)), "4417.line39.swath3"},
		{LineTaskID("4418", 0, ""), "4418.line0"},
		{TaskWhat("draw", 12), "draw 12"},
		{Count(8, "quads"), "8 quads"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
