//go:build !race

package rtp

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
