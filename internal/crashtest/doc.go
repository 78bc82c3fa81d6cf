// Package crashtest implements `cabinet crashtest`: the power-loss harness
// (SIGKILL a real `cabinet sim` child on a real store file, restart, compare
// with an uninterrupted run) and the corruption harness.
package crashtest
