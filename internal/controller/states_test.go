package controller

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/view"
)

// The cabinet states of platform.md §1, each reached through the sim panel
// the way a player, an attendant or a technician would.

// newRigWith is newRig with the test settings changed by mod.
func newRigWith(t *testing.T, seed uint64, mod func(*InForce)) *rig {
	t.Helper()
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "cabinet.db"), now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), seed: seed}
	set := testSettings()
	mod(&set)
	r.be = sim.New()
	r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: seed}, InForce: set, Now: func() time.Time { return r.now }}, kitStore{path: r.path})
	if err := r.c.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

func stAttract(t *testing.T) *rig { return newRig(t, 21) }

// stMenu: idle, 50.00 credited, the game menu.
func stMenu(t *testing.T) *rig {
	r := newRig(t, 21)
	if err := r.insert(5000); err != nil {
		t.Fatal(err)
	}
	return r
}

// stHelp: the help screen over the menu.
func stHelp(t *testing.T) *rig {
	r := stMenu(t)
	r.pressLit(hw.Help)
	return r
}

// stBetting: the Classic table between rounds, 1.00 placed, not dealt.
func stBetting(t *testing.T) *rig {
	r := stMenu(t)
	r.chooseGame(game.Classic)
	r.pressLit(hw.BetPlus)
	return r
}

// stRound: a Classic round open, waiting for the player.
func stRound(t *testing.T) *rig {
	r := stBetting(t)
	for i := 0; ; i++ {
		r.pressLit(hw.Deal)
		if r.c.Round() != nil {
			return r
		}
		if i > 20 {
			t.Fatal("every round settled at the deal")
		}
		r.pressLit(hw.BetPlus)
	}
}

// stBroke: the Classic table after a round that took the last credit.
func stBroke(t *testing.T) *rig {
	r := stMenu(t)
	r.chooseGame(game.Classic)
	for i := 0; r.c.Credits() > 0; i++ {
		if i > 40 {
			t.Fatalf("credits %v after %d rounds: choose another seed", r.c.Credits(), i)
		}
		bet := min(r.c.Credits(), r.c.set.Rules[game.Classic].MaxBet)
		if err := r.play(game.Action{Kind: game.Deal, Bets: []game.Bet{{Kind: game.Main, Amount: bet}}}); err != nil {
			t.Fatal(err)
		}
		for r.c.Round() != nil { // stand, no insurance: lose all, or at least keep the bet
			legal := r.c.Round().Legal(r.c.Credits())
			b, ok := litButtonFor(r.be.Lamps(), legal, game.Stand)
			if !ok {
				b, ok = litButtonFor(r.be.Lamps(), legal, game.NoInsure)
			}
			if !ok {
				t.Fatalf("neither stand nor no-insurance lit: legal %v", legal)
			}
			r.pressLit(b)
		}
	}
	return r
}

// stTilted: the menu with the main door open.
func stTilted(t *testing.T) *rig {
	r := stMenu(t)
	r.turn(hw.MainDoor, true)
	return r
}

// stTiltedRound: a round frozen by the cash door.
func stTiltedRound(t *testing.T) *rig {
	r := stRound(t)
	r.turn(hw.CashDoor, true)
	return r
}

// stHandpay: the cash-out handpay lock.
func stHandpay(t *testing.T) *rig {
	r := stMenu(t)
	r.pressLit(hw.CashOut)
	return r
}

// stAudit: the audit screens over the menu.
func stAudit(t *testing.T) *rig {
	r := stMenu(t)
	r.turn(hw.AuditKey, true)
	return r
}

// stAuditRound: the audit screens over an open round.
func stAuditRound(t *testing.T) *rig {
	r := stRound(t)
	r.turn(hw.AuditKey, true)
	return r
}

// stOperator: the operator menu (shipped configuration), a change drafted.
func stOperator(t *testing.T) *rig {
	r, _ := configRig(t)
	if err := r.insert(5000); err != nil {
		t.Fatal(err)
	}
	r.turn(hw.OperatorKey, true)
	r.pressLit(hw.BetPlus)
	if op := r.c.Snapshot().Operator; op == nil || !r.be.Lamps().Has(hw.Yes) {
		t.Fatalf("operator menu: %+v lamps %b, want a draft", op, r.be.Lamps())
	}
	return r
}

// stOperatorTilted: the operator menu with a draft, then the main door opened.
func stOperatorTilted(t *testing.T) *rig {
	r := stOperator(t)
	r.turn(hw.MainDoor, true)
	return r
}

// stCreditLimit: credits at the credit limit (1000.00).
func stCreditLimit(t *testing.T) *rig {
	r := newRig(t, 21)
	for r.c.Credits() < r.c.set.CreditLimit {
		if err := r.insert(10000); err != nil {
			t.Fatal(err)
		}
	}
	if r.c.Credits() != r.c.set.CreditLimit {
		t.Fatalf("credits %v, want the limit %v", r.c.Credits(), r.c.set.CreditLimit)
	}
	return r
}

// stMemoryError: the store's machine record damaged (credits changed without
// its checksum), found at boot.
func stMemoryError(t *testing.T) *rig {
	r := stMenu(t)
	if err := r.st.Close(); err != nil {
		t.Fatal(err)
	}
	recoverytest.Damaged(t, r.path)
	data, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	pat := []byte(`"credits":5000`)
	i := bytes.Index(data, pat)
	if i < 0 {
		t.Fatal("machine record not found in the file")
	}
	for ; i >= 0; i = bytes.Index(data, pat) {
		data[i+len(pat)-4] = '9'
	}
	if err := os.WriteFile(r.path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r.be = sim.New()
	r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: r.seed}, InForce: testSettings()}, kitStore{path: r.path, damaged: true})
	return r
}

// stDigest: booted with a program digest other than the configured one.
func stDigest(t *testing.T) *rig {
	r := stMenu(t)
	if err := r.st.Close(); err != nil {
		t.Fatal(err)
	}
	r.be = sim.New()
	r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: r.seed}, InForce: testSettings(),
		Digest: "aaaa", WantDigest: "bbbb"}, kitStore{path: r.path, wantErr: ErrDigest})
	if r.c.Snapshot().Mode != view.Tilt {
		t.Fatalf("mode %s, want a tilt", r.c.Snapshot().Mode)
	}
	return r
}

// frozen is what must not move when an input is refused: the controller's
// committed machine record and round, and the store file itself.
type frozen struct {
	machine string // controller's machine record (JSON)
	round   string // controller's open round picture and legal actions
	stored  string // store's machine record and open round (or the error reading them)
	events  uint64 // newest event sequence number
	file    []byte
}

func freeze(r *rig) frozen {
	r.t.Helper()
	var f frozen
	f.machine = string(mustJSON(r.c.Machine()))
	if rd := r.c.Round(); rd != nil {
		f.round = string(mustJSON(rd.Table())) + string(mustJSON(rd.Legal(r.c.Credits())))
	}
	err := r.st.View(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		open, err := tx.OpenRound()
		if err != nil {
			return err
		}
		f.stored = string(mustJSON(m)) + string(mustJSON(open))
		evs, err := tx.Events(1)
		if len(evs) > 0 {
			f.events = evs[0].Seq
		}
		return err
	})
	if err != nil {
		f.stored = "error: " + err.Error()
	}
	if f.file, err = os.ReadFile(r.path); err != nil {
		r.t.Fatal(err)
	}
	return f
}

func press(b hw.Button) func(r *rig) error { return func(r *rig) error { return r.panel(b) } }

func play(k game.ActionKind) func(r *rig) error {
	return func(r *rig) error {
		return r.play(game.Action{Kind: k, Bets: []game.Bet{{Kind: game.Main, Amount: 100}}})
	}
}

func bill(v money.Cents) func(r *rig) error { return func(r *rig) error { return r.insert(v) } }

func stacked(v money.Cents) func(r *rig) error {
	return func(r *rig) error { return r.c.Handle(HW(hw.Input{Kind: hw.BillStacked, Value: v})) }
}

// TestRefusals: every "no bet while …" rule of platform.md §1 and every
// input the cabinet's state refuses. Each row names the state, the input,
// the sentinel error and what the refusal may log (nothing, or the returned
// bill); the controller's machine record and round, the store's records and
// (when nothing is logged) the store file are unchanged, and no money moved.
func TestRefusals(t *testing.T) {
	tests := []struct {
		state string
		setup func(*testing.T) *rig
		input string
		do    func(*rig) error
		want  error  // nil: accepted but changes nothing durable (audit navigation, a returned bill)
		logs  string // event kind the input logs; "": the store file is untouched
	}{
		{"attract", stAttract, "deal", press(hw.Deal), ErrNotNow, ""},
		{"attract", stAttract, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"attract", stAttract, "cash out with no credits", press(hw.CashOut), ErrNotNow, ""},
		{"attract", stAttract, "Play(deal) with no credits", play(game.Deal), game.ErrFunds, ""},
		{"no credits at the table", stBroke, "cash out with no credits", press(hw.CashOut), ErrNotNow, ""},
		{"no credits at the table", stBroke, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"no credits at the table", stBroke, "deal (the last bets again, unlit)", press(hw.Deal), ErrNotNow, ""},
		{"menu", stMenu, "hit", press(hw.Hit), ErrNotNow, ""},
		{"menu", stMenu, "double", press(hw.Double), ErrNotNow, ""},
		{"betting", stBetting, "hit", press(hw.Hit), ErrNotNow, ""},
		{"betting", stBetting, "Play(stand) with no round", play(game.Stand), game.ErrIllegal, ""},
		{"round", stRound, "cash out (unlit)", press(hw.CashOut), ErrNotNow, ""},
		{"round", stRound, "game (unlit)", press(hw.Game), ErrNotNow, ""},
		{"round", stRound, "rebet (unlit)", press(hw.Rebet), ErrNotNow, ""},
		{"round", stRound, "Play(deal) during the round", play(game.Deal), game.ErrIllegal, ""},
		{"tilted", stTilted, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"tilted", stTilted, "deal", press(hw.Deal), ErrNotNow, ""},
		{"tilted", stTilted, "spot", press(hw.Spot), ErrNotNow, ""},
		{"tilted", stTilted, "cash out", press(hw.CashOut), ErrNotNow, ""},
		{"tilted", stTilted, "Play(deal)", play(game.Deal), ErrNotNow, ""},
		{"tilted", stTilted, "bill (acceptor inhibited)", bill(500), nil, meters.KindBillRefused},
		{"tilted round", stTiltedRound, "stand", press(hw.Stand), ErrNotNow, ""},
		{"tilted round", stTiltedRound, "hit", press(hw.Hit), ErrNotNow, ""},
		{"tilted round", stTiltedRound, "Play(stand)", play(game.Stand), ErrNotNow, ""},
		{"handpay", stHandpay, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"handpay", stHandpay, "deal", press(hw.Deal), ErrNotNow, ""},
		{"handpay", stHandpay, "cash out again", press(hw.CashOut), ErrNotNow, ""},
		{"handpay", stHandpay, "Play(deal)", play(game.Deal), ErrNotNow, ""},
		{"handpay", stHandpay, "bill (acceptor inhibited)", bill(500), nil, meters.KindBillRefused},
		{"audit", stAudit, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"audit", stAudit, "deal", press(hw.Deal), ErrNotNow, ""},
		{"audit", stAudit, "cash out", press(hw.CashOut), ErrNotNow, ""},
		{"audit", stAudit, "Play(deal)", play(game.Deal), ErrNotNow, ""},
		{"audit", stAudit, "bill (acceptor inhibited)", bill(500), nil, meters.KindBillRefused},
		{"audit", stAudit, "yes (memory clear without a memory error)", press(hw.Yes), ErrNotNow, ""},
		{"audit over a round", stAuditRound, "hit (unlit on the meters page, not a card)", press(hw.Hit), ErrNotNow, ""},
		{"audit over a round", stAuditRound, "stand (unlit on the meters page, not a card)", press(hw.Stand), ErrNotNow, ""},
		{"audit over a round", stAuditRound, "cash out", press(hw.CashOut), ErrNotNow, ""},
		{"audit over a round", stAuditRound, "Play(stand)", play(game.Stand), ErrNotNow, ""},
		{"operator", stOperator, "deal", press(hw.Deal), ErrNotNow, ""},
		{"operator", stOperator, "cash out", press(hw.CashOut), ErrNotNow, ""},
		{"operator", stOperator, "Play(deal)", play(game.Deal), ErrNotNow, ""},
		{"operator", stOperator, "bill (acceptor inhibited)", bill(500), nil, meters.KindBillRefused},
		{"operator tilted", stOperatorTilted, "yes (save the draft)", press(hw.Yes), ErrNotNow, ""},
		{"operator tilted", stOperatorTilted, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"credit limit", stCreditLimit, "bill (acceptor inhibited)", bill(500), nil, meters.KindBillRefused},
		{"digest mismatch", stDigest, "deal", press(hw.Deal), ErrNotNow, ""},
		{"digest mismatch", stDigest, "cash out", press(hw.CashOut), ErrNotNow, ""},
		{"digest mismatch", stDigest, "Play(deal)", play(game.Deal), ErrNotNow, ""},
		{"digest mismatch", stDigest, "bill (acceptor inhibited)", bill(500), nil, meters.KindBillRefused},
		{"memory error", stMemoryError, "deal", press(hw.Deal), ErrNotNow, ""},
		{"memory error", stMemoryError, "bet+", press(hw.BetPlus), ErrNotNow, ""},
		{"memory error", stMemoryError, "Play(deal)", play(game.Deal), ErrNotNow, ""},
		{"memory error", stMemoryError, "bill stacked anyway", stacked(500), ErrMemory, ""},
		{"memory error", stMemoryError, "bill (acceptor inhibited)", bill(500), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.state+"/"+tt.input, func(t *testing.T) {
			r := tt.setup(t)
			mode := r.c.Snapshot().Mode
			before := freeze(r)
			err := tt.do(r)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("%s in %s = %v, want %v", tt.input, tt.state, err, tt.want)
			}
			after := freeze(r)
			if after.machine != before.machine {
				t.Errorf("machine record moved:\n before %s\n after  %s", before.machine, after.machine)
			}
			if after.round != before.round {
				t.Errorf("round moved:\n before %s\n after  %s", before.round, after.round)
			}
			if after.stored != before.stored {
				t.Errorf("stored records moved:\n before %s\n after  %s", before.stored, after.stored)
			}
			if tt.logs == "" {
				if !bytes.Equal(after.file, before.file) {
					t.Error("store file written")
				}
			} else {
				evs := storeEvents(t, r.st)
				if after.events != before.events+1 || evs[len(evs)-1].Kind != tt.logs {
					t.Errorf("logged up to event %d (was %d), newest %+v, want one %s", after.events, before.events, evs[len(evs)-1], tt.logs)
				}
			}
			if got := r.c.Snapshot().Mode; got != mode {
				t.Errorf("mode %s → %s", mode, got)
			}
			if r.be.Acceptance() != 0 && (tt.logs == meters.KindBillRefused || r.c.Err() != nil) {
				t.Errorf("acceptor enabled up to %v in %s", r.be.Acceptance(), tt.state)
			}
		})
	}
}

// picture is what the player sees and the panel shows: it must be the same
// after an overlay (tilt, audit) comes and goes.
type picture struct {
	Mode, Under view.Mode
	Lamps       hw.ButtonSet
	Credits     money.Cents
	Handpay     money.Cents
	Bets        []game.Bet
	Round       *game.Table
	Accept      money.Cents
	Tower       hw.Tower
	Legal       []game.ActionKind
}

func look(r *rig) string {
	s := r.c.Snapshot()
	p := picture{Mode: s.Mode, Under: s.Under, Lamps: s.Lamps, Credits: s.Credits, Handpay: s.Handpay, Bets: s.Bets,
		Round: s.Round, Accept: r.be.Acceptance(), Tower: r.be.TowerLight()}
	if rd := r.c.Round(); rd != nil {
		p.Legal = rd.Legal(r.c.Credits())
	}
	b, err := json.Marshal(p)
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

var states = []struct {
	name  string
	setup func(*testing.T) *rig
}{
	{"attract", stAttract},
	{"menu", stMenu},
	{"help", stHelp},
	{"betting", stBetting},
	{"round", stRound},
	{"no credits at the table", stBroke},
	{"tilted", stTilted},
	{"handpay", stHandpay},
	{"audit", stAudit},
	{"audit over a round", stAuditRound},
	{"operator", stOperator},
	{"credit limit", stCreditLimit},
	{"memory error", stMemoryError},
	{"digest mismatch", stDigest},
}

// TestOverlays: from every state, a door (tilt) or the audit key shows its
// screen over the state, lights nothing but what works there, inhibits the
// acceptor, and when it goes the cabinet is exactly where it was (a round
// frozen, not lost). Tilts are logged with their clearing.
func TestOverlays(t *testing.T) {
	for _, sw := range []hw.Switch{hw.MainDoor, hw.CashDoor, hw.AuditKey} {
		for _, st := range states {
			if sw == hw.AuditKey && (st.name == "audit" || st.name == "audit over a round") {
				continue
			}
			if sw == hw.MainDoor && st.name == "tilted" {
				continue
			}
			t.Run(sw.String()+"/"+st.name, func(t *testing.T) {
				r := st.setup(t)
				before := look(r)
				s0 := r.c.Snapshot()
				audit := sw == hw.AuditKey || s0.Mode == view.Audit
				memErr := r.c.Err() != nil
				r.turn(sw, true)
				s := r.c.Snapshot()
				base := s0.Under
				if base == "" {
					base = s0.Mode
				}
				switch {
				case audit:
					if s.Mode != view.Audit || s.Audit == nil {
						t.Fatalf("mode %s, want audit", s.Mode)
					}
				default:
					if s.Mode != view.Tilt || s.Lamps != 0 || r.be.TowerLight() != hw.TowerTilt || !contains(s.Tilts, sw.String()) {
						t.Fatalf("mode %s tilts %v lamps %b tower %d, want a %s tilt with every lamp off", s.Mode, s.Tilts, s.Lamps, r.be.TowerLight(), sw)
					}
					if s.Under != base && base != view.Tilt {
						t.Fatalf("under the tilt: %s, want %s", s.Under, base)
					}
				}
				if r.be.Acceptance() != 0 {
					t.Fatalf("acceptor enabled up to %v under %s", r.be.Acceptance(), s.Mode)
				}
				if sw != hw.AuditKey && !memErr {
					if evs := storeEvents(t, r.st); !hasEvent(evs[len(evs)-2:], meters.KindTilt, sw.String()) {
						t.Fatalf("tilt not logged: %+v", evs[len(evs)-2:])
					}
				}
				r.turn(sw, false)
				if after := look(r); after != before {
					t.Fatalf("after %s off:\n got  %s\n want %s", sw, after, before)
				}
				if sw != hw.AuditKey && !memErr && len(r.c.led.cur().tilts()) == 0 {
					if evs := storeEvents(t, r.st); evs[len(evs)-1].Kind != meters.KindTiltClear {
						t.Fatalf("tilt clearing not logged: %+v", evs[len(evs)-1])
					}
				}
			})
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
