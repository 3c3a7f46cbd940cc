// Package configs describes machines: YAML presets (the default sort-last GPU in
// sortlast.yaml) and the builder that validates a configuration and wires
// components and connections into a simulated platform (docs/design-timing.md,
// section 8).
package configs
