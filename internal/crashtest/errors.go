package crashtest

import "errors"

// ErrUsage is wrapped by command-line errors.
var ErrUsage = errors.New("crashtest: usage")

// ErrMismatch is returned when the killed run and the reference disagree.
var ErrMismatch = errors.New("crashtest: killed run differs from the uninterrupted run")

// ErrSilentDamage is returned when a damaged store booted cleanly with
// different content (the one outcome that must never happen).
var ErrSilentDamage = errors.New("crashtest: damaged store booted with different content")

// ErrChild is wrapped when the sim child fails other than by our SIGKILL.
var ErrChild = errors.New("crashtest: sim child failed")
