package controller

import (
	"testing"

	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
)

// The controller's test kit: a controller on a real store (bbolt in the
// test's temp dir, recoverytest), never a mock of it, with the store's
// integrity check run on the file the test leaves.

// testCabinet boots a controller with opt on a real store at path (opened
// with recoverytest.Open, checked at cleanup; wrap, if set, wraps it, as a
// store that fails commits on demand): the one constructor of the
// controller's tests. A boot failure fails the test.
func testCabinet(t testing.TB, path string, opt Options, wrap func(*recovery.Store) Store) (*Controller, *recovery.Store) {
	t.Helper()
	st := recoverytest.Open(t, path, recovery.Options{})
	opt.Store = st
	if wrap != nil {
		opt.Store = wrap(st)
	}
	c, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("boot: %v", err)
	}
	return c, st
}
