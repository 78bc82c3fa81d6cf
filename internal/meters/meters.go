package meters

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"cabinet/internal/game"
	"cabinet/internal/money"
)

// Meters are the lifetime meters of platform.md §3. Every field is an
// integer: cents (money.Cents), a count, or pool units (1e-7 cent). They only
// grow; only a full memory clear resets them. The JSON names are stable (the
// store and `cabinet audit` use them).
type Meters struct {
	// TotalIn (coin in): every stake that left the credit meter.
	TotalIn money.Cents `json:"total_in"`
	// TotalWon (coin out): every payout credited, returned stakes included.
	// Handpaid wins are not in it (see JackpotHandpay).
	TotalWon money.Cents `json:"total_won"`
	// BillsIn (drop): the value of every bill stacked.
	BillsIn money.Cents `json:"bills_in"`
	// Bills counts the bills stacked per denomination; the key is the
	// denomination in cents as a decimal string ("500" for € 5).
	Bills map[string]int64 `json:"bills,omitempty"`
	// HandpayCancelled: credits paid by the attendant at cash out.
	HandpayCancelled money.Cents `json:"handpay_cancelled"`
	// JackpotHandpay: wins at or above the handpay limit, paid by the
	// attendant and never credited; JackpotHandpays counts them.
	JackpotHandpay  money.Cents `json:"jackpot_handpay"`
	JackpotHandpays int64       `json:"jackpot_handpays"`
	// ProgressiveContrib: contributions to the progressive pool, in pool
	// units (1e-7 cent). ProgressiveHits counts the prizes won and
	// ProgressivePaid their amount in cents (credited or handpaid).
	ProgressiveContrib int64       `json:"progressive_contrib_units"`
	ProgressiveHits    int64       `json:"progressive_hits"`
	ProgressivePaid    money.Cents `json:"progressive_paid"`
	// Rounds: Played at the deal; Won, Lost or Pushed when settled, by the
	// whole round (paid more, less, or exactly what was staked); Voided when
	// an abandoned round is refunded. Settled = Won + Lost + Pushed + Voided.
	Played int64 `json:"played"`
	Won    int64 `json:"won"`
	Lost   int64 `json:"lost"`
	Pushed int64 `json:"pushed"`
	Voided int64 `json:"voided"`
	// Games holds the meters per game.
	Games map[game.ID]*GameMeters `json:"games,omitempty"`
	// Door and key openings.
	MainDoor    int64 `json:"main_door"`
	CashDoor    int64 `json:"cash_door"`
	AuditKey    int64 `json:"audit_key"`
	OperatorKey int64 `json:"operator_key"`
	// PowerUps counts boots; Recoveries the boots that found a round open.
	PowerUps   int64 `json:"power_ups"`
	Recoveries int64 `json:"recoveries"`

	// Tickets (TITO; cashable tickets only, see tickets.go). TicketsIn:
	// tickets stacked and credited. TicketsIssued: cash-outs to a ticket,
	// debited from the credit meter when the ticket is recorded pending,
	// before it is printed. Each issued ticket ends printed (TicketsOut) or
	// voided by the attendant and paid by hand (TicketsVoided); the rest
	// (at most one ticket) is outstanding. Every amount has its count.
	TicketsIn          money.Cents `json:"tickets_in"`
	TicketsInCount     int64       `json:"tickets_in_count"`
	TicketsIssued      money.Cents `json:"tickets_issued"`
	TicketsIssuedCount int64       `json:"tickets_issued_count"`
	TicketsOut         money.Cents `json:"tickets_out"`
	TicketsOutCount    int64       `json:"tickets_out_count"`
	TicketsVoided      money.Cents `json:"tickets_voided"`
	TicketsVoidedCount int64       `json:"tickets_voided_count"`
}

// GameMeters are the meters of one game.
type GameMeters struct {
	Played  int64       `json:"played"`
	Wagered money.Cents `json:"wagered"`
	// Won is every payout of the game, credited or handpaid (a jackpot
	// handpay counts here and in JackpotHandpay, not in TotalWon).
	Won money.Cents `json:"won"`
	// Handpaid is the part of Won paid by the attendant (wins at or above
	// the handpay limit), counted when the round settles; the machine's
	// JackpotHandpay counts it when the attendant pays. Won − Handpaid is
	// the game's machine-paid coin out (SAS LP 52, LP 2F meter 01).
	Handpaid money.Cents `json:"handpaid,omitempty"`
	// Side: wagered and won per side bet (and "jackpot" for the
	// progressive prizes credited). Main bets, doubles, splits and
	// insurance are only in Wagered/Won.
	Side map[game.BetKind]*SideMeters `json:"side,omitempty"`
}

// SideMeters are the meters of one side bet of one game.
type SideMeters struct {
	Wagered money.Cents `json:"wagered"`
	Won     money.Cents `json:"won"`
}

// game returns the meters of g, created on first use.
func (m *Meters) game(g game.ID) *GameMeters {
	if m.Games == nil {
		m.Games = map[game.ID]*GameMeters{}
	}
	gm := m.Games[g]
	if gm == nil {
		gm = &GameMeters{}
		m.Games[g] = gm
	}
	return gm
}

func (gm *GameMeters) side(k game.BetKind) *SideMeters {
	if gm.Side == nil {
		gm.Side = map[game.BetKind]*SideMeters{}
	}
	s := gm.Side[k]
	if s == nil {
		s = &SideMeters{}
		gm.Side[k] = s
	}
	return s
}

// sideKind reports whether payouts/stakes of k are broken down in Side.
func sideKind(k game.BetKind) bool { return k.IsSide() || k == game.Jackpot }

// RoundStarted counts a round of g as played (called at the deal, in the
// transaction that commits it).
func (m *Meters) RoundStarted(g game.ID) {
	m.Played++
	m.game(g).Played++
}

// Step adds the money of one committed step of game g: every Stake to
// TotalIn and the game's (and side bet's) wagered meters, every Payout to
// TotalWon and the won meters. A Payout marked Handpay is not credited, so it
// stays out of TotalWon (the controller meters it as JackpotHandpay when
// cleared) but counts in the game's and side bet's Won: those measure what
// the game paid, however it was paid, so per-game RTP includes handpaid wins.
// JackpotWin events move no meter here: the controller resolves them into a
// Payout of bet "jackpot" and counts ProgressiveHits/ProgressivePaid itself.
// Negative amounts are a bug in the caller and panic.
func (m *Meters) Step(g game.ID, evs []game.Event) {
	for _, e := range evs {
		switch e.Kind {
		case game.Stake:
			if e.Amount < 0 {
				panic(fmt.Sprintf("BUG: meters: negative stake %d in %s", e.Amount, g))
			}
			m.TotalIn += e.Amount
			gm := m.game(g)
			gm.Wagered += e.Amount
			if sideKind(e.Bet) {
				gm.side(e.Bet).Wagered += e.Amount
			}
		case game.Payout:
			if e.Amount < 0 {
				panic(fmt.Sprintf("BUG: meters: negative payout %d in %s", e.Amount, g))
			}
			if !e.Handpay {
				m.TotalWon += e.Amount
			}
			gm := m.game(g)
			gm.Won += e.Amount
			if e.Handpay {
				gm.Handpaid += e.Amount
			}
			if sideKind(e.Bet) {
				gm.side(e.Bet).Won += e.Amount
			}
		}
	}
}

// RoundOver counts a settled round of g by its whole result: Won when it
// paid more than it took, Lost when less, Pushed when exactly the stake came
// back. staked and paid are the round's totals (handpaid wins included in
// paid: the player won them).
func (m *Meters) RoundOver(g game.ID, staked, paid money.Cents) {
	switch {
	case paid > staked:
		m.Won++
	case paid < staked:
		m.Lost++
	default:
		m.Pushed++
	}
}

// Expected returns the credit meter the money meters imply:
// BillsIn + TicketsIn − TotalIn + TotalWon − HandpayCancelled − TicketsIssued.
func (m *Meters) Expected() money.Cents {
	return m.BillsIn + m.TicketsIn - m.TotalIn + m.TotalWon - m.HandpayCancelled - m.TicketsIssued
}

// Check verifies the money invariant of platform.md §3 extended with
// tickets (issue 30: bills + tickets in = credits played + tickets out +
// handpays),
//
//	credits = BillsIn + TicketsIn − TotalIn + TotalWon − HandpayCancelled − TicketsIssued,
//
// where every ticket issued is printed, voided (handpaid) or outstanding:
//
//	TicketsIssued = TicketsOut + TicketsVoided + outstanding, 0 ≤ outstanding,
//
// with at most one ticket outstanding (its amount is the store's business:
// recovery checks it against the ticket record), and that no meter (nor
// the credit meter) is negative. Handpaid jackpots (JackpotHandpay) are
// outside the invariant: they were never credited.
func (m *Meters) Check(credits money.Cents) error {
	if credits < 0 {
		return fmt.Errorf("%w: credits %v", ErrNegative, credits)
	}
	for _, l := range m.Lines() {
		if l.Value < 0 {
			return fmt.Errorf("%w: %s = %d", ErrNegative, l.Name, l.Value)
		}
	}
	if want := m.Expected(); credits != want {
		return fmt.Errorf("%w: credits %v, meters say %v (bills in %v + tickets in %v − total in %v + total won %v − handpay cancelled %v − tickets issued %v)",
			ErrInvariant, credits, want, m.BillsIn, m.TicketsIn, m.TotalIn, m.TotalWon, m.HandpayCancelled, m.TicketsIssued)
	}
	if a, n := m.TicketsOutstanding(); a < 0 || n < 0 || n > 1 || (n == 0) != (a == 0) {
		return fmt.Errorf("%w: tickets issued %v (%d) − printed %v (%d) − voided %v (%d) leaves %v in %d ticket(s) outstanding, want nothing or one ticket",
			ErrInvariant, m.TicketsIssued, m.TicketsIssuedCount, m.TicketsOut, m.TicketsOutCount,
			m.TicketsVoided, m.TicketsVoidedCount, a, n)
	}
	return nil
}

// Clone returns a deep copy (the maps are not shared).
func (m *Meters) Clone() Meters {
	c := *m
	c.Bills = maps.Clone(m.Bills)
	if m.Games != nil {
		c.Games = make(map[game.ID]*GameMeters, len(m.Games))
		for id, gm := range m.Games {
			g := *gm
			if gm.Side != nil {
				g.Side = make(map[game.BetKind]*SideMeters, len(gm.Side))
				for k, s := range gm.Side {
					sc := *s
					g.Side[k] = &sc
				}
			}
			c.Games[id] = &g
		}
	}
	return c
}

// Units of a Line.
const (
	UnitCents     = "cents"
	UnitCount     = "count"
	UnitPoolUnits = "pool_units" // 1e-7 cent
)

// Line is one meter flattened for export and comparison: a stable dotted
// name ("total_in", "bills.500", "games.royal.side.21+3.won"), its value and
// its unit.
type Line struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
	Unit  string `json:"unit"`
}

// Lines flattens every meter in a stable order (fixed meters first, then
// bills by denomination, then games and side bets sorted by name). It is
// what `cabinet audit meters --csv` prints and what the crash harness compares.
func (m *Meters) Lines() []Line {
	c := func(n string, v money.Cents) Line { return Line{n, int64(v), UnitCents} }
	n := func(name string, v int64) Line { return Line{name, v, UnitCount} }
	out := []Line{
		c("total_in", m.TotalIn),
		c("total_won", m.TotalWon),
		c("bills_in", m.BillsIn),
		c("handpay_cancelled", m.HandpayCancelled),
		c("jackpot_handpay", m.JackpotHandpay),
		n("jackpot_handpays", m.JackpotHandpays),
		{"progressive_contrib", m.ProgressiveContrib, UnitPoolUnits},
		n("progressive_hits", m.ProgressiveHits),
		c("progressive_paid", m.ProgressivePaid),
		n("played", m.Played),
		n("won", m.Won),
		n("lost", m.Lost),
		n("pushed", m.Pushed),
		n("voided", m.Voided),
		n("main_door", m.MainDoor),
		n("cash_door", m.CashDoor),
		n("audit_key", m.AuditKey),
		n("operator_key", m.OperatorKey),
		n("power_ups", m.PowerUps),
		n("recoveries", m.Recoveries),
		c("tickets_in", m.TicketsIn),
		n("tickets_in_count", m.TicketsInCount),
		c("tickets_issued", m.TicketsIssued),
		n("tickets_issued_count", m.TicketsIssuedCount),
		c("tickets_out", m.TicketsOut),
		n("tickets_out_count", m.TicketsOutCount),
		c("tickets_voided", m.TicketsVoided),
		n("tickets_voided_count", m.TicketsVoidedCount),
	}
	denoms := slices.Collect(maps.Keys(m.Bills))
	slices.SortFunc(denoms, func(a, b string) int {
		x, _ := strconv.ParseInt(a, 10, 64)
		y, _ := strconv.ParseInt(b, 10, 64)
		if x != y {
			return int(min(max(x-y, -1), 1))
		}
		if a < b {
			return -1
		}
		return 0
	})
	for _, d := range denoms {
		out = append(out, n("bills."+d, m.Bills[d]))
	}
	ids := slices.Sorted(maps.Keys(m.Games))
	for _, id := range ids {
		gm := m.Games[id]
		p := "games." + string(id) + "."
		out = append(out, n(p+"played", gm.Played), c(p+"wagered", gm.Wagered), c(p+"won", gm.Won))
		for _, k := range slices.Sorted(maps.Keys(gm.Side)) {
			s := gm.Side[k]
			out = append(out, c(p+"side."+string(k)+".wagered", s.Wagered), c(p+"side."+string(k)+".won", s.Won))
		}
	}
	return out
}
