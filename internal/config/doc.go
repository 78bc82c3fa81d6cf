// Package config reads the cabinet's configuration file (configs/cabinet.toml)
// and applies the operator's overrides kept in the store.
//
// Decoding is strict: a key the program does not know is an error, and every
// value is checked. Errors name the key (as a dotted TOML path such as
// "games.classic.min_bet"), the value found and what is allowed, so that a
// technician can fix the file from the message alone. Load is pure: it reads
// the file and touches nothing else, so a bad configuration stops start-up
// before the store is opened.
//
// Money is written as decimal strings ("1.00") and parsed exactly with
// money.Parse; no floating point is involved. The progressive contribution
// rate is a percent string with at most five decimals ("20.30843"), held as
// RateE7, parts per 10^7 of the stake (2030843).
//
// The file must say what the cabinet runs (required.go): its currency, the
// games it enables and each enabled game's section; leaving one out is a
// *MissingError (ErrMissing). Inside a section the file has, keys left out
// take the rule book's defaults (the presets of package blackjack), so an
// older file keeps working after an upgrade that adds keys.
//
// The operator menu edits a subset of the settings (platform.md §6). Its keys
// are the same dotted paths as the file's keys, plus "games.<id>.enabled" and
// "cabinet.bill.<amount>" switches; With applies stored overrides and validates
// the result exactly as Load does.
package config
