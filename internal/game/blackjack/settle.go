package blackjack

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/sidebet"
)

// revealDealer turns the hole card and every face-down doubled card over.
func (s *step) revealDealer() {
	r := s.r
	if r.HoleDown {
		r.HoleDown = false
		s.evs = append(s.evs, game.Event{Kind: game.Reveal, Hand: game.Dealer, Index: 1, Card: r.Dealer[1]})
	}
	for i := range r.Hands {
		h := &r.Hands[i]
		if !h.Hidden {
			continue
		}
		h.Hidden = false
		s.evs = append(s.evs, game.Event{Kind: game.Reveal, Hand: i, Spot: h.Spot, Index: len(h.Cards) - 1, Card: h.Cards[len(h.Cards)-1]})
		if h.busted() {
			h.Settled = true
			s.result(i, game.Bust)
		}
	}
}

// dealerTurn: the dealer reveals, draws as the rules require and the round
// is settled (games.md §0 dealer play).
func (s *step) dealerTurn() error {
	r := s.r
	s.revealDealer()
	waiting, live := false, false
	for i := range r.Hands {
		h := &r.Hands[i]
		if h.Settled || h.busted() {
			continue
		}
		waiting = true
		if !h.natural() && !h.SurrenderHeld {
			live = true
		}
	}
	insurance := false
	for i := range r.Hands {
		if r.Hands[i].Insured > 0 && !r.Hands[i].InsSettled {
			insurance = true
		}
	}
	bustIt := r.bustItLive()
	if len(r.Dealer) == 1 && (waiting || insurance || bustIt) {
		// No hole card (European): the dealer's second card comes now.
		if err := s.draw(game.Dealer, false); err != nil {
			return err
		}
	}
	bj := r.dealerNatural()
	s.settleInsurance(bj)
	if !bj && (live || bustIt) {
		for r.dealerDraws() {
			if err := s.draw(game.Dealer, false); err != nil {
				return err
			}
		}
	}
	s.settleHands()
	return s.finish()
}

// dealerDraws: below 17, or soft 17 under H17.
func (r *Round) dealerDraws() bool {
	t, soft := card.BlackjackTotal(r.Dealer)
	return t < 17 || (t == 17 && soft && r.Rules.HitSoft17)
}

func (r *Round) bustItLive() bool {
	for _, sd := range r.Sides {
		if sd.Kind == game.BustIt && !sd.Settled {
			return true
		}
	}
	return false
}

// settleHands settles every hand not yet settled against the dealer's hand.
//
//   - A held European surrender: see settleSurrender.
//   - A busted hand loses.
//   - A blackjack pushes against a dealer blackjack and is paid 3:2 against
//     anything else (a dealer 22 included).
//   - Against a dealer blackjack found at the end: with PeekAceOnly (Free Bet,
//     ten up) the hand loses its original main bet only, money added by a
//     paid double or a paid split coming back; with NoHole (European) it loses
//     everything staked on it. (Charlies were paid when made.)
//   - A dealer 22 pushes every other hand when Dealer22Push is set.
//   - Otherwise a dealer bust or a higher total wins 1:1, equal totals push.
func (s *step) settleHands() {
	r := s.r
	dt, _ := card.BlackjackTotal(r.Dealer)
	bj := r.dealerNatural()
	for i := range r.Hands {
		h := &r.Hands[i]
		if h.Settled {
			continue
		}
		h.Settled = true
		pt, _ := card.BlackjackTotal(h.Cards)
		switch {
		case h.SurrenderHeld:
			s.settleSurrender(i, bj)
		case pt > 21:
			s.result(i, game.Bust)
		case h.natural() && bj:
			s.payPush(i)
			s.result(i, game.Push)
		case h.natural():
			s.pay(game.Main, i, h.Stake+h.Stake.Mul(3, 2), "")
			s.result(i, game.Blackjack)
		case bj:
			if r.Rules.Peek == PeekAceOnly {
				s.returnAddedMoney(i)
			}
			s.result(i, game.Lose)
		case dt == 22 && r.Rules.Dealer22Push:
			s.payPush(i)
			s.result(i, game.Push)
		case dt > 21 || pt > dt:
			s.payWin(i)
			s.result(i, game.Win)
		case pt == dt:
			s.payPush(i)
			s.result(i, game.Push)
		default:
			s.result(i, game.Lose)
		}
	}
}

// settleDealSides settles the side bets decided by the first cards (Royal
// Poker, Any Pair, 21+3, Hot 3) and pushes a Bust It on a blackjack.
func (s *step) settleDealSides() {
	r := s.r
	up := r.Dealer[0]
	for j := range r.Sides {
		sd := &r.Sides[j]
		h := &r.Hands[r.spotHand(sd.Spot)]
		switch sd.Kind {
		case game.RoyalSide:
			a, b := &r.Hands[r.spotHand(0)], &r.Hands[r.spotHand(1)]
			s.settleSide(j, sidebet.RoyalPoker([5]card.Card{a.Cards[0], a.Cards[1], b.Cards[0], b.Cards[1], up}))
		case game.AnyPair:
			s.settleSide(j, sidebet.AnyPair(h.Cards[0], h.Cards[1]))
		case game.TwentyOne:
			s.settleSide(j, sidebet.TwentyOnePlus3(h.Cards[0], h.Cards[1], up))
		case game.Hot3:
			s.settleSide(j, sidebet.Hot3(h.Cards[0], h.Cards[1], up))
		case game.BustIt:
			if h.natural() {
				sd.Settled, sd.Outcome = true, game.Push
				s.payTo(Pay{Bet: sd.Kind, Spot: sd.Spot, Hand: r.spotHand(sd.Spot), Amount: sd.Amount})
				s.sideResult(j)
			}
		default:
			panic(fmt.Sprintf("BUG: blackjack: side bet %q accepted but not settled", sd.Kind))
		}
	}
}

// settleSide settles side bet j on the paying hand name (the evaluator's
// answer, "" = lost). Royal Poker pays "for one" (Pays × stake, the stake not
// returned on top; royal flush and straight flush win 100 % and 10 % of the
// progressive through a JackpotWin event); the Free Bet side bets pay "to
// one" (stake × (Pays + 1)). A name missing from Pays loses.
func (s *step) settleSide(j int, name string) {
	r := s.r
	sd := &r.Sides[j]
	sd.Settled, sd.Hand, sd.Outcome = true, name, game.Lose
	hand := r.spotHand(sd.Spot)
	if sd.Kind == game.RoyalSide && s.royalJackpot(j, hand, name) {
		return
	}
	rule, _ := r.Rules.SideRule(sd.Kind)
	pays, ok := rule.Pays[name]
	if name != "" && ok {
		sd.Outcome = game.Win
		amount := sd.Amount.Mul(pays, 1)
		if sd.Kind != game.RoyalSide {
			amount = sd.Amount.Mul(pays+1, 1)
		}
		s.payTo(Pay{Bet: sd.Kind, Spot: sd.Spot, Hand: hand, Amount: amount, Text: name})
	}
	s.sideResult(j)
}

func (s *step) sideResult(j int) {
	sd := &s.r.Sides[j]
	s.evs = append(s.evs, game.Event{Kind: game.Result, Bet: sd.Kind, Spot: sd.Spot, Hand: s.r.spotHand(sd.Spot), Outcome: sd.Outcome, Text: sd.Hand})
}

// finish settles Bust It on the dealer's final hand, pays what a capped
// round held back (payCapped, zappit.go), and ends the round.
func (s *step) finish() error {
	r := s.r
	for j := range r.Sides {
		sd := &r.Sides[j]
		if sd.Kind == game.BustIt && !sd.Settled {
			s.settleSide(j, sidebet.BustIt(r.Dealer))
		}
	}
	if r.Rules.WinCap > 0 {
		s.payCapped()
	}
	r.Phase, r.Active = PhaseDone, -1
	s.evs = append(s.evs, game.Event{Kind: game.Over, Hand: game.Dealer})
	return nil
}
