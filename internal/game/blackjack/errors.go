package blackjack

import "errors"

// ErrRules is wrapped by New when the rules fail Rules.Validate.
var ErrRules = errors.New("blackjack: invalid rules")

// ErrCorrupt is wrapped by Round.Check when a decoded round breaks an
// invariant: it must not be resumed.
var ErrCorrupt = errors.New("blackjack: corrupt round")
