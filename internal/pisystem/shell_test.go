package pisystem

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestShell: Machine.WaitShell and Machine.Shell against the test's own
// shell script (the one the guest runs on its serial port), served by a
// real sh on a unix socket as QEMU serves the port. The command's output
// comes back without the newlines that end it, so "echo ready" is "ready".
func TestShell(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("unix", filepath.Join(dir, "shell.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	script := filepath.Join(dir, "shell")
	if err := os.WriteFile(script, []byte(shell), 0o755); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer c.Close()
		f, err := c.(*net.UnixConn).File()
		if err != nil {
			served <- err
			return
		}
		defer f.Close()
		cmd := exec.Command("sh", script)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = f, f, f
		served <- cmd.Run()
	}()
	m := &Machine{cfg: Config{Dir: dir}, exited: make(chan struct{})}
	if err := m.WaitShell(30 * time.Second); err != nil {
		t.Fatalf("WaitShell: %v", err)
	}
	for _, c := range []struct {
		cmd, out string
		rc       int
	}{
		{"echo ready", "ready", 0},
		{`printf 'a\nb\n\n'; exit 3`, "a\nb", 3},
		{"printf 'no newline'", "no newline", 0},
		{"true", "", 0},
	} {
		out, rc, err := m.Shell(c.cmd, 30*time.Second)
		if err != nil || out != c.out || rc != c.rc {
			t.Errorf("Shell(%q) = %q, %d, %v; want %q, %d", c.cmd, out, rc, err, c.out, c.rc)
		}
	}
	m.sh.Close()
	if err := <-served; err != nil {
		t.Errorf("the shell: %v", err)
	}
}
