package controller

import "errors"

// ErrMemory is wrapped when the store failed its integrity checks at boot:
// play stays disabled until a full memory clear.
var ErrMemory = errors.New("cabinet: memory error")

// ErrNotNow is returned for an input that the cabinet's state does not accept
// (e.g. a bet while tilted, cash out during a round). Nothing is changed.
var ErrNotNow = errors.New("cabinet: not accepted in this state")

// ErrDigest is wrapped when the program digest differs from the configured one.
var ErrDigest = errors.New("cabinet: program digest mismatch")
