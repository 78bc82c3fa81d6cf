package sim

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// Script drives b from a text script, one action per line, as a
// technician at the panel would (`cabinet hwtest --backend sim --text`
// reads it from stdin):
//
//	press deal              press a button (deal, hit, …, cashout)
//	switch main_door on     a door or key switch on or off
//	bill 20.00              insert a bill (stacked or refused by acceptance)
//	jam on                  jam the acceptor (or free it: jam off)
//	garble                  a signal from the acceptor that is no bill
//	wait 250ms              pause
//	# a comment             (blank lines too)
//
// sleep does the waits (nil: a real timer that ctx cancels). Script stops
// at the end of r, when ctx is done, or at the first bad line, with an
// error naming the line, what was read and what is allowed.
func Script(ctx context.Context, b *Backend, r io.Reader, sleep func(context.Context, time.Duration) error) error {
	if sleep == nil {
		sleep = sleepCtx
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if ctx.Err() != nil {
			return nil
		}
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if err := scriptLine(ctx, b, f, sleep); err != nil {
			return fmt.Errorf("sim: script line %d %q: %w", n, strings.TrimSpace(line), err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("sim: script: read: %w", err)
	}
	return nil
}

const scriptHelp = "press <button>, switch <switch> on|off, bill <amount>, jam on|off, garble, wait <duration>"

func scriptLine(ctx context.Context, b *Backend, f []string, sleep func(context.Context, time.Duration) error) error {
	arg := func(i int, what string) (string, error) {
		if len(f) != i+1 {
			return "", fmt.Errorf("%s: want %d word(s) after %q, got %d", what, i, f[0], len(f)-1)
		}
		return f[i], nil
	}
	onOff := func(s string) (bool, error) {
		switch s {
		case "on":
			return true, nil
		case "off":
			return false, nil
		}
		return false, fmt.Errorf("%q: want on or off", s)
	}
	switch f[0] {
	case "press":
		name, err := arg(1, "press <button>")
		if err != nil {
			return err
		}
		btn, err := hw.ParseButton(name)
		if err != nil {
			return err
		}
		b.Press(btn)
	case "switch":
		if len(f) != 3 {
			return fmt.Errorf("switch <switch> on|off: got %d word(s) after %q", len(f)-1, f[0])
		}
		s, err := hw.ParseSwitch(f[1])
		if err != nil {
			return err
		}
		on, err := onOff(f[2])
		if err != nil {
			return err
		}
		b.SetSwitch(s, on)
	case "bill":
		a, err := arg(1, "bill <amount>")
		if err != nil {
			return err
		}
		v, err := money.Parse(a)
		if err != nil {
			return err
		}
		b.InsertBill(v)
	case "jam":
		a, err := arg(1, "jam on|off")
		if err != nil {
			return err
		}
		on, err := onOff(a)
		if err != nil {
			return err
		}
		b.SetJam(on)
	case "garble":
		if _, err := arg(0, "garble"); err != nil {
			return err
		}
		b.GarbleBill()
	case "wait":
		a, err := arg(1, "wait <duration>")
		if err != nil {
			return err
		}
		d, err := time.ParseDuration(a)
		if err != nil || d < 0 {
			return fmt.Errorf("wait %q: want a duration such as 250ms", a)
		}
		return sleep(ctx, d)
	default:
		return fmt.Errorf("unknown action %q (want %s)", f[0], scriptHelp)
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}
