package controller

import (
	"errors"
	"regexp"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// storedShoes reads the committed and the revealed shoes from the store.
func (r *rig) storedShoes() (map[game.ID]*recovery.Shoe, []recovery.Shoe) {
	r.t.Helper()
	var pending map[game.ID]*recovery.Shoe
	var revealed []recovery.Shoe
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		if pending, err = tx.Shoes(); err != nil {
			return err
		}
		revealed, err = tx.RevealedShoes(0)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return pending, revealed
}

// committedAt puts credits in, goes to game id's table and returns the
// shoe committed for it.
func (r *rig) committedAt(id game.ID, credits money.Cents) *recovery.Shoe {
	r.t.Helper()
	r.bill(credits)
	r.toTable(id)
	pending, _ := r.storedShoes()
	return pending[id]
}

// lastRecall is the newest recalled round.
func (r *rig) lastRecall() meters.Recall {
	r.t.Helper()
	var recs []meters.Recall
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		recs, err = tx.Recall(1)
		return err
	}); err != nil || len(recs) != 1 {
		r.t.Fatalf("recall: %v (%d rounds)", err, len(recs))
	}
	return recs[0]
}

func dealtCards(rec meters.Recall) []card.Card {
	var out []card.Card
	for _, s := range rec.Steps {
		out = append(out, game.Drawn(s.Events)...)
	}
	return out
}

// TestShoeCommittedBeforeBet (issue 38): the table the player bets at
// shows the commitment of a shoe already shuffled and in the store; the
// round deals that shoe's cards in order; when it is over the shoe is
// revealed (its secret and order hash to the commitment shown) and the
// next round's shoe, another one, is committed in the same transaction.
func TestShoeCommittedBeforeBet(t *testing.T) {
	r := newRig(t, 5)
	r.bill(2000)
	if p, _ := r.storedShoes(); len(p) != 0 {
		t.Fatalf("shoes committed at the menu: %v", p)
	}
	r.toTable(game.Classic)
	s := r.c.Snapshot()
	pending, _ := r.storedShoes()
	shoe := pending[game.Classic]
	if s.Mode != view.Table || shoe == nil || s.Commitment != shoe.Commitment || !hex64.MatchString(s.Commitment) {
		t.Fatalf("betting table: mode %s, commitment %q, stored shoe %+v; want the stored shoe's C shown", s.Mode, s.Commitment, shoe)
	}
	sec, err := card.ParseSecret(shoe.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := card.CheckCommitment(shoe.Commitment, sec, 0, shoe.Cards); err != nil || len(shoe.Cards) != 6*52 {
		t.Fatalf("stored shoe of %d cards: %v", len(shoe.Cards), err)
	}
	commits := r.c.led.commits()
	r.mustPress(hw.BetPlus)
	if r.c.led.commits() != commits {
		t.Errorf("a bet placed committed something (the shoe was committed before)")
	}
	r.mustPress(hw.Deal)
	r.finishRound()
	rec := r.lastRecall()
	dealt := dealtCards(rec)
	if rec.Shoe == nil || rec.Shoe.No != shoe.No || rec.Shoe.Commitment != shoe.Commitment || rec.Shoe.From != 0 || rec.Shoe.To != len(dealt) {
		t.Fatalf("recalled round's shoe %+v, want shoe %d positions 0-%d", rec.Shoe, shoe.No, len(dealt))
	}
	if !cmpCards(dealt, shoe.Cards[:len(dealt)]) {
		t.Errorf("round dealt %v, the committed shoe begins %v", dealt, shoe.Cards[:len(dealt)])
	}
	pending, revealed := r.storedShoes()
	if len(revealed) != 1 || revealed[0].No != shoe.No || revealed[0].Revealed.IsZero() {
		t.Fatalf("revealed %+v, want shoe %d", revealed, shoe.No)
	}
	if err := recovery.VerifyRound(&rec, &revealed[0]); err != nil {
		t.Errorf("VerifyRound = %v", err)
	}
	next := pending[game.Classic]
	if next == nil || next.No == shoe.No || next.Commitment == shoe.Commitment || next.Secret == shoe.Secret {
		t.Fatalf("next shoe %+v, want a new one", next)
	}
	if s := r.c.Snapshot(); s.Commitment != next.Commitment {
		t.Errorf("after the round the table shows %q, want the next shoe's %q", s.Commitment, next.Commitment)
	}
}

func cmpCards(a, b []card.Card) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPowerCutBetweenCommitmentAndDeal: the power goes after the shoe was
// committed and before the deal; after the boot the table shows the same
// commitment and the deal takes the committed shoe.
func TestPowerCutBetweenCommitmentAndDeal(t *testing.T) {
	r := newRig(t, 6)
	shoe := r.committedAt(game.Royal, 2000)
	before := r.c.Snapshot().Commitment
	r.boot() // the power cut
	if r.c.Snapshot().Mode == view.Menu {
		r.toTable(game.Royal)
	}
	if got := r.c.Snapshot().Commitment; got != before {
		t.Fatalf("after the power cut the table shows %q, before %q", got, before)
	}
	r.playRound()
	rec := r.lastRecall()
	if rec.Shoe == nil || rec.Shoe.No != shoe.No || !cmpCards(dealtCards(rec), shoe.Cards[:rec.Shoe.To]) {
		t.Errorf("round after the power cut: shoe %+v, cards %v; want the committed shoe %d's first cards", rec.Shoe, dealtCards(rec), shoe.No)
	}
}

// TestFreeBetShoeCommittedUntilCut: Free Bet's continuous shoe is one
// commitment from its first round to the round in which its cut card
// comes out; the rounds deal its cards in turn, none is revealed before
// the cut card, and then it is, with a new shoe committed.
func TestFreeBetShoeCommittedUntilCut(t *testing.T) {
	r := newRig(t, 7)
	shoe := r.committedAt(game.FreeBet, 100000)
	if shoe == nil || shoe.Cut != len(shoe.Cards)*75/100 {
		t.Fatalf("Free Bet shoe %+v, want a cut card at 75 %%", shoe)
	}
	pos := 0
	for i := 0; ; i++ {
		if i > 200 {
			t.Fatal("the cut card never came out")
		}
		r.playRound()
		rec := r.lastRecall()
		if rec.Shoe == nil || rec.Shoe.No != shoe.No || rec.Shoe.From != pos {
			t.Fatalf("round %d: shoe %+v, want shoe %d from position %d", rec.Round, rec.Shoe, shoe.No, pos)
		}
		if !cmpCards(dealtCards(rec), shoe.Cards[pos:rec.Shoe.To]) {
			t.Fatalf("round %d dealt %v, the committed shoe has %v", rec.Round, dealtCards(rec), shoe.Cards[pos:rec.Shoe.To])
		}
		pos = rec.Shoe.To
		p, revealed := r.storedShoes()
		if pos < shoe.Cut {
			if len(revealed) != 0 || p[game.FreeBet].No != shoe.No || r.c.Snapshot().Commitment != shoe.Commitment {
				t.Fatalf("round %d at card %d before the cut card: revealed %d shoes, committed %d", rec.Round, pos, len(revealed), p[game.FreeBet].No)
			}
			continue
		}
		if len(revealed) != 1 || revealed[0].No != shoe.No || revealed[0].Pos != pos {
			t.Fatalf("cut card out: revealed %+v, want shoe %d dealt to %d", revealed, shoe.No, pos)
		}
		if n := p[game.FreeBet]; n == nil || n.No == shoe.No || n.Pos != 0 {
			t.Fatalf("next Free Bet shoe %+v", n)
		}
		if err := recovery.VerifyRound(&rec, &revealed[0]); err != nil {
			t.Errorf("VerifyRound = %v", err)
		}
		return
	}
}

// TestDuelDealCommitted: Poker Duel's purchase deals no card and names no
// shoe; its end commits the session's deck, which the first deal deals.
func TestDuelDealCommitted(t *testing.T) {
	r := newRig(t, 8)
	r.bill(2000)
	r.chooseGame(game.Duel)
	r.pressLit(hw.Deal) // buy a session
	if rec := r.lastRecall(); rec.Shoe != nil {
		t.Fatalf("the purchase names shoe %+v", rec.Shoe)
	}
	pending, _ := r.storedShoes()
	shoe := pending[game.Duel]
	if shoe == nil || (len(shoe.Cards) != 32 && len(shoe.Cards) != 52) || r.c.Snapshot().Commitment != shoe.Commitment {
		t.Fatalf("after the purchase: shoe %+v, table shows %q", shoe, r.c.Snapshot().Commitment)
	}
	r.pressLit(hw.Deal)
	r.playOut()
	rec := r.lastRecall()
	if rec.Shoe == nil || rec.Shoe.No != shoe.No || !cmpCards(dealtCards(rec), shoe.Cards[:rec.Shoe.To]) {
		t.Fatalf("the deal: shoe %+v, cards %v, want shoe %d", rec.Shoe, dealtCards(rec), shoe.No)
	}
	_, revealed := r.storedShoes()
	if len(revealed) != 1 || recovery.VerifyRound(&rec, &revealed[0]) != nil {
		t.Errorf("after the deal: revealed %d shoes, verify %v", len(revealed), recovery.VerifyRound(&rec, &revealed[0]))
	}
}

// TestShoeRetiredWhenRulesChange: a committed shoe that no longer fits the
// rules in force (the operator changed the decks) is revealed as retired,
// logged, and a new one committed before the table is shown again; a deal
// never takes a shoe committed for other rules.
func TestShoeRetiredWhenRulesChange(t *testing.T) {
	r := newRig(t, 9)
	old := r.committedAt(game.Classic, 2000)
	rules := r.c.set.Rules[game.Classic]
	rules.Decks = 2
	r.c.set.Rules = withRule(r.c.set.Rules, game.Classic, rules)
	if err := r.play(game.Action{Kind: game.Deal, Bets: []game.Bet{{Kind: game.Main, Amount: rules.MinBet}}}); !errors.Is(err, ErrNotNow) {
		t.Fatalf("deal with a shoe committed for 6 decks under 2-deck rules = %v, want ErrNotNow", err)
	}
	r.mustPress(hw.BetPlus) // any input: the table is published again
	pending, revealed := r.storedShoes()
	if n := pending[game.Classic]; n == nil || len(n.Cards) != 104 || n.No == old.No || r.c.Snapshot().Commitment != n.Commitment {
		t.Fatalf("after the change: committed %+v", n)
	}
	if len(revealed) != 1 || revealed[0].No != old.No || revealed[0].Retired == "" {
		t.Fatalf("revealed %+v, want shoe %d retired", revealed, old.No)
	}
	var evs []meters.Event
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		evs, err = tx.Events(1)
		return err
	}); err != nil || len(evs) != 1 || evs[0].Detail != "shoe_retired" || !i18n.Has("fr", "detail."+evs[0].Detail) {
		t.Errorf("newest event %+v (%v), want the shoe's retirement, translated", evs, err)
	}
	r.mustPress(hw.Deal)
	r.finishRound()
	if rec := r.lastRecall(); rec.Shoe == nil || rec.Shoe.No != pending[game.Classic].No {
		t.Errorf("round after the change dealt from %+v", rec.Shoe)
	}
}

// withRule returns a copy of m with k set to v.
func withRule[K comparable, V any](m map[K]V, k K, v V) map[K]V {
	out := make(map[K]V, len(m))
	for kk, vv := range m {
		out[kk] = vv
	}
	out[k] = v
	return out
}
