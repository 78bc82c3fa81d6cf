//go:build !race

package partest

const raceEnabled = false
