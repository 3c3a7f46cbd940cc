package texturesampler_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/texturesampler"
)

func TestTextureTraffic(t *testing.T) {
	tt := texturesampler.NewTextureTraffic("GPU.TextureTraffic")
	tt.SetTextures([]texturesampler.TrafficTexture{
		{Name: "wall.png", Data: 0x20000, Size: 0x1000},
		{Name: "floor", Data: 0x10000, Size: 0x100},
		{Name: "wall/png", Data: 0x30000, Size: 64},
	})
	read := func(addr, size uint64) *mem.ReadReq {
		return mem.ReadReqBuilder{}.WithAddress(addr).WithByteSize(size).Build()
	}
	l2, dram := tt.L2Hook(), tt.DRAMHook()
	l2.Func(sim.HookCtx{Pos: sim.HookPosPortMsgRecvd, Item: read(0x10000, 8)})
	l2.Func(sim.HookCtx{Pos: sim.HookPosPortMsgRecvd, Item: read(0x100f8, 8)})
	l2.Func(sim.HookCtx{Pos: sim.HookPosPortMsgRecvd, Item: read(0x10100, 64)}) // past floor: other
	l2.Func(sim.HookCtx{Pos: sim.HookPosPortMsgSend, Item: read(0x20000, 64)})  // wrong position: ignored
	l2.Func(sim.HookCtx{Pos: sim.HookPosPortMsgRecvd, Item: read(0x20fc0, 64)})
	dram.Func(sim.HookCtx{Pos: sim.HookPosPortMsgSend, Item: read(0x20000, 64)})
	dram.Func(sim.HookCtx{Pos: sim.HookPosPortMsgSend, Item: read(0x30000, 64)})
	dram.Func(sim.HookCtx{Pos: sim.HookPosPortMsgSend, Item: mem.WriteReqBuilder{}.WithAddress(0x30000).Build()})
	got := testpeer.StatMap(tt)
	want := map[string]float64{
		"GPU.TextureTraffic.floor.l2_bytes": 16, "GPU.TextureTraffic.floor.dram_bytes": 0,
		"GPU.TextureTraffic.wall_png.l2_bytes": 64, "GPU.TextureTraffic.wall_png.dram_bytes": 64,
		"GPU.TextureTraffic.wall_png_2.l2_bytes": 0, "GPU.TextureTraffic.wall_png_2.dram_bytes": 64,
		"GPU.TextureTraffic.other.l2_bytes": 64, "GPU.TextureTraffic.other.dram_bytes": 0,
	}
	if len(got) != len(want) {
		t.Errorf("statistics %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}
