package recovery

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestExclusiveOpenInProcess(t *testing.T) {
	s, path := openTest(t, Options{Init: true})
	_ = s
	_, err := Open(path, Options{Init: true})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Fatalf("second Open(%s) = %v, want ErrLocked naming the file", path, err)
	}
	_, err = Open(path, Options{ReadOnly: true})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Fatalf("read-only Open(%s) while open = %v, want ErrLocked naming the file", path, err)
	}
}

func TestReadOnlyWhenNotLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	if _, err := Open(path, Options{ReadOnly: true}); err == nil {
		t.Fatalf("read-only Open of a missing file succeeded")
	}
	s, err := Open(path, Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	credit(t, s, 700)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open = %v", err)
	}
	defer a.Close()
	b, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("second read-only Open = %v (shared lock expected)", err)
	}
	defer b.Close()
	if m := machine(t, a); m.Credits != 700 {
		t.Errorf("read-only Machine().Credits = %v, want 7.00", m.Credits)
	}
	if err := a.Check(); err != nil {
		t.Errorf("read-only Check = %v", err)
	}
	if err := a.Update(func(*Tx) error { return nil }); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only Update = %v, want ErrReadOnly", err)
	}
	if _, err := Open(path, Options{Init: true}); !errors.Is(err, ErrLocked) {
		t.Errorf("read-write Open while audited = %v, want ErrLocked", err)
	}
}

// TestExclusiveOpenChildProcess holds the store in a child process (this
// test binary re-executed) and opens it from the parent.
func TestExclusiveOpenChildProcess(t *testing.T) {
	if p := os.Getenv("RECOVERY_TEST_HOLD"); p != "" {
		s, err := Open(p, Options{Init: true})
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("held\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes stdin
		_ = s.Close()
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "s.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestExclusiveOpenChildProcess$")
	cmd.Env = append(os.Environ(), "RECOVERY_TEST_HOLD="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	_, err = Open(path, Options{Init: true})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Errorf("Open while a child holds %s = %v, want ErrLocked naming the file", path, err)
	}
	_, err = Open(path, Options{ReadOnly: true})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "running cabinet") {
		t.Errorf("read-only Open while a child holds it = %v, want ErrLocked saying a cabinet runs", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	s, err := Open(path, Options{Init: true})
	if err != nil {
		t.Fatalf("Open after the child exited = %v", err)
	}
	s.Close()
}
