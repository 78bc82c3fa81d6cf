package sas

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"cabinet/internal/serial"
)

// LinkOptions tunes Serve. Zero values are the reference's figures.
type LinkOptions struct {
	// ChirpAfter is the silence (no address byte at all) after which the
	// machine chirps, and ChirpEvery the chirp period: 5 s and 200 ms.
	ChirpAfter, ChirpEvery time.Duration
	// ROM computes the ROM signature (LP 21) for a seed; default
	// ProgramSignature (the running executable).
	ROM func(seed uint16) (uint16, error)
	// Log receives link state changes (nil: discarded).
	Log *slog.Logger
	// Link, if set, hears the link go down (no address byte for
	// ChirpAfter: false) and come back (true), on Serve's goroutine: it
	// must not block.
	Link func(up bool)
	// Line, if set, hears the line's fault reports (serial.LineFault):
	// long polls to this machine damaged on the line (a bad CRC, cut
	// short) coalesced into a fault that begins, goes on and clears, so a
	// garbling host is a counted condition, never an event per message.
	// Called on Serve's goroutine: it must not block.
	Line func(serial.FaultReport)
	// LineQuiet is the number of clean messages in a row that end a line
	// fault (0: serial.DefaultQuiet).
	LineQuiet int
	// CutAfter is the silence after which a long poll to this machine
	// still short of its length is malformed and NACKed (0: 10 ms; the
	// reference's gap inside a message is 5 ms).
	CutAfter time.Duration
}

// ProgramSignature is the default ROM signature: the CRC-16 of the running
// program file, seeded with the host's seed.
func ProgramSignature(seed uint16) (uint16, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("sas: ROM signature: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return 0, fmt.Errorf("sas: ROM signature: %w", err)
	}
	defer f.Close()
	return ROMSignature(f, seed)
}

// ROMSignature is the CRC-16 of everything r yields, seeded with seed (SAS
// LP 21: "CRC-16 of all game-outcome-affecting program memory, seeded with
// the host seed"; the cabinet's program is one file).
func ROMSignature(r io.Reader, seed uint16) (uint16, error) {
	buf := make([]byte, 64<<10)
	crc := seed
	for {
		n, err := r.Read(buf)
		crc = CRC(crc, buf[:n])
		if err == io.EOF {
			return crc, nil
		}
		if err != nil {
			return 0, fmt.Errorf("sas: ROM signature: %w", err)
		}
	}
}

type romResult struct {
	seed, sig uint16
	err       error
}

// Serve answers the host on p until ctx ends: the marked stream decoded
// (Unmarker), cut into messages (Framer), answered by e, the reply written
// at once in one write. Readings of the reference (shared/spec/sas.md
// §Link layer):
//
//   - A reply starts as soon as the message is complete (the 20 ms rule):
//     the engine's work is a read of the last commit, or a commit of an
//     acknowledged exception, before the reply.
//   - A pause of more than 5 ms inside a host message does not discard it
//     (lenient): the Framer knows each implemented poll's length and a
//     wakeup byte always starts a new message.
//   - No address byte for ChirpAfter: the link is down; the machine sends
//     its address with the wakeup bit every ChirpEvery and, once polled
//     again, waits for the sync rule (a poll to another address) as after
//     start-up.
//   - The ROM signature is computed in its own goroutine; polls are
//     answered meanwhile and the engine sends it on a later general poll.
//     The engine itself is only used from this goroutine.
func Serve(ctx context.Context, p *Port, e *Engine, opt LinkOptions) error {
	if opt.ChirpAfter <= 0 {
		opt.ChirpAfter = 5 * time.Second
	}
	if opt.ChirpEvery <= 0 {
		opt.ChirpEvery = 200 * time.Millisecond
	}
	if opt.ROM == nil {
		opt.ROM = ProgramSignature
	}
	if opt.CutAfter <= 0 {
		opt.CutAfter = 10 * time.Millisecond
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var (
		u         Unmarker
		f         = Framer{Addr: e.Cfg.Address}
		buf       = make([]byte, 512)
		decoded   []Byte
		lastAddr  = time.Now()
		lastChirp time.Time
		down      bool
		romBusy   bool
		romCh     = make(chan romResult, 1)
		line      = serial.LineFault{Quiet: opt.LineQuiet}
		lastByte  time.Time
		now       time.Time
	)
	report := func(r serial.FaultReport, ok bool) {
		if !ok {
			return
		}
		log.Warn("SAS line", "port", p.Name(), "fault", r.String())
		if opt.Line != nil {
			opt.Line(r)
		}
	}
	// answer hands one message to the engine, writes its reply and counts
	// it on the line: damaged (NACKed) or clean.
	answer := func(msg []byte) error {
		if r := e.Handle(now, msg); r != nil {
			if err := p.Write(r); err != nil {
				return err
			}
		}
		if e.Damaged != "" {
			report(line.Error(e.Damaged))
			e.Damaged = ""
		} else {
			report(line.Clean())
		}
		return nil
	}
	for ctx.Err() == nil {
		wait := 10 * time.Millisecond
		if f.Pending() {
			wait = min(wait, max(opt.CutAfter-time.Since(lastByte), time.Millisecond))
		}
		n, err := p.Read(buf, wait)
		if err != nil {
			return err
		}
		now = time.Now()
		if n > 0 {
			lastByte = now
		}
		decoded = decoded[:0]
		for _, x := range buf[:n] {
			decoded = u.Feed(decoded, x)
		}
		for _, b := range decoded {
			if b.Wakeup {
				lastAddr = now
				if down {
					down = false
					log.Info("SAS link up", "port", p.Name())
					if opt.Link != nil {
						opt.Link(true)
					}
				}
			}
			msg := f.Feed(b)
			if c := f.Cut(); c != nil {
				// The host moved on: too late to answer; counted.
				report(line.Error(fmt.Sprintf("long poll cut short by the next message: %d bytes (%s)", len(c), serial.Hex(c))))
			}
			if msg == nil {
				continue
			}
			if err := answer(msg); err != nil {
				return err
			}
			if e.AckErr != nil {
				log.Error("SAS exception acknowledgement not stored: it will be reported again", "err", e.AckErr)
				e.AckErr = nil
			}
			if st, ok := e.M.(interface{ Stopped() bool }); ok && st.Stopped() && e.Cfg.Address != 0 {
				// Memory error reported (34) and acknowledged: the address
				// drops to 0 (the reference), nothing more is answered.
				log.Error("SAS stopped after the memory error was reported: address 0", "port", p.Name())
				e.Cfg.Address = 0
			}
		}
		if f.Pending() && now.Sub(lastByte) >= opt.CutAfter {
			// The line fell silent inside a long poll to this machine:
			// malformed (a length byte larger than the frame), NACKed.
			if msg := f.Flush(); len(msg) >= 2 {
				if err := answer(msg); err != nil {
					return err
				}
			} else {
				report(line.Error(fmt.Sprintf("an address byte alone, then silence (%s)", serial.Hex(msg))))
			}
		}
		if seed, ok := e.ROMRequest(); ok && !romBusy {
			romBusy = true
			go func() {
				sig, err := opt.ROM(seed)
				romCh <- romResult{seed, sig, err}
			}()
		}
		select {
		case r := <-romCh:
			romBusy = false
			if r.err != nil {
				log.Error("SAS ROM signature", "err", r.err)
			} else {
				e.ROMResult(r.seed, r.sig)
			}
		default:
		}
		if e.Cfg.Address != 0 && now.Sub(lastAddr) >= opt.ChirpAfter {
			if !down {
				down = true
				e.Unsync()
				log.Warn("SAS link down: no address byte", "port", p.Name(), "silence", opt.ChirpAfter)
				if opt.Link != nil {
					opt.Link(false)
				}
			}
			if now.Sub(lastChirp) >= opt.ChirpEvery {
				if err := p.WriteMarked(e.Cfg.Address); err != nil {
					return err
				}
				lastChirp = now
			}
		}
	}
	return nil
}
