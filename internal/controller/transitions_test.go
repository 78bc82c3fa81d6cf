package controller

import (
	"errors"
	"strings"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// stAttractHelp: the help screen from attract (no credits).
func stAttractHelp(t *testing.T) *rig {
	r := stAttract(t)
	r.pressLit(hw.Help)
	return r
}

// stConfigMenu: the menu of a cabinet on the shipped configuration (with its
// operator menu), 50.00 credited.
func stConfigMenu(t *testing.T) *rig {
	r, _ := configRig(t)
	if err := r.insert(5000); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTransitions: every state change of the controller (platform.md §1),
// through the sim panel: the input, the screen it leads to, and what else
// moves with it.
func TestTransitions(t *testing.T) {
	tests := []struct {
		name  string
		from  func(*testing.T) *rig
		do    func(r *rig)
		want  view.Mode
		check func(t *testing.T, r *rig, before recoveryView)
	}{
		{"attract → menu: a bill", stAttract, func(r *rig) { mustOK(r, r.insert(500)) }, view.Menu,
			func(t *testing.T, r *rig, b recoveryView) { wantCredits(t, r, 500) }},
		{"attract → help: help", stAttract, func(r *rig) { r.pressLit(hw.Help) }, view.Help, nil},
		{"help → attract: game", stAttractHelp, func(r *rig) { r.pressLit(hw.Game) }, view.Attract, nil},
		{"help without credits: deal unlit and refused", stAttractHelp, func(r *rig) {
			if r.be.Lamps().Has(hw.Deal) {
				r.t.Fatal("DEAL lit on the help screen with no credits")
			}
			if err := r.panel(hw.Deal); !errors.Is(err, ErrNotNow) {
				r.t.Fatalf("unlit DEAL on help = %v, want ErrNotNow", err)
			}
		}, view.Help, nil},
		{"help → menu: game", stHelp, func(r *rig) { r.pressLit(hw.Game) }, view.Menu, nil},
		{"menu → menu: spot picks the next game", stMenu, func(r *rig) { r.pressLit(hw.Spot) }, view.Menu,
			func(t *testing.T, r *rig, b recoveryView) {
				if g := r.c.Snapshot().Game; g != r.c.set.Games[1] {
					t.Fatalf("game %s, want %s", g, r.c.set.Games[1])
				}
			}},
		{"menu → table: deal", stMenu, func(r *rig) { r.chooseGame(game.Classic) }, view.Table,
			func(t *testing.T, r *rig, b recoveryView) {
				if r.c.Round() != nil || !r.be.Lamps().Has(hw.BetPlus) || r.be.Lamps().Has(hw.Deal) {
					t.Fatalf("table: round %v lamps %b, want betting with BET+ lit, DEAL not", r.c.Round() != nil, r.be.Lamps())
				}
			}},
		{"table → menu: game clears the bets", stBetting, func(r *rig) { r.pressLit(hw.Game) }, view.Menu,
			func(t *testing.T, r *rig, b recoveryView) {
				if len(r.c.Snapshot().Bets) != 0 {
					t.Fatalf("bets %v kept", r.c.Snapshot().Bets)
				}
			}},
		{"betting → round: deal", stBetting, func(r *rig) { r.pressLit(hw.Deal) }, view.Table,
			func(t *testing.T, r *rig, b recoveryView) {
				m := r.c.Machine()
				if m.Meters.Played != b.played+1 || m.Meters.TotalIn < b.totalIn+100 {
					t.Fatalf("played %d total in %v, want a round started with 1.00 staked", m.Meters.Played, m.Meters.TotalIn)
				}
			}},
		{"round → result: the last decision", stRound, func(r *rig) { r.playOut() }, view.Table,
			func(t *testing.T, r *rig, b recoveryView) {
				s := r.c.Snapshot()
				if r.c.Round() != nil || s.Round == nil || !s.Round.Done || r.c.Completed() != b.completed+1 {
					t.Fatalf("after the round: open %v picture %+v completed %d", r.c.Round() != nil, s.Round, r.c.Completed())
				}
				if !s.Lamps.Has(hw.BetPlus) || !s.Lamps.Has(hw.Rebet) || !s.Lamps.Has(hw.Game) {
					t.Fatalf("lamps after the round %b, want BET+, REBET and GAME", s.Lamps)
				}
			}},
		{"round → help → round", stRound, func(r *rig) { r.pressLit(hw.Help); r.pressLit(hw.Help) }, view.Table,
			func(t *testing.T, r *rig, b recoveryView) {
				if r.c.Round() == nil || string(mustJSON(r.c.Round().Table())) != b.round {
					t.Fatal("the round moved through the help screen")
				}
			}},
		{"no credits → attract: game", stBroke, func(r *rig) { r.pressLit(hw.Game) }, view.Attract, nil},
		{"menu → handpay: cash out", stMenu, func(r *rig) { r.pressLit(hw.CashOut) }, view.Handpay,
			func(t *testing.T, r *rig, b recoveryView) {
				s := r.c.Snapshot()
				if s.Handpay != 5000 || s.HandpayKind != HandpayCashout || s.Credits != 5000 || r.be.TowerLight() != hw.TowerAttendant || r.be.Acceptance() != 0 {
					t.Fatalf("handpay %v %s credits %v tower %d acceptance %v", s.Handpay, s.HandpayKind, s.Credits, r.be.TowerLight(), r.be.Acceptance())
				}
			}},
		{"handpay → attract: reset key", stHandpay, func(r *rig) { r.turn(hw.ResetKey, true); r.turn(hw.ResetKey, false) }, view.Attract,
			func(t *testing.T, r *rig, b recoveryView) {
				m := r.c.Machine()
				if m.Credits != 0 || m.Handpay != 0 || m.Meters.HandpayCancelled != 5000 || r.be.TowerLight() != hw.TowerOff {
					t.Fatalf("credits %v handpay %v cancelled %v tower %d", m.Credits, m.Handpay, m.Meters.HandpayCancelled, r.be.TowerLight())
				}
				if err := m.Meters.Check(m.Credits); err != nil {
					t.Fatal(err)
				}
			}},
		{"handpay stays: reset key under the audit key", stHandpay, func(r *rig) {
			r.turn(hw.AuditKey, true)
			r.turn(hw.ResetKey, true)
			r.turn(hw.ResetKey, false)
			r.turn(hw.AuditKey, false)
		}, view.Handpay, func(t *testing.T, r *rig, b recoveryView) {
			if m := r.c.Machine(); m.Handpay != 5000 || m.Credits != 5000 || m.Meters.HandpayCancelled != 0 {
				t.Fatalf("handpay %v credits %v cancelled %v, want the handpay still pending", m.Handpay, m.Credits, m.Meters.HandpayCancelled)
			}
		}},
		{"menu → operator: operator key", stConfigMenu, func(r *rig) { r.turn(hw.OperatorKey, true) }, view.Operator,
			func(t *testing.T, r *rig, b recoveryView) {
				if r.be.Acceptance() != 0 || r.c.Machine().Meters.OperatorKey != 1 {
					t.Fatalf("acceptance %v operator key meter %d", r.be.Acceptance(), r.c.Machine().Meters.OperatorKey)
				}
			}},
		{"operator → menu: key off, the draft dropped", stOperator, func(r *rig) { r.turn(hw.OperatorKey, false) }, view.Menu,
			func(t *testing.T, r *rig, b recoveryView) {
				if o := r.storedOverrides(); len(o) != 0 {
					t.Fatalf("overrides %v stored without YES", o)
				}
			}},
		{"operator key refused: handpay", stHandpay, func(r *rig) { r.turn(hw.OperatorKey, true) }, view.Handpay, refusedKey},
		{"operator key refused: tilted", stTilted, func(r *rig) { r.turn(hw.OperatorKey, true); r.turn(hw.MainDoor, false) }, view.Menu, refusedKey},
		{"operator key refused: audit", stAudit, func(r *rig) { r.turn(hw.OperatorKey, true); r.turn(hw.AuditKey, false) }, view.Menu, refusedKey},
		{"operator key refused: memory error", stMemoryError, func(r *rig) { r.turn(hw.OperatorKey, true) }, view.Tilt,
			func(t *testing.T, r *rig, b recoveryView) {
				if r.c.scr.mode == view.Operator {
					t.Fatal("operator menu opened on a memory error")
				}
			}},
		{"memory error → audit: audit key", stMemoryError, func(r *rig) { r.turn(hw.AuditKey, true) }, view.Audit,
			func(t *testing.T, r *rig, b recoveryView) {
				if a := r.c.Snapshot().Audit; a == nil || len(a.Checks) == 0 || a.Checks[0].Key != "memory_error" {
					t.Fatalf("audit checks %+v, want the memory error", a)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.from(t)
			before := viewOf(r)
			tt.do(r)
			if got := r.c.Snapshot().Mode; got != tt.want {
				t.Fatalf("mode %s, want %s", got, tt.want)
			}
			if tt.check != nil {
				tt.check(t, r, before)
			}
			if r.c.Err() == nil {
				if m := r.c.Machine(); m.Meters.Check(m.Credits) != nil {
					t.Fatal(m.Meters.Check(m.Credits))
				}
			}
		})
	}
}

// recoveryView is what a transition's check compares with.
type recoveryView struct {
	played    int64
	completed int64
	totalIn   money.Cents
	round     string
}

func viewOf(r *rig) recoveryView {
	v := recoveryView{played: r.c.Machine().Meters.Played, completed: r.c.Completed(), totalIn: r.c.Machine().Meters.TotalIn}
	if rd := r.c.Round(); rd != nil {
		v.round = string(mustJSON(rd.Table()))
	}
	return v
}

func mustOK(r *rig, err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
}

func wantCredits(t *testing.T, r *rig, c money.Cents) {
	t.Helper()
	if got := r.c.Credits(); got != c {
		t.Fatalf("credits %v, want %v", got, c)
	}
}

// refusedKey: the operator key was turned where the menu may not open: it is
// logged as refused and the menu stays closed even once the cause is gone.
func refusedKey(t *testing.T, r *rig, _ recoveryView) {
	t.Helper()
	if r.c.scr.mode == view.Operator {
		t.Fatal("operator menu opened")
	}
	if evs := storeEvents(t, r.st); !hasEvent(evs, meters.KindKey, "operator_key on (refused") {
		t.Fatal("refused operator key not logged as refused")
	}
}

// TestJackpotHandpay: a single win at or above the handpay limit is not
// credited; it locks the cabinet (no bet, acceptor inhibited) until the reset
// key pays it to the jackpot handpay meter.
func TestJackpotHandpay(t *testing.T) {
	r := newRigWith(t, 4, func(s *InForce) { s.HandpayLimit = 200 }) // a 1.00 bet won pays 2.00
	mustOK(r, r.insert(5000))
	r.chooseGame(game.Classic)
	for i := 0; r.c.Machine().Handpay == 0; i++ {
		if i > 40 {
			t.Fatal("no round won in 40")
		}
		r.pressLit(hw.BetPlus)
		r.pressLit(hw.Deal)
		r.playOut()
	}
	m := r.c.Machine()
	s := r.c.Snapshot()
	if s.Mode != view.Handpay || s.HandpayKind != HandpayJackpot || s.Handpay < 200 || s.Lamps != 0 ||
		r.be.Acceptance() != 0 || r.be.TowerLight() != hw.TowerAttendant {
		t.Fatalf("win over the limit: mode %s handpay %v %s lamps %b acceptance %v tower %d",
			s.Mode, s.Handpay, s.HandpayKind, s.Lamps, r.be.Acceptance(), r.be.TowerLight())
	}
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Fatalf("handpaid win credited? %v", err)
	}
	// The game's won meter counts the handpaid win (the game paid it), the
	// credited total won does not: won − total won = handpaid.
	if g := m.Meters.Games[game.Classic]; g == nil || g.Won-m.Meters.TotalWon != m.Handpay {
		t.Fatalf("classic won meter %v, total won %v, handpay %v: the game's won must include the handpaid win",
			g.Won, m.Meters.TotalWon, m.Handpay)
	}
	before := freeze(r)
	for _, b := range []hw.Button{hw.BetPlus, hw.Deal, hw.Rebet, hw.CashOut} {
		if err := r.panel(b); !errors.Is(err, ErrNotNow) {
			t.Fatalf("press %s in a jackpot handpay = %v, want ErrNotNow", b, err)
		}
	}
	if after := freeze(r); after.machine != before.machine || after.stored != before.stored || string(after.file) != string(before.file) {
		t.Fatal("refused presses changed the store")
	}
	amount := m.Handpay
	r.turn(hw.ResetKey, true)
	r.turn(hw.ResetKey, false)
	m2 := r.c.Machine()
	if m2.Handpay != 0 || m2.Credits != m.Credits || m2.Meters.JackpotHandpay != amount || m2.Meters.JackpotHandpays != 1 ||
		m2.Meters.HandpayCancelled != 0 || r.c.Snapshot().Mode != view.Table || !r.be.Lamps().Has(hw.BetPlus) {
		t.Fatalf("reset key: handpay %v credits %v (was %v) jackpot handpay %v×%d cancelled %v mode %s",
			m2.Handpay, m2.Credits, m.Credits, m2.Meters.JackpotHandpay, m2.Meters.JackpotHandpays, m2.Meters.HandpayCancelled, r.c.Snapshot().Mode)
	}
	if err := m2.Meters.Check(m2.Credits); err != nil {
		t.Fatal(err)
	}
	evs := storeEvents(t, r.st)
	if !hasEvent(evs, meters.KindHandpay, "jackpot handpay "+amount.String()) || !hasEvent(evs, meters.KindHandpayClear, "jackpot handpay "+amount.String()) {
		t.Fatal("jackpot handpay and its clearing not logged")
	}
}

// TestCreditLimit: the acceptor takes only bills that keep the credits
// within the limit; one that would go over is returned (logged), and at the
// limit the acceptor is inhibited.
func TestCreditLimit(t *testing.T) {
	r := newRig(t, 6)
	for range 9 {
		mustOK(r, r.insert(10000))
	}
	mustOK(r, r.insert(5000))
	if got := r.be.Acceptance(); got != 5000 {
		t.Fatalf("acceptance at 950.00 of 1000.00 = %v, want 50.00", got)
	}
	before := r.c.Machine()
	mustOK(r, r.insert(10000))
	if m := r.c.Machine(); m.Credits != before.Credits || m.Meters.BillsIn != before.Meters.BillsIn {
		t.Fatalf("100.00 over the limit credited: %v", m.Credits)
	}
	if evs := storeEvents(t, r.st); evs[len(evs)-1].Kind != meters.KindBillRefused {
		t.Fatalf("returned bill not logged: %+v", evs[len(evs)-1])
	}
	mustOK(r, r.insert(5000))
	wantCredits(t, r, 100000)
	if got := r.be.Acceptance(); got != 0 {
		t.Fatalf("acceptance at the limit = %v, want inhibited", got)
	}
	mustOK(r, r.insert(500))
	wantCredits(t, r, 100000)
}

// TestBillStackedDuringCashoutHandpay: a bill already in the stacker when the
// player cashed out is credited (it is in the cash box); the reset key still
// pays the handpay that was locked, and the bill stays on the credit meter.
func TestBillStackedDuringCashoutHandpay(t *testing.T) {
	r := stHandpay(t)
	mustOK(r, r.c.Handle(HW(hw.Input{Kind: hw.BillStacked, Value: 1000})))
	if m := r.c.Machine(); m.Credits != 6000 || m.Handpay != 5000 {
		t.Fatalf("late bill: credits %v handpay %v, want 60.00 and the 50.00 handpay", m.Credits, m.Handpay)
	}
	r.turn(hw.ResetKey, true)
	r.turn(hw.ResetKey, false)
	m := r.c.Machine()
	if m.Handpay != 0 || m.Credits != 1000 || m.Meters.HandpayCancelled != 5000 || r.c.Snapshot().Mode != view.Menu {
		t.Fatalf("reset key: handpay %v credits %v cancelled %v mode %s, want 10.00 left on the menu", m.Handpay, m.Credits, m.Meters.HandpayCancelled, r.c.Snapshot().Mode)
	}
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Fatal(err)
	}
}

// TestBillRefusalReasons: a returned bill says why on the screen, and the
// event log records the same reason, typed (translated on the audit screen),
// with the bill's value; the acceptor's own words stay in the English record.
// A signal that is no bill is logged as a bill error and the screen says so.
func TestBillRefusalReasons(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(r *rig)
		bill    money.Cents
		notice  string
		detail  string
		reason  string
		recText string
	}{
		{"credit limit", func(r *rig) {
			for range 9 {
				mustOK(r, r.insert(10000))
			}
			mustOK(r, r.insert(5000))
		}, 10000, NoticeCreditLimit, "bill_refused", "bill_reason.credit_limit", "bill 100.00 refused: it would take the credits past the credit limit"},
		{"audit key", func(r *rig) { r.set(hw.AuditKey, true) }, 2000, NoticeBillInhibited, "bill_refused", "bill_reason.inhibited", "bill 20.00 refused: the acceptor was off"},
		{"jammed", func(r *rig) {
			r.be.SetJam(true)
			if err := r.deliver(); err != nil {
				t.Fatal(err)
			}
		}, 500, NoticeBillJammed, "bill_refused", "bill_reason.jammed", "bill 5.00 refused: the acceptor was jammed (acceptor: acceptor jammed)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, 3)
			tt.setup(r)
			before := r.c.Machine()
			mustOK(r, r.insert(tt.bill))
			if m := r.c.Machine(); m.Credits != before.Credits || m.Meters.BillsIn != before.Meters.BillsIn {
				t.Fatalf("returned bill credited: credits %v → %v", before.Credits, m.Credits)
			}
			if got := r.c.Snapshot().Message; got != tt.notice {
				t.Errorf("screen message = %q, want %q", got, tt.notice)
			}
			evs := storeEvents(t, r.st)
			e := evs[len(evs)-1]
			if e.Kind != meters.KindBillRefused || e.Detail != tt.detail || len(e.Args) != 2 ||
				e.Args[0] != meters.MoneyArg(tt.bill) || e.Args[1] != meters.KeyArg(tt.reason) {
				t.Fatalf("logged %+v, want %s %s with %v and %s", e, meters.KindBillRefused, tt.detail, tt.bill, tt.reason)
			}
			if !strings.HasPrefix(e.Text, tt.recText) {
				t.Errorf("record %q, want it to start with %q", e.Text, tt.recText)
			}
		})
	}
	t.Run("bill error", func(t *testing.T) {
		r := newRig(t, 3)
		r.bill(2000)
		before := r.c.Machine()
		in := hw.Input{Kind: hw.BillError, Err: "pulse: gap out of range inside a train: 3 pulses"}
		if err := r.c.Handle(HW(in)); err != nil {
			t.Fatal(err)
		}
		if m := r.c.Machine(); m.Credits != before.Credits || m.Meters.BillsIn != before.Meters.BillsIn {
			t.Fatalf("bill error credited: credits %v → %v", before.Credits, m.Credits)
		}
		if got := r.c.Snapshot().Message; got != NoticeBillError {
			t.Errorf("screen message = %q, want %q", got, NoticeBillError)
		}
		evs := storeEvents(t, r.st)
		e := evs[len(evs)-1]
		if e.Kind != meters.KindBillError || e.Detail != "bill_error" || len(e.Args) != 1 || e.Args[0].Value != in.Err {
			t.Fatalf("logged %+v, want a bill_error with the decoder's reason", e)
		}
		// The next accepted input clears the message.
		r.bill(500)
		if got := r.c.Snapshot().Message; got != "" {
			t.Errorf("message after an accepted bill = %q, want none", got)
		}
	})
}
