package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"cabinet/internal/config"
)

// portUse is one device's serial port as configured: who names it (the
// configuration key or the flag) and the path given.
type portUse struct {
	who, path string
}

// serialPorts lists the serial ports `run` and `sim` will open: the SAS
// link, the ticket printer and the ID-003 note validator, each from its
// flag when given, else its configuration key ("" ports are off).
func serialPorts(cfg *config.Config, sasFlag, printerFlag, accFlag string) ([]portUse, error) {
	var uses []portUse
	if l := newSASLink(cfg, sasFlag); l != nil {
		uses = append(uses, portUse{pick(sasFlag, "--sas", "sas.port"), l.port})
	}
	if p := strings.TrimSpace(printerFlag); p != "" {
		uses = append(uses, portUse{"--printer", p})
	} else if cfg.Printer.On() {
		uses = append(uses, portUse{"printer.port", cfg.Printer.Port})
	}
	port, _, ok, err := cfg.Validator(accFlag)
	if err != nil {
		return nil, err
	}
	if ok {
		uses = append(uses, portUse{pick(accFlag, "--acceptor", "hardware.acceptor.port"), port})
	}
	return uses, nil
}

func pick(flag, flagName, key string) string {
	if flag != "" {
		return flagName
	}
	return key
}

// checkSerialPorts is checkPorts on the ports run and sim will open.
func checkSerialPorts(cfg *config.Config, sasFlag, printerFlag, accFlag string) error {
	uses, err := serialPorts(cfg, sasFlag, printerFlag, accFlag)
	if err != nil {
		return err
	}
	return checkPorts(uses)
}

// checkPorts refuses two devices on one serial port, before anything is
// opened: SAS and the printer sharing a line lose or garble polls, and a
// ticket cash-out becomes a handpay (issue 37). Ports are compared by what
// they are, not by how they are written: symlinks resolved, and two paths
// to the same file or to the same character device (device numbers) are
// one port. A path that does not exist yet is compared as written,
// cleaned (its open fails later anyway). The error names every user of
// each shared port.
func checkPorts(uses []portUse) error {
	type port struct {
		id   string // what the port is
		real string // its path, symlinks resolved
		who  []string
	}
	var ports []*port
	for _, u := range uses {
		id, real := portID(u.path)
		var p *port
		for _, q := range ports {
			if q.id == id {
				p = q
			}
		}
		if p == nil {
			p = &port{id: id, real: real}
			ports = append(ports, p)
		}
		p.who = append(p.who, fmt.Sprintf("%s (%s)", u.who, u.path))
	}
	var errs []error
	for _, p := range ports {
		if len(p.who) > 1 {
			verb := "all name"
			if len(p.who) == 2 {
				verb = "both name"
			}
			errs = append(errs, fmt.Errorf("%s %s the serial port %s: one device per port (SAS, the printer and the note validator each need their own line)",
				joinAnd(p.who), verb, p.real))
		}
	}
	return errors.Join(errs...)
}

// portID says what the port at path is: its character device numbers,
// else its file (device and inode), else its cleaned absolute path; and
// its path with symlinks resolved.
func portID(path string) (id, real string) {
	real = path
	if abs, err := filepath.Abs(path); err == nil {
		real = abs
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	var st syscall.Stat_t
	if err := syscall.Stat(real, &st); err == nil {
		if st.Mode&syscall.S_IFMT == syscall.S_IFCHR {
			return fmt.Sprintf("char %d", st.Rdev), real
		}
		return fmt.Sprintf("file %d:%d", st.Dev, st.Ino), real
	}
	return "path " + filepath.Clean(real), real
}

// joinAnd joins names as "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
