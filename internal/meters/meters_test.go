package meters

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"cabinet/internal/game"
	"cabinet/internal/money"
)

func TestStep(t *testing.T) {
	tests := []struct {
		name string
		evs  []game.Event
		want func(*Meters)
	}{
		{"main stake", []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 500}}, func(m *Meters) {
			m.TotalIn = 500
			m.Games = map[game.ID]*GameMeters{game.Classic: {Wagered: 500}}
		}},
		{"double and insurance count as wagered, not side", []game.Event{
			{Kind: game.Stake, Bet: game.DoubleBet, Amount: 500}, {Kind: game.Stake, Bet: game.Insurance, Amount: 250}}, func(m *Meters) {
			m.TotalIn = 750
			m.Games = map[game.ID]*GameMeters{game.Classic: {Wagered: 750}}
		}},
		{"side bet stake and win", []game.Event{
			{Kind: game.Stake, Bet: game.AnyPair, Amount: 100}, {Kind: game.Payout, Bet: game.AnyPair, Amount: 2600}}, func(m *Meters) {
			m.TotalIn, m.TotalWon = 100, 2600
			m.Games = map[game.ID]*GameMeters{game.Classic: {Wagered: 100, Won: 2600,
				Side: map[game.BetKind]*SideMeters{game.AnyPair: {Wagered: 100, Won: 2600}}}}
		}},
		{"jackpot payout is won and broken down", []game.Event{
			{Kind: game.JackpotWin, Percent: 10, Amount: 12345}, {Kind: game.Payout, Bet: game.Jackpot, Amount: 12345}}, func(m *Meters) {
			m.TotalWon = 12345
			m.Games = map[game.ID]*GameMeters{game.Classic: {Won: 12345,
				Side: map[game.BetKind]*SideMeters{game.Jackpot: {Won: 12345}}}}
		}},
		{"handpaid payout is not credited but is the game's win, handpaid", []game.Event{{Kind: game.Payout, Bet: game.Main, Amount: 500000, Handpay: true}}, func(m *Meters) {
			m.Games = map[game.ID]*GameMeters{game.Classic: {Won: 500000, Handpaid: 500000}}
		}},
		{"handpaid jackpot is the side bet's win", []game.Event{{Kind: game.Payout, Bet: game.Jackpot, Amount: 2000000, Handpay: true}}, func(m *Meters) {
			m.Games = map[game.ID]*GameMeters{game.Classic: {Won: 2000000, Handpaid: 2000000,
				Side: map[game.BetKind]*SideMeters{game.Jackpot: {Won: 2000000}}}}
		}},
		{"cards and results move nothing", []game.Event{{Kind: game.CardDealt}, {Kind: game.Result, Outcome: game.Win}, {Kind: game.Token, Amount: 500}}, func(m *Meters) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want Meters
			got.Step(game.Classic, tt.evs)
			tt.want(&want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Step(%v) mismatch (-want +got):\n%s", tt.evs, d)
			}
		})
	}
}

func TestRoundOver(t *testing.T) {
	tests := []struct {
		staked, paid    money.Cents
		won, lost, push int64
	}{
		{100, 200, 1, 0, 0}, {100, 0, 0, 1, 0}, {100, 100, 0, 0, 1}, {300, 150, 0, 1, 0}, {0, 0, 0, 0, 1},
	}
	for _, tt := range tests {
		var m Meters
		m.RoundOver(game.Royal, tt.staked, tt.paid)
		if m.Won != tt.won || m.Lost != tt.lost || m.Pushed != tt.push {
			t.Errorf("RoundOver(%v, %v) = won %d lost %d pushed %d, want %d %d %d", tt.staked, tt.paid, m.Won, m.Lost, m.Pushed, tt.won, tt.lost, tt.push)
		}
	}
}

func TestRoundStarted(t *testing.T) {
	var m Meters
	m.RoundStarted(game.Duel)
	m.RoundStarted(game.Duel)
	m.RoundStarted(game.Zappit)
	if m.Played != 3 || m.Games[game.Duel].Played != 2 || m.Games[game.Zappit].Played != 1 {
		t.Errorf("RoundStarted x3 = played %d, duel %d, zappit %d; want 3, 2, 1", m.Played, m.Games[game.Duel].Played, m.Games[game.Zappit].Played)
	}
}

func TestCheck(t *testing.T) {
	base := Meters{BillsIn: 10000, TotalIn: 3000, TotalWon: 2500, HandpayCancelled: 4000, JackpotHandpay: 999999}
	tests := []struct {
		name    string
		m       Meters
		credits money.Cents
		want    error
	}{
		{"balanced (jackpot handpay outside)", base, 5500, nil},
		{"one cent too many", base, 5501, ErrInvariant},
		{"one cent missing", base, 5499, ErrInvariant},
		{"negative credits", Meters{}, -1, ErrNegative},
		{"negative meter", Meters{TotalIn: -5, BillsIn: -5}, 0, ErrNegative},
		{"negative game meter", Meters{Games: map[game.ID]*GameMeters{game.Royal: {Won: -1}}}, 0, ErrNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.m.Check(tt.credits); !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Check(%v) = %v, want %v", tt.credits, err, tt.want)
			}
		})
	}
}

func TestCloneIsDeep(t *testing.T) {
	var m Meters
	m.Bills = map[string]int64{"500": 1}
	m.Step(game.Royal, []game.Event{{Kind: game.Stake, Bet: game.AnyPair, Amount: 1}})
	c := m.Clone()
	c.Bills["500"] = 9
	c.Games[game.Royal].Wagered = 9
	c.Games[game.Royal].Side[game.AnyPair].Wagered = 9
	if m.Bills["500"] != 1 || m.Games[game.Royal].Wagered != 1 || m.Games[game.Royal].Side[game.AnyPair].Wagered != 1 {
		t.Errorf("Clone shares maps with the original: %+v", m)
	}
}

func TestLinesStableAndComplete(t *testing.T) {
	var m Meters
	m.Bills = map[string]int64{"10000": 1, "500": 2, "2000": 3}
	m.Step(game.Royal, []game.Event{{Kind: game.Stake, Bet: game.TwentyOne, Amount: 1}})
	m.Step(game.Classic, []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 2}})
	ls := m.Lines()
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	wantTail := []string{"bills.500", "bills.2000", "bills.10000", "games.classic.played", "games.classic.wagered",
		"games.classic.won", "games.royal.played", "games.royal.wagered", "games.royal.won",
		"games.royal.side.21+3.wagered", "games.royal.side.21+3.won"}
	if d := cmp.Diff(wantTail, names[len(names)-len(wantTail):]); d != "" {
		t.Errorf("Lines() names tail mismatch (-want +got):\n%s", d)
	}
	// Every scalar JSON field of Meters appears in Lines (nothing forgotten).
	b, _ := json.Marshal(Meters{})
	var fields map[string]any
	_ = json.Unmarshal(b, &fields)
	if got, want := len(ls)-len(wantTail), len(fields); got != want {
		t.Errorf("Lines() has %d fixed meters, Meters has %d JSON fields", got, want)
	}
}

// TestConservationProperty: random sequences of bills, rounds (stakes and
// payouts, some handpaid), cash-outs and voids keep the invariant when the
// credit meter moves exactly as the controller moves it.
func TestConservationProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m Meters
		var credits, handpaid, handpaidAll money.Cents
		ops := rapid.IntRange(1, 60).Draw(t, "ops")
		for range ops {
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0: // bill
				v := money.Cents(rapid.SampledFrom([]int64{500, 1000, 2000, 5000}).Draw(t, "bill"))
				m.BillsIn += v
				credits += v
			case 1: // a round of several steps
				g := rapid.SampledFrom(game.IDs).Draw(t, "game")
				m.RoundStarted(g)
				var staked, paid money.Cents
				for range rapid.IntRange(1, 5).Draw(t, "steps") {
					var evs []game.Event
					for range rapid.IntRange(0, 4).Draw(t, "events") {
						kind := rapid.SampledFrom([]game.BetKind{game.Main, game.DoubleBet, game.AnyPair, game.RoyalSide, game.Jackpot}).Draw(t, "bet")
						if rapid.Bool().Draw(t, "stake") && kind != game.Jackpot {
							a := money.Cents(rapid.Int64Range(0, int64(credits)).Draw(t, "amount"))
							credits -= a
							staked += a
							evs = append(evs, game.Event{Kind: game.Stake, Bet: kind, Amount: a})
						} else {
							a := money.Cents(rapid.Int64Range(0, 100000).Draw(t, "payout"))
							hp := a >= 80000
							if hp {
								handpaid += a
								handpaidAll += a
							} else {
								credits += a
							}
							paid += a
							evs = append(evs, game.Event{Kind: game.Payout, Bet: kind, Amount: a, Handpay: hp})
						}
					}
					m.Step(g, evs)
					if err := m.Check(credits); err != nil {
						t.Fatalf("Check(%v) after a step = %v", credits, err)
					}
				}
				m.RoundOver(g, staked, paid)
			case 2: // cash out cleared by the attendant
				m.HandpayCancelled += credits
				credits = 0
			case 3: // jackpot handpay cleared
				m.JackpotHandpay += handpaid
				handpaid = 0
			}
			if err := m.Check(credits); err != nil {
				t.Fatalf("Check(%v) = %v", credits, err)
			}
			if m.Won+m.Lost+m.Pushed > m.Played {
				t.Fatalf("settled %d > played %d", m.Won+m.Lost+m.Pushed, m.Played)
			}
		}
		// Per-game meters add up to the totals: the games' won meters count
		// handpaid wins too, the credited total won does not.
		var in, won money.Cents
		for _, gm := range m.Games {
			in += gm.Wagered
			won += gm.Won
		}
		if in != m.TotalIn || won != m.TotalWon+handpaidAll {
			t.Fatalf("games sum to in %v won %v, totals %v %v + handpaid %v", in, won, m.TotalIn, m.TotalWon, handpaidAll)
		}
	})
}
