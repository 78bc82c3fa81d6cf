package blackjack

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// step is one Apply in progress: the working copy of the round, the card
// source, the events so far, and the round's reusable storage (nil for Apply).
type step struct {
	r   *Round
	src card.Source
	evs []game.Event
	mem *mem
}

// Apply performs one action. It applies completely or not at all: the work
// is done on a copy that replaces the round only on success, so an error
// (illegal action, bad bet, funds, an exhausted card source) leaves the round
// exactly as it was. Inside a step the round progresses by itself until a
// player decision or the end: peek, a dealer blackjack ending the round,
// automatic stands, split aces, the card cap, Charlie, dealer play and
// settlement. The round's earlier storage is never written: a shallow copy
// of the round taken before the call still reads as it was.
func (r *Round) Apply(a game.Action, src card.Source) ([]game.Event, error) {
	return r.apply(nil, a, src, false)
}

// AppendApply is Apply for loops that play many steps and rounds (the
// simulator, the benchmarks): the events are appended to evs, and the work
// copy of the step reuses the storage of the one before, so a warm loop
// allocates nothing (README, Performance). The events and the round are exactly those
// Apply gives. The price: slices read from the round before the call
// (ActiveHand, Hands[i].Cards, a shallow copy of the Round) may be
// overwritten by it; hold none across a call. On error the round is
// unchanged and evs is returned as it came.
func (r *Round) AppendApply(evs []game.Event, a game.Action, src card.Source) ([]game.Event, error) {
	return r.apply(evs, a, src, true)
}

func (r *Round) apply(evs []game.Event, a game.Action, src card.Source, reuse bool) ([]game.Event, error) {
	if err := r.check(a.Kind, a.Funds, true); err != nil {
		return evs, err
	}
	if a.Kind == game.Deal {
		if err := r.checkDeal(a); err != nil {
			return evs, err
		}
	}
	s := step{src: src, evs: evs}
	if reuse {
		s.r, s.mem = r.working(), r.mem
	} else {
		s.r = r.clone()
	}
	if err := s.do(a); err != nil {
		return evs, fmt.Errorf("blackjack: round %d: %s: %w", r.Number, a.Kind, err)
	}
	if reuse {
		r.commit()
	} else {
		*r = *s.r
	}
	return s.evs, nil
}

func (s *step) do(a game.Action) error {
	r := s.r
	switch a.Kind {
	case game.Deal:
		return s.deal(a.Bets)
	case game.Insure, game.NoInsure, game.EvenMoney:
		s.insurance(a.Kind)
		if r.Phase == PhaseInsurance {
			return nil
		}
		return s.afterInsurance()
	case game.Hit:
		if err := s.draw(r.Active, false); err != nil {
			return err
		}
		s.autoStand(r.Active)
	case game.Stand:
		r.Hands[r.Active].Done = true
	case game.Double:
		if err := s.double(); err != nil {
			return err
		}
	case game.Split:
		if err := s.split(); err != nil {
			return err
		}
	case game.Surrender:
		s.surrender(r.Active)
	case game.Zap:
		if err := s.zap(); err != nil {
			return err
		}
	default:
		panic(fmt.Sprintf("BUG: blackjack: checked action %q has no handler", a.Kind))
	}
	return s.advance(r.Active)
}

// draw deals one card from the source to hand i (game.Dealer for the dealer).
func (s *step) draw(i int, faceDown bool) error {
	c, err := s.src.Draw()
	if err != nil {
		return fmt.Errorf("draw for hand %d: %w", i, err)
	}
	ev := game.Event{Kind: game.CardDealt, Hand: i, Card: c, FaceDown: faceDown}
	if i == game.Dealer {
		ev.Index = len(s.r.Dealer)
		s.r.Dealer = append(s.r.Dealer, c)
	} else {
		h := &s.r.Hands[i]
		ev.Spot, ev.Index = h.Spot, len(h.Cards)
		h.Cards = append(h.Cards, c)
	}
	s.evs = append(s.evs, ev)
	return nil
}

// stake takes amount from the credit meter for bet on hand i.
func (s *step) stake(bet game.BetKind, spot, hand int, amount money.Cents) {
	s.r.Staked += amount
	s.evs = append(s.evs, game.Event{Kind: game.Stake, Bet: bet, Spot: spot, Hand: hand, Amount: amount})
}

// pay returns amount for bet of hand i (a returned stake included). In a
// capped round (WinCap > 0) the payout is held until the round ends.
func (s *step) pay(bet game.BetKind, i int, amount money.Cents, text string) {
	s.payTo(Pay{Bet: bet, Spot: s.r.Hands[i].Spot, Hand: i, Amount: amount, Text: text})
}

func (s *step) payTo(p Pay) {
	if p.Amount <= 0 {
		return
	}
	if s.r.Rules.WinCap > 0 {
		s.r.Pending = append(s.r.Pending, p)
		return
	}
	s.emitPay(p)
}

func (s *step) emitPay(p Pay) {
	r := s.r
	r.Paid += p.Amount
	switch {
	case p.Bet.IsSide():
		for j := range r.Sides {
			if r.Sides[j].Spot == p.Spot && r.Sides[j].Kind == p.Bet {
				r.Sides[j].Win += p.Amount
			}
		}
	case p.Bet == game.Insurance:
		r.Hands[p.Hand].InsWin += p.Amount
	default:
		r.Hands[p.Hand].Win += p.Amount
	}
	s.evs = append(s.evs, game.Event{Kind: game.Payout, Bet: p.Bet, Spot: p.Spot, Hand: p.Hand, Amount: p.Amount, Text: p.Text})
}

func (s *step) result(i int, o game.Outcome) {
	h := &s.r.Hands[i]
	h.Outcome = o
	s.evs = append(s.evs, game.Event{Kind: game.Result, Hand: i, Spot: h.Spot, Outcome: o})
}

// deal places the bets and deals the first cards (games.md §0).
func (s *step) deal(bets []game.Bet) error {
	r := s.r
	s.mem.takeSpare(r)
	for spot := range r.Rules.MaxSpots {
		for _, b := range bets {
			if b.Spot == spot && b.Kind == game.Main {
				r.newHand(Hand{Spot: spot, Stake: b.Amount})
			}
		}
	}
	for i := range r.Hands {
		s.stake(game.Main, r.Hands[i].Spot, i, r.Hands[i].Stake)
	}
	for _, b := range bets {
		if b.Kind != game.Main {
			r.Sides = append(r.Sides, Side{Spot: b.Spot, Kind: b.Kind, Amount: b.Amount})
			s.stake(b.Kind, b.Spot, r.spotHand(b.Spot), b.Amount)
		}
	}
	for i := range r.Hands {
		if err := s.draw(i, false); err != nil {
			return err
		}
	}
	if err := s.draw(game.Dealer, false); err != nil {
		return err
	}
	for i := range r.Hands {
		if err := s.draw(i, false); err != nil {
			return err
		}
	}
	if r.Rules.Peek != NoHole {
		if err := s.draw(game.Dealer, true); err != nil {
			return err
		}
		r.HoleDown = true
	}
	for i := range r.Hands {
		if r.Hands[i].natural() {
			r.Hands[i].Done = true
		}
	}
	s.settleDealSides()
	if isAce(r.Dealer[0]) {
		if i := r.nextAsk(0); i >= 0 {
			r.Phase, r.Active = PhaseInsurance, i
			return nil
		}
	}
	return s.afterInsurance()
}

// spotHand is the index of spot's first hand (-1 if none).
func (r *Round) spotHand(spot int) int {
	for i := range r.Hands {
		if r.Hands[i].Spot == spot {
			return i
		}
	}
	return -1
}

// nextAsk is the first hand from i on that is asked about insurance or even
// money, or -1.
func (r *Round) nextAsk(i int) int {
	for ; i < len(r.Hands); i++ {
		h := &r.Hands[i]
		if r.evenMoneyOffered(h) || (r.Rules.Insurance && h.Stake.Mul(1, 2) > 0) {
			return i
		}
	}
	return -1
}

// insurance records the active hand's insurance / even-money decision and
// moves to the next hand asked.
func (s *step) insurance(k game.ActionKind) {
	r := s.r
	i := r.Active
	h := &r.Hands[i]
	h.InsAsked = true
	switch k {
	case game.Insure:
		h.Insured = h.Stake.Mul(1, 2)
		s.stake(game.Insurance, h.Spot, i, h.Insured)
	case game.EvenMoney:
		h.Settled, h.Note = true, "evenmoney"
		s.pay(game.Main, i, 2*h.Stake, "evenmoney")
		s.result(i, game.Win)
	}
	if j := r.nextAsk(i + 1); j >= 0 {
		r.Active = j
		return
	}
	r.Phase, r.Active = PhasePlay, -1
}

// afterInsurance peeks where the rules say so, ends the round on a dealer
// blackjack, and otherwise starts play with the first hand.
func (s *step) afterInsurance() error {
	r := s.r
	r.Phase, r.Active = PhasePlay, -1
	up := r.Dealer[0]
	peek := r.Rules.Peek != NoHole && (isAce(up) || (isTen(up) && r.Rules.Peek == PeekAceTen))
	if peek {
		if r.dealerNatural() {
			s.revealDealer()
			s.settleInsurance(true)
			s.settleHands()
			return s.finish()
		}
		s.settleInsurance(false)
	}
	return s.advance(0)
}

func (r *Round) dealerNatural() bool {
	if len(r.Dealer) != 2 {
		return false
	}
	t, _ := card.BlackjackTotal(r.Dealer)
	return t == 21
}

// settleInsurance pays (2:1) or takes every open insurance.
func (s *step) settleInsurance(dealerBJ bool) {
	for i := range s.r.Hands {
		h := &s.r.Hands[i]
		if h.Insured == 0 || h.InsSettled {
			continue
		}
		h.InsSettled = true
		o := game.Lose
		if dealerBJ {
			o = game.Win
			s.pay(game.Insurance, i, 3*h.Insured, "")
		}
		s.evs = append(s.evs, game.Event{Kind: game.Result, Bet: game.Insurance, Hand: i, Spot: h.Spot, Outcome: o})
	}
}

// advance makes the first hand from i on that needs a decision active,
// dealing the second card of a split hand when its turn comes; with no hand
// left the dealer plays and the round is settled.
func (s *step) advance(i int) error {
	r := s.r
	if r.Phase != PhasePlay {
		return nil
	}
	if i < 0 {
		i = 0
	}
	for ; i < len(r.Hands); i++ {
		if r.Hands[i].Done {
			continue
		}
		if len(r.Hands[i].Cards) == 1 {
			if err := s.draw(i, false); err != nil {
				return err
			}
			s.autoStand(i)
			if r.Hands[i].Done {
				continue
			}
		}
		r.Active = i
		return nil
	}
	r.Active = -1
	return s.dealerTurn()
}

// autoStand applies the automatic rules after a card reached hand i: bust,
// Charlie, 21 after a zap, the card cap, one card after a double or on split
// aces, and the automatic stand on 21 (hard 21 only in Royal Poker).
func (s *step) autoStand(i int) {
	r := s.r
	h := &r.Hands[i]
	t, soft := card.BlackjackTotal(h.Cards)
	switch {
	case t > 21:
		h.Done = true
		if !h.Hidden {
			h.Settled = true
			s.result(i, game.Bust)
		}
	case r.Rules.CharlieCards > 0 && len(h.Cards) >= r.Rules.CharlieCards:
		h.Done, h.Settled = true, true
		s.payWin(i)
		s.result(i, game.Charlie)
	case r.Rules.Zap && h.Zapped != nil && len(h.Cards) == 2 && t == 21:
		h.Done, h.Settled, h.Note = true, true, "zap21"
		s.payWin(i)
		s.result(i, game.Win)
	case r.Rules.MaxCards > 0 && len(h.Cards) >= r.Rules.MaxCards,
		h.Doubled, h.SplitAces,
		t == 21 && (!r.Rules.AutoStandHardOnly || !soft || r.Rules.SplitTwentyOneHard && h.FromSplit && len(h.Cards) == 2):
		h.Done = true
	}
}

// payWin pays hand i 1:1 on everything backing it: money stakes come back
// doubled, tokens pay their win only.
func (s *step) payWin(i int) {
	h := &s.r.Hands[i]
	s.pay(h.stakeKind(), i, 2*h.Stake, "")
	s.pay(game.SplitBet, i, h.Token, "free")
	s.pay(game.DoubleBet, i, 2*h.Double, "")
	s.pay(game.DoubleBet, i, h.DoubleToken, "free")
}

// payPush returns the money stakes of hand i; tokens return nothing.
func (s *step) payPush(i int) {
	h := &s.r.Hands[i]
	s.pay(h.stakeKind(), i, h.Stake, "")
	s.pay(game.DoubleBet, i, h.Double, "")
}

func (s *step) double() error {
	r := s.r
	i := r.Active
	h := &r.Hands[i]
	if r.freeDouble(h) {
		h.DoubleToken = h.base()
		s.token(game.DoubleBet, i, h.DoubleToken)
	} else {
		h.Double = h.base()
		s.stake(game.DoubleBet, h.Spot, i, h.Double)
	}
	h.Doubled = true
	down := r.doubleFaceDown()
	if err := s.draw(i, down); err != nil {
		return err
	}
	h = &r.Hands[i]
	h.Hidden = down
	s.autoStand(i)
	return nil
}

func (s *step) split() error {
	r := s.r
	i := r.Active
	h := &r.Hands[i]
	nh := Hand{Spot: h.Spot, Cards: h.Cards[1:2], FromSplit: true, SplitHand: true} // copied by insertHand
	free := r.freeSplit(h)
	if free {
		nh.Token = h.base()
	} else {
		nh.Stake = h.base()
	}
	aces := isAce(h.Cards[0])
	h.Cards = h.Cards[:1]
	h.FromSplit = true
	if aces {
		h.SplitAces, nh.SplitAces = true, true
	}
	r.insertHand(i+1, nh)
	for k := range r.Pending {
		if r.Pending[k].Hand > i {
			r.Pending[k].Hand++
		}
	}
	h = &r.Hands[i]
	if free {
		s.token(game.SplitBet, i+1, nh.Token)
	} else {
		s.stake(game.SplitBet, nh.Spot, i+1, nh.Stake)
	}
	if err := s.draw(i, false); err != nil {
		return err
	}
	s.autoStand(i)
	if aces {
		if err := s.draw(i+1, false); err != nil {
			return err
		}
		s.autoStand(i + 1)
	}
	return nil
}
