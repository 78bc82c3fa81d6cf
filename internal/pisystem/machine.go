package pisystem

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config is one emulated cabinet: the SD card and the devices on its ports.
type Config struct {
	// Card is the SD card: a qcow2 overlay on the image (the image itself
	// is never written). It lives across power cuts.
	Card string
	// Kernel and Initrd are Debian's, as the image's /boot has them.
	Kernel, Initrd string
	// Append is the kernel command line.
	Append string
	// TestDisk is the ext4 disk labelled CABTEST (the test's hook and
	// configuration); attached read-only.
	TestDisk string
	// SAS, Validator and Printer are the host ends of the lines (ptys of
	// sashost, id003emu and tclemu): SAS on the PL011 (ttyAMA0), the
	// others on QEMU's USB serial adapters behind an xHCI controller.
	SAS, Validator, Printer string
	// Dir holds the sockets and logs.
	Dir string
	// MemoryMB is the machine's RAM.
	MemoryMB int
}

// Machine is one power-on of the emulated cabinet.
type Machine struct {
	cfg     Config
	cmd     *exec.Cmd
	qmp     *qmp
	PowerOn time.Time // when QEMU was started
	exited  chan struct{}
	waitErr error

	shMu  sync.Mutex
	sh    net.Conn
	shRd  *bufio.Reader
	shSeq int
}

// args is QEMU's command line: the machine of scripts/test-pi-system.
func (c Config) args() []string {
	sock := func(n string) string { return filepath.Join(c.Dir, n) }
	return []string{
		"-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", strconv.Itoa(c.MemoryMB),
		"-nic", "none", "-display", "none", "-no-reboot",
		"-kernel", c.Kernel, "-initrd", c.Initrd, "-append", c.Append,
		// The SD card (cache=writeback: what the guest has not flushed may
		// be lost at a cut, as on a card with a volatile cache).
		"-drive", "if=none,id=card,format=qcow2,cache=writeback,file=" + c.Card,
		"-device", "virtio-blk-pci,drive=card",
		"-drive", "if=none,id=test,format=raw,readonly=on,file=" + c.TestDisk,
		"-device", "virtio-blk-pci,drive=test",
		// DRM/KMS: virtio-gpu, drawn by Mesa in software in the guest.
		"-device", "virtio-gpu-pci",
		"-device", "virtio-keyboard-pci",
		// The hardware watchdog systemd pets (RuntimeWatchdogSec). It fires
		// into the log only: a host busy with other work can starve the
		// emulated machine past its timeout, which is no fault of the image.
		"-device", "i6300esb", "-action", "watchdog=debug",
		// The PL011 (ttyAMA0): the SAS line.
		"-chardev", "serial,id=sas,path=" + c.SAS, "-serial", "chardev:sas",
		// USB serial adapters (FTDI) for the validator and the printer.
		"-device", "qemu-xhci,id=xhci",
		"-chardev", "serial,id=val,path=" + c.Validator, "-device", "usb-serial,bus=xhci.0,chardev=val,serial=VALIDATOR",
		"-chardev", "serial,id=prn,path=" + c.Printer, "-device", "usb-serial,bus=xhci.0,chardev=prn,serial=PRINTER",
		// hvc0: the kernel's console, to a file; the port cabinet.test:
		// the test's shell (a plain port, not a console: see testdisk.go).
		"-device", "virtio-serial-pci",
		"-chardev", "file,id=con,path=" + sock("console.log"), "-device", "virtconsole,chardev=con",
		"-chardev", "socket,id=sh,server=on,wait=off,path=" + sock("shell.sock"), "-device", "virtserialport,chardev=sh,name=cabinet.test",
		"-qmp", "unix:" + sock("qmp.sock") + ",server=on,wait=off",
		// A second QMP socket, never used by the test: a person can take a
		// screendump or `info usb` while it runs (the first takes one client).
		"-qmp", "unix:" + sock("look.sock") + ",server=on,wait=off",
	}
}

// Boot powers the machine on.
func Boot(c Config) (*Machine, error) {
	for _, n := range []string{"qmp.sock", "look.sock", "shell.sock"} {
		os.Remove(filepath.Join(c.Dir, n))
	}
	log, err := os.OpenFile(filepath.Join(c.Dir, "qemu.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	m := &Machine{cfg: c, exited: make(chan struct{})}
	m.cmd = exec.Command("qemu-system-aarch64", c.args()...)
	m.cmd.Stdout, m.cmd.Stderr = log, log
	m.PowerOn = time.Now()
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("pisystem: start qemu-system-aarch64: %w", err)
	}
	go func() { m.waitErr = m.cmd.Wait(); close(m.exited) }()
	q, err := dialQMP(filepath.Join(c.Dir, "qmp.sock"), 30*time.Second)
	if err != nil {
		m.Kill()
		return nil, err
	}
	m.qmp = q
	return m, nil
}

// Kill cuts the power: SIGKILL, nothing flushed that the guest did not
// flush itself.
func (m *Machine) Kill() {
	m.cmd.Process.Signal(syscall.SIGKILL)
	<-m.exited
	if m.qmp != nil {
		m.qmp.close()
	}
	m.shMu.Lock()
	if m.sh != nil {
		m.sh.Close()
		m.sh = nil
	}
	m.shMu.Unlock()
}

// Exited is closed when QEMU has exited.
func (m *Machine) Exited() <-chan struct{} { return m.exited }

// Key taps one key of the virtual keyboard (a QEMU qcode: "d", "f1", "1").
func (m *Machine) Key(qcode string) error {
	_, err := m.qmp.do("send-key", map[string]any{
		"keys": []map[string]string{{"type": "qcode", "data": qcode}}, "hold-time": 80})
	return err
}

// Screendump is the picture on the display now, also written to path.
func (m *Machine) Screendump(path string) (image.Image, error) {
	if _, err := m.qmp.do("screendump", map[string]any{"filename": path, "format": "png"}); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// WaitShell waits until the guest's test shell answers (the hook starts it
// before the cabinet's service), probing every few seconds.
func (m *Machine) WaitShell(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		select {
		case <-m.exited:
			return fmt.Errorf("%w: QEMU exited (%v)", ErrNoShell, m.waitErr)
		default:
		}
		out, rc, err := m.Shell("echo ready", 5*time.Second)
		if err == nil && rc == 0 && strings.HasSuffix(out, "ready") {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// ErrNoShell: the guest's test shell did not answer.
var ErrNoShell = errors.New("pisystem: the guest's test shell did not answer")

// Shell runs a shell command line in the guest as root (over the virtio
// serial port cabinet.test the test hook serves) and returns its output and exit
// status; the output without the newlines that end it. The command must
// fit on one line.
func (m *Machine) Shell(cmd string, wait time.Duration) (string, int, error) {
	if strings.Contains(cmd, "\n") {
		return "", -1, fmt.Errorf("pisystem: shell command on one line only: %q", cmd)
	}
	m.shMu.Lock()
	defer m.shMu.Unlock()
	deadline := time.Now().Add(wait)
	if m.sh == nil {
		conn, err := net.Dial("unix", filepath.Join(m.cfg.Dir, "shell.sock"))
		if err != nil {
			return "", -1, fmt.Errorf("%w: %v", ErrNoShell, err)
		}
		m.sh, m.shRd = conn, bufio.NewReader(conn)
	}
	m.shSeq++
	end := fmt.Sprintf("@@END%d@@ ", m.shSeq)
	m.sh.SetDeadline(deadline)
	defer func() {
		if m.sh != nil {
			m.sh.SetDeadline(time.Time{})
		}
	}()
	if _, err := fmt.Fprintf(m.sh, "%d %s\n", m.shSeq, cmd); err != nil {
		m.sh.Close()
		m.sh = nil
		return "", -1, fmt.Errorf("%w: %v", ErrNoShell, err)
	}
	var out bytes.Buffer
	for {
		line, err := m.shRd.ReadString('\n')
		if err != nil {
			// Connect again for the next command: a connection made
			// before the guest opened its end of the port may never carry
			// the shell's answers (seen on QEMU 7.2).
			m.sh.Close()
			m.sh = nil
			return out.String(), -1, fmt.Errorf("%w: %q: %v (output so far %q)", ErrNoShell, cmd, err, out.String())
		}
		if rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), end); ok {
			rc, _ := strconv.Atoi(rest)
			return strings.TrimRight(out.String(), "\n"), rc, nil
		}
		if strings.HasPrefix(line, "@@END") || strings.HasPrefix(line, "@@READY") {
			out.Reset() // what came before was an earlier command's, given up on
			continue
		}
		out.WriteString(line)
	}
}
