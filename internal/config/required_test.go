package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"cabinet/internal/game"
)

// TestRequiredRefusals: a file that does not state what the cabinet runs
// (its currency, its games, each enabled game's section, the progressive of
// an offered Royal Poker bet, the pin map of the periph backend) is refused
// with a *MissingError (ErrMissing and ErrInvalid) naming the key or
// section and what is allowed there; nothing runs on a default for them.
func TestRequiredRefusals(t *testing.T) {
	const cab = "[cabinet]\ncurrency = \"EUR\"\n"
	for _, tc := range []struct {
		name, doc string
		key       string // MissingError.Key
		section   bool
		want      []string // substrings of the message
	}{
		{"only [cabinet]", "[cabinet]\n", "cabinet.currency", false,
			[]string{"cabinet.currency = (missing)", "ISO 4217", `"EUR"`}},
		{"no currency", "[cabinet]\nlanguage = \"en\"\n[games]\nenabled = [\"classic\"]\n[games.classic]\n", "cabinet.currency", false,
			[]string{"cabinet.currency = (missing)", "ISO 4217"}},
		{"no [cabinet]", "[games]\nenabled = [\"classic\"]\n[games.classic]\n", "cabinet.currency", false,
			[]string{"cabinet.currency = (missing)"}},
		{"no games.enabled", cab + "[games.classic]\n", "games.enabled", false,
			[]string{"games.enabled = (missing)", "royal, freebet, zappit, classic, duel", "none is enabled by default"}},
		{"[games] without enabled", cab + "[games]\n[games.classic]\n", "games.enabled", false,
			[]string{"games.enabled = (missing)"}},
		{"enabled game without its section", cab + "[games]\nenabled = [\"classic\", \"zappit\"]\n[games.classic]\n", "games.zappit", true,
			[]string{"[games.zappit] = (missing section)", `"zappit" is enabled`}},
		{"a sub-table is not the game's table", cab + "[games]\nenabled = [\"royal\"]\n[games.royal.pays]\nflush = 60\n[jackpot]\n", "games.royal", true,
			[]string{"[games.royal] = (missing section)", `"royal" is enabled`}},
		{"side bets only", cab + "[games]\nenabled = [\"freebet\"]\n[games.freebet.hot3]\noffered = false\n", "games.freebet", true,
			[]string{"[games.freebet] = (missing section)"}},
		{"duel without [duel]", cab + "[games]\nenabled = [\"duel\"]\n", "duel", true,
			[]string{"[duel] = (missing section)", `"duel" is enabled`}},
		{"royal side bet without [jackpot]", cab + "[games]\nenabled = [\"royal\"]\n[games.royal]\n", "jackpot", true,
			[]string{"[jackpot] = (missing section)", "progressive", "games.royal.side_bet"}},
		{"periph without [hardware]", "[cabinet]\ncurrency = \"EUR\"\nbackend = \"periph\"\n[games]\nenabled = [\"classic\"]\n[games.classic]\n", "hardware", true,
			[]string{"[hardware] = (missing section)", `cabinet.backend = "periph"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.doc))
			var me *MissingError
			if !errors.As(err, &me) {
				t.Fatalf("Parse(%q) = %v, %v; want a *MissingError", tc.doc, c, err)
			}
			if me.Key != tc.key || me.Section != tc.section {
				t.Errorf("Parse(%q) missing %q (section %v), want %q (section %v)", tc.doc, me.Key, me.Section, tc.key, tc.section)
			}
			if !errors.Is(err, ErrMissing) || !errors.Is(err, ErrInvalid) {
				t.Errorf("Parse(%q) = %v, want errors.Is ErrMissing and ErrInvalid", tc.doc, err)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Parse(%q) = %q, want it to contain %q", tc.doc, err, s)
				}
			}
		})
	}
}

// TestRequiredAccepted: the least each rule asks for is enough; sections of
// things not in use may be left out; a value error is reported before a
// missing section.
func TestRequiredAccepted(t *testing.T) {
	const cab = "[cabinet]\ncurrency = \"EUR\"\n"
	for _, tc := range []struct{ name, doc string }{
		{"one game, empty section", cab + "[games]\nenabled = [\"classic\"]\n[games.classic]\n"},
		{"dotted key states the table", cab + "[games]\nenabled = [\"zappit\"]\nzappit.spots = 1\n"},
		{"inline table states the table", cab + "[games]\nenabled = [\"zappit\"]\nzappit = { spots = 2 }\n"},
		{"royal without its side bet needs no [jackpot]", cab + "[games]\nenabled = [\"royal\"]\n[games.royal]\nside_bet = false\n"},
		{"royal with [jackpot]", cab + "[games]\nenabled = [\"royal\"]\n[games.royal]\n[jackpot]\n"},
		{"duel", cab + "[games]\nenabled = [\"duel\"]\n[duel]\n"},
		{"periph with [hardware]", "[cabinet]\ncurrency = \"EUR\"\nbackend = \"periph\"\n[games]\nenabled = [\"classic\"]\n[games.classic]\n[hardware]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse([]byte(tc.doc)); err != nil {
				t.Errorf("Parse(%q) = %v, want nil", tc.doc, err)
			}
		})
	}
	_, err := Parse([]byte(cab + "language = \"de\"\n[games]\nenabled = [\"classic\"]\n"))
	var ke *KeyError
	if !errors.As(err, &ke) || ke.Key != "cabinet.language" {
		t.Errorf("Parse(bad language, no [games.classic]) = %v, want the KeyError of cabinet.language first", err)
	}
}

// TestOperatorEnablesOnlyDescribedGames: the operator menu offers to switch
// on only games whose sections the file states; an override switching on
// another is refused, so no game runs on built-in rules through the menu.
func TestOperatorEnablesOnlyDescribedGames(t *testing.T) {
	c, err := Parse([]byte(minimalHead + "[games.zappit]\n"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range c.Settings() {
		if strings.HasSuffix(s.Key, ".enabled") {
			keys = append(keys, s.Key)
		}
	}
	if want := []string{"games.zappit.enabled", "games.classic.enabled"}; strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("enable switches = %v, want %v (the games the file describes)", keys, want)
	}
	n, err := c.With(map[string]string{"games.zappit.enabled": "on"})
	if err != nil {
		t.Fatalf("With(zappit on) = %v", err)
	}
	if got := n.Enabled(); len(got) != 2 || got[0] != game.Zappit {
		t.Errorf("With(zappit on).Enabled() = %v, want zappit and classic", got)
	}
	if _, err := n.With(map[string]string{"games.royal.enabled": "on"}); err == nil || !strings.Contains(err.Error(), "games.royal.enabled") {
		t.Errorf("With(royal on) = %v, want a refusal naming games.royal.enabled", err)
	}
}

// The shipped file states everything it must.
func TestShippedStatesWhatItRuns(t *testing.T) {
	b, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse(%s) = %v", shipped, err)
	}
	for _, id := range game.IDs {
		if !c.described[id] {
			t.Errorf("%s does not describe %s", shipped, id)
		}
	}
}
