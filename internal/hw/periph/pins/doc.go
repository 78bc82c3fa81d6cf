// Package pins is the periph backend's configuration: the [hardware]
// section of configs/cabinet.toml (pin map, levels, timings, the bill
// acceptor's pulses), its defaults and its validation, without touching
// hardware. It imports no periph.io package, so internal/config can decode
// and check the section while headless commands (sim, audit, par, …) do not
// link periph's host drivers; internal/hw/periph re-exports these types and
// opens the pins.
package pins
