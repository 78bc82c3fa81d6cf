package auditcmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// makeStore writes a store with a bill, one settled round and some events.
func makeStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cab.db")
	s, err := recovery.Open(path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deal := []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 500}}
	for _, c := range card.MustParse("AS 7D KH") {
		deal = append(deal, game.Event{Kind: game.CardDealt, Card: c})
	}
	deal = append(deal, game.Event{Kind: game.Payout, Bet: game.Main, Amount: 1250}, game.Event{Kind: game.Result, Outcome: game.Blackjack})
	err = s.Update(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Credits, m.Meters.BillsIn, m.Meters.Bills, m.NextRound = 2000, 2000, map[string]int64{"2000": 1}, 2
		m.PoolUnits = 123 * 10_000_000
		m.Meters.RoundStarted(game.Classic)
		m.Credits -= 500
		m.Credits += 1250
		m.Meters.Step(game.Classic, deal)
		m.Meters.RoundOver(game.Classic, 500, 1250)
		if err := tx.PutMachine(m); err != nil {
			return err
		}
		if err := tx.Log(meters.KindBillAccepted, "bill 20.00"); err != nil {
			return err
		}
		if err := tx.Log(meters.KindDoor, "main door opened, \"quoted\""); err != nil {
			return err
		}
		t0 := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		return tx.CloseRound(meters.Recall{Round: 1, Game: game.Classic, Start: t0, End: t0.Add(time.Minute),
			Steps:         []meters.Step{{N: 0, At: t0, Action: game.Action{Kind: game.Deal, Bets: []game.Bet{{Kind: game.Main, Amount: 500}}}, Events: deal}},
			CreditsBefore: 2000, CreditsAfter: 2750})
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, &out, &errb)
	return out.String(), err
}

func TestMeters(t *testing.T) {
	path := makeStore(t)
	out, err := run(t, "--store", path, "meters")
	if err != nil {
		t.Fatalf("meters = %v", err)
	}
	for _, want := range []string{"Credit", "27.50", "Total won (coin out)", "12.50", "Bills of 20.00", "Classic · wagered", "Progressive pool", "1.23 (123"} {
		if !strings.Contains(out, want) {
			t.Errorf("meters text lacks %q:\n%s", want, out)
		}
	}
	// The screen's labels, not the JSON keys (issue 35).
	for _, key := range []string{"total_won", "bills.2000", "games.classic.wagered", "progressive_pool"} {
		if strings.Contains(out, key) {
			t.Errorf("meters text shows the key %q where the audit screen shows its label:\n%s", key, out)
		}
	}
	out, err = run(t, "--store", path, "--lang", "fr", "meters")
	if err != nil {
		t.Fatalf("meters --lang fr = %v", err)
	}
	for _, want := range []string{"Crédit", "Total gagné (sorties)", "Billets de 20.00", "Classique · misé"} {
		if !strings.Contains(out, want) {
			t.Errorf("meters --lang fr text lacks %q:\n%s", want, out)
		}
	}
	if _, err := run(t, "--store", path, "--lang", "de", "meters"); !errors.Is(err, ErrUsage) {
		t.Errorf("meters --lang de = %v, want ErrUsage", err)
	}
	out, err = run(t, "meters", "--store", path, "--json")
	if err != nil {
		t.Fatalf("meters --json = %v", err)
	}
	var mo metersOut
	if err := json.Unmarshal([]byte(out), &mo); err != nil || mo.Credits != 2750 || mo.Meters.TotalIn != 500 || mo.Pool != 123 {
		t.Errorf("meters --json = %+v, %v; want credits 27.50, total in 5.00, pool 1.23", mo, err)
	}
	out, err = run(t, "--csv", "--store", path, "meters")
	if err != nil {
		t.Fatalf("meters --csv = %v", err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || rows[0][0] != "meter" || rows[1][0] != "credits" || rows[1][1] != "2750" || rows[1][2] != "cents" {
		t.Errorf("meters --csv rows = %v, %v", rows[:2], err)
	}
}

func TestRecall(t *testing.T) {
	path := makeStore(t)
	out, err := run(t, "--store", path, "recall", "5")
	if err != nil {
		t.Fatalf("recall = %v", err)
	}
	for _, want := range []string{"round 1", "classic", "20.00 → 27.50", "deal main@1=5.00", "cards AS 7D KH", "payout main 12.50", "blackjack"} {
		if !strings.Contains(out, want) {
			t.Errorf("recall text lacks %q:\n%s", want, out)
		}
	}
	out, err = run(t, "--store", path, "--json", "recall")
	if err != nil {
		t.Fatalf("recall --json = %v", err)
	}
	var recs []meters.Recall
	if err := json.Unmarshal([]byte(out), &recs); err != nil || len(recs) != 1 || len(game.Drawn(recs[0].Steps[0].Events)) != 3 {
		t.Errorf("recall --json = %v, %v; want one round with 3 cards", recs, err)
	}
	out, err = run(t, "--store", path, "--csv", "recall")
	if err != nil {
		t.Fatalf("recall --csv = %v", err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 1+6 || rows[2][13] != "AS" {
		t.Errorf("recall --csv = %d rows (card %q), %v; want header + 6 events, AS first card", len(rows), rows[2][13], err)
	}
}

func TestEvents(t *testing.T) {
	path := makeStore(t)
	out, err := run(t, "--store", path, "events")
	if err != nil || !strings.Contains(out, "bill_accepted") || strings.Index(out, "door") > strings.Index(out, "bill_accepted") {
		t.Errorf("events = %q, %v; want newest first", out, err)
	}
	if !strings.Contains(out, "3 significant events, 0 device-noise events") {
		t.Errorf("events = %q, want the count of each ring", out)
	}
	out, err = run(t, "--store", path, "events", "1", "--json")
	var evs []meters.Event
	if err != nil || json.Unmarshal([]byte(out), &evs) != nil || len(evs) != 1 || evs[0].Seq != 3 {
		t.Errorf("events 1 --json = %q, %v; want the newest event (seq 3; 1 is the store initialisation)", out, err)
	}
	out, err = run(t, "--store", path, "events", "--csv")
	rows, cerr := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || cerr != nil || len(rows) != 4 || rows[1][3] != `main door opened, "quoted"` {
		t.Errorf("events --csv = %v, %v, %v", rows, err, cerr)
	}
}

func TestCheck(t *testing.T) {
	path := makeStore(t)
	out, err := run(t, "--store", path, "check")
	if err != nil || !strings.HasPrefix(out, "OK") {
		t.Fatalf("check of a good store = %q, %v", out, err)
	}
	// Damage the machine record with a raw write.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("machine"))
		v := bytes.Clone(b.Get([]byte("machine")))
		v[len(v)/2] ^= 0x01
		return b.Put([]byte("machine"), v)
	})
	db.Close()
	for _, format := range []string{"", "--json", "--csv"} {
		args := []string{"--store", path, "check"}
		if format != "" {
			args = append(args, format)
		}
		out, err := run(t, args...)
		if !errors.Is(err, ErrCheckFailed) || !strings.Contains(out, "machine") {
			t.Errorf("check %s of a damaged store = %q, %v; want ErrCheckFailed naming machine", format, out, err)
		}
		if format == "--json" {
			var co checkOut
			if json.Unmarshal([]byte(out), &co) != nil || co.OK || co.Problems[0].Bucket != "machine" || co.Problems[0].Key != "machine" {
				t.Errorf("check --json = %+v", co)
			}
		}
	}
	if _, err := run(t, "--store", path, "meters"); !errors.Is(err, recovery.ErrCorrupt) {
		t.Errorf("meters of a damaged store = %v, want ErrCorrupt", err)
	}
}

func TestLockedByCabinet(t *testing.T) {
	path := makeStore(t)
	s, err := recovery.Open(path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = run(t, "--store", path, "meters")
	if !errors.Is(err, recovery.ErrLocked) || !strings.Contains(err.Error(), "cabinet is running") {
		t.Errorf("meters while the cabinet runs = %v, want ErrLocked saying so", err)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"bogus"}, {"recall", "x"}, {"meters", "3"}, {"events", "--json", "--csv"}} {
		if _, err := run(t, args...); !errors.Is(err, ErrUsage) {
			t.Errorf("Run(%q) = %v, want ErrUsage", args, err)
		}
	}
	if _, err := run(t, "--store", filepath.Join(t.TempDir(), "none.db"), "meters"); err == nil {
		t.Errorf("meters of a missing file succeeded")
	}
}

// TestCheckFindsTheProof (issue 27): a store whose proof is kept elsewhere
// (on the Pi, another partition) is checked against it without --mirror
// (the store names it), and once the proof is deleted `audit check` reports
// the memory error — before, finding no <store>.mirror, it checked without
// proof and said OK. A store never proven is checked as before.
func TestCheckFindsTheProof(t *testing.T) {
	dir := t.TempDir()
	store, mirror := filepath.Join(dir, "cab.db"), filepath.Join(t.TempDir(), "elsewhere.mirror")
	s, err := recovery.Open(store, recovery.Options{Init: true, Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(tx *recovery.Tx) error { return tx.Log(meters.KindDoor, "main door opened") }); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	check := func() (string, error) {
		var out, errb bytes.Buffer
		err := Run(context.Background(), []string{"--store", store, "check"}, &out, &errb)
		return out.String(), err
	}
	if out, err := check(); err != nil || !strings.HasPrefix(out, "OK") {
		t.Fatalf("check with the proof elsewhere = %v\n%s", err, out)
	}
	if err := os.Remove(mirror); err != nil {
		t.Fatal(err)
	}
	out, err := check()
	if !errors.Is(err, ErrCheckFailed) || !strings.Contains(out, "no proof file "+mirror) {
		t.Errorf("check with the proof deleted = %v, want FAILED naming it\n%s", err, out)
	}
	plain := makeStore(t)
	var o, e bytes.Buffer
	if err := Run(context.Background(), []string{"--store", plain, "check"}, &o, &e); err != nil {
		t.Errorf("check of a store never proven = %v\n%s", err, o.String())
	}
}
