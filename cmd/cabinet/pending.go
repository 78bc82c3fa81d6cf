package main

import (
	"context"
	"errors"
	"io"

	"cabinet/internal/config"
	"cabinet/internal/hw"
)

func openPeriph(*config.Config) (hw.Backend, error) {
	return nil, errors.New("periph backend: not built yet")
}
func cmdHwtest(context.Context, []string, io.Writer, io.Writer) error {
	return errors.New("hwtest: not built yet")
}
