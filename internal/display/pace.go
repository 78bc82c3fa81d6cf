package display

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// Pacing (platform.md §7): a committed step arrives as one snapshot with
// all its cards; the pacer shows them one at a time, as a dealer would:
// each new card travels from the shoe, the hole card turns before the
// dealer draws. It only ever removes cards from the snapshot it is given —
// it replays what is committed, never anything ahead of the store — and
// while a step is being paced it holds back the step's results (outcomes,
// pays, the credit and win meters show the previous snapshot's) so the
// reveal is not spoilt. A button pressed during a reveal finishes it at once:
// the controller consumes the press and counts it in Snapshot.Hurry, and the
// pacer shows the whole picture when Hurry changes (the press never also
// acts: the controller, not the window, decides, so a physical button and
// a touch do the same).
//
// Nothing is paced when there is no previous picture of the same round to
// start from: the first snapshot after boot, a round resumed after a power
// cut (Recovered), another game, another screen. With a zero interval
// (tests, autoplay, operator setting off) nothing is paced at all.

// reveal is one card to show: in hand Hand (-1: the dealer) at index Card.
type reveal struct {
	Hand, Card int
	Face       card.Card // the card (as committed)
	Turn       bool      // the dealer's hole card turning, not a new card
	Hole       bool      // the dealer's hole card dealt face down
}

// pacer holds the picture being shown and the reveal in progress.
type pacer struct {
	per float64 // seconds per card; 0: no pacing

	last  *view.Snapshot // latest snapshot given
	base  *game.Table    // the picture the reveal starts from (fully shown)
	prev  *view.Snapshot // the snapshot base came from (meters held back)
	queue []reveal       // cards of last not yet in base, in dealing order
	start float64        // when the reveal started
	views map[int]*view.Snapshot

	// The settlement's chips moving (after the cards): until chipsEnd,
	// from chipsStart; chipsOf is the snapshot they belong to.
	chipsStart, chipsEnd float64
	chipsOf              *view.Snapshot

	hurry uint64 // the last Snapshot.Hurry seen
}

// chipFlight is a stack of chips moving at the settlement: a payout from
// the dealer's tray to hand Hand's spot, or a lost stake from the spot to
// the tray (Lost).
type chipFlight struct {
	Hand   int
	Amount money.Cents
	Lost   bool
}

// paced is what a frame draws: the snapshot as far as it is revealed, and
// the card on its way from the shoe (nil when none).
type paced struct {
	s      *view.Snapshot
	flying *reveal
	f      float32 // 0…1: how far the flying card has travelled
	// chips move at the settlement, once every card is shown; cf is how
	// far (0…1).
	chips []chipFlight
	cf    float32
}

// chipsTime is how long the settlement's chips take, in cards' time.
const chipsTime = 1.5

func newPacer(secondsPerCard float64) *pacer { return &pacer{per: secondsPerCard} }

// skip finishes the reveal in progress, chips included.
func (p *pacer) skip() { p.queue, p.chipsEnd = nil, 0 }

// settleChips starts the chips of the settled round of s moving at now,
// when s settles a round (the store has committed it: the chips only
// replay it).
func (p *pacer) settleChips(s *view.Snapshot, now float64) {
	if p.per <= 0 || s.Round == nil || !s.Round.Done || len(chipFlights(s.Round)) == 0 {
		return
	}
	p.chipsOf, p.chipsStart, p.chipsEnd = s, now, now+chipsTime*p.per
}

// chipFlights are the settled round's chips: each hand's win comes from
// the tray, a lost hand's stake goes to it.
func chipFlights(t *game.Table) []chipFlight {
	var out []chipFlight
	for i, h := range t.Hands {
		switch {
		case h.Win > 0:
			out = append(out, chipFlight{Hand: i, Amount: h.Win})
		case h.Outcome == game.Lose && h.Bet > 0:
			out = append(out, chipFlight{Hand: i, Amount: h.Bet, Lost: true})
		}
	}
	return out
}

// done reports that pf, the frame of snapshot s, shows s in full: no card
// on its way, no chips moving, nothing held back.
func (pf paced) done(s *view.Snapshot) bool {
	return pf.s == s && pf.flying == nil && len(pf.chips) == 0
}

// frame returns what to draw at time now for the latest snapshot s.
func (p *pacer) frame(s *view.Snapshot, now float64) paced {
	if s != p.last {
		p.next(s, now)
	}
	if len(p.queue) == 0 {
		p.base, p.prev = nil, s
		return p.withChips(s, now)
	}
	n := int((now - p.start) / p.per) // cards fully shown
	if n >= len(p.queue) {
		p.queue, p.base, p.prev = nil, nil, s
		p.settleChips(s, now)
		return p.withChips(s, now)
	}
	f := float32((now-p.start)/p.per) - float32(n)
	r := p.queue[n]
	return paced{s: p.view(n), flying: &r, f: f}
}

// withChips is s with the settlement's chips moving, while they do.
func (p *pacer) withChips(s *view.Snapshot, now float64) paced {
	if p.chipsOf != s || now >= p.chipsEnd {
		return paced{s: s}
	}
	return paced{s: s, chips: chipFlights(s.Round), cf: float32((now - p.chipsStart) / (p.chipsEnd - p.chipsStart))}
}

// next starts pacing s against what is on screen now.
func (p *pacer) next(s *view.Snapshot, now float64) {
	shown := p.prev
	if len(p.queue) > 0 { // a new step during a reveal: the rest shows at once
		shown = p.last
	}
	p.last, p.queue, p.views = s, nil, nil
	if s.Hurry != p.hurry { // a press finished the reveal: everything at once, chips landed
		p.hurry, p.prev, p.base, p.chipsEnd = s.Hurry, s, nil, 0
		return
	}
	if p.per <= 0 || shown == nil || s.Recovered || s.Mode != view.Table || shown.Mode != view.Table ||
		s.Round == nil || s.Game == game.Duel || s.Game != shown.Game {
		p.prev = s
		return
	}
	from := shown.Round
	if from == nil || from.Round != s.Round.Round || from.Game != s.Round.Game {
		from = &game.Table{Game: s.Round.Game, Round: s.Round.Round, Active: -1}
	}
	q, ok := reveals(from, s.Round)
	if !ok || len(q) == 0 {
		p.prev = s
		if !from.Done {
			p.settleChips(s, now) // a settlement without a card (a surrender, a stand with the hole shown)
		}
		return
	}
	p.base, p.prev, p.queue, p.start = from, shown, q, now
}

// reveals lists the cards of to that from does not show, in dealing order:
// round by round (first cards of every hand, the dealer's up card, second
// cards, …), the dealer's hole card turning before the cards it draws. ok
// is false when to is not from with cards added (a split re-lays the hands
// out; such a step shows at once).
func reveals(from, to *game.Table) ([]reveal, bool) {
	if len(from.Hands) != 0 && len(from.Hands) != len(to.Hands) {
		return nil, false
	}
	var q []reveal
	maxCards := 0
	for i, h := range to.Hands {
		had := 0
		if i < len(from.Hands) {
			had = len(from.Hands[i].Cards)
			if had > len(h.Cards) || !slices.Equal(from.Hands[i].Cards, h.Cards[:had]) {
				return nil, false
			}
		}
		for c := had; c < len(h.Cards); c++ {
			q = append(q, reveal{Hand: i, Card: c, Face: h.Cards[c]})
		}
		maxCards = max(maxCards, len(h.Cards))
	}
	// Dealer: cards shown before (face up), the hole card, then draws.
	d0, d1 := from.Dealer, to.Dealer
	if len(d0.Cards) > len(d1.Cards) || !slices.Equal(d0.Cards, d1.Cards[:len(d0.Cards)]) {
		return nil, false
	}
	var dq []reveal
	for c := len(d0.Cards); c < len(d1.Cards); c++ {
		dq = append(dq, reveal{Hand: -1, Card: c, Face: d1.Cards[c], Turn: c < len(d0.Cards)+d0.Hidden})
	}
	for k := d0.Hidden; k < d1.Hidden; k++ { // a hole card dealt face down
		dq = append(dq, reveal{Hand: -1, Card: len(d1.Cards) + k, Hole: true})
	}
	// Interleave as dealt: the players' first cards, the dealer's first,
	// the players' second, the dealer's second; later cards after.
	slices.SortStableFunc(q, func(a, b reveal) int { return a.Card - b.Card })
	var out []reveal
	for _, r := range q {
		for len(dq) > 0 && dq[0].Card < r.Card && len(from.Hands) == 0 {
			out, dq = append(out, dq[0]), dq[1:]
		}
		out = append(out, r)
	}
	return append(out, dq...), true
}

// view is the last snapshot with the first n cards of the queue shown
// (and the one in flight not yet), the results held back. Views are kept
// per n so the frame cache sees one snapshot per reveal step.
func (p *pacer) view(n int) *view.Snapshot {
	if v := p.views[n]; v != nil {
		return v
	}
	s := *p.last
	t := *s.Round
	t.Hands = slices.Clone(t.Hands)
	shown := map[[2]int]bool{}
	for _, r := range p.queue[:n] {
		shown[[2]int{r.Hand, r.Card}] = true
	}
	keep := func(h game.HandView, hand, had int) game.HandView {
		k := had
		for k < len(h.Cards) && shown[[2]int{hand, k}] {
			k++
		}
		if k < len(h.Cards) {
			h.Total = -1 // not shown until the hand is complete
		}
		h.Cards = h.Cards[:k]
		h.Outcome, h.Win, h.Insurance, h.InsuranceWin = "", 0, "", 0
		return h
	}
	for i := range t.Hands {
		had := 0
		if i < len(p.base.Hands) {
			had = len(p.base.Hands[i].Cards)
		}
		t.Hands[i] = keep(t.Hands[i], i, had)
	}
	d := t.Dealer
	hidden := p.base.Dealer.Hidden
	for _, r := range p.queue[:n] {
		switch {
		case r.Hand == -1 && r.Turn:
			hidden--
		case r.Hand == -1 && r.Hole:
			hidden++
		}
	}
	t.Dealer = keep(d, -1, len(p.base.Dealer.Cards))
	t.Dealer.Note = "" // the dealer's 22 is named once it is shown
	t.Dealer.Hidden = max(hidden, 0)
	if len(t.Dealer.Cards) == len(d.Cards) && t.Dealer.Hidden == d.Hidden {
		t.Dealer.Total = d.Total
	}
	t.Side = nil
	t.Paid, t.Prompt = 0, "" // Done stays: the buttons' names follow the committed state
	s.Round = &t
	s.Credits, s.Win = p.prev.Credits, p.prev.Win
	if p.views == nil {
		p.views = map[int]*view.Snapshot{}
	}
	p.views[n] = &s
	return &s
}
