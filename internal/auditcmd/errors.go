package auditcmd

import "errors"

// ErrUsage is wrapped by errors in the command line.
var ErrUsage = errors.New("audit: usage")

// ErrCheckFailed is returned by `check` when the store fails its integrity
// check (the command exits non-zero); the problems are printed first.
var ErrCheckFailed = errors.New("audit: store failed its integrity check")

// ErrVerifyFailed is returned by `cabinet verify` when a round does not
// agree with its commitment (the command exits non-zero).
var ErrVerifyFailed = errors.New("verify: a round does not agree with its commitment")
