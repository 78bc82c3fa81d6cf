package main

import (
	"context"
	"errors"
	"io"

	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/view"
)

func openPeriph(*config.Config) (hw.Backend, error) {
	return nil, errors.New("periph backend: not built yet")
}
func cmdHwtest(context.Context, []string, io.Writer, io.Writer) error {
	return errors.New("hwtest: not built yet")
}
func cmdScreenshot(context.Context, []string, io.Writer, io.Writer) error {
	return errors.New("screenshot: not built yet")
}
func figures(game.ID) []view.RTPLine { return nil }
func computedRTP(game.ID) string     { return "" }

func cmdRNG(context.Context, []string, io.Writer, io.Writer) error {
	return errors.New("rng: not built yet")
}
func cmdDuelEval(context.Context, []string, io.Writer, io.Writer) error {
	return errors.New("duel-eval: not built yet")
}
