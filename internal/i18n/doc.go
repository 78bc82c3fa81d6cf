// Package i18n is the cabinet's one message catalogue: every player-facing
// string in French and English, looked up by a stable message key, and money
// formatted per locale (platform.md §7: the language switch is immediate, so
// the display looks every string up again on every frame).
//
// Keys are namespaced by dots ("btn.deal", "game.royal", "tilt.main_door").
// Engines and the controller hand the display bare keys (a hand name such as
// "suited trips", a prompt such as "insurance"); the display looks them up
// under their namespace with Lookup. A key missing from the catalogue is
// shown as itself, never as an empty string, and the tests make sure no key
// the display uses is missing.
//
// The catalogue is read-only data; nothing in this package changes after
// start-up. Pure: no I/O, no raylib.
package i18n
