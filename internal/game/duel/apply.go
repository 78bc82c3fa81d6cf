package duel

import (
	"fmt"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/poker"
	"cabinet/internal/money"
)

// Apply performs the player's action a, then the computer's moves up to the
// player's next decision (or the end of the deal). It is all or nothing: on
// error the round is unchanged. An action not legal now returns a
// *game.IllegalError.
func (r *Round) Apply(a game.Action, src card.Source) ([]game.Event, error) {
	if r.Done() {
		return nil, fmt.Errorf("duel: round %d: %s: %w", r.No, a.Kind, game.ErrRoundOver)
	}
	w := r.clone()
	st := &step{r: w, src: src}
	if err := st.player(a); err != nil {
		return nil, err
	}
	if err := st.computerMoves(); err != nil {
		return nil, err
	}
	*r = *w
	return st.evs, nil
}

// step is one Apply in progress on a copy of the round.
type step struct {
	r   *Round
	src card.Source
	evs []game.Event
}

func (st *step) emit(e game.Event) { st.evs = append(st.evs, e) }

func (st *step) player(a game.Action) error {
	r := st.r
	if !slices.Contains(r.Legal(a.Funds), a.Kind) && !(r.Phase == PhaseBuy && a.Kind == game.Buy) {
		return game.Illegal(a.Kind, "not legal in phase %s", r.Phase)
	}
	p, err := ParamsOf(a)
	if err != nil {
		return err
	}
	switch a.Kind {
	case game.Buy:
		return st.buy(a, p)
	case game.Deal:
		return st.deal()
	case game.Draw:
		return st.draw(playerSide, p.Discard)
	}
	return st.bet(playerSide, a.Kind, p.Amount)
}

func (st *step) buy(a game.Action, p Params) error {
	r, cfg := st.r, st.r.Config
	if !cfg.Enabled {
		return game.Illegal(a.Kind, "Poker Duel is disabled")
	}
	deck, level := p.Deck, p.Level
	if deck == 0 {
		deck = cfg.Decks[0]
	}
	if level == "" {
		level = cfg.Levels[0]
	}
	if !slices.Contains(cfg.Decks, deck) {
		return game.Illegal(a.Kind, "deck %d not offered (%v)", deck, cfg.Decks)
	}
	if !slices.Contains(cfg.Levels, level) {
		return game.Illegal(a.Kind, "level %q not offered (%q)", level, cfg.Levels)
	}
	if a.Funds < cfg.Price {
		return fmt.Errorf("duel: round %d: buy a session of %v with %v: %w", r.No, cfg.Price, a.Funds, game.ErrFunds)
	}
	r.Sess = NewSession(cfg, deck, level, p.Seed)
	r.Staked = cfg.Price
	st.emit(game.Event{Kind: game.Stake, Bet: game.Session, Amount: cfg.Price, Who: WhoPlayer})
	st.emit(game.Event{Kind: game.Note, Text: "duel.session", Who: WhoPlayer})
	r.Phase = PhaseOver
	st.emit(game.Event{Kind: game.Over})
	return nil
}

// pay moves x chips of side into the pot; the computer pawns items as needed.
func (st *step) pay(side int, x int64, why string) {
	if x == 0 {
		return
	}
	r := st.r
	s := r.Sess
	if side == computerSide {
		for s.ComputerStack < x && len(s.Worn) > 0 {
			st.pawn()
		}
	}
	stack := s.stack(side)
	if *stack < x {
		panic(fmt.Sprintf("BUG: duel: %s pays %d chips with %d", whoNames[side], x, *stack))
	}
	*stack -= x
	r.Pot += x
	r.In[side] += x
	st.emit(game.Event{Kind: game.Chips, Who: whoNames[side], Amount: money.Cents(x), Text: why})
}

// pawn takes off the item pawned before (its chips are spent) and pawns the
// next worn item.
func (st *step) pawn() {
	s := st.r.Sess
	if s.Pawned != "" {
		st.takeOff()
	}
	item := s.Worn[0]
	s.Worn = s.Worn[1:]
	s.Pawned, s.PawnFloor = item, s.ComputerStack
	s.ComputerStack += st.r.Config.PawnValue
	s.Chips += st.r.Config.PawnValue
	st.emit(game.Event{Kind: game.Chips, Who: WhoComputer, Amount: money.Cents(st.r.Config.PawnValue), Text: "pawn:" + item})
}

func (st *step) takeOff() {
	s := st.r.Sess
	s.Lost = append(s.Lost, s.Pawned)
	st.emit(game.Event{Kind: game.Note, Who: WhoComputer, Text: "off:" + s.Pawned})
	s.Pawned, s.PawnFloor = "", 0
}

func (st *step) drawCard() (card.Card, error) {
	r := st.r
	c, err := st.src.Draw()
	if err != nil {
		return card.Card{}, fmt.Errorf("duel: round %d: draw a card: %w", r.No, err)
	}
	if !c.Valid() || r.short() && c.Rank < card.Seven {
		return card.Card{}, fmt.Errorf("duel: round %d: card %v is not in the %d-card deck", r.No, c, r.DeckSize())
	}
	for i := range 2 {
		if slices.Contains(r.Hands[i], c) || slices.Contains(r.Discards[i], c) {
			return card.Card{}, fmt.Errorf("duel: round %d: card %v dealt twice", r.No, c)
		}
	}
	return c, nil
}

func (st *step) deal() error {
	r := st.r
	s := r.Sess
	r.Pot, s.Carry = s.Carry, 0
	st.pay(playerSide, r.Config.Ante, "ante")
	st.pay(computerSide, r.Config.Ante, "ante")
	r.In = [2]int64{}
	r.Hands = [2][]card.Card{make([]card.Card, 0, 5), make([]card.Card, 0, 5)}
	r.Discards = [2][]card.Card{{}, {}}
	for i := range 10 {
		side := i % 2
		c, err := st.drawCard()
		if err != nil {
			return err
		}
		r.Hands[side] = append(r.Hands[side], c)
		st.emit(game.Event{Kind: game.CardDealt, Hand: handIndex(side), Card: c, Index: i / 2, FaceDown: side == computerSide})
	}
	r.Phase = PhaseBet1
	r.Turn = r.First
	return nil
}

// handIndex is the event Hand of a side: 0 for the player, game.Dealer for the computer.
func handIndex(side int) int {
	if side == computerSide {
		return game.Dealer
	}
	return 0
}

// bet applies a betting action of side.
func (st *step) bet(side int, k game.ActionKind, amount int64) error {
	r := st.r
	if !slices.Contains(r.options(side), k) {
		return game.Illegal(k, "not legal for the %s now", whoNames[side])
	}
	owed := r.In[1-side] - r.In[side]
	if k == game.Open || k == game.Raise {
		lo, hi := r.betRange(side, k == game.Raise)
		if amount < lo || amount > hi {
			return game.Illegal(k, "amount %d outside %d..%d chips", amount, lo, hi)
		}
	} else if amount != 0 {
		return game.Illegal(k, "takes no amount (got %d)", amount)
	}
	round := 1
	if r.Phase == PhaseBet2 {
		round = 2
	}
	put := int64(0)
	switch k {
	case game.Open:
		put = amount
	case game.Raise:
		put = owed + amount
		r.Raises++
	case game.Change, game.See:
		put = owed
	}
	st.pay(side, put, string(k))
	r.Moves = append(r.Moves, Move{Round: round, Who: whoNames[side], Kind: k, Amount: put})
	st.emit(game.Event{Kind: game.Note, Who: whoNames[side], Text: string(k), Amount: money.Cents(put)})
	r.Acted++
	switch k {
	case game.Pass:
		st.settle(1-side, "pass")
	case game.Change:
		st.startDraw()
	case game.See:
		st.showdown()
	default: // Open, Wait, Raise: the other speaks
		r.Turn = 1 - side
	}
	return nil
}

func (st *step) startDraw() {
	r := st.r
	r.Phase, r.Turn = PhaseDraw, r.First
	r.In, r.Raises, r.Acted = [2]int64{}, 0, 0
}

// draw exchanges the cards of side at positions (distinct, 0–4).
func (st *step) draw(side int, positions []int) error {
	r := st.r
	seen := [5]bool{}
	for _, p := range positions {
		if p < 0 || p > 4 || seen[p] {
			return game.Illegal(game.Draw, "positions %v: want distinct positions 0-4", positions)
		}
		seen[p] = true
	}
	if r.Phase != PhaseDraw || r.Turn != side {
		return game.Illegal(game.Draw, "not the %s's draw", whoNames[side])
	}
	sorted := slices.Sorted(slices.Values(positions))
	for _, p := range sorted {
		old := r.Hands[side][p]
		r.Discards[side] = append(r.Discards[side], old)
		ev := game.Event{Kind: game.Discarded, Hand: handIndex(side), Index: p, Who: whoNames[side]}
		if side == playerSide {
			ev.Card = old
		}
		st.emit(ev)
	}
	for _, p := range sorted {
		c, err := st.drawCard()
		if err != nil {
			return err
		}
		r.Hands[side][p] = c
		st.emit(game.Event{Kind: game.CardDealt, Hand: handIndex(side), Card: c, Index: p, FaceDown: side == computerSide})
	}
	r.Drew[side] = len(positions)
	if r.Drew[1-side] < 0 {
		r.Turn = 1 - side
		return nil
	}
	r.Phase, r.Turn = PhaseBet2, r.First
	return nil
}

func (st *step) showdown() {
	r := st.r
	r.Showdown = true
	for i, c := range r.Hands[computerSide] {
		st.emit(game.Event{Kind: game.Reveal, Hand: game.Dealer, Index: i, Card: c})
	}
	vp := poker.Eval([5]card.Card(r.Hands[playerSide]), r.short())
	vc := poker.Eval([5]card.Card(r.Hands[computerSide]), r.short())
	r.Values = [2]string{vp.Category().String(), vc.Category().String()}
	switch {
	case vp > vc:
		st.settle(playerSide, vp.Category().String())
	case vc > vp:
		st.settle(computerSide, vc.Category().String())
	default:
		st.settle(-1, vp.Category().String())
	}
}

// settle ends the deal: winner (or -1 for identical hands) takes the pot,
// then the outfit and the session's end are settled.
func (st *step) settle(winner int, why string) {
	r := st.r
	s := r.Sess
	switch winner {
	case -1:
		s.Carry = r.Pot
		r.Outcome, r.Message = game.Push, "duel.carry"
		st.emit(game.Event{Kind: game.Chips, Amount: money.Cents(r.Pot), Text: "carry"})
	default:
		*s.stack(winner) += r.Pot
		st.emit(game.Event{Kind: game.Chips, Who: whoNames[winner], Amount: money.Cents(r.Pot), Text: "pot"})
		r.Outcome, r.Message = game.Lose, "duel.computer_wins"
		if winner == playerSide {
			r.Outcome, r.Message = game.Win, "duel.player_wins"
		}
	}
	r.Pot = 0
	st.emit(game.Event{Kind: game.Result, Hand: 0, Outcome: r.Outcome, Text: why})
	st.outfit()
	cfg := r.Config
	switch {
	case s.PlayerStack < cfg.Ante:
		s.Over, s.PlayerWon = true, false
		r.Message = "duel.session_lost"
	case s.ComputerStack < cfg.Ante && len(s.Worn) == 0:
		if s.Pawned != "" {
			st.takeOff()
		}
		s.Over, s.PlayerWon = true, true
		r.Message = "duel.session_won"
	}
	if s.Over {
		st.emit(game.Event{Kind: game.Note, Text: r.Message})
	}
	s.Deals++
	s.PlayerFirst = r.First != playerSide
	r.Phase, r.Turn = PhaseOver, playerSide
	st.emit(game.Event{Kind: game.Over})
}

// outfit applies the end-of-deal outfit rules: a pawned item whose chips are
// lost (the stack is back at or below what it was before the pawn) comes
// off; above the buy-back threshold the computer redeems the pawned item or
// buys back the last item taken off.
func (st *step) outfit() {
	r := st.r
	s, cfg := r.Sess, r.Config
	if s.Pawned != "" && s.ComputerStack <= s.PawnFloor {
		st.takeOff()
	}
	if s.ComputerStack <= cfg.BuyBack {
		return
	}
	var item string
	switch {
	case s.Pawned != "":
		item, s.Pawned, s.PawnFloor = s.Pawned, "", 0
	case len(s.Lost) > 0:
		item = s.Lost[len(s.Lost)-1]
		s.Lost = s.Lost[:len(s.Lost)-1]
	default:
		return
	}
	s.Worn = append([]string{item}, s.Worn...)
	s.ComputerStack -= cfg.PawnValue
	s.Chips -= cfg.PawnValue
	st.emit(game.Event{Kind: game.Chips, Who: WhoComputer, Amount: money.Cents(cfg.PawnValue), Text: "buyback:" + item})
}
