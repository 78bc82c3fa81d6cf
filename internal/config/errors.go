package config

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error about a value of the configuration or
// of an operator override: the file was read but a key or value is not
// acceptable, or one it must state is missing. Such an error is a *KeyError
// or a *MissingError.
var ErrInvalid = errors.New("invalid configuration")

// ErrEmpty is returned for a configuration document with no key at all
// (an empty file, or only whitespace and comments). It is refused rather than
// read as "all defaults": on a cabinet that would mean a new store in the
// working directory and the sim backend.
var ErrEmpty = errors.New("config: the configuration file is empty (no key at all); see configs/cabinet.toml")

// KeyError says which key is wrong, the value found and what is allowed.
type KeyError struct {
	Key     string // dotted path, e.g. "games.classic.min_bet"
	Value   string // the value as found (or "" when the key is missing)
	Allowed string // what would be accepted, in words
}

func (e *KeyError) Error() string {
	return fmt.Sprintf("config: %s = %s: want %s", e.Key, e.Value, e.Allowed)
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *KeyError) Unwrap() error { return ErrInvalid }

// bad builds a *KeyError; v is formatted with %q when it is a string.
func bad(key string, v any, allowed string, args ...any) error {
	var val string
	switch x := v.(type) {
	case string:
		val = fmt.Sprintf("%q", x)
	case []string:
		val = fmt.Sprintf("%q", x)
	default:
		val = fmt.Sprint(x)
	}
	return &KeyError{Key: key, Value: val, Allowed: fmt.Sprintf(allowed, args...)}
}

// ErrMissing is wrapped by every *MissingError: the file leaves out a key or
// a section that it must state (required.go). Defaults never stand in for
// what a cabinet runs: its games, their rules, its currency.
var ErrMissing = errors.New("missing from the configuration")

// MissingError names a key or a section the file must state and does not,
// and what would be accepted there.
type MissingError struct {
	Key     string // dotted path: "cabinet.currency", or a section: "games.classic"
	Section bool   // Key is a section ([games.classic]), not a key
	Allowed string // what the file must say, in words
}

func (e *MissingError) Error() string {
	if e.Section {
		return fmt.Sprintf("config: [%s] = (missing section): want %s", e.Key, e.Allowed)
	}
	return fmt.Sprintf("config: %s = (missing): want %s", e.Key, e.Allowed)
}

// Unwrap makes errors.Is true for both ErrMissing and ErrInvalid.
func (e *MissingError) Unwrap() []error { return []error{ErrMissing, ErrInvalid} }
