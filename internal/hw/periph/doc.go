// Package periph is the Raspberry Pi hardware backend through periph.io:
// player buttons with lamps, door and key switches, the tower light and a
// pulse-mode bill acceptor, on pins named in configuration (Config, the
// [hardware] section of configs/cabinet.toml).
//
// Open initialises periph's host drivers and looks every pin up with
// gpioreg.ByName. The logic (debounce, hold, lamps, inhibit, pulse
// decoding) lives in New, which takes gpio.PinIO values and a Clock, so
// tests drive it with periph's gpiotest.Pin fakes and a fake clock, on any
// machine and with CGO_ENABLED=0.
package periph
