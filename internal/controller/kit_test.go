package controller

import (
	"os"
	"testing"

	"cabinet/internal/recovery"
)

// The controller's test kit: a controller on a real store (bbolt in the
// test's temp dir), never a mock of it, with the store's integrity check
// run on the file the test leaves, as bbolt's own tests check theirs.

// testStore opens (creating it) the store at path for a test. At the test's
// cleanup the store is closed and the file, as the test left it, is opened
// again read-only and checked (recovery's Check: records, checksums, the
// meters' invariant); a failure fails the test. A test that damages the
// file on purpose says so first (damaged).
func testStore(t testing.TB, path string) *recovery.Store {
	t.Helper()
	st, err := recovery.Open(path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("close store %s: %v", path, err)
		}
		if _, err := os.Stat(path + damagedMark); err == nil {
			return
		}
		ro, err := recovery.Open(path, recovery.Options{ReadOnly: true})
		if err != nil {
			t.Errorf("store %s after the test: %v", path, err)
			return
		}
		defer ro.Close()
		if err := ro.Check(); err != nil {
			t.Errorf("store %s after the test: %v", path, err)
		}
	})
	return st
}

// damagedMark, beside a store file, says the test damaged it on purpose.
const damagedMark = ".damaged-by-the-test"

// damaged marks the store file at path as damaged on purpose: its check at
// cleanup is skipped.
func damaged(t testing.TB, path string) {
	t.Helper()
	if err := os.WriteFile(path+damagedMark, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// testCabinet boots a controller with opt on a real store at path (opened
// with testStore; wrap, if set, wraps it, as a store that fails commits on
// demand): the one constructor of the controller's tests. A boot failure
// fails the test.
func testCabinet(t testing.TB, path string, opt Options, wrap func(*recovery.Store) Store) (*Controller, *recovery.Store) {
	t.Helper()
	st := testStore(t, path)
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
