package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
)

// syncBuffer is a bytes.Buffer safe for the command's writer and the
// test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// `cabinet hwtest --acceptor PTY` against the emulated validator: its
// model, version and status are shown; a note is read in escrow and
// returned, never stacked.
func TestHwtestShowsValidator(t *testing.T) {
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer emu.Close()
	script := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(script, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"hwtest", "--text", "--backend", "sim", "--config", "../../configs/cabinet.toml", "--script", script,
			"--lamp-interval", "20ms", "--acceptor", emu.Path}, &out, &errOut)
	}()
	wait, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	if _, err := emu.WaitFor(wait, func(s id003emu.Snapshot) bool { return s.Status == id003.StIdling }); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	if err := emu.Insert(0x64); err != nil {
		t.Fatal(err)
	}
	if _, err := emu.WaitFor(wait, func(s id003emu.Snapshot) bool { return len(s.Returned) == 1 }); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{"note validator ID003-EMU(EUR)-100-SS, version ID003-05V100-00 01JAN26: idling",
		"20.00 (code 0x64) read in escrow, returned (self-test: never stacked)"} {
		for !strings.Contains(out.String(), want) {
			select {
			case <-wait.Done():
				t.Fatalf("hwtest output lacks %q:\n%s%s", want, out.String(), errOut.String())
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := emu.Snapshot(); len(s.Stacked) != 0 {
		t.Errorf("the self-test stacked %x", s.Stacked)
	}
}

func TestAcceptorFlagErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"sim", "--quiet", "--config", "../../configs/cabinet.toml", "--rounds", "1", "--acceptor", "/nonexistent/tty"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/tty") {
		t.Errorf("sim --acceptor on a missing port = %v, want an error naming it", err)
	}
	cfg := filepath.Join(t.TempDir(), "cabinet.toml")
	b, err := os.ReadFile("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`notes = { 0x62 = "5.00"`), []byte(`notes = { 0x60 = "5.00"`), 1)
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"sim", "--quiet", "--config", cfg, "--rounds", "1", "--acceptor", "/dev/null"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "hardware.acceptor.notes.0x60") {
		t.Errorf("a bad escrow code = %v, want the key named", err)
	}
}
