package scenario

import "errors"

var (
	// ErrScript: a scenario line is not understood.
	ErrScript = errors.New("scenario: bad line")
	// ErrRefused: the cabinet refused an input the script expected to pass.
	ErrRefused = errors.New("scenario: input refused")
	// ErrAccepted: the cabinet accepted an input the script marked "!" (to be refused).
	ErrAccepted = errors.New("scenario: input accepted, the script expected a refusal")
	// ErrUnknown: no scenario or screen of that name.
	ErrUnknown = errors.New("scenario: unknown name")
)
