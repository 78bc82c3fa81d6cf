package controller

import (
	"errors"

	"cabinet/internal/ledger"
)

// ErrMemory is wrapped when the store failed (ledger.ErrMemory): play
// stays disabled until a full memory clear.
var ErrMemory = ledger.ErrMemory

// ErrNotNow is returned for an input that the cabinet's state does not accept
// (e.g. a bet while tilted, cash out during a round). Nothing is changed.
var ErrNotNow = errors.New("cabinet: not accepted in this state")

// ErrDigest is wrapped when the program digest differs from the configured one.
var ErrDigest = errors.New("cabinet: program digest mismatch")
