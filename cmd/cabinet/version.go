package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
)

// Version is set at build time with -ldflags "-X main.Version=...".
var Version = "dev"

// programDigest is the SHA-256 of the running binary (platform.md §8).
func programDigest() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("program digest: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", fmt.Errorf("program digest: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("program digest: read %s: %w", exe, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func cmdVersion(_ context.Context, args []string, stdout, _ io.Writer) error {
	if len(args) > 0 {
		return usageError{"version takes no arguments"}
	}
	d, err := programDigest()
	if err != nil {
		return err
	}
	gover := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		gover = bi.GoVersion
	}
	fmt.Fprintf(stdout, "cabinet %s (%s, %s/%s)\nsha256 %s\n", Version, gover, runtime.GOOS, runtime.GOARCH, d)
	return nil
}
