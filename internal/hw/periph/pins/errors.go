package pins

import "errors"

// ErrConfig is returned (wrapped with the key, the value and what is allowed)
// by Config.Validate for a bad pin map or timing (periph.ErrConfig is the
// same error).
var ErrConfig = errors.New("periph: bad hardware configuration")
