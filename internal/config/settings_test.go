package config

import (
	"errors"
	"strings"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/money"
)

func TestWith(t *testing.T) {
	base := loadShipped(t)
	c, err := base.With(map[string]string{
		"cabinet.language":        "en",
		"cabinet.sound":           "off",
		"games.classic.min_bet":   "5.00",
		"games.classic.dealing":   "european",
		"games.classic.max_hands": "2",
		"games.duel.enabled":      "off",
		"games.royal.enabled":     "off",
		"games.royal.enabled.x":   "", // not a key: must fail below, so test it apart
	})
	if err == nil || !strings.Contains(err.Error(), "games.royal.enabled.x") || !errors.Is(err, ErrInvalid) {
		t.Fatalf("With(unknown key) = %v, want an ErrInvalid naming games.royal.enabled.x", err)
	}
	c, err = base.With(map[string]string{
		"cabinet.language":             "en",
		"cabinet.sound":                "off",
		"cabinet.bill.100.00":          "off",
		"cabinet.bill.5.00":            "off",
		"games.classic.min_bet":        "5.00",
		"games.classic.dealing":        "european",
		"games.classic.max_hands":      "2",
		"games.duel.enabled":           "off",
		"games.royal.enabled":          "off",
		"games.freebet.21+3.max":       "50.00",
		"games.freebet.bustit.offered": "off",
		"jackpot.rate":                 "15.5",
	})
	if err != nil {
		t.Fatalf("With = %v", err)
	}
	if c.Cabinet.Language != "en" || c.Cabinet.Sound {
		t.Errorf("language, sound = %q, %v, want en, false", c.Cabinet.Language, c.Cabinet.Sound)
	}
	if got := c.Cabinet.Bills; len(got) != 3 || got[0] != 1000 || got[2] != 5000 {
		t.Errorf("bills = %v, want 10.00 20.00 50.00", got)
	}
	r, _ := c.Rules(game.Classic)
	if r.MinBet != 500 || r.MaxHands != 2 || r.Peek != "no-hole" {
		t.Errorf("classic = min %v hands %d peek %s, want 5.00, 2, no-hole", r.MinBet, r.MaxHands, r.Peek)
	}
	if c.Duel.Enabled || !base.Duel.Enabled {
		t.Errorf("Duel.Enabled = %v (base %v), want false (true)", c.Duel.Enabled, base.Duel.Enabled)
	}
	if got := c.Enabled(); len(got) != 3 || got[0] != game.FreeBet {
		t.Errorf("Enabled() = %v, want freebet zappit classic", got)
	}
	fb, _ := c.Rules(game.FreeBet)
	if s, _ := fb.SideRule(game.TwentyOne); s.Max != 5000 {
		t.Errorf("21+3 max = %v, want 50.00", s.Max)
	}
	if _, ok := fb.SideRule(game.BustIt); ok {
		t.Errorf("bustit still offered")
	}
	if c.Jackpot.RateE7 != 1550000 {
		t.Errorf("RateE7 = %d, want 1550000", c.Jackpot.RateE7)
	}
	// The base is unchanged.
	if base.Cabinet.Language != "fr" || len(base.Enabled()) != 5 || len(base.Cabinet.Bills) != 5 || base.Cabinet.Bills[0] != 500 {
		t.Errorf("base changed by With: %+v %v", base.Cabinet, base.Enabled())
	}
	if r, _ := base.Rules(game.Classic); r.MinBet != 100 {
		t.Errorf("base classic min = %v, want 1.00", r.MinBet)
	}
	// Settings reflect the overrides.
	want := map[string]string{"cabinet.language": "en", "games.royal.enabled": "off", "cabinet.bill.5.00": "off",
		"cabinet.bill.100.00": "off", "games.classic.min_bet": "5.00", "jackpot.rate": "15.50000"}
	for _, s := range c.Settings() {
		if w, ok := want[s.Key]; ok && s.Value != w {
			t.Errorf("Settings %s = %q, want %q", s.Key, s.Value, w)
		}
		delete(want, s.Key)
	}
	if len(want) > 0 {
		t.Errorf("Settings lacks %v", want)
	}
}

func TestWithBadValues(t *testing.T) {
	base := loadShipped(t)
	for _, tc := range []struct {
		name string
		o    map[string]string
		want []string
	}{
		{"unknown key", map[string]string{"cabinet.colour": "red"}, []string{"cabinet.colour", `"red"`, "operator setting"}},
		{"min above max", map[string]string{"games.zappit.min_bet": "2000.00"}, []string{"games.zappit.max_bet", "at least min_bet (2000.00)"}},
		{"negative", map[string]string{"cabinet.credit_limit": "-1.00"}, []string{"cabinet.credit_limit", `"-1.00"`, "at least 0.01"}},
		{"language", map[string]string{"cabinet.language": "de"}, []string{"cabinet.language", `"de"`, `"fr" or "en"`}},
		{"bool", map[string]string{"cabinet.sound": "loud"}, []string{"cabinet.sound", `"loud"`, `"on" or "off"`}},
		{"int", map[string]string{"games.classic.spots": "two"}, []string{"games.classic.spots", `"two"`, "whole number"}},
		{"all games off", map[string]string{"games.royal.enabled": "off", "games.freebet.enabled": "off",
			"games.zappit.enabled": "off", "games.classic.enabled": "off", "games.duel.enabled": "off"}, []string{"games.enabled", "at least one game"}},
		{"rate", map[string]string{"jackpot.rate": "101"}, []string{"jackpot.rate", `"101"`, "five decimals"}},
		{"bill", map[string]string{"cabinet.bill.abc": "on"}, []string{"cabinet.bill.abc", "operator setting"}},
		{"recall depth", map[string]string{"cabinet.recall_depth": "5"}, []string{"cabinet.recall_depth", "5", "10 to 10000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := base.With(tc.o)
			if err == nil {
				t.Fatalf("With(%v) = %v, nil, want an error", tc.o, c)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("With(%v) = %v, want ErrInvalid", tc.o, err)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("With(%v) = %q, want it to contain %q", tc.o, err, s)
				}
			}
		})
	}
}

func TestNext(t *testing.T) {
	c := loadShipped(t)
	for _, tc := range []struct{ key, cur, want string }{
		{"cabinet.language", "fr", "en"},
		{"cabinet.language", "en", "fr"},
		{"cabinet.sound", "on", "off"},
		{"games.classic.min_bet", "1.00", "2.00"},
		{"games.classic.min_bet", "1.5", "2.00"},
		{"games.classic.min_bet", "100000.00", "0.10"},
		{"cabinet.handpay_limit", "100000.00", "0.00"},
		{"games.classic.dealing", "american", "european"},
		{"games.classic.max_hands", "3", "2"},
		{"games.freebet.penetration", "75", "80"},
		{"games.freebet.penetration", "77", "80"},
		{"jackpot.rate", "20.30843", "25.00000"},
		{"jackpot.rate", "20.3", "20.30843"},
		{"cabinet.recall_depth", "100", "200"},
		{"cabinet.bill.100.00", "off", "on"},
		{"cabinet.bill.100.00", "on", "off"},
	} {
		got, err := c.Next(tc.key, tc.cur)
		if err != nil || got != tc.want {
			t.Errorf("Next(%q, %q) = %q, %v, want %q", tc.key, tc.cur, got, err, tc.want)
		}
	}
	if _, err := c.Next("nope", "1"); err == nil {
		t.Errorf("Next(nope) = nil error, want one")
	}
	// Every value Next offers for a key applies on its own or is a named error.
	for _, s := range c.Settings() {
		v, err := c.Next(s.Key, s.Value)
		if err != nil {
			t.Fatalf("Next(%q, %q) = %v", s.Key, s.Value, err)
		}
		if _, err := c.With(map[string]string{s.Key: v}); err != nil && !strings.Contains(err.Error(), "config: ") {
			t.Errorf("With(%s=%s) = %v", s.Key, v, err)
		}
	}
}

func TestItems(t *testing.T) {
	c := loadShipped(t)
	items := c.Items(map[string]string{"games.classic.min_bet": "10.00"})
	found := false
	for _, it := range items {
		if it.Key == "games.classic.min_bet" {
			found = it.Value == "10.00"
		}
	}
	if !found {
		t.Errorf("Items(min_bet=10.00) lacks games.classic.min_bet = 10.00")
	}
	// A stored override that no longer validates falls back to the file's values.
	items = c.Items(map[string]string{"games.classic.min_bet": "junk"})
	for _, it := range items {
		if it.Key == "games.classic.min_bet" && it.Value != money.Cents(100).String() {
			t.Errorf("Items(junk) min_bet = %q, want 1.00", it.Value)
		}
	}
	if len(items) != len(c.Settings()) {
		t.Errorf("len(Items) = %d, want %d", len(items), len(c.Settings()))
	}
}

// TestItemsSideBetOff (issue 26: with Any Pair off its limits showed 0.00
// and nothing said what turning it back on restores): while a side bet is
// off its minimum and maximum show the amounts kept in the document, with
// a note that they apply again once it is offered; its switch says that
// turning it on restores them; and turning it on does.
func TestItemsSideBetOff(t *testing.T) {
	c := loadShipped(t)
	fb, _ := c.Rules(game.FreeBet)
	want, ok := fb.SideRule(game.AnyPair)
	if !ok || want.Min == 0 || want.Max == 0 {
		t.Fatalf("shipped Any Pair %+v, %v: want offered with limits", want, ok)
	}
	o := map[string]string{"games.freebet.anypair.offered": "off", "games.freebet.anypair.max": "50.00"}
	byKey := func(o map[string]string) map[string]map[string]string {
		out := map[string]map[string]string{}
		for _, it := range c.Items(o) {
			out[it.Key] = map[string]string{"value": it.Value, "note": it.Note}
		}
		return out
	}
	off := byKey(o)
	p := "games.freebet.anypair."
	if g := off[p+"offered"]; g["value"] != "off" || g["note"] != "note.side_on_restores" {
		t.Errorf("offered while off = %v, want off with note.side_on_restores", g)
	}
	if g := off[p+"min"]; g["value"] != want.Min.String() || g["note"] != "note.side_off_limit" {
		t.Errorf("min while off = %v, want %s with note.side_off_limit", g, want.Min)
	}
	if g := off[p+"max"]; g["value"] != "50.00" || g["note"] != "note.side_off_limit" {
		t.Errorf("max while off = %v, want the edited 50.00 with note.side_off_limit", g)
	}
	if g := off["games.freebet.21+3.min"]; g["note"] != "note.at_most_max" {
		t.Errorf("21+3 min (offered) note = %q, want note.at_most_max", g["note"])
	}
	o[p+"offered"] = "on"
	on := byKey(o)
	if g := on[p+"min"]; g["value"] != want.Min.String() || g["note"] != "note.at_most_max" {
		t.Errorf("min once on = %v, want %s with note.at_most_max", g, want.Min)
	}
	if g := on[p+"offered"]; g["note"] != "" {
		t.Errorf("offered once on has note %q", g["note"])
	}
	c2, err := c.With(o)
	if err != nil {
		t.Fatal(err)
	}
	fb2, _ := c2.Rules(game.FreeBet)
	if s, ok := fb2.SideRule(game.AnyPair); !ok || s.Min != want.Min || s.Max != 5000 {
		t.Errorf("Any Pair turned on = %+v, %v; want offered %s … 50.00 as shown while off", s, ok, want.Min)
	}
}
