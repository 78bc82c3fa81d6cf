package blackjack

import (
	"errors"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// candidates are the actions Legal considers, in the order it lists them.
var candidates = [...]game.ActionKind{
	game.Deal, game.Hit, game.Stand, game.Double, game.Split, game.Surrender, game.Zap,
	game.Insure, game.EvenMoney, game.NoInsure,
}

// Legal lists the actions Apply accepts now with funds on the credit meter:
// a paid double, split or insurance only if funds cover its stake; free ones
// always. In the bet phase Deal is listed when funds cover the minimum bet.
func (r *Round) Legal(funds money.Cents) []game.ActionKind {
	return r.AppendLegal(nil, funds)
}

// AppendLegal appends Legal's list to buf (loops reuse one buffer).
func (r *Round) AppendLegal(buf []game.ActionKind, funds money.Cents) []game.ActionKind {
	for _, k := range candidates {
		if r.check(k, funds, false) == nil {
			buf = append(buf, k)
		}
	}
	return buf
}

// check says whether action k is accepted now with funds: nil, an
// *game.IllegalError, or an error wrapping game.ErrFunds / ErrRoundOver.
// Deal's bets are checked by checkDeal.
//
// With explain false (Legal) a refusal is the bare errRefused: no message
// is formatted.
func (r *Round) check(k game.ActionKind, funds money.Cents, explain bool) error {
	switch r.Phase {
	case PhaseDone:
		return refuse(explain, PlayRoundOver, func() error {
			return fmt.Errorf("blackjack: round %d: %s: %w", r.Number, k, game.ErrRoundOver)
		})
	case PhaseBet:
		if k != game.Deal {
			return refuse(explain, PlayNotDealt, func() error {
				return game.Illegal(k, "round %d waits for the deal", r.Number)
			})
		}
		if funds < r.Rules.MinBet {
			return refuse(explain, PlayFunds, func() error {
				return fmt.Errorf("blackjack: round %d: deal: funds %v below the minimum bet %v: %w", r.Number, funds, r.Rules.MinBet, game.ErrFunds)
			})
		}
		return nil
	case PhaseInsurance:
		return r.checkInsurance(k, funds, explain)
	case PhasePlay:
		return r.checkPlay(k, funds, explain)
	}
	panic(fmt.Sprintf("BUG: blackjack round %d in unknown phase %q", r.Number, r.Phase))
}

func (r *Round) checkInsurance(k game.ActionKind, funds money.Cents, explain bool) error {
	h := &r.Hands[r.Active]
	even := r.evenMoneyOffered(h)
	switch k {
	case game.NoInsure:
		return nil
	case game.EvenMoney:
		if !even {
			return refuse(explain, PlayNoEvenMoney, func() error {
				return game.Illegal(k, "hand %d is not offered even money", r.Active)
			})
		}
		return nil
	case game.Insure:
		if even {
			return refuse(explain, PlayEvenMoneyInstead, func() error {
				return game.Illegal(k, "hand %d holds a blackjack: even money is offered instead", r.Active)
			})
		}
		if cost := h.Stake.Mul(1, 2); cost > funds {
			return refuse(explain, PlayFunds, func() error {
				return fmt.Errorf("blackjack: round %d: insure hand %d: %v needed, %v available: %w", r.Number, r.Active, cost, funds, game.ErrFunds)
			})
		}
		return nil
	}
	return refuse(explain, PlayInsuranceFirst, func() error {
		return game.Illegal(k, "hand %d must answer the insurance question first", r.Active)
	})
}

func (r *Round) checkPlay(k game.ActionKind, funds money.Cents, explain bool) error {
	i := r.Active
	h := &r.Hands[i]
	two := len(h.Cards) == 2
	switch k {
	case game.Hit, game.Stand:
		return nil
	case game.Double:
		switch {
		case !two:
			return refuse(explain, PlayDoubleTwoCards, func() error {
				return game.Illegal(k, "hand %d holds %d cards, doubling needs the first two", i, len(h.Cards))
			})
		case h.FromSplit && !r.Rules.DoubleAfterSplit:
			return refuse(explain, PlayDoubleAfterSplit, func() error {
				return game.Illegal(k, "hand %d comes from a split: no double after split", i)
			})
		case r.Rules.Double == Double10or11 && !total10or11(h):
			return refuse(explain, PlayDouble10or11, func() error {
				return game.Illegal(k, "hand %d totals %d: double on 10 or 11 only", i, first(card.BlackjackTotal(h.Cards)))
			})
		}
		if r.freeDouble(h) {
			return nil
		}
		if h.base() > funds {
			return refuse(explain, PlayFunds, func() error {
				return fmt.Errorf("blackjack: round %d: double hand %d: %v needed, %v available: %w", r.Number, i, h.base(), funds, game.ErrFunds)
			})
		}
		return nil
	case game.Split:
		switch {
		case !two:
			return refuse(explain, PlaySplitTwoCards, func() error {
				return game.Illegal(k, "hand %d holds %d cards, splitting needs the first two", i, len(h.Cards))
			})
		case h.Cards[0].HardValue() != h.Cards[1].HardValue():
			return refuse(explain, PlaySplitPair, func() error {
				return game.Illegal(k, "hand %d: %v and %v are not of the same value", i, h.Cards[0], h.Cards[1])
			})
		case h.Zapped != nil:
			return refuse(explain, PlaySplitZapped, func() error {
				return game.Illegal(k, "hand %d was zapped: no split", i)
			})
		case r.spotHands(h.Spot) >= r.Rules.MaxHands:
			return refuse(explain, PlaySplitMax, func() error {
				return game.Illegal(k, "spot %d already has %d hands (at most %d)", h.Spot, r.spotHands(h.Spot), r.Rules.MaxHands)
			})
		}
		if r.freeSplit(h) {
			return nil
		}
		if h.base() > funds {
			return refuse(explain, PlayFunds, func() error {
				return fmt.Errorf("blackjack: round %d: split hand %d: %v needed, %v available: %w", r.Number, i, h.base(), funds, game.ErrFunds)
			})
		}
		return nil
	case game.Surrender:
		return r.checkSurrender(k, i, explain)
	case game.Zap:
		return r.checkZap(k, i, explain)
	}
	return refuse(explain, PlayNotAPlay, func() error {
		return game.Illegal(k, "not a play action (hand %d is playing)", i)
	})
}

// errRefused is what check returns to Legal for a refused action.
var errRefused = errors.New("blackjack: refused")

// refuse returns the explained error with its reason (a *PlayError), or
// errRefused without building it.
func refuse(explain bool, why PlayReason, f func() error) error {
	if !explain {
		return errRefused
	}
	return &PlayError{Reason: why, Err: f()}
}

// PlayReason says why the engine refuses an action in a round.
type PlayReason int

// Reasons of a refused action, as check finds them.
const (
	PlayRoundOver        PlayReason = iota + 1 // the round is settled
	PlayNotDealt                               // the round waits for its deal
	PlayFunds                                  // the credits do not cover the stake
	PlayInsuranceFirst                         // the insurance question comes first
	PlayNoEvenMoney                            // even money is not offered to this hand
	PlayEvenMoneyInstead                       // a blackjack is offered even money, not insurance
	PlayDoubleTwoCards                         // a double needs the first two cards
	PlayDoubleAfterSplit                       // no double after a split at this table
	PlayDouble10or11                           // double on 10 or 11 only
	PlaySplitTwoCards                          // a split needs the first two cards
	PlaySplitPair                              // a split needs two cards of one value
	PlaySplitZapped                            // a zapped hand is not split
	PlaySplitMax                               // the spot has its most hands
	PlayNoSurrender                            // the table offers no surrender
	PlaySurrenderFirst                         // surrender only as the first decision
	PlayNoZap                                  // the game has no zap
	PlayZapFirst                               // zap only as the first action on the original two cards
	PlayZapTotal                               // zap needs a hard 15 to 18
	PlayNotAPlay                               // not an action of this point of the round
)

// PlayError is the engine's refusal of an action: why, and the refusal
// itself (an *game.IllegalError, or an error wrapping game.ErrFunds or
// game.ErrRoundOver), which it wraps.
type PlayError struct {
	Reason PlayReason
	Err    error
}

func (e *PlayError) Error() string { return e.Err.Error() }
func (e *PlayError) Unwrap() error { return e.Err }

// Why is the engine's refusal of action k now with funds (a *PlayError),
// nil if Apply would accept it: the reason a caller shows for a button
// unlit, from the check Legal and Apply make.
func (r *Round) Why(k game.ActionKind, funds money.Cents) error {
	return r.check(k, funds, true)
}

func first(t int, _ bool) int { return t }

func softWord(soft bool) string {
	if soft {
		return "soft "
	}
	return ""
}

func total10or11(h *Hand) bool {
	t, _ := card.BlackjackTotal(h.Cards)
	return t == 10 || t == 11
}

func (r *Round) spotHands(spot int) int {
	n := 0
	for i := range r.Hands {
		if r.Hands[i].Spot == spot {
			n++
		}
	}
	return n
}

// DealReason says why CheckDeal refuses a deal's bets.
type DealReason int

// Reasons of a refused deal, in the order CheckDeal checks them.
const (
	DealNoBet          DealReason = iota + 1 // no bet at all
	DealSpot                                 // a spot outside the table's
	DealTwice                                // a second bet of one kind on a spot
	DealBelowMin                             // a main or side bet below its minimum
	DealAboveMax                             // a main or side bet above its maximum
	DealNotSide                              // a kind that is not placed with the deal
	DealNotOffered                           // a side bet the game does not offer
	DealRoyalNeedsBoth                       // the Royal Poker bet without a main bet on both spots
	DealSideNeedsMain                        // a side bet on a spot without a main bet
	DealRoyalTwice                           // a second Royal Poker bet
	DealRoyalStake                           // the Royal Poker bet not at its fixed stake
	DealFunds                                // the stakes exceed the funds
)

// DealError is CheckDeal's refusal: why, and which bet (-1: the deal as a
// whole). It wraps game.ErrFunds for DealFunds, game.ErrBet otherwise.
type DealError struct {
	Reason DealReason
	Bet    int
	Text   string
}

func (e *DealError) Error() string { return e.Text }

// Unwrap gives game.ErrFunds or game.ErrBet.
func (e *DealError) Unwrap() error {
	if e.Reason == DealFunds {
		return game.ErrFunds
	}
	return game.ErrBet
}

// CheckDeal validates a deal's bets under rules with funds (games.md §1–§4
// limits, spots, side-bet conditions, credits): nil, or a *DealError. It is
// the engine's own check (Apply runs it on every Deal), exported so that a
// caller lights DEAL and says why it is refused from the same decision.
// Pure: no round is built, nothing is drawn.
func CheckDeal(rules Rules, bets []game.Bet, funds money.Cents) error {
	if len(bets) == 0 {
		return &DealError{Reason: DealNoBet, Bet: -1, Text: "no bet"}
	}
	var main [3]bool // Validate keeps MaxSpots within 1–3
	for _, b := range bets {
		if b.Kind == game.Main && b.Spot >= 0 && b.Spot < min(rules.MaxSpots, len(main)) {
			main[b.Spot] = true
		}
	}
	royal := 0
	var total money.Cents
	for n, b := range bets {
		total += b.Amount
		bad := func(why DealReason, format string, args ...any) error {
			return &DealError{Reason: why, Bet: n, Text: fmt.Sprintf("bet %d (%s %v on spot %d): %s: %v",
				n, b.Kind, b.Amount, b.Spot, fmt.Sprintf(format, args...), game.ErrBet)}
		}
		if b.Spot < 0 || b.Spot >= rules.MaxSpots || b.Spot >= len(main) {
			return bad(DealSpot, "spot out of range 0–%d", rules.MaxSpots-1)
		}
		for _, o := range bets[:n] {
			if o.Spot == b.Spot && o.Kind == b.Kind {
				return bad(DealTwice, "a second %s bet on the spot", b.Kind)
			}
		}
		if b.Kind == game.Main {
			if b.Amount < rules.MinBet {
				return bad(DealBelowMin, "main bet outside the table limits %v–%v", rules.MinBet, rules.MaxBet)
			}
			if b.Amount > rules.MaxBet {
				return bad(DealAboveMax, "main bet outside the table limits %v–%v", rules.MinBet, rules.MaxBet)
			}
			continue
		}
		if !b.Kind.IsSide() {
			return bad(DealNotSide, "%q cannot be placed with the deal", b.Kind)
		}
		sr, ok := rules.SideRule(b.Kind)
		if !ok {
			return bad(DealNotOffered, "side bet not offered in %s", rules.Game)
		}
		if b.Kind == game.RoyalSide {
			royal++
			switch {
			case !main[0] || !main[1]:
				return bad(DealRoyalNeedsBoth, "offered only when both spots carry a main bet")
			case royal > 1:
				return bad(DealRoyalTwice, "one Royal Poker bet per round")
			case b.Amount != rules.RoyalStake:
				return bad(DealRoyalStake, "the stake is fixed at %v", rules.RoyalStake)
			}
			continue
		}
		if !main[b.Spot] {
			return bad(DealSideNeedsMain, "no main bet on the spot")
		}
		if b.Amount < sr.Min {
			return bad(DealBelowMin, "outside the side bet limits %v–%v", sr.Min, sr.Max)
		}
		if b.Amount > sr.Max {
			return bad(DealAboveMax, "outside the side bet limits %v–%v", sr.Min, sr.Max)
		}
	}
	if total > funds {
		return &DealError{Reason: DealFunds, Bet: -1, Text: fmt.Sprintf("stakes %v, funds %v: %v", total, funds, game.ErrFunds)}
	}
	return nil
}

// checkDeal validates a Deal's bets (CheckDeal) in round r.
func (r *Round) checkDeal(a game.Action) error {
	if err := CheckDeal(r.Rules, a.Bets, a.Funds); err != nil {
		return fmt.Errorf("blackjack: round %d: deal: %w", r.Number, err)
	}
	return nil
}
