package blackjack

import "errors"

// ErrRules is wrapped by New when the rules fail Rules.Validate.
var ErrRules = errors.New("blackjack: invalid rules")
