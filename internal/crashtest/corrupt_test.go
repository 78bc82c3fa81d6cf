package crashtest

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

var corruptCases = flag.Int("corrupt", 200, "corruption cases of TestCorruption")

// buildStore writes a realistic store without the cabinet binary: bills,
// rounds with cards and payouts in a full recall ring, events, an open round
// with a shoe, carried state and an override.
func buildStore(t *testing.T, path string, rounds int) {
	t.Helper()
	st, err := recovery.Open(path, recovery.Options{Init: true, RecallDepth: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	shoe := card.NewShoe(6)
	for r := 1; r <= rounds; r++ {
		err := st.Update(func(tx *recovery.Tx) error {
			m, err := tx.Machine()
			if err != nil {
				return err
			}
			if m.Credits < 1000 {
				m.Credits += 5000
				m.Meters.BillsIn += 5000
				if m.Meters.Bills == nil {
					m.Meters.Bills = map[string]int64{}
				}
				m.Meters.Bills["5000"]++
				if err := tx.Log(meters.KindBillAccepted, "bill 50.00"); err != nil {
					return err
				}
			}
			g := game.IDs[r%len(game.IDs)]
			m.NextRound = uint64(r + 1)
			m.Meters.RoundStarted(g)
			before := m.Credits
			evs := []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 500}}
			for i := range 5 {
				evs = append(evs, game.Event{Kind: game.CardDealt, Card: shoe.Cards[(r*5+i)%len(shoe.Cards)]})
			}
			pay := money.Cents((r % 3) * 500)
			evs = append(evs, game.Event{Kind: game.Payout, Bet: game.Main, Amount: pay})
			m.Credits += pay - 500
			m.Meters.Step(g, evs)
			m.Meters.RoundOver(g, 500, pay)
			if err := tx.PutMachine(m); err != nil {
				return err
			}
			if err := tx.PutCarry(game.FreeBet, []byte(fmt.Sprintf(`{"pos":%d}`, r))); err != nil {
				return err
			}
			return tx.CloseRound(meters.Recall{Round: uint64(r), Game: g, Steps: []meters.Step{{Action: game.Action{Kind: game.Deal}, Events: evs}},
				CreditsBefore: before, CreditsAfter: m.Credits})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	err = st.Update(func(tx *recovery.Tx) error {
		if err := tx.PutOverride("language", "fr"); err != nil {
			return err
		}
		return tx.PutOpenRound(&recovery.OpenRound{Game: game.Classic, Round: uint64(rounds), Shoe: shoe})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCorruption(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	buildStore(t, src, 120)
	seed := uint64(7)
	s, err := Corrupt(context.Background(), src, dir, *corruptCases, seed, nil)
	if err != nil {
		t.Fatalf("Corrupt(seed %d) = %v", seed, err)
	}
	t.Log(s)
	if s.Bad() {
		t.Errorf("Corrupt(seed %d): forbidden outcomes:\n%s", seed, s)
	}
	if s.Count[Refused]+s.Count[MemoryError] == 0 || s.Cases != *corruptCases {
		t.Errorf("Corrupt(seed %d) detected nothing in %d cases: the harness cannot fail", seed, s.Cases)
	}
}

// TestCompareFindsDifferences: the comparison must see what it is for.
func TestCompareFindsDifferences(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	buildStore(t, a, 30)
	buildStore(t, b, 31)
	sa, err := Load(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare(sa, sa); len(d) != 0 {
		t.Errorf("Compare(a, a) = %v, want none", d)
	}
	if d := Compare(sa, sb); len(d) == 0 {
		t.Errorf("Compare(30 rounds, 31 rounds) found no difference")
	}
	sc := *sa
	sc.Machine.Meters.PowerUps += 5
	sc.Machine.Meters.Recoveries += 2
	if d := Compare(&sc, sa); len(d) != 0 {
		t.Errorf("Compare with extra power-ups = %v, want none (restarts legitimately add them)", d)
	}
	sc.Machine.Meters.Games = nil
	if d := Compare(&sc, sa); len(d) == 0 {
		t.Errorf("Compare with per-game meters dropped found no difference")
	}
	// The committed shoes (issue 38): another secret for the same shoe, a
	// shoe missing, a round whose cards are not its shoe's.
	order := card.NewShoe(1).Cards
	sec := card.Secret{1}
	c, err := card.Commitment(sec, 0, order)
	if err != nil {
		t.Fatal(err)
	}
	shoe := &recovery.Shoe{No: 4, Game: game.Classic, Commitment: c, Secret: sec.String(), Cards: order}
	sd, se := *sa, *sa
	sd.Shoes = map[game.ID]*recovery.Shoe{game.Classic: shoe}
	other := *shoe
	other.Secret = card.Secret{2}.String()
	se.Shoes = map[game.ID]*recovery.Shoe{game.Classic: &other}
	if d := Compare(&sd, &se); len(d) == 0 {
		t.Errorf("Compare with another secret for shoe 4 found no difference")
	}
	if d := Compare(&sd, sa); len(d) == 0 {
		t.Errorf("Compare with a committed shoe missing found no difference")
	}
	revealed := *shoe
	sd.Revealed = []recovery.Shoe{revealed}
	sd.Recall = append([]meters.Recall(nil), sa.Recall...)
	sd.Recall[0].Shoe = &meters.ShoeRef{No: 4, Commitment: c, From: 0, To: len(game.Drawn(sd.Recall[0].Steps[0].Events))}
	if d := Unverified(&sd); len(d) == 0 {
		t.Errorf("Unverified: a round whose cards are not its shoe's passed (%v, shoe begins %v)", game.Drawn(sd.Recall[0].Steps[0].Events), order[:3])
	}
}
