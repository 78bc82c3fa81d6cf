package duel

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestRunTmp(t *testing.T) {
	args := os.Getenv("DUEL_ARGS")
	if args == "" {
		t.Skip()
	}
	if err := EvalCommand(context.Background(), strings.Fields(args), os.Stdout, os.Stderr); err != nil {
		t.Log(err)
	}
}
