// Package recoverytest gives tests a real store (bbolt in the test's temp
// dir, never a mock) whose file is checked when the test ends, as bbolt's
// own tests check theirs: the one way the tests of the controller, the SAS
// machine and the display open a store for a cabinet.
package recoverytest

import (
	"os"
	"testing"

	"cabinet/internal/recovery"
)

// damagedMark, beside a store file, says the test damaged it on purpose.
const damagedMark = ".damaged-by-the-test"

// Open opens (creating it) the store at path with o (Init is set) for a
// test. At the test's cleanup the store is closed and the file, as the
// test left it, is opened again read-only and checked (recovery's Check:
// records, checksums, the meters' invariant); a failure fails the test. A
// test that damages the file on purpose says so first (Damaged).
func Open(t testing.TB, path string, o recovery.Options) *recovery.Store {
	t.Helper()
	o.Init = true
	st, err := recovery.Open(path, o)
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
		ro, err := recovery.Open(path, recovery.Options{ReadOnly: true, Mirror: o.Mirror})
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

// Damaged marks the store file at path as damaged on purpose: its check
// at cleanup is skipped.
func Damaged(t testing.TB, path string) {
	t.Helper()
	if err := os.WriteFile(path+damagedMark, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}
