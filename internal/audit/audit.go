package audit

import (
	"context"
	"errors"
	"io"
)

// Run implements `cabinet audit [--store FILE] meters|recall [N]|events|check [--json|--csv]`.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("audit: not implemented yet")
}
