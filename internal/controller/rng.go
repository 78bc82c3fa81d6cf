package controller

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// RNG gives the random source for one step of one round. Cards are drawn from
// it only inside a step that is then committed (no re-roll).
type RNG interface {
	Step(round uint64, step int) io.Reader
	// Shoe gives the sources of shoe no's shuffle and of its
	// commitment's secret: two independent streams (docs/verify.md).
	Shoe(no uint64) (shuffle, secret io.Reader)
}

// CryptoRNG is the production source: crypto/rand for every step.
type CryptoRNG struct{}

// Step implements RNG.
func (CryptoRNG) Step(uint64, int) io.Reader { return rand.Reader }

// Shoe implements RNG: crypto/rand for both, read one after the other.
func (CryptoRNG) Shoe(uint64) (shuffle, secret io.Reader) { return rand.Reader, rand.Reader }

// SeededRNG derives a deterministic stream from (Seed, round, step). For the
// simulator and tests only: the same seed replays the same cards, also after
// a process is killed between decision and commit.
type SeededRNG struct{ Seed uint64 }

// Step implements RNG.
func (s SeededRNG) Step(round uint64, step int) io.Reader {
	h := fnv.New64a()
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], s.Seed)
	binary.LittleEndian.PutUint64(b[8:], round)
	binary.LittleEndian.PutUint64(b[16:], uint64(step))
	h.Write(b[:])
	return card.NewSeeded(h.Sum64())
}

// Shoe implements RNG: two streams derived from (Seed, shoe no), apart
// from every round's (the step numbers -2 and -3 of "round" ^no).
func (s SeededRNG) Shoe(no uint64) (shuffle, secret io.Reader) {
	return s.Step(^no, -2), s.Step(^no, -3)
}

// Commit before the bet (issue 38, docs/verify.md). A game's next round
// deals from a shoe shuffled and committed before the player can bet on it:
// the shoe, its secret and its commitment C are committed state
// (recovery.Shoe, state.shoes), written in the transaction that ends the
// previous round of the game or, when the game's table is shown with no
// shoe ready (the first time, after the rules changed), in a transaction of
// its own before the table is published (commitShown). A power cut between
// the commitment and the deal changes nothing: the deal takes the
// committed shoe. A shoe is revealed (recovery.RevealShoe) when it is
// finished: at the end of its round for a game shuffled before every round
// and for Poker Duel's deck of each deal, at the end of the round in which
// its cut card came out for Free Bet's continuous shoe. Until then its
// secret is never shown.
//
// The secret and the shuffle come from the RNG's two streams for the shoe
// (RNG.Shoe): crypto/rand for both in production, so the secret is fresh
// and independent of the order; the seeded simulator derives both from its
// seed and the shoe's number.

// shoeSpec is the shoe the next round of game id deals from, with the
// carry cs holds: its number of cards and its cut card (0: none, the shoe
// is dealt by one round). ok is false when that round deals no card (Poker
// Duel's purchase of a session).
func (s *InForce) shoeSpec(id game.ID, cs *state) (size, cut int, ok bool) {
	if id == game.Duel {
		r, _, err := s.newDuel(cs.m.NextRound, cs.carry[game.Duel])
		if err != nil || r.(*duel.Round).Phase != duel.PhaseAnte {
			return 0, 0, false
		}
		return r.(*duel.Round).DeckSize(), 0, true
	}
	rules, ok := s.Rules[id]
	if !ok {
		return 0, 0, false
	}
	size = 52 * rules.Decks
	if !rules.FreshShuffle {
		cut = size * rules.Penetration / 100
	}
	return size, cut, true
}

// shoeReady reports whether p is a committed shoe of size cards and cut
// card cut that the next round may deal from: a one-round shoe not dealt
// from yet, a continuous shoe whose cut card has not come out.
func shoeReady(p *recovery.Shoe, size, cut int) bool {
	if p == nil || len(p.Cards) != size || p.Cut != cut {
		return false
	}
	if cut == 0 {
		return p.Pos == 0
	}
	return p.Pos < cut
}

// commitShoe makes sure the next round of game id has a committed shoe
// ready, in tx: a shoe committed for other rules is revealed as retired
// (logged), and a new one is shuffled and committed.
func (c *Controller) commitShoe(tx *recovery.Tx, s *state, id game.ID) error {
	size, cut, ok := c.set.shoeSpec(id, s)
	if !ok || shoeReady(s.shoes[id], size, cut) {
		return nil
	}
	now := c.now()
	if old := s.shoes[id]; old != nil {
		r := *old
		r.Revealed, r.Retired = now, "the shoe the next round needs changed (the rules in force)"
		if err := tx.RevealShoe(&r); err != nil {
			return err
		}
		text := fmt.Sprintf("shoe %d of %s (commitment %s) retired after %d cards and revealed: %s", r.No, id, r.Commitment, r.Pos, r.Retired)
		if err := c.led.logDetail(tx, meters.KindConfigChange, text, "shoe_retired", meters.CountArg(r.No), meters.KeyArg("game."+string(id))); err != nil {
			return err
		}
	}
	no, err := tx.NextShoeNo()
	if err != nil {
		return err
	}
	shuffle, secret := c.rng.Shoe(no)
	cards := card.NewShoe(max(1, size/52)).Cards
	if size == 32 {
		cards = card.ShortDeck()
	}
	if err := card.Shuffle(cards, shuffle); err != nil {
		return fmt.Errorf("shoe %d: %w", no, err)
	}
	sec, err := card.NewSecret(secret)
	if err != nil {
		return fmt.Errorf("shoe %d: %w", no, err)
	}
	com, err := card.Commitment(sec, cut, cards)
	if err != nil {
		return fmt.Errorf("shoe %d: %w", no, err)
	}
	p := &recovery.Shoe{No: no, Game: id, Commitment: com, Secret: sec.String(), Cards: cards, Cut: cut, Committed: now}
	if err := tx.PutShoe(p); err != nil {
		return err
	}
	s.withShoe(id, p)
	return nil
}

// dealFrom is the card source of a new round of game id: its committed
// shoe (ready, else the round is refused: commitShown commits one before
// any table is shown) with the reference the round keeps, or none for a
// round that deals no card.
func (c *Controller) dealFrom(id game.ID) (*card.Shoe, *meters.ShoeRef, error) {
	cs := c.led.cur()
	size, cut, ok := c.set.shoeSpec(id, &cs)
	if !ok {
		return nil, nil, nil
	}
	p := cs.shoes[id]
	if !shoeReady(p, size, cut) {
		return nil, nil, fmt.Errorf("%w: no committed shoe for %s", ErrNotNow, id)
	}
	shoe := &card.Shoe{Cards: append([]card.Card(nil), p.Cards...), Pos: p.Pos, Cut: p.Cut}
	return shoe, &meters.ShoeRef{No: p.No, Commitment: p.Commitment, From: p.Pos}, nil
}

// finishShoe records in tx how far a closing round dealt from its shoe:
// a continuous shoe whose cut card has not come out goes on (its position
// advanced), any other is finished and revealed. It returns the round's
// reference for the recall (nil for a round that dealt no card).
func (l *books) finishShoe(tx *recovery.Tx, s *state, open *recovery.OpenRound, now time.Time) (*meters.ShoeRef, error) {
	if open.Commit == nil {
		return nil, nil
	}
	p := s.shoes[open.Game]
	if p == nil || p.No != open.Commit.No || open.Shoe == nil {
		return nil, fmt.Errorf("round %d: its committed shoe %d is not the game's", open.Round, open.Commit.No)
	}
	ref := *open.Commit
	ref.To = open.Shoe.Pos
	r := *p
	r.Pos = open.Shoe.Pos
	if r.Cut > 0 && r.Pos < r.Cut {
		if err := tx.PutShoe(&r); err != nil {
			return nil, err
		}
		s.withShoe(open.Game, &r)
		return &ref, nil
	}
	r.Revealed = now
	if err := tx.RevealShoe(&r); err != nil {
		return nil, err
	}
	s.withShoe(open.Game, nil)
	return &ref, nil
}

// commitShown commits a shoe for the game whose table (or help page, which
// shows the whole commitment) is shown when it has none ready (the first
// time, after a change of the rules in force): the player never sees a
// table to bet at without its commitment.
func (c *Controller) commitShown() error {
	cs := c.led.cur()
	if shown := c.scr.shown(cs); cs.memErr != nil || cs.open != nil || shown != view.Table && shown != view.Help {
		return nil
	}
	id := c.scr.game
	size, cut, ok := c.set.shoeSpec(id, &cs)
	if !ok || shoeReady(cs.shoes[id], size, cut) {
		return nil
	}
	return c.led.commit("commit the shoe of "+string(id), func(tx *recovery.Tx, s *state) error {
		return c.commitShoe(tx, s, id)
	})
}
