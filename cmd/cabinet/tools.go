package main

import (
	"context"
	"io"

	duelanalysis "cabinet/internal/analysis/duel"
	"cabinet/internal/analysis/rngtest"
	"cabinet/internal/auditcmd"
	"cabinet/internal/crashtest"
)

// The technician and laboratory commands live in their packages; main only
// dispatches to them.

func cmdAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return auditcmd.Run(ctx, args, stdout, stderr)
}

func cmdVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return auditcmd.RunVerify(ctx, args, stdout, stderr)
}

func cmdCrashtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return crashtest.Run(ctx, args, stdout, stderr)
}

func cmdRNG(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return rngtest.Command(ctx, args, stdout, stderr)
}

func cmdDuelEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return duelanalysis.EvalCommand(ctx, args, stdout, stderr)
}
