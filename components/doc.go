// Package components is the home of gfxsim's timed hardware model: one Akita
// component per sub-package (command processor, host interface, input
// assembler, primitive assembly and setup, rasterizer, HiZ unit, depth unit,
// quad packer, reorder buffer, shader core, texture sampler, ROP, memory), and
// the chips of the other machines: the SAGE board's (sage/...) and the tiled
// machine's binner, tile scheduler and tile units (sortmiddle/...). Components
// decide when work happens; every value they produce comes from the functional
// model in functional/. See docs/design-timing.md.
package components
