// Package periphtest holds fakes for testing code on the periph backend without
// hardware: a Board of periph's own gpiotest.Pin fakes looked up by name, a
// manual Clock whose tickers tick only when told, and a Rig that builds a
// periph.Backend on them and steps it deterministically (inject an edge or
// a tick, then wait until the backend has handled it). No sleeping: time
// moves only when a test advances the Clock.
package periphtest
