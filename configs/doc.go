// Package configs describes machines: YAML presets (the default sort-last GPU in
// sortlast.yaml) and the builder that validates a configuration and wires
// components and connections into a simulated platform (docs/design-timing.md,
// section 8). Config.MemoryEstimate says what a machine costs in host memory,
// field by field (configs/README.md, "Memory"); configuration files are read
// as regular files of at most 1 MiB, and errors quote bounded excerpts.
package configs
