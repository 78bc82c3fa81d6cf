package controller

import (
	"errors"
	"testing"

	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
)

// The controller's test kit: a controller on a real store (bbolt in the
// test's temp dir, recoverytest), never a mock of it, with the store's
// integrity check run on the file the test leaves. testCabinet is the one
// constructor of the controller's tests; the tests of other packages
// build theirs through internal/cabinet.

// kitStore says where testCabinet finds the store its controller boots on.
type kitStore struct {
	// path is the store file, created if new and checked at the test's
	// cleanup (recoverytest.Open with opts).
	path string
	opts recovery.Options
	// wrap, if set, wraps the real store (one that fails commits on
	// demand).
	wrap func(*recovery.Store) Store
	// damaged: the test damaged the file on purpose. It is opened with
	// recovery.Open (a file it refuses boots with Options.StoreErr), not
	// checked at cleanup (recoverytest.Damaged), and the boot must end
	// in a memory error.
	damaged bool
	// wantErr is the error the boot must end in (Err, errors.Is; nil: a
	// sound boot, ErrMemory for a damaged store).
	wantErr error
}

// testCabinet boots a controller with opt. With opt.Store nil it opens
// the store as k says; with opt.Store set (a store this kit opened, on
// which the test reboots the cabinet) k is not used. A boot failure, or a
// boot that does not end as k says (k.wantErr), fails the test. The store opened is returned (nil if
// the kit opened none, or the damaged file was refused).
func testCabinet(t testing.TB, opt Options, k kitStore) (*Controller, *recovery.Store) {
	t.Helper()
	st, _ := opt.Store.(*recovery.Store)
	if opt.Store == nil {
		switch {
		case k.damaged:
			recoverytest.Damaged(t, k.path)
			var err error
			st, err = recovery.Open(k.path, k.opts)
			switch {
			case errors.Is(err, recovery.ErrCorrupt):
				opt.StoreErr = err
			case err != nil:
				t.Fatalf("open damaged store: %v, want ErrCorrupt or a failed store", err)
			default:
				t.Cleanup(func() { st.Close() })
				opt.Store = st
			}
		default:
			st = recoverytest.Open(t, k.path, k.opts)
			opt.Store = st
		}
		if k.wrap != nil && st != nil {
			opt.Store = k.wrap(st)
		}
	}
	c, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	want := k.wantErr
	if k.damaged && want == nil {
		want = ErrMemory
	}
	switch err := c.Err(); {
	case want == nil && err != nil:
		t.Fatalf("boot: %v", err)
	case want != nil && !errors.Is(err, want):
		t.Fatalf("boot: Err = %v, want %v", err, want)
	}
	return c, st
}
