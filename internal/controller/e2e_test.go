package controller

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/player"
	"cabinet/internal/recovery"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// The panel helpers drive the cabinet through the scripted sim backend:
// Press, SetSwitch and InsertBill queue an input on the backend's channel and
// deliver hands it to Handle, as Run does. The acceptor's inhibit is the sim
// backend's: a bill it does not accept arrives as BillRefused.

// deliver hands the input the sim backend just queued to the controller.
func (r *rig) deliver() error {
	r.t.Helper()
	select {
	case in, ok := <-r.be.Inputs():
		if !ok {
			r.t.Fatal("sim backend closed")
		}
		return r.c.Handle(HW(in))
	default:
		r.t.Fatal("sim backend queued no input")
	}
	return nil
}

// panel presses b on the sim panel, lit or not.
func (r *rig) panel(b hw.Button) error {
	r.t.Helper()
	if !r.be.Press(b) {
		r.t.Fatalf("sim: press %s not queued", b)
	}
	return r.deliver()
}

// pressLit presses b after checking that its lamp is lit; the press must be
// accepted (a lit button is never refused).
func (r *rig) pressLit(b hw.Button) {
	r.t.Helper()
	if s := r.c.Snapshot(); s.Lamps != r.be.Lamps() {
		r.t.Fatalf("panel lamps %b, screen buttons %b (mode %s)", r.be.Lamps(), s.Lamps, s.Mode)
	}
	if lit := r.be.Lamps(); !lit.Has(b) {
		r.t.Fatalf("%s not lit (lamps %b, mode %s)", b, lit, r.c.Snapshot().Mode)
	}
	if err := r.panel(b); err != nil {
		r.t.Fatalf("press lit %s: %v (mode %s)", b, err, r.c.Snapshot().Mode)
	}
}

// turn sets a door or key switch on the sim panel.
func (r *rig) turn(s hw.Switch, on bool) {
	r.t.Helper()
	if !r.be.SetSwitch(s, on) {
		r.t.Fatalf("sim: switch %s=%v not queued (already there?)", s, on)
	}
	if err := r.deliver(); err != nil {
		r.t.Fatalf("switch %s=%v: %v", s, on, err)
	}
}

// insert offers a bill to the sim acceptor, which stacks or refuses it.
func (r *rig) insert(v money.Cents) error {
	r.t.Helper()
	if !r.be.InsertBill(v) {
		r.t.Fatalf("sim: bill %v not queued", v)
	}
	return r.deliver()
}

// litButtonFor is the lit button standing for action k now.
func litButtonFor(lit hw.ButtonSet, legal []game.ActionKind, k game.ActionKind) (hw.Button, bool) {
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		if got, ok := ActionFor(b, legal); ok && got == k && lit.Has(b) {
			return b, true
		}
	}
	return 0, false
}

// playOut plays the open round to its end with lit buttons only: basic
// strategy at blackjack, DuelChooser (wait, change, see, draw) at Poker Duel.
func (r *rig) playOut() {
	r.t.Helper()
	for i := 0; r.c.Round() != nil; i++ {
		if i > 60 {
			r.t.Fatal("round did not finish")
		}
		rd := r.c.Round()
		legal := rd.Legal(r.c.Credits())
		var k game.ActionKind
		if br, ok := rd.(*blackjack.Round); ok {
			k = player.Basic(br, legal)
		} else {
			k = DuelChooser(rd, legal).Kind
		}
		b, ok := litButtonFor(r.be.Lamps(), legal, k)
		if !ok {
			r.t.Fatalf("no lit button for %s (legal %v, lamps %b)", k, legal, r.be.Lamps())
		}
		r.pressLit(b)
	}
}

// chooseGame goes from the menu to id's table with lit buttons.
func (r *rig) chooseGame(id game.ID) {
	r.t.Helper()
	if m := r.c.Snapshot().Mode; m != view.Menu {
		r.t.Fatalf("choose %s: mode %s, want menu", id, m)
	}
	for i := 0; r.c.Snapshot().Game != id; i++ {
		if i > len(game.IDs) {
			r.t.Fatalf("%s not on the menu", id)
		}
		r.pressLit(hw.Spot)
	}
	r.pressLit(hw.Deal)
	if s := r.c.Snapshot(); s.Mode != view.Table || s.Game != id {
		r.t.Fatalf("after DEAL on the menu: mode %s game %s, want the %s table", s.Mode, s.Game, id)
	}
}

// events reads the whole event log from a store, oldest first.
func storeEvents(t *testing.T, st *recovery.Store) []meters.Event {
	t.Helper()
	var evs []meters.Event
	if err := st.View(func(tx *recovery.Tx) error {
		var err error
		evs, err = tx.Events(0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(evs)
	return evs
}

func hasEvent(evs []meters.Event, kind, text string) bool {
	for _, e := range evs {
		if e.Kind == kind && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// TestEndToEnd drives the cabinet on the shipped configuration through the
// sim panel: two bills, one round of each of the five games chosen on the
// menu and played with lit buttons only, the audit key and the recall of the
// last round, an operator change (Classic minimum bet) that applies at once
// and is logged, a cash out into a handpay cleared by the reset key; then the
// meters, exactly, against the recall records, in memory and in the re-opened
// store.
func TestEndToEnd(t *testing.T) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := inForceFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "cabinet.db"), now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), seed: 8}
	clock := func() time.Time { return r.now }
	r.be = sim.New()
	r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: r.seed}, InForce: set, Now: clock,
		Settings: settings.New(cfg, nil), Operator: cfg}, kitStore{path: r.path, opts: recovery.Options{Now: clock}})

	// Cash in.
	if s := r.c.Snapshot(); s.Mode != view.Attract || r.be.Acceptance() == 0 {
		t.Fatalf("boot: mode %s acceptance %v, want attract with the acceptor enabled", s.Mode, r.be.Acceptance())
	}
	for _, b := range []money.Cents{5000, 2000} {
		if err := r.insert(b); err != nil {
			t.Fatalf("bill %v: %v", b, err)
		}
	}
	const billsIn = money.Cents(7000)
	if s := r.c.Snapshot(); s.Mode != view.Menu || s.Credits != billsIn {
		t.Fatalf("after the bills: mode %s credits %v, want menu %v", s.Mode, s.Credits, billsIn)
	}

	// One round of each game, bets placed with BET+ and SPOT.
	bets := map[game.ID][]hw.Button{
		game.Classic: {hw.BetPlus},
		game.Royal:   {hw.BetPlus, hw.Spot, hw.BetPlus, hw.Spot, hw.BetPlus}, // both spots, then the Royal Poker stake
		game.FreeBet: {hw.BetPlus, hw.Spot, hw.BetPlus},                      // main bet and the first side bet
		game.Zappit:  {hw.BetPlus},
	}
	wantBets := map[game.ID]money.Cents{game.Classic: 100, game.Royal: 300, game.FreeBet: 200, game.Zappit: 100}
	rounds := map[game.ID][]uint64{} // round numbers played, per game
	var order []uint64               // every round, in play order
	for _, id := range []game.ID{game.Classic, game.Royal, game.FreeBet, game.Zappit, game.Duel} {
		r.chooseGame(id)
		if id == game.Duel {
			// A session purchase is a round of its own (the only one that
			// moves money); the deal that follows is a second round.
			before := r.c.Credits()
			r.pressLit(hw.Deal)
			no := r.c.Machine().NextRound - 1
			rounds[id], order = append(rounds[id], no), append(order, no)
			if price := set.Duel.Config.(duel.Config).Price; r.c.Round() != nil || r.c.Credits() != before-price {
				t.Fatalf("duel: after the purchase: open round %v, credits %v, want %v", r.c.Round() != nil, r.c.Credits(), before-price)
			}
		} else {
			before := r.c.Credits()
			for _, b := range bets[id] {
				r.pressLit(b)
			}
			if got := betTotal(r.c.Snapshot().Bets); got != wantBets[id] || r.c.Credits() != before {
				t.Fatalf("%s: bets %v (total %v), credits %v: want %v placed and no credit moved before the deal",
					id, r.c.Snapshot().Bets, got, r.c.Credits(), wantBets[id])
			}
		}
		r.pressLit(hw.Deal)
		no := r.c.Machine().NextRound - 1
		rounds[id], order = append(rounds[id], no), append(order, no)
		r.playOut()
		s := r.c.Snapshot()
		if s.Mode != view.Table || s.Round == nil || !s.Round.Done || s.Round.Game != id || s.Round.Round != no {
			t.Fatalf("%s: after round %d: mode %s round %+v", id, no, s.Mode, s.Round)
		}
		r.pressLit(hw.Game)
		if m := r.c.Snapshot().Mode; m != view.Menu {
			t.Fatalf("%s: GAME after the round: mode %s, want menu", id, m)
		}
	}
	last := order[len(order)-1]

	// Audit key: meters page, then the recall of the last round, step by step.
	r.turn(hw.AuditKey, true)
	s := r.c.Snapshot()
	if s.Mode != view.Audit || s.Audit == nil || s.Audit.Page != "meters" || r.be.Acceptance() != 0 {
		t.Fatalf("audit key: mode %s audit %+v acceptance %v", s.Mode, s.Audit, r.be.Acceptance())
	}
	r.pressLit(hw.Spot)
	rv := r.c.Snapshot().Audit.Recall
	if rv == nil || rv.Round != last || rv.Game != game.Duel || rv.Index != 0 || rv.Count != len(order) || !rv.Table.Done {
		t.Fatalf("recall page: %+v, want round %d of duel, newest of %d, settled", rv, last, len(order))
	}
	if rv.Step != rv.Steps-1 || rv.Table.Round != last {
		t.Fatalf("recall opens on step %d of %d (table round %d), want the last step of round %d", rv.Step, rv.Steps, rv.Table.Round, last)
	}
	r.pressLit(hw.Double) // from the end to the first step
	if rv := r.c.Snapshot().Audit.Recall; rv.Step != 0 || rv.Action != string(game.Deal) || rv.Table.Done {
		t.Fatalf("recall step 0: step %d action %q done %v, want the deal", rv.Step, rv.Action, rv.Table.Done)
	}
	r.pressLit(hw.Hit) // older round: the duel session purchase
	if rv := r.c.Snapshot().Audit.Recall; rv.Round != rounds[game.Duel][0] || rv.Action != string(game.Buy) {
		t.Fatalf("older round: %d %q, want %d buy", rv.Round, rv.Action, rounds[game.Duel][0])
	}
	r.pressLit(hw.Hit)
	if rv := r.c.Snapshot().Audit.Recall; rv.Round != rounds[game.Zappit][0] || rv.Game != game.Zappit {
		t.Fatalf("two rounds back: %d %s, want %d zappit", rv.Round, rv.Game, rounds[game.Zappit][0])
	}
	r.turn(hw.AuditKey, false)
	if s := r.c.Snapshot(); s.Mode != view.Menu || r.be.Acceptance() == 0 {
		t.Fatalf("audit key off: mode %s acceptance %v, want the menu back", s.Mode, r.be.Acceptance())
	}

	// Operator menu: Classic minimum bet 1.00 → 2.00, saved with YES.
	const key = "games.classic.min_bet"
	r.turn(hw.OperatorKey, true)
	if s := r.c.Snapshot(); s.Mode != view.Operator || s.Operator == nil || r.be.Acceptance() != 0 {
		t.Fatalf("operator key: mode %s acceptance %v", s.Mode, r.be.Acceptance())
	}
	for i := 0; ; i++ {
		op := r.c.Snapshot().Operator
		if op.Items[op.Cursor].Key == key {
			break
		}
		if i > 200 {
			t.Fatalf("no %s in the operator menu", key)
		}
		r.pressLit(hw.Stand)
	}
	op := r.c.Snapshot().Operator
	if v := op.Items[op.Cursor].Value; v != "1.00" {
		t.Fatalf("%s = %q, want 1.00", key, v)
	}
	r.pressLit(hw.BetPlus)
	if op := r.c.Snapshot().Operator; op.Items[op.Cursor].Value != "2.00" || r.c.set.Rules[game.Classic].MinBet != 100 {
		t.Fatalf("draft %q, min bet in force %v: want a 2.00 draft, 1.00 still in force", op.Items[op.Cursor].Value, r.c.set.Rules[game.Classic].MinBet)
	}
	r.pressLit(hw.Yes) // save?
	r.pressLit(hw.Yes) // saved
	r.turn(hw.OperatorKey, false)
	if s := r.c.Snapshot(); s.Mode != view.Menu {
		t.Fatalf("operator key off: mode %s, want menu", s.Mode)
	}
	for _, gi := range r.c.Snapshot().Games {
		if gi.ID == game.Classic && gi.MinBet != 200 {
			t.Fatalf("classic min bet on the menu = %v, want 2.00", gi.MinBet)
		}
	}
	if evs := storeEvents(t, r.st); !hasEvent(evs, meters.KindConfigChange, key+": 1.00 → 2.00") {
		t.Fatalf("no %s change 1.00 → 2.00 in the event log", key)
	}
	// It applies: 1.00 (or the previous 1.00 bet again) no longer deals, 2.00 does.
	r.chooseGame(game.Classic)
	if lit := r.be.Lamps(); lit.Has(hw.Deal) || lit.Has(hw.Rebet) {
		t.Fatalf("DEAL/REBET lit with the old 1.00 bet below the new minimum (lamps %b)", lit)
	}
	r.pressLit(hw.BetPlus)
	before := r.c.Machine()
	if lit := r.be.Lamps(); lit.Has(hw.Deal) {
		t.Fatal("DEAL lit for a 1.00 bet below the new 2.00 minimum")
	}
	if err := r.panel(hw.Deal); err == nil || r.c.Round() != nil || r.c.Machine().NextRound != before.NextRound || r.c.Credits() != before.Credits {
		t.Fatalf("DEAL with 1.00 under a 2.00 minimum = %v (round open %v)", err, r.c.Round() != nil)
	}
	r.pressLit(hw.BetPlus)
	if !r.be.Lamps().Has(hw.Deal) {
		t.Fatal("DEAL not lit for a 2.00 bet")
	}
	r.pressLit(hw.Clear)
	r.pressLit(hw.Clear)
	r.pressLit(hw.Game)

	// Cash out: a handpay of the whole credit meter, cleared by the reset key.
	cashed := r.c.Credits()
	r.pressLit(hw.CashOut)
	s = r.c.Snapshot()
	if s.Mode != view.Handpay || s.Handpay != cashed || s.HandpayKind != HandpayCashout || s.Lamps != 0 ||
		r.be.Acceptance() != 0 || r.be.TowerLight() != hw.TowerAttendant {
		t.Fatalf("cash out: mode %s handpay %v %s lamps %b acceptance %v tower %d", s.Mode, s.Handpay, s.HandpayKind, s.Lamps, r.be.Acceptance(), r.be.TowerLight())
	}
	if err := r.insert(500); err != nil || r.c.Credits() != cashed {
		t.Fatalf("bill during the handpay: %v, credits %v, want it refused by the inhibited acceptor", err, r.c.Credits())
	}
	r.turn(hw.ResetKey, true)
	r.turn(hw.ResetKey, false)
	if s := r.c.Snapshot(); s.Mode != view.Attract || s.Credits != 0 || r.be.TowerLight() != hw.TowerOff || r.be.Acceptance() == 0 {
		t.Fatalf("reset key: mode %s credits %v tower %d acceptance %v", s.Mode, s.Credits, r.be.TowerLight(), r.be.Acceptance())
	}

	// Meters, exactly.
	var recs []meters.Recall
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		recs, err = tx.Recall(0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(recs)
	if len(recs) != len(order) {
		t.Fatalf("%d rounds in the recall, want %d", len(recs), len(order))
	}
	type sums struct {
		played        int64
		staked, paid  money.Cents
		side          map[game.BetKind]money.Cents
		won, lost, ps int64
	}
	want := map[game.ID]*sums{}
	var won, lost, pushed int64
	credits := billsIn
	for i, rec := range recs {
		if rec.Round != order[i] {
			t.Fatalf("recall %d is round %d, want %d", i, rec.Round, order[i])
		}
		if rec.CreditsBefore != credits {
			t.Fatalf("round %d started with %v, the previous ended with %v", rec.Round, rec.CreditsBefore, credits)
		}
		w := want[rec.Game]
		if w == nil {
			w = &sums{side: map[game.BetKind]money.Cents{}}
			want[rec.Game] = w
		}
		staked, paid := rec.Money()
		w.played++
		w.staked += staked
		w.paid += paid
		for _, st := range rec.Steps {
			for _, e := range st.Events {
				if e.Kind == game.Stake && e.Bet.IsSide() {
					w.side[e.Bet] += e.Amount
				}
			}
		}
		switch {
		case paid > staked:
			won++
		case paid < staked:
			lost++
		default:
			pushed++
		}
		if rec.CreditsAfter != rec.CreditsBefore-staked+paid {
			t.Fatalf("round %d: credits %v → %v with %v staked and %v paid", rec.Round, rec.CreditsBefore, rec.CreditsAfter, staked, paid)
		}
		credits = rec.CreditsAfter
	}
	if credits != cashed {
		t.Fatalf("cashed out %v, the last round ended with %v", cashed, credits)
	}
	m := r.c.Machine()
	mt := m.Meters
	var totalIn, totalWon money.Cents
	for _, id := range game.IDs {
		gm, w := mt.Games[id], want[id]
		if gm == nil || w == nil {
			t.Fatalf("%s: meters %+v, recall %+v", id, gm, w)
		}
		wantPlayed := int64(1)
		if id == game.Duel {
			wantPlayed = 2
		}
		if gm.Played != wantPlayed || w.played != wantPlayed || gm.Wagered != w.staked || gm.Won != w.paid {
			t.Fatalf("%s meters: played %d wagered %v won %v; recall: played %d staked %v paid %v; want %d played",
				id, gm.Played, gm.Wagered, gm.Won, w.played, w.staked, w.paid, wantPlayed)
		}
		for k, v := range w.side {
			if sm := gm.Side[k]; sm == nil || sm.Wagered != v {
				t.Fatalf("%s side %s wagered %+v, recall says %v", id, k, sm, v)
			}
		}
		totalIn += gm.Wagered
		totalWon += gm.Won
	}
	if want[game.Royal].side[game.RoyalSide] != 100 || want[game.FreeBet].side[game.AnyPair] != 100 {
		t.Fatalf("side bets staked: royal %v, freebet %v; want 1.00 each", want[game.Royal].side, want[game.FreeBet].side)
	}
	if want[game.Duel].staked != set.Duel.Config.(duel.Config).Price || want[game.Duel].paid != 0 {
		t.Fatalf("duel money: staked %v paid %v, want the session price and nothing paid", want[game.Duel].staked, want[game.Duel].paid)
	}
	checks := []struct {
		name      string
		got, want int64
	}{
		{"credits", int64(m.Credits), 0},
		{"bills in", int64(mt.BillsIn), int64(billsIn)},
		{"total in", int64(mt.TotalIn), int64(totalIn)},
		{"total won", int64(mt.TotalWon), int64(totalWon)},
		{"handpay cancelled", int64(mt.HandpayCancelled), int64(cashed)},
		{"cash out = bills − in + won", int64(cashed), int64(billsIn - totalIn + totalWon)},
		{"jackpot handpay", int64(mt.JackpotHandpay), 0},
		{"jackpot handpays", mt.JackpotHandpays, 0},
		{"played", mt.Played, int64(len(order))},
		{"won", mt.Won, won},
		{"lost", mt.Lost, lost},
		{"pushed", mt.Pushed, pushed},
		{"voided", mt.Voided, 0},
		{"audit key", mt.AuditKey, 1},
		{"operator key", mt.OperatorKey, 1},
		{"main door", mt.MainDoor, 0},
		{"progressive contributions", mt.ProgressiveContrib, 100 * set.JackpotRateE7},
		{"pending handpay", int64(m.Handpay), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("meter %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if !maps.Equal(mt.Bills, map[string]int64{"2000": 1, "5000": 1}) {
		t.Errorf("bills by denomination = %v, want one 20.00 and one 50.00", mt.Bills)
	}
	if err := mt.Check(m.Credits); err != nil {
		t.Fatal(err)
	}
	evs := storeEvents(t, r.st)
	for _, e := range []struct{ kind, text string }{
		{meters.KindBillAccepted, "50.00"}, {meters.KindBillAccepted, "20.00"}, {meters.KindBillRefused, ""},
		{meters.KindKey, "audit_key on"}, {meters.KindKey, "operator_key on"},
		{meters.KindHandpay, "cash out: handpay " + cashed.String()}, {meters.KindHandpayClear, "cashout handpay " + cashed.String()},
	} {
		if !hasEvent(evs, e.kind, e.text) {
			t.Errorf("no %s event %q in the log", e.kind, e.text)
		}
	}

	// Durably: the re-opened store holds the same meters and passes its check.
	lines := mt.Lines()
	if err := r.st.Close(); err != nil {
		t.Fatal(err)
	}
	st2, err := recovery.Open(r.path, recovery.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r.st = st2
	if err := st2.Check(); err != nil {
		t.Fatalf("re-opened store: %v", err)
	}
	var m2 recovery.Machine
	if err := st2.View(func(tx *recovery.Tx) error {
		var err error
		m2, err = tx.Machine()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if m2.Credits != m.Credits || m2.PoolUnits != m.PoolUnits || m2.NextRound != m.NextRound || m2.Handpay != 0 {
		t.Fatalf("re-opened store: credits %v pool %d next round %d handpay %v; in memory %v %d %d",
			m2.Credits, m2.PoolUnits, m2.NextRound, m2.Handpay, m.Credits, m.PoolUnits, m.NextRound)
	}
	if got := m2.Meters.Lines(); !slices.Equal(got, lines) {
		t.Fatalf("re-opened store meters differ:\n got %v\nwant %v", got, lines)
	}
	if err := m2.Meters.Check(m2.Credits); err != nil {
		t.Fatal(err)
	}
	if evs2 := storeEvents(t, st2); len(evs2) != len(evs) || !hasEvent(evs2, meters.KindConfigChange, key) {
		t.Fatalf("re-opened store: %d events (want %d) or the config change missing", len(evs2), len(evs))
	}
}
