package pisystem

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// hook is run as root by the image's cabinet-testhook.service, before the
// cabinet's service, only in the test's boot (cabinet.testhook on the
// kernel command line and this disk attached): the test's configuration
// over the shipped one, the test's shell on the virtio serial port
// cabinet.test, then every hook.d/*.sh (test-only additions, e.g. a GPIO
// simulator's kernel module).
const hook = `#!/bin/sh
# scripts/test-pi-system's hook (internal/pisystem), run by cabinet-testhook.service.
T=/run/cabtest
P=/dev/virtio-ports/cabinet.test
for i in $(seq 150); do [ -e "$P" ] && break; sleep 0.2; done
mount --bind "$T/cabinet.toml" /etc/cabinet/cabinet.toml
# The test's shell on a virtio serial port (not a console: no line
# discipline, no hang-up; a write waits while the test is not connected, a
# read ends when it disconnects), started again whenever it ends. The port
# opens once, for reading and writing.
setsid sh -c 'while :; do sh "$0" <>"$1" >&0 2>&1; sleep 0.2; done' "$T/shell" "$P" &
for f in "$T"/hook.d/*.sh; do
	[ -e "$f" ] && sh "$f"
done
exit 0
`

// shell serves the test's commands on the port: one "SEQ COMMAND" a line,
// its output, then "@@ENDSEQ@@ STATUS" on a line of its own.
const shell = `#!/bin/sh
printf '@@READY@@\n'
while IFS=' ' read -r seq line; do
	sh -c "$line" </dev/null 2>&1
	printf '\n@@END%s@@ %d\n' "$seq" "$?"
done
`

// GuestPorts are the guest's device paths for the test's lines.
const (
	GuestSAS       = "/dev/ttyAMA0"
	GuestValidator = "/dev/serial/by-id/usb-QEMU_QEMU_USB_SERIAL_VALIDATOR-if00-port0"
	GuestPrinter   = "/dev/serial/by-id/usb-QEMU_QEMU_USB_SERIAL_PRINTER-if00-port0"
)

// SetKey sets key = value in [section] of a TOML text written as the
// shipped configuration is (one key a line, the value up to a comment).
func SetKey(text, section, key, value string) (string, error) {
	lines := strings.Split(text, "\n")
	in := false
	keyRE := regexp.MustCompile(`^` + regexp.QuoteMeta(key) + `\s*=\s*("[^"]*"|[^#]*?)(\s*#.*)?$`)
	for i, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "[") {
			name := strings.TrimSpace(strings.SplitN(strings.Trim(strings.SplitN(t, "#", 2)[0], " \t"), "]", 2)[0][1:])
			in = name == section
			continue
		}
		if in {
			if m := keyRE.FindStringSubmatch(l); m != nil {
				lines[i] = key + " = " + value + m[2]
				return strings.Join(lines, "\n"), nil
			}
		}
	}
	return "", fmt.Errorf("pisystem: no %s in [%s]", key, section)
}

// GuestConfig is the shipped Pi configuration (the store on the data
// partition) with the test's lines: the keyboard's buttons (sim backend:
// the QEMU machine has no GPIO lines unless a hook.d adds them), SAS on the
// PL011, the note validator and the printer on the USB adapters.
func GuestConfig(shipped string) (string, error) {
	sets := []struct{ section, key, value string }{
		{"cabinet", "store", `"/var/lib/cabinet/cabinet.db"`},
		{"cabinet", "backend", `"sim"`},
		// The longest pause (operator range 250-1000 ms) before a shown
		// step's buttons light: the test's screendumps, a few hundred ms
		// apart under emulation, then see a resumed round before its
		// buttons (pisystem_test.go, panelLit).
		{"cabinet", "decision_pause_ms", "1000"},
		{"sas", "address", "1"},
		{"sas", "port", `"` + GuestSAS + `"`},
		{"sas", "serial", `"PI-QEMU-1"`},
		{"hardware.acceptor", "mode", `"id003"`},
		{"hardware.acceptor", "port", `"` + GuestValidator + `"`},
		{"printer", "port", `"` + GuestPrinter + `"`},
	}
	text := shipped
	for _, s := range sets {
		var err error
		if text, err = SetKey(text, s.section, s.key, s.value); err != nil {
			return "", err
		}
	}
	return text, nil
}

// MakeTestDisk writes the ext4 disk labelled CABTEST at path: the hook, the
// shell, the configuration and the files of hookDir (if not "") as hook.d.
func MakeTestDisk(path, config, hookDir string) error {
	dir, err := os.MkdirTemp(filepath.Dir(path), "cabtest")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for name, text := range map[string]string{"hook": hook, "shell": shell, "cabinet.toml": config} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	if hookDir != "" {
		if out, err := exec.Command("cp", "-a", hookDir, filepath.Join(dir, "hook.d")).CombinedOutput(); err != nil {
			return fmt.Errorf("pisystem: copy %s: %v: %s", hookDir, err, out)
		}
	}
	os.Remove(path)
	if out, err := exec.Command("mke2fs", "-q", "-F", "-t", "ext4", "-L", "CABTEST", "-d", dir, path, "64M").CombinedOutput(); err != nil {
		return fmt.Errorf("pisystem: mke2fs %s: %v: %s", path, err, out)
	}
	return nil
}
