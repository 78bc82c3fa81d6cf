package crashtest

import (
	"context"
	"errors"
	"io"
)

// Run implements `cabinet crashtest --kills N --seed S [--rounds R] [--game all] [--bin PATH]`.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("crashtest: not implemented yet")
}
