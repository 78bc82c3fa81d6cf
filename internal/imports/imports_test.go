package imports

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// rules lists, for every package of the module (a trailing "/..." covers a
// package and those below it), the module's packages and the outside
// modules its non-test code may import; the standard library is always
// allowed. The table is the architecture's layering, written once:
//   - the rules (game) know nothing but money; meters and the store know
//     the rules' records (and the store the SAS protocol's ticket records,
//     a pure package), never the controller or a device;
//   - devices (hw/...) and protocols (sas) know no store and no
//     controller: the controller and sasmachine are their only users;
//   - the display reads view snapshots and never the store or the
//     controller; only it and cmd/cabinet touch the graphics binding
//     (github.com/gen2brain/..., also checked by scripts/test);
//   - the desks (desk: notes, tickets in and out) know the devices' words
//     (hw), the store and the ledger, never the controller nor the
//     display: the controller gives them a narrow ledger and routes
//     device events and host requests to them;
//   - the controller knows no configuration file and no return analysis:
//     it sees the settings in force as data (inforce) and one interface
//     (controller.Settings) that settings implements from config and
//     analysis/rtp, wired by cmd/cabinet;
//   - bbolt stays in recovery, periph in hw/periph, the TOML parser in
//     config.
//
// A package missing from the table fails the test: a new package states
// its place here.
var rules = map[string][]string{
	"money":                 {},
	"game":                  {"money", "game/card"},
	"game/...":              {"money", "game", "game/..."},
	"meters":                {"game", "money"},
	"recovery/recoverytest": {"money", "recovery", "sas"},
	"recovery":              {"game", "game/card", "meters", "money", "sas", "go.etcd.io/bbolt", "go.etcd.io/bbolt/errors"},
	"ledger":                {"recovery"},
	"hostev":                {"meters"},
	"hw":                    {"money", "serial"},
	"hw/pulse":              {"money"},
	"hw/sim":                {"hw", "money"},
	"hw/periph/...":         {"hw", "hw/periph/...", "hw/pulse", "money", "periph.io/..."},
	"hw/id003/...":          {"hw", "money", "hw/id003", "serial", "golang.org/x/sys/unix"},
	"hw/tcl/...":            {"hw", "money", "i18n", "hw/tcl", "serial", "golang.org/x/sys/unix"},
	"sas":                   {"money", "serial", "golang.org/x/sys/unix"},
	"serial":                {"golang.org/x/sys/unix"},
	"sashost":               {"golang.org/x/sys/unix"},
	"sasmachine":            {"controller", "game", "hw", "meters", "money", "recovery", "sas", "serial"},
	"view":                  {"game", "hw", "money"},
	"i18n":                  {"money"},
	"selftest":              {"hw", "i18n", "money", "view"},
	"analysis":              {"game"},
	"analysis/duel":         {"game", "game/..."},
	"analysis/par/...":      {"analysis/par", "game", "game/...", "money"},
	"analysis/rngtest":      {"game/card"},
	"analysis/rtp":          {"analysis/par", "config", "game", "game/blackjack", "money"},
	"player":                {"analysis/par", "game", "game/..."},
	"pisystem":              {},
	"config":                {"game", "game/blackjack", "game/duel", "hw/periph/pins", "money", "sas", "view", "github.com/BurntSushi/toml"},
	"inforce":               {"game", "game/blackjack", "money", "view"},
	"settings":              {"analysis/par", "analysis/rtp", "config", "game", "game/blackjack", "inforce", "view"},
	"desk":                  {"hostev", "hw", "ledger", "meters", "money", "recovery", "serial"},
	"controller":            {"desk", "game", "game/...", "hostev", "hw", "inforce", "ledger", "meters", "money", "player", "recovery", "serial", "view"},
	"display":               {"game", "game/...", "hw", "i18n", "meters", "money", "selftest", "view", "github.com/gen2brain/...", "rsc.io/qr"},
	"auditcmd":              {"game", "game/...", "i18n", "meters", "money", "recovery"},
	"crashtest":             {"config", "game", "hw/id003", "hw/id003/id003emu", "hw/tcl/tclemu", "meters", "money", "recovery", "sashost"},
	"cabinet":               {"analysis/rtp", "config", "controller", "game", "hw", "settings"},
	"scenario":              {"cabinet", "config", "controller", "game", "hw", "hw/sim", "money", "recovery", "selftest", "settings", "view"},
	"imports":               {},
	"cmd/cabinet":           {"*"},
	"scripts/benchfmt":      {},
	"scripts/...":           {"periph.io/..."}, // the emulated Pi's guest programs (scripts/pi-guest)
}

const module = "cabinet/"

// short names a package of the module as the table does.
func short(p string) string {
	p = strings.TrimPrefix(p, module)
	return strings.TrimPrefix(p, "internal/")
}

// tableName is import path p as the tables name it: a package of the
// module by its short name, an outside module's in full; std: the
// standard library (always allowed).
func tableName(p string) (name string, std bool) {
	if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
		return p, false
	}
	if !strings.HasPrefix(p, module) {
		return "", true
	}
	return short(p), false
}

// match reports whether pattern (a name, or a prefix with "/...") covers p.
func match(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// ruleFor is the most specific row covering p: its own, else the longest
// "/..." row above it.
func ruleFor(p string) (string, []string, bool) {
	if r, ok := rules[p]; ok {
		return p, r, true
	}
	best, found := "", false
	for k := range rules {
		if strings.HasSuffix(k, "/...") && match(k, p) && len(k) > len(best) {
			best, found = k, true
		}
	}
	return best, rules[best], found
}

func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		pkg, imps, _ := strings.Cut(line, "|")
		p := short(pkg)
		row, allowed, ok := ruleFor(p)
		if !ok {
			t.Errorf("%s has no row in the import rules (internal/imports): state which packages it may import", pkg)
			continue
		}
		n++
		if slices.Contains(allowed, "*") {
			continue
		}
		for _, imp := range strings.Fields(imps) {
			name, std := tableName(imp)
			if std {
				continue
			}
			if !slices.ContainsFunc(allowed, func(a string) bool { return match(a, name) }) {
				t.Errorf("%s imports %s, which its row %q does not allow %v", pkg, imp, row, allowed)
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d packages checked: go list found too few", n)
	}
}

// reach is the table of transitive rules: for the packages a row covers
// (pkgs, a name or "/..." pattern, "..." for every package, less except),
// what may be found anywhere among their dependencies (with tests, those
// of the packages' test variants too): nothing matching not, and, if only
// is set, nothing of the module or outside it but what only lists (the
// standard library is always allowed).
var reach = []struct {
	pkgs      string
	except    []string
	not, only []string
	tests     bool
}{
	// The graphics binding: the display and the program only (a test file
	// that links it elsewhere would need a display to run).
	{pkgs: "...", except: []string{"display", "display/...", "cmd/cabinet"}, not: []string{"github.com/gen2brain/..."}, tests: true},
	// The rule engines are pure: the standard library, game and money.
	{pkgs: "game/...", only: []string{"game", "game/...", "money"}},
	// The configuration reads the [hardware] section through hw/periph/pins,
	// so the headless commands (sim, audit, par, crashtest) link no GPIO
	// driver.
	{pkgs: "config", not: []string{"periph.io/...", "hw/periph"}},
}

// covers reports whether pattern covers p ("..." covers every package).
func covers(pattern, p string) bool { return pattern == "..." || match(pattern, p) }

func TestReachRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}}|{{join .Deps \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, "|")
		base, variant, _ := strings.Cut(pkg, " ") // "p [p.test]" -> "p"
		test := variant != "" || strings.HasSuffix(base, ".test") || strings.HasSuffix(base, "_test")
		base = strings.TrimSuffix(strings.TrimSuffix(base, ".test"), "_test")
		if !strings.HasPrefix(base, module) {
			continue
		}
		p := short(base)
		for _, r := range reach {
			if test && !r.tests || !covers(r.pkgs, p) || slices.ContainsFunc(r.except, func(e string) bool { return covers(e, p) }) {
				continue
			}
			n++
			for _, d := range strings.Fields(deps) {
				name, std := tableName(d)
				if std {
					continue
				}
				in := func(list []string) bool {
					return slices.ContainsFunc(list, func(a string) bool { return match(a, name) })
				}
				if in(r.not) || r.only != nil && !in(r.only) {
					t.Errorf("%s depends on %s, which its reach rule %q forbids (not %v, only %v)", pkg, d, r.pkgs, r.not, r.only)
				}
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d packages checked: go list found too few", n)
	}
}

// TestRulesBite: the matcher is not vacuous (a rule table that allowed
// everything would pass above).
func TestRulesBite(t *testing.T) {
	for _, c := range []struct {
		pkg, imp string
		want     bool
	}{
		{"game/blackjack", "recovery", false},
		{"game/blackjack", "game/card", true},
		{"display", "recovery", false},
		{"controller", "hw/id003", false},
		{"controller", "hw/tcl", false},
		{"display", "controller", false},
		{"sas", "recovery", false},
		{"hw/id003/id003emu", "hw/id003", true},
		{"controller", "github.com/gen2brain/binding", false},
		{"display", "github.com/gen2brain/binding", true},
		{"hw/periph", "periph.io/x/host/v3", true},
		{"config", "go.etcd.io/bbolt", false},
	} {
		_, allowed, ok := ruleFor(c.pkg)
		if !ok {
			t.Fatalf("no row for %s", c.pkg)
		}
		got := slices.ContainsFunc(allowed, func(a string) bool { return match(a, c.imp) })
		if got != c.want {
			t.Errorf("%s may import %s = %v, want %v", c.pkg, c.imp, got, c.want)
		}
	}
}
