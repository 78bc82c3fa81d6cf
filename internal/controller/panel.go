package controller

import (
	"errors"
	"fmt"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/view"
)

// entry is one button of a screen's table: what it does when lit (do), and
// why a press is refused when it is not (why, a notice; explainUnlit gives
// every unlit entry one). The lamp, the acceptance of a press and the refusal notice
// all come from the entry, so they cannot disagree (platform.md §5: a lamp
// "lit exactly when its action is legal"; §7: nothing refused in silence).
type entry struct {
	do  func() error
	why string
	// reveal: unlit because the step on screen is still being revealed; a
	// press is consumed and finishes the reveal (shown.go).
	reveal bool
}

// panel is the button table of one screen, built by one builder per mode
// below from the committed state and the screen state.
type panel [hw.NumButtons]entry

// set lights button b: a press runs f.
func (p *panel) set(b hw.Button, f func() error) { p[b] = entry{do: f} }

// setPlay lights button b for f, an action on the round or the credits
// (a step, a draw mark, a cash-out), unless play is stopped (stopped):
// then b is unlit and a press says why.
func (p *panel) setPlay(b hw.Button, stop string, f func() error) {
	if stop != "" {
		p.refuse(b, stop)
		return
	}
	p.set(b, f)
}

// refuse leaves button b unlit, a press refused with notice why.
func (p *panel) refuse(b hw.Button, why string) { p[b] = entry{why: why} }

// lit is the set of buttons with an action.
func (p *panel) lit() hw.ButtonSet {
	var s hw.ButtonSet
	for b, e := range p {
		if e.do != nil {
			s = s.With(hw.Button(b))
		}
	}
	return s
}

// notLit is the refusal of a press on an unlit button: it wraps ErrNotNow
// and carries the entry's notice.
type notLit struct {
	button hw.Button
	mode   view.Mode
	notice string
}

func (e *notLit) Error() string {
	return ErrNotNow.Error() + ": " + e.button.String() + " is not lit in " + string(e.mode)
}

func (e *notLit) Unwrap() error { return ErrNotNow }

// buttonNotice is the notice of a button press handled with result err:
// the refused entry's, none for an accepted press. A lit press that failed
// (which the table should have foreseen) names what it can: the credits,
// the store's failure (its tilt), else that the step failed.
func buttonNotice(err error) string {
	var nl *notLit
	switch {
	case consumed(err):
		return "" // the reveal finishing at once is the answer on screen
	case errors.As(err, &nl):
		return nl.notice
	case err == nil:
		return ""
	case errors.Is(err, ErrMemory):
		return NoticeTiltPrefix + "memory_error"
	case errors.Is(err, game.ErrFunds):
		return NoticeFunds
	}
	return NoticeStepFailed
}

// shown is the screen the cabinet shows over the screen's own mode: the
// audit screens while the audit key is on, else a tilt, else a pending
// handpay.
func (u *screen) shown(cs state) view.Mode {
	switch {
	case cs.switches[hw.AuditKey]:
		return view.Audit
	case len(cs.tilts()) > 0:
		return view.Tilt
	case cs.m.Handpay > 0:
		return view.Handpay
	}
	return u.mode
}

// build is the button table of the screen shown with committed state cs
// (and the audit page's data pg).
func (u *screen) build(cs state, pg pages) (p panel) {
	defer u.explainUnlit(cs, &p) // p is the result: the reasons go with it
	switch u.shown(cs) {
	case view.Tilt, view.Handpay: // every lamp off: an attendant is needed
	case view.Audit:
		u.auditPanel(cs, pg, &p)
	case view.Operator:
		u.operatorPanel(&p)
	case view.Attract:
		p.set(hw.Help, u.openHelp)
	case view.Help:
		u.helpPanel(cs, &p)
	case view.Menu:
		u.menuPanel(cs, &p)
	case view.Table:
		switch {
		case u.revealing():
			revealPanel(&p)
		case u.game == game.Duel:
			u.duelPanel(cs, &p)
		case cs.open != nil:
			u.roundPanel(cs, &p)
		default:
			u.bettingPanel(cs, &p)
		}
		if cs.open == nil {
			u.holdResult(&p)
		}
	}
	return p
}

// explainUnlit gives every unlit button of p that has no reason of its own
// the screen's: what the screen's buttons do, or what stops play (a tilt by
// name, a handpay). No press is refused with a bare "not now".
func (u *screen) explainUnlit(cs state, p *panel) {
	var why string
	switch mode := u.shown(cs); mode {
	case view.Tilt:
		why = NoticeTiltPrefix + cs.tilts()[0]
	case view.Handpay:
		why = NoticeHandpayWait
	case view.Attract:
		why = NoticeAttractKey
	case view.Menu:
		why = NoticeMenuKey
	case view.Help:
		why = NoticeHelpKey
	case view.Audit:
		why = NoticeAuditKey
	case view.Operator:
		why = NoticeOperatorKeys
	case view.Table:
		switch {
		case u.game == game.Duel:
			why = NoticeDuelNotMove
		case cs.open == nil:
			why = u.betweenRounds(p)
		default:
			why = NoticeRoundInPlay
		}
	default:
		return
	}
	for b := range p {
		if e := &p[b]; e.do == nil && !e.reveal && e.why == "" {
			e.why = why
		}
	}
}

// betweenRounds is why a play button is unlit at a blackjack table between
// rounds, as true now (issue 35: "bet and DEAL" was said with the bet on
// the table): the last result is still held on screen, DEAL would deal the
// bets placed or the last round's again, or nothing is bet yet. p is the
// table as built: DEAL's entry is final.
func (u *screen) betweenRounds(p *panel) string {
	switch {
	case u.holding():
		return NoticeResultShown
	case p[hw.Deal].do != nil && len(u.bets) > 0:
		return NoticeDealBets
	case p[hw.Deal].do != nil:
		return NoticeDealAgain
	}
	return NoticeNoRound
}

// press handles a debounced button press: the entry of the table last
// published (the one the lamps show; nothing changed since), or its
// refusal.
func (u *screen) press(cs state, b hw.Button) error {
	e := u.panel[b]
	if e.reveal {
		u.hurry++
		return fmt.Errorf("%w: %s pressed in %s", ErrRevealing, b, u.shown(cs))
	}
	if e.do == nil {
		return &notLit{button: b, mode: u.shown(cs), notice: e.why}
	}
	return e.do()
}

func (u *screen) openHelp() error {
	u.mode, u.helpFrom, u.helpPage = view.Help, u.mode, 0
	return nil
}

// auditPanel: SPOT cycles the pages; on the recall page HIT/STAND go to
// the older/newer round and DOUBLE/SPLIT a step forward/back, on the
// events page HIT/STAND to the older/newer page; YES is the memory clear
// with a memory error and the reset key on. A button is lit only where it
// acts (issue 35: HIT, STAND, DOUBLE and SPLIT were lit on every page and
// did nothing on most), each only when there is somewhere to go: no older
// round, no step back, no newer page leave it unlit.
func (u *screen) auditPanel(cs state, pg pages, p *panel) {
	c := u.c
	p.set(hw.Spot, func() error {
		u.auditPage = (u.auditPage + 1) % len(auditPages)
		u.recallIdx, u.recallStep, u.eventPage = 0, -1, 0
		if auditPages[u.auditPage] == "selftest" {
			u.checks = c.selfChecks(cs)
		}
		return c.recallShown()
	})
	switch auditPages[u.auditPage%len(auditPages)] {
	case "events":
		if u.eventPage+1 < eventPages(len(pg.events)) {
			p.set(hw.Hit, func() error { u.eventPage++; return nil })
		}
		if u.eventPage > 0 {
			p.set(hw.Stand, func() error { u.eventPage--; return nil })
		}
	case "recall":
		u.recallPanel(pg.recall, p)
	}
	if cs.memErr != nil && cs.switches[hw.ResetKey] {
		p.set(hw.Yes, c.memoryClear)
	}
}

// recallPanel lights the recall page's buttons over the rounds recs
// (newest first): HIT the older round, STAND the newer, DOUBLE the next
// step of the round shown (from its last step, which the page opens on,
// its first), SPLIT the one before.
func (u *screen) recallPanel(recs []meters.Recall, p *panel) {
	c := u.c
	if len(recs) == 0 {
		return
	}
	idx := min(u.recallIdx, len(recs)-1)
	if idx+1 < len(recs) {
		p.set(hw.Hit, func() error { u.recallIdx = idx + 1; u.recallStep = -1; return c.recallShown() })
	}
	if idx > 0 {
		p.set(hw.Stand, func() error { u.recallIdx = idx - 1; u.recallStep = -1; return c.recallShown() })
	}
	n := len(recs[idx].Steps)
	step := u.recallStep // the step shown: RecallPicture's, the last by default
	if step < 0 || step >= n {
		step = n - 1
	}
	if n > 1 {
		p.set(hw.Double, func() error { u.recallStep = (step + 1) % n; return nil })
	}
	if step > 0 {
		p.set(hw.Split, func() error { u.recallStep = step - 1; return nil })
	}
}

// operatorPanel: HIT / STAND move the cursor, BET+ drafts the next allowed
// value, YES saves the draft, NO drops it.
func (u *screen) operatorPanel(p *panel) {
	c := u.c
	if c.opt.Operator == nil {
		return
	}
	for _, b := range []hw.Button{hw.Hit, hw.Stand, hw.Spot, hw.BetPlus} {
		p.set(b, func() error { return c.operatorButton(b) })
	}
	if u.opDraft != "" {
		switch {
		case u.opRTP != nil && u.opRTP.Computing:
			p.refuse(hw.Yes, NoticeReturnComputing) // draftreturn.go
		case (u.opRTP == nil || !u.opRTP.Refused) && u.opError == nil:
			p.set(hw.Yes, func() error { return c.operatorButton(hw.Yes) })
		default:
			p.refuse(hw.Yes, NoticeDraftRefused)
		}
		p.set(hw.No, func() error { return c.operatorButton(hw.No) })
	}
}

// helpPanel: SPOT/BET+ next page; HELP and GAME back where help was opened
// from; DEAL to the table (only with credits or a round open: platform.md §1).
func (u *screen) helpPanel(cs state, p *panel) {
	next := func() error { u.helpPage++; return nil }
	back := func() error {
		// Where help was opened from: a table stays a table (a Poker Duel
		// session between deals too), the menu while there are credits.
		u.mode = idleMode(cs)
		if u.helpFrom == view.Table && (cs.m.Credits > 0 || duelSessionOpen(cs)) {
			u.mode = view.Table
		}
		return nil
	}
	p.set(hw.Spot, next)
	p.set(hw.BetPlus, next)
	p.set(hw.Help, back)
	p.set(hw.Game, back)
	if cs.m.Credits > 0 || cs.open != nil {
		p.set(hw.Deal, func() error { u.mode = view.Table; return nil })
	}
}

// menuPanel: SPOT/BET+ next game, DEAL to its table, HELP, CASH OUT.
func (u *screen) menuPanel(cs state, p *panel) {
	c := u.c
	nextGame := func() error {
		// From the game highlighted, whatever put it there (a resumed
		// round, the operator's changes to the list): the highlight and
		// SPOT never disagree (issue 26). Not on the list: the first.
		u.game = c.set.Games[(slices.Index(c.set.Games, u.game)+1)%len(c.set.Games)]
		return nil
	}
	p.set(hw.Spot, nextGame)
	p.set(hw.BetPlus, nextGame)
	p.set(hw.Deal, func() error {
		if err := c.gameSelected(); err != nil {
			return err
		}
		u.mode = view.Table
		u.pos, u.duelAmount = 0, 0
		u.clearBets()
		return nil
	})
	p.set(hw.Help, u.openHelp)
	if cs.m.Credits > 0 {
		p.setPlay(hw.CashOut, stopped(cs, u.mode), c.cashOut)
	}
}

// toMenu leaves a table between rounds.
func (u *screen) toMenu(cs state) func() error {
	return func() error {
		u.clearBets()
		u.mode = idleMode(cs)
		if u.mode == view.Table {
			u.mode = view.Menu
		}
		return nil
	}
}

// bettingPanel: the table between rounds (a blackjack game). Every unlit
// betting button says why: the host's lock-out for DEAL and REBET, the
// position's maximum or the credits for BET+ and YES, no bet for NO and
// CLEAR, and the engine's own deal check (blackjack.CheckDeal, run once per
// set of bets) for DEAL and REBET.
func (u *screen) bettingPanel(cs state, p *panel) {
	c := u.c
	rules := c.set.Rules[u.game]
	stop := stopped(cs, u.mode)
	p.set(hw.Spot, func() error {
		if n := len(positions(rules)); n > 0 {
			u.pos = (u.pos + 1) % n
		}
		return nil
	})
	p.set(hw.Special, func() error { u.chip = (u.chip + 1) % len(c.set.Chips); return nil })
	p.set(hw.Help, u.openHelp)
	p.set(hw.Game, u.toMenu(cs))
	if cs.m.Credits > 0 {
		p.setPlay(hw.CashOut, stop, c.cashOut)
	}
	if chip, why := u.nextChip(cs); why == "" {
		p.set(hw.BetPlus, func() error {
			u.undo = append(u.undo, chip)
			u.bets = mergeBets(u.undo)
			return nil
		})
	} else {
		p.refuse(hw.BetPlus, why)
	}
	if mx, why := u.maxChip(cs); why == "" {
		p.set(hw.Yes, func() error { // max bet on the selected position
			u.undo = append(u.undo, mx)
			u.bets = mergeBets(u.undo)
			return nil
		})
	} else {
		p.refuse(hw.Yes, why)
	}
	if n := len(u.undo); n > 0 {
		p.set(hw.Clear, func() error { // the last chip back
			u.undo = u.undo[:n-1]
			u.bets = mergeBets(u.undo)
			return nil
		})
		p.set(hw.No, func() error { // every bet back
			u.clearBets()
			return nil
		})
	} else {
		p.refuse(hw.Clear, NoticeNoBet)
		p.refuse(hw.No, NoticeNoBet)
	}

	// The deal check, once per set of bets: the last bets (REBET, and DEAL
	// with none placed) and the bets placed.
	prev := u.lastBets[u.game]
	prevWhy := NoticeNoBet
	if len(prev) > 0 {
		prevWhy = dealNotice(blackjack.CheckDeal(rules, prev, cs.m.Credits))
	}
	bets, why := u.bets, prevWhy
	if len(bets) == 0 {
		bets = prev
	} else {
		why = dealNotice(blackjack.CheckDeal(rules, bets, cs.m.Credits))
	}
	host := hostNotice(cs, u.game)
	switch {
	case prevWhy == "": // REBET only places the bets: lit under a lock-out too
		p.set(hw.Rebet, func() error {
			u.undo = append([]game.Bet(nil), prev...)
			u.bets = mergeBets(u.undo)
			return nil
		})
	case host != "":
		p.refuse(hw.Rebet, host)
	default:
		p.refuse(hw.Rebet, why) // as DEAL says: why the bets on the table cannot be dealt
	}
	switch {
	case stop != "":
		p.refuse(hw.Deal, stop)
		return
	case host != "":
		p.refuse(hw.Deal, host)
		return
	case why != "":
		p.refuse(hw.Deal, why)
		return
	}
	p.set(hw.Deal, func() error {
		if err := c.play(game.Action{Kind: game.Deal, Bets: bets}); err != nil {
			return err
		}
		u.lastBets[u.game] = append([]game.Bet(nil), bets...)
		u.clearBets()
		return nil
	})
}

// dealNotice is the notice of the engine's deal check's result ("" for
// nil).
func dealNotice(err error) string {
	var de *blackjack.DealError
	if err == nil {
		return ""
	}
	if !errors.As(err, &de) {
		return NoticeStepFailed
	}
	switch de.Reason {
	case blackjack.DealNoBet:
		return NoticeNoBet
	case blackjack.DealBelowMin:
		return NoticeMinBet
	case blackjack.DealAboveMax:
		return NoticeMaxBet
	case blackjack.DealSideNeedsMain:
		return NoticeSideNeedsMain
	case blackjack.DealRoyalNeedsBoth:
		return NoticeRoyalNeedsBoth
	case blackjack.DealFunds:
		return NoticeFunds
	}
	return NoticeStepFailed
}

// roundPanel: a blackjack round in progress: each lit button is a legal
// action (ActionFor), and HELP.
func (u *screen) roundPanel(cs state, p *panel) {
	c := u.c
	stop := stopped(cs, u.mode)
	p.set(hw.Help, u.openHelp)
	legal := cs.round.Legal(cs.m.Credits)
	for b := range hw.NumButtons {
		if k, ok := ActionFor(b, legal); ok {
			p.setPlay(b, stop, func() error { return c.play(game.Action{Kind: k}) })
		} else if p[b].do == nil {
			p.refuse(b, playNotice(cs, b, legal))
		}
	}
}

// playNotice is why button b is unlit during a blackjack round whose legal
// actions are legal: the engine's own reason (blackjack.Round.Why, the
// check Legal and Apply make), named (platform.md §7: "not now" is not a
// reason). A button standing for several actions (SPECIAL: zap or
// surrender; YES: even money or insurance) takes the reason of the one the
// game offers; none offered: NoticeNoSpecial.
func playNotice(cs state, b hw.Button, legal []game.ActionKind) string {
	r, ok := cs.round.(*blackjack.Round)
	if !ok {
		return NoticeRoundInPlay
	}
	kinds := blackjackButtons[b]
	if b == hw.Deal || len(kinds) == 0 { // a betting or leaving button
		if slices.Contains(legal, game.NoInsure) {
			return NoticeInsuranceFirst
		}
		return NoticeRoundInPlay
	}
	for _, k := range kinds {
		var pe *blackjack.PlayError
		if !errors.As(r.Why(k, cs.m.Credits), &pe) {
			continue
		}
		switch pe.Reason {
		case blackjack.PlayNoZap, blackjack.PlayNoSurrender, blackjack.PlayNoEvenMoney, blackjack.PlayEvenMoneyInstead:
			continue // the game offers the other action of the button
		case blackjack.PlayNotAPlay:
			if b == hw.Yes || b == hw.No {
				return NoticeNoInsurance // YES and NO answer the insurance question
			}
		}
		if n, ok := playNotices[pe.Reason]; ok {
			return n
		}
		return NoticeRoundInPlay
	}
	return NoticeNoSpecial
}

// playNotices are the notices of the engine's reasons.
var playNotices = map[blackjack.PlayReason]string{
	blackjack.PlayFunds:            NoticeFunds,
	blackjack.PlayInsuranceFirst:   NoticeInsuranceFirst,
	blackjack.PlayDoubleTwoCards:   NoticeDoubleTwoCards,
	blackjack.PlayDoubleAfterSplit: NoticeDoubleAfterSplit,
	blackjack.PlayDouble10or11:     NoticeDouble10or11,
	blackjack.PlaySplitTwoCards:    NoticeSplitTwoCards,
	blackjack.PlaySplitPair:        NoticeSplitPair,
	blackjack.PlaySplitZapped:      NoticeSplitZapped,
	blackjack.PlaySplitMax:         NoticeSplitMax,
	blackjack.PlaySurrenderFirst:   NoticeSurrenderFirst,
	blackjack.PlayZapFirst:         NoticeZapFirst,
	blackjack.PlayZapTotal:         NoticeZapTotal,
}
