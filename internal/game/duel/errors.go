package duel

import "errors"

// ErrConfig is wrapped by every error of Config.Validate; the message names
// the field (by its snake_case key, e.g. "raise_cap") and the value found.
var ErrConfig = errors.New("duel: invalid configuration")

// ErrSession is returned by New when the session it is given is inconsistent
// with the configuration (unknown deck or level, negative stack, an outfit
// that does not match the configured items).
var ErrSession = errors.New("duel: invalid session")

// ErrCorrupt is wrapped by Round.Check and Decode when a stored round has an
// unknown encoding version or breaks an invariant: it must not be resumed.
var ErrCorrupt = errors.New("duel: corrupt round")
