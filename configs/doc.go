// Package configs describes machines: YAML presets (the default sort-last GPU in
// sortlast.yaml) and the builder that validates a configuration and wires
// components and connections into a simulated platform (docs/design-timing.md,
// section 8). Config.MemoryEstimate says what a machine costs in host memory,
// field by field (configs/README.md, "Memory"); configuration files are read
// as regular files of at most 1 MiB, and errors quote bounded excerpts.
//
// Every unit is made from its section of the configuration in one place
// (units.go: BuildMemorySystem, BuildTextureSampler, BuildBus, BuildCrossbar,
// WatchTextureTraffic): Build uses them for the whole machine and a study
// that runs part of a machine (experiments/texcache's replay) uses them for
// its part.
//
// RunScene is the one home of "encode this scene, build this machine, run
// it"; RenderReference (and RenderReferenceWith, which adjusts the options
// first) renders a frame on the reference renderer with the machine's options
// (ReferenceOptions), the image and counters the timed machine must match.
//
// The default machine's memory is gfxsim's own DRAM controller (memory.type
// dramctl, 16 GDDR6 channels; configs/README.md, "DRAM presets");
// DRAMCtlConfig turns the memory section into the controller's
// configuration. The overlay akita-dram.yaml beside the embedded machines puts
// the default machine back on Akita's mem/dram (4 GDDR5 channels), the memory
// it had before.
//
// Besides every unit's, link's and memory's counters, a frame's statistics
// (Result.Stats) hold the platform's own: GPU.cycles and GPU.frame_seconds
// (the frame's length at the core clock), GPU.video_end_cycles on SAGE, and
// GPU.Multipass.* (multipass.go: split_draws, passes, intermediate_targets,
// save_bytes_written and save_bytes_read, the ROPs' traffic to the
// intermediate targets, restore_l2_bytes and restore_dram_bytes, their texture
// reads), reported on every machine, 0 without split draws.
package configs
