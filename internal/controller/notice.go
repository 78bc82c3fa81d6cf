package controller

import (
	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// Notices: why an input was refused, as Snapshot.Message carries it to the
// screen (the display translates "msg."+notice). Nothing is refused in
// silence (platform.md §7): a refused bet, bill or key turn names one of
// these, derived from the cabinet's state and the input, never from an
// error's text.
const (
	NoticeMinBet         = "min_bet"            // a main or side bet below its table minimum
	NoticeMaxBet         = "max_bet"            // BET+ on a position at its table maximum
	NoticeFunds          = "funds"              // the bets would exceed the credits
	NoticeSideNeedsMain  = "side_needs_main"    // a side bet on a spot without a main bet
	NoticeRoyalNeedsBoth = "royal_needs_both"   // the Royal Poker bet without both spots bet
	NoticeNoBet          = "no_bet"             // DEAL with no bet and none to repeat
	NoticeCreditLimit    = "credit_limit_bill"  // a bill returned: it would pass the credit limit
	NoticeBillInhibited  = "bill_inhibited"     // a bill returned: the acceptor is off (tilt, handpay, audit, operator)
	NoticeBillJammed     = "bill_jammed"        // a bill returned: the acceptor is jammed
	NoticeBillRefused    = "bill_refused"       // a bill returned by the acceptor (not a bill it takes)
	NoticeBillError      = "bill_error"         // the acceptor's signal was no bill: nothing credited, call an attendant
	NoticeOperatorRound  = "operator_mid_round" // the operator key turned while a round or a handpay is pending
	NoticeResetInAudit   = "reset_in_audit"     // the reset key turned on a pending handpay while the audit key is on
	NoticeDuelNoCards    = "duel_no_cards"      // Poker Duel's card cursor or mark with no cards dealt
	NoticeResultShown    = "result_shown"       // DEAL or REBET while the last result stays on screen its minimum time
	// Why a button is unlit during a blackjack round (playNotice).
	NoticeRoundInPlay      = "round_in_play"      // a betting or leaving button while a round is played
	NoticeInsuranceFirst   = "insurance_first"    // a play before the insurance question is answered
	NoticeNoInsurance      = "no_insurance"       // YES/NO with no insurance question asked
	NoticeDoubleTwoCards   = "double_two_cards"   // DOUBLE on a hand of more than two cards
	NoticeDoubleAfterSplit = "double_after_split" // DOUBLE on a split hand where the table forbids it
	NoticeDouble10or11     = "double_10_11"       // DOUBLE on a total other than 10 or 11 (Royal Poker)
	NoticeSplitTwoCards    = "split_two_cards"    // SPLIT on a hand of more than two cards
	NoticeSplitPair        = "split_pair"         // SPLIT on two cards of different values
	NoticeSplitZapped      = "split_zapped"       // SPLIT on a zapped hand
	NoticeSplitMax         = "split_max"          // SPLIT beyond the table's hands per spot
	NoticeNoSurrender      = "no_surrender"       // SURRENDER at a table without it
	NoticeSurrenderFirst   = "surrender_first"    // SURRENDER after the first decision
	NoticeZapFirst         = "zap_first"          // ZAPPIT after the first action or on a split hand
	NoticeZapTotal         = "zap_total"          // ZAPPIT on a total other than a hard 15 to 18
	NoticeNoSpecial        = "no_special"         // SPECIAL at a game without one
	// Why a button is unlit on a screen where it does nothing
	// (explainUnlit): what the screen's buttons do, or what stops play.
	NoticeTiltPrefix   = "tilt_"         // + the tilt's reason key (tilt_main_door…): play stops until it is cleared
	NoticeHandpayWait  = "handpay_wait"  // a handpay is pending: the attendant's reset key
	NoticeAttractKey   = "attract_key"   // no credits: insert a bill
	NoticeMenuKey      = "menu_key"      // the menu: SPOT/BET+ pick a game, DEAL opens it
	NoticeHelpKey      = "help_key"      // help: SPOT/BET+ next page, HELP back
	NoticeAuditKey     = "audit_key"     // the audit screens: their own buttons only
	NoticeOperatorKeys = "operator_keys" // the operator menu: its own buttons only
	NoticeDraftRefused = "draft_refused" // YES on an operator draft refused on screen (its reason shown)
	// YES on an operator draft whose return is still being computed
	// (draftreturn.go).
	NoticeReturnComputing = "return_computing"
	NoticeDuelNotMove     = "duel_not_move" // Poker Duel: not a move open at this point of the deal
	NoticeNoRound         = "no_round"      // a play button between rounds: bet and DEAL first
	// A lit entry whose action failed (the table foresaw no refusal: a
	// bug the model tests look for, or a store failure): the event log or
	// the program log says why.
	NoticeStepFailed = "step_failed"

	// A play button between rounds when DEAL would deal (panel.go's
	// betweenRounds): the notice says what is true now, not "bet first".
	NoticeDealAgain = "deal_again" // no bet placed: DEAL repeats the last round's bets
	NoticeDealBets  = "deal_bets"  // bets placed: DEAL plays them
	// Poker Duel: DRAW during the betting before the draw.
	NoticeDuelBetFirst = "duel_bet_first"
)

// refusal is the message the next snapshot shows for input in, handled
// with result err, with committed state cs, screen u and settings set: the reason of a refusal, or none once an input is
// accepted. Set by Handle before it publishes. A button's reason is its
// table entry's (panel.go): decided once, with the lamp.
func refusal(cs state, u *screen, set *InForce, in hw.Input, err error) string {
	switch in.Kind {
	case hw.BillRefused:
		// As acceptance decides (billNotice); a bill it would take was
		// the acceptor's own refusal.
		if n := billNotice(cs, set, u.mode, in.Value); n != "" {
			return n
		}
		return NoticeBillRefused
	case hw.BillError:
		return NoticeBillError
	case hw.BillStacked:
		if in.Value <= 0 { // a stacked bill without a value: nothing credited (billStacked)
			return NoticeBillError
		}
		return ""
	case hw.SwitchChanged:
		if in.Switch == hw.OperatorKey && in.On && u.mode != view.Operator {
			return NoticeOperatorRound
		}
		if in.Switch == hw.ResetKey && in.On && cs.m.Handpay > 0 && cs.memErr == nil && cs.switches[hw.AuditKey] {
			return NoticeResetInAudit // the handpay is not paid from the audit screens (switchChanged)
		}
		if in.Switch == hw.ResetKey && !in.On && u.message == NoticeResetInAudit {
			return u.message // the key springs back: the reason stays until the next input
		}
		return ""
	case hw.ButtonPressed:
		return buttonNotice(err) // the pressed entry's own reason (panel.go)
	}
	return ""
}
