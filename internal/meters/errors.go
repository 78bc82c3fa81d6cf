package meters

import "errors"

// ErrInvariant is wrapped by Check when the credit meter does not equal what
// the money meters say (platform.md §3). It is a memory error: play stops.
var ErrInvariant = errors.New("meters: money invariant violated")

// ErrNegative is wrapped by Check when a meter that can only grow is negative.
var ErrNegative = errors.New("meters: negative meter")
