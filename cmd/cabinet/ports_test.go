package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cabinet/internal/serial"
)

// Two devices on one serial port are refused by `run` and `sim` before the
// store is opened, naming every user of the port, whether the port is
// named by configuration keys, flags, a symlink or another spelling of
// the same path (issue 37).
func TestSharedPortRefused(t *testing.T) {
	m, pty, err := serial.OpenPTY()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer m.Close()
	link := filepath.Join(t.TempDir(), "printer")
	if err := os.Symlink(pty, link); err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(pty, "/dev/pts/", "/dev/./pts/", 1)
	sasKey := []string{"address = 0 ", "address = 1 ", `port = ""                       # serial device: "/dev/ttyAMA0"`, `port = "` + pty + `" # "/dev/ttyAMA0"`}
	printerKey := []string{`port = ""                       # serial device, e.g. "/dev/ticket-printer"`, `port = "` + pty + `" # "/dev/ticket-printer"`}
	accKey := []string{`mode = "pulse" `, `mode = "id003" `, `port = "/dev/ttyUSB0"`, `port = "` + pty + `"`}
	cat := func(r ...[]string) []string {
		var out []string
		for _, x := range r {
			out = append(out, x...)
		}
		return out
	}
	tests := []struct {
		name  string
		repl  []string
		flags []string
		users []string
	}{
		{"SAS and printer by keys", cat(sasKey, printerKey), nil, []string{"sas.port", "printer.port"}},
		{"SAS and printer by flags", nil, []string{"--sas", pty, "--printer", pty}, []string{"--sas", "--printer"}},
		{"SAS key, printer flag by a symlink", sasKey, []string{"--printer", link}, []string{"sas.port", "--printer"}},
		{"SAS flag by a symlink, printer key", printerKey, []string{"--sas", link}, []string{"--sas", "printer.port"}},
		{"validator and SAS by keys", cat(accKey, sasKey), nil, []string{"hardware.acceptor.port", "sas.port"}},
		{"validator and printer by flags, one a symlink", nil, []string{"--acceptor", pty, "--printer", link}, []string{"--acceptor", "--printer"}},
		{"validator flag, SAS key, another spelling", sasKey, []string{"--acceptor", other}, []string{"sas.port", "--acceptor"}},
		{"all three by keys", cat(sasKey, printerKey, accKey), nil, []string{"sas.port", "printer.port", "hardware.acceptor.port"}},
		{"all three by flags", nil, []string{"--sas", pty, "--printer", other, "--acceptor", link}, []string{"--sas", "--printer", "--acceptor"}},
		{"all three mixed", sasKey, []string{"--printer", link, "--acceptor", pty}, []string{"sas.port", "--printer", "--acceptor"}},
	}
	for _, tt := range tests {
		cfg := shippedWith(t, tt.repl...)
		for _, cmd := range []string{"run", "sim"} {
			t.Run(cmd+"/"+tt.name, func(t *testing.T) {
				store := filepath.Join(t.TempDir(), "cabinet.db")
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				var out, errOut bytes.Buffer
				args := append([]string{cmd, "--config", cfg, "--store", store, "--backend", "sim"}, tt.flags...)
				if cmd == "sim" {
					args = append([]string{cmd, "--config", cfg, "--store", store, "--quiet", "--rounds", "1"}, tt.flags...)
				}
				err := run(ctx, args, &out, &errOut)
				if err == nil || !strings.Contains(err.Error(), "one device per port") {
					t.Fatalf("%s with a shared port = %v, want refused\n%s", cmd, err, errOut.String())
				}
				if testing.Verbose() {
					t.Log(err)
				}
				for _, u := range tt.users {
					if !strings.Contains(err.Error(), u+" (") {
						t.Errorf("error %q does not name %s", err, u)
					}
				}
				for _, f := range []string{store, store + ".mirror"} {
					if _, err := os.Stat(f); !os.IsNotExist(err) {
						t.Errorf("%s exists after the refusal (%v)", f, err)
					}
				}
			})
		}
	}
}
