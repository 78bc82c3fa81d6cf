package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"cabinet/internal/game"
)

// A configuration says what it runs (issue 27). Defaults fill only what a
// file leaves out inside a section it has; they never choose the games,
// their rules or the currency. The file must state:
//
//   - cabinet.currency, in [cabinet];
//   - games.enabled, in [games]: the games offered;
//   - the section of every enabled game: [games.royal], [games.freebet],
//     [games.zappit], [games.classic], [duel] for Poker Duel. The game's
//     own table must be written (a header, or keys directly in it): a
//     sub-table alone ([games.royal.pays]) does not state the table limits;
//   - [jackpot] when Royal Poker is enabled with its side bet offered (the
//     progressive's reset and rate are part of that wager's return);
//   - [hardware] when cabinet.backend is "periph": a cabinet on the Pi
//     never runs on an assumed pin map.
//
// What a file may leave out entirely: a game it does not enable ([games.x]
// absent: the game cannot be switched on from the operator menu either),
// [sas] (absent: SAS off), [hardware] with the sim backend, [jackpot] when
// no Royal Poker side bet is offered. Those defaults change nothing that
// runs. (Decided, the reading a certification lab would take: what the
// cabinet offers for money is written in the file it certifies.)
//
// Values are checked first (build), then what is missing: a file with
// both a bad value and a missing section is refused for the value.

// described returns the games whose sections the document states
// (described[id]: the game may be enabled, by the file or the operator).
func described(md toml.MetaData, c *Config) map[game.ID]bool {
	d := map[game.ID]bool{}
	for _, id := range game.IDs {
		if hasTable(md, gameSection(id)...) && (!needsJackpot(c, id) || hasTable(md, "jackpot")) {
			d[id] = true
		}
	}
	return d
}

// required refuses a document that leaves out what it must state.
func required(md toml.MetaData, c *Config) error {
	if !md.IsDefined("cabinet", "currency") {
		return &MissingError{Key: "cabinet.currency",
			Allowed: `the currency of every amount, a three-letter ISO 4217 code in capitals in [cabinet], e.g. currency = "EUR" (never assumed)`}
	}
	if !md.IsDefined("games", "enabled") {
		return &MissingError{Key: "games.enabled",
			Allowed: fmt.Sprintf(`the games this cabinet offers in [games], e.g. enabled = ["classic"], among %s (none is enabled by default)`, gameList())}
	}
	for _, id := range c.enabled {
		sec := strings.Join(gameSection(id), ".")
		if !hasTable(md, gameSection(id)...) {
			return &MissingError{Key: sec, Section: true,
				Allowed: fmt.Sprintf("the section of every game in games.enabled (%q is enabled): its rules and limits as in configs/cabinet.toml; keys left out inside it take the rule book's defaults", id)}
		}
		if needsJackpot(c, id) && !hasTable(md, "jackpot") {
			return &MissingError{Key: "jackpot", Section: true,
				Allowed: `the Royal Poker progressive (reset and rate), since "royal" is enabled with its side bet (games.royal.side_bet)`}
		}
	}
	if c.Cabinet.Backend == "periph" && !hasTable(md, "hardware") {
		return &MissingError{Key: "hardware", Section: true,
			Allowed: `the pin map of the periph backend (cabinet.backend = "periph"), as in configs/cabinet.toml`}
	}
	return nil
}

// gameSection is the path of game id's section.
func gameSection(id game.ID) []string {
	if id == game.Duel {
		return []string{"duel"}
	}
	return []string{"games", string(id)}
}

// needsJackpot reports whether game id offers a wager paid from the
// progressive: Royal Poker with its side bet.
func needsJackpot(c *Config, id game.ID) bool {
	if id != game.Royal {
		return false
	}
	_, ok := c.rules[game.Royal].SideRule(game.RoyalSide)
	return ok
}

// hasTable reports whether the document writes the table at path itself:
// its header (or an inline table), or a key directly in it. A sub-table
// alone does not count.
func hasTable(md toml.MetaData, path ...string) bool {
	for _, k := range md.Keys() {
		if len(k) < len(path) || !slices.Equal(k[:len(path)], path) {
			continue
		}
		if len(k) == len(path) || (len(k) == len(path)+1 && md.Type(k...) != "Hash") {
			return true
		}
	}
	return false
}
