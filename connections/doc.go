// Package connections models how bytes move between components: buses and
// crossbars with a width in bytes per cycle, a latency, arbitration among senders,
// back-pressure and per-link traffic counters (docs/design-timing.md, section 6).
package connections
