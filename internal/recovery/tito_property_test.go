package recovery

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

var errKill = errors.New("killed before commit")

// Where the item in the validator is, physically.
const (
	posEscrow    = iota // held in escrow
	posTransport        // stack command sent, on its way
	posStacker          // in the stacker, Vend Valid not yet ACKed
)

// vitem is the note or ticket physically in the validator.
type vitem struct {
	ticket bool
	value  money.Cents // note value, or the ticket's amount
	pos    int
}

// world is what is physically true outside the store: the cash box, the
// validator, the papers the printer let out.
type world struct {
	cashNotes, cashTickets money.Cents
	item                   *vitem
	papers                 map[uint64][]string // ticket out Seq → validation numbers printed
	printing               uint64              // ticket out being printed (0: none)
}

// powerUp is the validator's power-up status for the world's item.
func (w *world) powerUp() PowerUp {
	switch {
	case w.item == nil:
		return PowerUpEmpty
	case w.item.pos == posStacker:
		return PowerUpBillInStacker
	}
	return PowerUpBillInAcceptor
}

// TestTITOModel: random sequences of the ticket, note and play
// transactions, each run as the controller runs it (record and money in
// one transaction) and each possibly killed before its commit (the
// transaction abandoned, then a boot that resolves what the cut left from
// the validator's power-up status), against a model of the physical
// world. Money is never created or lost: the credit meter is what the
// committed transactions moved, the bills and tickets credited are never
// more than the cash box holds (and equal once the validator is empty), a
// cash-out is one ticket with one validation number whatever was printed,
// and Check holds after every boot.
func TestTITOModel(t *testing.T) {
	dir := t.TempDir()
	runs := 0
	seen := map[string]int{}
	defer func() { t.Logf("transactions committed: %v", seen) }()
	rapid.Check(t, func(rt *rapid.T) {
		runs++
		path := filepath.Join(dir, fmt.Sprintf("t%d.db", runs))
		s, err := Open(path, Options{Init: true, Now: fixedClock()})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		w := &world{papers: map[uint64][]string{}}
		var credits money.Cents // the model's credit meter
		nextNumber := uint64(1000)
		kills := 0

		// try runs one transaction, killed before its commit with
		// probability 1/16; it reports whether it committed.
		try := func(name string, fn func(tx *Tx) error) bool {
			kill := rapid.IntRange(0, 15).Draw(rt, name+" killed") == 0
			err := s.Update(func(tx *Tx) error {
				if err := fn(tx); err != nil {
					return err
				}
				if kill {
					return errKill
				}
				return nil
			})
			if kill && errors.Is(err, errKill) {
				kills++
				return false
			}
			if err != nil {
				rt.Fatalf("%s: %v", name, err)
			}
			seen[name]++
			return true
		}
		creditTx := func(tx *Tx, v money.Cents, ticket bool) error {
			m, err := tx.Machine()
			if err != nil {
				return err
			}
			m.Credits += v
			if ticket {
				m.Meters.TicketRedeemed(v)
			} else {
				m.Meters.BillsIn += v
			}
			return tx.PutMachine(m)
		}
		// printer prints ticket seq (or not) and the cabinet records the result.
		var boot func()
		printer := func(tk TicketOut) {
			w.printing = 0
			out := rapid.IntRange(0, 2).Draw(rt, "printer")
			if out != 2 { // 0 confirmed, 1 printed but not confirmed, 2 failed
				w.papers[tk.Seq] = append(w.papers[tk.Seq], tk.Validation)
			}
			var ok bool
			if out == 0 {
				ok = try("print done", func(tx *Tx) error { _, err := printDone(tx, tk.Seq); return err })
			} else {
				ok = try("print failed", func(tx *Tx) error { _, err := tx.TicketPrintFailed(tk.Seq, "paper jam"); return err })
			}
			if !ok {
				boot()
			}
		}
		// boot: the power cut or kill, then the boot's resolutions. The
		// validator keeps reporting its power-up status until the cabinet
		// resets it, which it does only after committing the resolution.
		boot = func() {
			if w.printing != 0 {
				if rapid.Bool().Draw(rt, "printed before the cut") {
					var tk TicketOut
					if err := s.View(func(tx *Tx) error { var err error; tk, _, err = tx.OpenTicketOut(); return err }); err != nil {
						rt.Fatal(err)
					}
					w.papers[w.printing] = append(w.papers[w.printing], tk.Validation)
				}
				w.printing = 0
			}
			if err := s.Close(); err != nil {
				rt.Fatal(err)
			}
			if s, err = Open(path, Options{Now: fixedClock()}); err != nil {
				rt.Fatal(err)
			}
			if err := s.Check(); err != nil {
				rt.Fatalf("Check at boot: %v", err)
			}
			if rapid.IntRange(0, 4).Draw(rt, "validator silent") == 0 {
				if err := s.Update(func(tx *Tx) error {
					if a, _, err := tx.ResolveNoteAtBoot(PowerUpUnknown); err != nil || (a != NoteWait && a != NoteNothing) {
						return fmt.Errorf("note with the validator silent: %v, %w", a, err)
					}
					if a, _, err := tx.TicketInAtBoot(PowerUpUnknown); err != nil || (a != TicketInWait && a != TicketInNothing) {
						return fmt.Errorf("ticket in with the validator silent: %v, %w", a, err)
					}
					return nil
				}); err != nil {
					rt.Fatal(err)
				}
			}
			p := w.powerUp()
			var got money.Cents
			ok := try("boot", func(tx *Tx) error {
				got = 0
				if _, _, err := tx.TicketOutAtBoot(); err != nil {
					return err
				}
				a, n, err := tx.ResolveNoteAtBoot(p)
				if err != nil {
					return err
				}
				if a == NoteCredit {
					got += n.Value
					if err := creditTx(tx, n.Value, false); err != nil {
						return err
					}
				}
				ta, tk, err := tx.TicketInAtBoot(p)
				if err != nil {
					return err
				}
				if ta == TicketInCredit {
					got += tk.Amount
					return creditTx(tx, tk.Amount, true)
				}
				return nil
			})
			if !ok {
				boot()
				return
			}
			credits += got
			w.item = nil // reset: 41 returns the item, 42 finishes stacking it
		}

		for range rapid.IntRange(10, 60).Draw(rt, "ops") {
			var note *Note
			var open TicketOut
			var openOK bool
			var red sas.Redemption
			if err := s.View(func(tx *Tx) error {
				var err error
				if note, err = tx.Note(); err != nil {
					return err
				}
				if open, openOK, err = tx.OpenTicketOut(); err != nil {
					return err
				}
				red, err = tx.Redemption()
				return err
			}); err != nil {
				rt.Fatal(err)
			}
			// Weighted: the validator and the host get more turns, so that
			// items go through every step between the cuts.
			// (rapid favours small draws: the steps that move an item on
			// come first.)
			op, k := 7, rapid.IntRange(0, 99).Draw(rt, "op")
			for _, c := range [][2]int{{1, 20}, {6, 40}, {5, 50}, {3, 58}, {4, 66}, {0, 78}, {2, 94}} {
				if k < c[1] {
					op = c[0]
					break
				}
			}
			switch {
			case op == 0 && w.item == nil && note == nil: // a note in escrow: the cabinet stacks it
				v := money.Cents(rapid.SampledFrom([]int64{500, 1000, 2000}).Draw(rt, "note"))
				w.item = &vitem{value: v}
				if !try("note stacking", func(tx *Tx) error { return tx.NoteStacking(v) }) {
					boot()
					continue
				}
				w.item.pos = posTransport
			case op == 1 && w.item != nil && !w.item.ticket && w.item.pos >= posTransport:
				if w.item.pos == posTransport && rapid.IntRange(0, 3).Draw(rt, "jam") == 0 {
					w.item = nil // returned to the player
					if rapid.IntRange(0, 3).Draw(rt, "cut before the return is recorded") == 0 {
						boot() // 40h with the record stacking
						continue
					}
					if !try("note returned", func(tx *Tx) error { return tx.NoteReturned() }) {
						boot()
					}
					continue
				}
				if w.item.pos == posTransport {
					w.item.pos = posStacker
					w.cashNotes += w.item.value
				}
				var v money.Cents
				if !try("vend valid", func(tx *Tx) error {
					var err error
					if v, err = tx.NoteCredited(); err != nil {
						return err
					}
					return creditTx(tx, v, false)
				}) {
					boot()
					continue
				}
				credits += v
				if rapid.IntRange(0, 5).Draw(rt, "cut before the ACK") == 0 {
					boot() // 42h with the credit committed
					continue
				}
				w.item = nil // ACK sent: stacked
				if !try("stacked", func(tx *Tx) error { return tx.NoteDone() }) {
					boot()
				}
			case op == 1 && w.item == nil && note != nil && note.Status == NoteCreditedAwaitingAck:
				if !try("stacked again", func(tx *Tx) error { return tx.NoteDone() }) {
					boot()
				}
			case op == 2: // play
				stake := money.Cents(rapid.Int64Range(0, int64(credits)).Draw(rt, "stake"))
				win := money.Cents(rapid.Int64Range(0, 2*int64(stake)).Draw(rt, "win"))
				if try("play", func(tx *Tx) error {
					m, err := tx.Machine()
					if err != nil {
						return err
					}
					m.Credits += win - stake
					m.Meters.TotalIn += stake
					m.Meters.TotalWon += win
					return tx.PutMachine(m)
				}) {
					credits += win - stake
				} else {
					boot()
				}
			case op == 3 && credits > 0 && !openOK: // cash out to a ticket
				nextNumber++
				var tk TicketOut
				amount := credits
				if !try("issue", func(tx *Tx) error { var err error; tk, err = issue(tx, vn(nextNumber), amount); return err }) {
					boot()
					continue
				}
				credits -= amount
				w.printing = tk.Seq
				if rapid.IntRange(0, 4).Draw(rt, "cut while printing") == 0 {
					boot()
					continue
				}
				printer(tk)
			case op == 3 && openOK && credits > 0: // a second cash-out while one is unresolved: refused
				nextNumber++
				err := s.Update(func(tx *Tx) error { _, err := issue(tx, vn(nextNumber), credits); return err })
				if !errors.Is(err, ErrTicketUnresolved) {
					rt.Fatalf("second cash-out while ticket %d is %s = %v, want ErrTicketUnresolved", open.Seq, open.Status, err)
				}
				if open.Status == TicketUncertain {
					if err := s.Update(func(tx *Tx) error { _, err := printDone(tx, open.Seq); return err }); !errors.Is(err, ErrTicketState) {
						rt.Fatalf("print done of an uncertain ticket = %v, want ErrTicketState", err)
					}
				}
			case op == 4 && openOK && open.Status == TicketUncertain: // the attendant
				if rapid.Bool().Draw(rt, "reprint") {
					var tk TicketOut
					if !try("reprint", func(tx *Tx) error { var err error; tk, err = tx.TicketReprint(open.Seq); return err }) {
						boot()
						continue
					}
					w.printing = tk.Seq
					printer(tk)
				} else if !try("void", func(tx *Tx) error { _, err := void(tx, open.Seq); return err }) {
					boot()
				}
			case op == 5 && w.item == nil && note == nil && red.Stage == sas.StageIdle: // a ticket in escrow
				amount := money.Cents(rapid.Int64Range(1, 5000).Draw(rt, "ticket"))
				w.item = &vitem{ticket: true, value: amount}
				nextNumber++
				if !try("insert", func(tx *Tx) error { _, err := tx.TicketInserted(vn(nextNumber)); return err }) {
					boot()
				}
			case op == 6 && red.Stage == sas.StageEscrow:
				if !try("LP 70", func(tx *Tx) error { return tx.UpdateRedemption(red, lp70(red)) }) {
					boot()
				}
			case op == 6 && red.Stage == sas.StageWaiting && w.item != nil:
				code := sas.TransferCashable
				if rapid.IntRange(0, 3).Draw(rt, "host rejects") == 0 {
					code = 0x85
				}
				if !try("LP 71", func(tx *Tx) error { return tx.UpdateRedemption(red, lp71(code, w.item.value)(red)) }) {
					boot()
					continue
				}
				if code.Rejected() {
					w.item = nil
				} else {
					w.item.pos = posTransport
				}
			case op == 6 && red.Stage == sas.StageDone:
				if !try("host read", func(tx *Tx) error { return tx.UpdateRedemption(red, red.Acknowledge()) }) {
					boot()
				}
			case op == 1 && w.item != nil && w.item.ticket && w.item.pos >= posTransport:
				if w.item.pos == posTransport && rapid.IntRange(0, 3).Draw(rt, "ticket jam") == 0 {
					w.item = nil
					if rapid.IntRange(0, 3).Draw(rt, "cut before the ticket's return is recorded") == 0 {
						boot() // 40h with the ticket authorised
						continue
					}
					if !try("ticket returned", func(tx *Tx) error { _, err := tx.TicketReturned(red.Cycle, sas.RedeemValidatorFailed, ""); return err }) {
						boot()
					}
					continue
				}
				if w.item.pos == posTransport {
					w.item.pos = posStacker
					w.cashTickets += w.item.value
				}
				var tk TicketIn
				if !try("ticket stacked", func(tx *Tx) error { var err error; tk, err = stacked(tx, red.Cycle); return err }) {
					boot()
					continue
				}
				credits += tk.Amount
				if rapid.IntRange(0, 5).Draw(rt, "cut before the ticket's ACK") == 0 {
					boot()
					continue
				}
				w.item = nil
			case op == 7:
				boot()
			}

			// The invariants.
			var m Machine
			var outs []TicketOut
			var n *Note
			var openIn bool
			if err := s.View(func(tx *Tx) error {
				var err error
				if m, err = tx.Machine(); err != nil {
					return err
				}
				if n, err = tx.Note(); err != nil {
					return err
				}
				if _, openIn, err = tx.OpenTicketIn(); err != nil {
					return err
				}
				outs, err = tx.TicketsOut(0)
				return err
			}); err != nil {
				rt.Fatal(err)
			}
			if m.Credits != credits {
				rt.Fatalf("credits %v, the committed transactions moved them to %v", m.Credits, credits)
			}
			if m.Meters.BillsIn > w.cashNotes || m.Meters.TicketsIn > w.cashTickets {
				rt.Fatalf("credited bills %v tickets %v, the cash box holds %v and %v", m.Meters.BillsIn, m.Meters.TicketsIn, w.cashNotes, w.cashTickets)
			}
			if w.item == nil && n == nil && !openIn && (m.Meters.BillsIn != w.cashNotes || m.Meters.TicketsIn != w.cashTickets) {
				rt.Fatalf("validator empty: credited bills %v tickets %v, the cash box holds %v and %v", m.Meters.BillsIn, m.Meters.TicketsIn, w.cashNotes, w.cashTickets)
			}
			var issued, paid money.Cents
			numbers := map[string]uint64{}
			unresolved := 0
			for _, tk := range outs {
				issued += tk.Amount
				if tk.Unresolved() {
					unresolved++
				}
				if prev, dup := numbers[tk.Validation]; dup {
					rt.Fatalf("validation %s on tickets %d and %d", tk.Validation, prev, tk.Seq)
				}
				numbers[tk.Validation] = tk.Seq
				for _, p := range w.papers[tk.Seq] {
					if p != tk.Validation {
						rt.Fatalf("cash-out %d printed as %s and recorded as %s", tk.Seq, p, tk.Validation)
					}
				}
				if tk.Status == TicketPrinted || tk.Status == TicketVoided {
					paid += tk.Amount
				}
			}
			if unresolved > 1 || issued != m.Meters.TicketsIssued || paid != m.Meters.TicketsOut+m.Meters.TicketsVoided {
				rt.Fatalf("%d unresolved tickets, issued %v paid %v; meters %+v", unresolved, issued, paid, m.Meters)
			}
		}
		if err := s.Check(); err != nil {
			rt.Fatalf("Check at the end: %v", err)
		}
		rt.Logf("kills %d", kills)
	})
}
