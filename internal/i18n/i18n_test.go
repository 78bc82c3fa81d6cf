package i18n

import (
	"regexp"
	"sort"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
)

// TestCatalogueKeys: every key exists in both languages, no message is
// empty, and both languages take the same format verbs in the same order.
func TestCatalogueKeys(t *testing.T) {
	for k := range fr {
		if _, ok := en[k]; !ok {
			t.Errorf("key %q is in French but not in English", k)
		}
	}
	for k := range en {
		if _, ok := fr[k]; !ok {
			t.Errorf("key %q is in English but not in French", k)
		}
	}
	verbs := regexp.MustCompile(`%[-+ #0-9.]*[a-zA-Z%]`)
	for _, k := range Keys(FR) {
		f, e := fr[k], en[k]
		if f == "" || e == "" {
			t.Errorf("key %q: fr %q, en %q: want both non-empty", k, f, e)
		}
		fv, ev := verbs.FindAllString(f, -1), verbs.FindAllString(e, -1)
		if len(fv) != len(ev) {
			t.Errorf("key %q: fr verbs %v, en verbs %v: want the same", k, fv, ev)
			continue
		}
		for i := range fv {
			if fv[i] != ev[i] {
				t.Errorf("key %q: fr verbs %v, en verbs %v: want the same", k, fv, ev)
			}
		}
	}
}

// TestVocabulary: every name the engines, rules and hardware hand to the
// display has a message in both languages.
func TestVocabulary(t *testing.T) {
	var want []string
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		want = append(want, "btn."+b.String())
	}
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		want = append(want, "sw."+s.String())
	}
	want = append(want, "tilt."+hw.MainDoor.String(), "tilt."+hw.CashDoor.String())
	for _, id := range game.IDs {
		want = append(want, "game."+string(id), "gametag."+string(id))
	}
	for _, k := range []game.BetKind{game.Main, game.DoubleBet, game.SplitBet, game.Insurance, game.RoyalSide,
		game.Jackpot, game.AnyPair, game.TwentyOne, game.Hot3, game.BustIt, game.Session} {
		want = append(want, "bet."+string(k))
	}
	for _, o := range []game.Outcome{game.Win, game.Lose, game.Push, game.Blackjack, game.Surrendered, game.Bust, game.Charlie} {
		want = append(want, "outcome."+string(o))
	}
	for _, r := range []blackjack.Rules{blackjack.Classic(), blackjack.Royal(), blackjack.FreeBet(), blackjack.Zappit()} {
		want = append(want, "table.rules."+string(r.Game))
		for _, s := range r.Side {
			for h := range s.Pays {
				want = append(want, "hand."+h)
			}
		}
	}
	want = append(want, "hand.royal flush", "hand.straight flush", "prompt.insurance", "prompt.evenmoney",
		"note.zapped", "note.split", "tilt.memory_error", "tilt.bill_jam")
	sort.Strings(want)
	for _, lang := range Langs() {
		for _, k := range want {
			if !Has(lang, k) {
				t.Errorf("Has(%q, %q) = false, want true", lang, k)
			}
		}
	}
}

func TestMoney(t *testing.T) {
	tests := []struct {
		lang     string
		c        money.Cents
		currency string
		want     string
	}{
		{"fr", 123450, "€", "1 234,50 €"},
		{"en", 123450, "€", "€1,234.50"},
		{"fr", 5, "", "0,05 €"},
		{"en", 0, "€", "€0.00"},
		{"en", -250, "€", "-€2.50"},
		{"fr", -123456789, "€", "-1 234 567,89 €"},
		{"en-GB", 100000000, "£", "£1,000,000.00"},
		{"", 2000000, "€", "20 000,00 €"},
		{"fr", 123450, "EUR", "1 234,50 €"},
		{"en", 123450, "EUR", "€1,234.50"},
		{"en", 150, "USD", "$1.50"},
		{"fr", 123450, "CHF", "1 234,50 CHF"},
		{"en", 123450, "CHF", "CHF 1,234.50"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.want, func(t *testing.T) {
			if got := Money(tt.lang, tt.c, tt.currency); got != tt.want {
				t.Errorf("Money(%q, %d, %q) = %q, want %q", tt.lang, tt.c, tt.currency, got, tt.want)
			}
		})
	}
}

func TestNumberPercent(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Number("fr", 1234567), "1 234 567"},
		{Number("en", 1234567), "1,234,567"},
		{Number("en", 12), "12"},
		{Number("fr", -4000), "-4 000"},
		{Percent("fr", 9954), "99,54 %"},
		{Percent("en", 9954), "99.54%"},
		{Percent("en", 10012), "100.12%"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		lang, ns, key string
		want          string
		found         bool
	}{
		{"fr", "tilt", "main_door", "Porte principale ouverte", true},
		{"en", "hand", "suited trips", "Suited three of a kind", true},
		{"en", "tilt", "meteor_strike", "meteor strike", false},
		{"en", "", "btn.deal", "Deal", true},
		{"fr", "btn.classic", "special", "Abandon", true},
	}
	for _, tt := range tests {
		got, ok := Lookup(tt.lang, tt.ns, tt.key)
		if got != tt.want || ok != tt.found {
			t.Errorf("Lookup(%q, %q, %q) = %q, %v, want %q, %v", tt.lang, tt.ns, tt.key, got, ok, tt.want, tt.found)
		}
	}
	if got := T("en", "no.such.key"); got != "no.such.key" {
		t.Errorf("T(en, no.such.key) = %q, want the key itself", got)
	}
	if T("fr", "btn.hit") == T("en", "btn.hit") {
		t.Errorf("T(fr, btn.hit) = T(en, btn.hit) = %q, want different words", T("en", "btn.hit"))
	}
	if got := Tf("en", "table.spot", 2); got != "Spot 2" {
		t.Errorf("Tf(en, table.spot, 2) = %q, want %q", got, "Spot 2")
	}
}

// TestEventKindsTranslated: every kind the event log can hold has its name
// in both languages (the audit screen's event column).
func TestEventKindsTranslated(t *testing.T) {
	for _, k := range meters.Kinds() {
		for _, lang := range Langs() {
			if !Has(lang, "event."+k) {
				t.Errorf("event kind %q has no %s name", k, lang)
			}
		}
	}
}

// TestPercentSpacing: one spacing of the percent sign per language, as
// Percent writes it: French "70,54 %", English "70.54%" (issue 35: "below
// 100 %" beside "70.54%" on the same English screen).
func TestPercentSpacing(t *testing.T) {
	if got := Percent(EN, 7054); got != "70.54%" {
		t.Errorf("Percent(en, 7054) = %q, want 70.54%%", got)
	}
	if got := Percent(FR, 7054); got != "70,54 %" {
		t.Errorf("Percent(fr, 7054) = %q, want 70,54 %%", got)
	}
	// A figure written in a message: a digit, then the sign (as %%, or a
	// bare % not starting a verb).
	enSpaced := regexp.MustCompile(`\d[  ]%(%|[^sdvqx]|$)`)
	frTight := regexp.MustCompile(`\d%(%|[^sdvqx]|$)`)
	for _, k := range Keys(EN) {
		if m := T(EN, k); enSpaced.MatchString(m) {
			t.Errorf("en %s = %q: a space before %%, want %q as Percent writes it", k, m, Percent(EN, 10000))
		}
	}
	for _, k := range Keys(FR) {
		if m := T(FR, k); frTight.MatchString(m) {
			t.Errorf("fr %s = %q: no space before %%, want %q as Percent writes it", k, m, Percent(FR, 10000))
		}
	}
}
