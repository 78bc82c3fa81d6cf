package recovery

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
)

// BenchmarkStepCommit commits a realistic step: the machine record (meters
// of five games), the open round with its steps and a 6-deck shoe, one step
// of events — about what the controller writes per action.
func BenchmarkStepCommit(b *testing.B) { stepCommit(b, true) }

// BenchmarkStepCommitNoProof is the same without the newest-store proof
// (bbolt's commit alone: what the proof's write adds is the difference).
func BenchmarkStepCommitNoProof(b *testing.B) { stepCommit(b, false) }

func stepCommit(b *testing.B, withProof bool) {
	path := filepath.Join(b.TempDir(), "bench.db")
	mirror := ""
	if withProof {
		mirror = path + ".mirror"
	}
	s, err := Open(path, Options{Init: true, Mirror: mirror})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	m := Machine{Credits: 100000, NextRound: 2}
	m.Meters.BillsIn = 100000
	for _, g := range game.IDs {
		m.Meters.RoundStarted(g)
		m.Meters.Step(g, []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 0}, {Kind: game.Stake, Bet: game.AnyPair, Amount: 0}})
	}
	shoe := card.NewShoe(6)
	shoe.Pos = 40
	evs := []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 100}, {Kind: game.Stake, Bet: game.AnyPair, Amount: 100}}
	for _, c := range card.MustParse("AS KH 7D 9C 5S") {
		evs = append(evs, game.Event{Kind: game.CardDealt, Card: c, Hand: 0})
	}
	open := &OpenRound{Game: game.Classic, Round: 1, Start: time.Now(), Rules: json.RawMessage(`{"decks":6,"s17":true}`),
		State: json.RawMessage(`{"hands":[{"cards":["AS","KH"],"bet":100}],"dealer":["7D","9C"],"active":0}`), Shoe: shoe,
		CreditsBefore: 100000}
	// Rounds of 4 steps: a step appends to the open round (the shoe moves
	// on), the fourth closes nothing but starts the next round.
	written, whole := 0, 0
	st0 := s.bolt().Stats().TxStats
	b.ResetTimer()
	for i := range b.N {
		if i%4 == 0 {
			open.Round++
			open.Steps = nil
		}
		shoe.Pos++
		open.Steps = append(open.Steps, meters.Step{N: len(open.Steps), At: time.Now(), Action: game.Action{Kind: game.Hit}, Events: evs})
		err := s.Update(func(tx *Tx) error {
			mm, err := tx.Machine()
			if err != nil {
				return err
			}
			mm.Meters.Step(game.Classic, []game.Event{{Kind: game.Stake, Amount: 1}, {Kind: game.Payout, Amount: 1}})
			if err := tx.PutOpenRound(open); err != nil {
				return err
			}
			if err := tx.PutMachine(mm); err != nil {
				return err
			}
			written += tx.written
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		// What the whole-round layout would have put, measured outside
		// the timed commit (it encodes the whole shoe).
		b.StopTimer()
		if err := s.View(func(tx *Tx) error {
			mm, err := tx.Machine()
			r1, _ := encode(bRound, kOpen, open)
			r2, _ := encode(bMachine, kMachine, mm)
			whole += len(r1) + len(r2)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	st1 := s.bolt().Stats().TxStats
	// Record bytes put per step, and what the whole-round layout (the format
	// before the stepwise one) put for the same steps.
	b.ReportMetric(float64(written)/float64(b.N), "bytes/step")
	b.ReportMetric(float64(whole)/float64(b.N), "wholeround-bytes/step")
	// Pages bbolt wrote per commit (dirty pages incl. freelist; the meta
	// page adds one page), in bytes.
	b.ReportMetric(float64(st1.GetPageAlloc()-st0.GetPageAlloc())/float64(b.N), "pagebytes/step")
	b.ReportMetric(float64(st1.GetWrite()-st0.GetWrite())/float64(b.N), "writes/step")
}

// BenchmarkProofWrite is the newest-store proof's part of a step: one
// 512-byte slot written in place and fdatasync'd.
func BenchmarkProofWrite(b *testing.B) {
	path := filepath.Join(b.TempDir(), "proof")
	if err := createMirror(path, proof{N: 1}); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for i := range b.N {
		if err := writeMirror(f, proof{N: uint64(i + 2)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawFdatasync is the floor: a 2 KB write and fdatasync in the same
// directory kind (the test's temporary directory).
func BenchmarkRawFdatasync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "raw"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := []byte(strings.Repeat("x", 2048))
	b.ResetTimer()
	for range b.N {
		if _, err := f.WriteAt(buf, 0); err != nil {
			b.Fatal(err)
		}
		if err := fdatasync(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBootResume is the boot path with full rings: Open, Check (file
// walk, bbolt tx.Check, every record), read the machine and the open round.
func BenchmarkBootResume(b *testing.B) {
	path := filepath.Join(b.TempDir(), "boot.db")
	s, err := Open(path, Options{Init: true})
	if err != nil {
		b.Fatal(err)
	}
	rec := meters.Recall{Game: game.Royal, Rules: json.RawMessage(`{"decks":6}`)}
	for range 8 {
		rec.Steps = append(rec.Steps, meters.Step{Action: game.Action{Kind: game.Hit},
			Events: []game.Event{{Kind: game.CardDealt, Card: card.MustParse("QS")[0]}, {Kind: game.Payout, Amount: 100}}})
	}
	for i := range DefaultRecallDepth + 5 {
		rec.Round = uint64(i + 1)
		err := s.Update(func(tx *Tx) error {
			for range 10 {
				if err := tx.Log(meters.KindBillAccepted, "bill 20.00"); err != nil {
					return err
				}
			}
			return tx.CloseRound(rec)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	err = s.Update(func(tx *Tx) error {
		m, _ := tx.Machine()
		m.NextRound = DefaultRecallDepth + 10
		if err := tx.PutMachine(m); err != nil {
			return err
		}
		return tx.PutOpenRound(&OpenRound{Game: game.FreeBet, Round: DefaultRecallDepth + 9, Shoe: card.NewShoe(6)})
	})
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	b.ResetTimer()
	for range b.N {
		s, err := Open(path, Options{Init: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Check(); err != nil {
			b.Fatal(err)
		}
		err = s.View(func(tx *Tx) error {
			if _, err := tx.Machine(); err != nil {
				return err
			}
			o, err := tx.OpenRound()
			if o == nil && err == nil {
				b.Fatal("no open round")
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkTicketCheck is what every commit that writes the machine record
// adds since tickets (checkTickets): the ticket meters against tito/state
// and, while a ticket is outstanding, its record.
func BenchmarkTicketCheck(b *testing.B) {
	for _, open := range []bool{false, true} {
		b.Run(fmt.Sprintf("outstanding=%v", open), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "s.db"), Options{Init: true, Now: fixedClock()})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if err := s.Update(func(tx *Tx) error {
				m, _ := tx.Machine()
				m.Credits, m.Meters.BillsIn = 1000, 1000
				if open {
					if _, err := tx.IssueTicket(TicketRequest{Validation: "000000000000000001", Amount: 1000}); err != nil {
						return err
					}
					m.Credits = 0
					m.Meters.TicketIssued(1000)
				}
				return tx.PutMachine(m)
			}); err != nil {
				b.Fatal(err)
			}
			if err := s.View(func(tx *Tx) error {
				m, err := tx.Machine()
				if err != nil {
					return err
				}
				tx.machine = &m
				b.ResetTimer()
				for range b.N {
					if err := tx.checkTickets(); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
		})
	}
}
