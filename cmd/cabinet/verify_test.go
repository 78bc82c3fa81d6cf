package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/auditcmd"
	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/recovery"
)

// simStore plays rounds of every game into a new store (issue 38's
// shorter version of the 10,000-round run; docs/verify.md has that one).
func simStore(t *testing.T, rounds string) string {
	t.Helper()
	store := filepath.Join(t.TempDir(), "cab.db")
	cfg := filepath.Join("..", "..", "configs", "cabinet.toml")
	if out, err := cabinetCmd(t, "sim", "--config", cfg, "--store", store, "--rounds", rounds, "--game", "all", "--seed", "38", "--quiet"); err != nil {
		t.Fatalf("sim: %v\n%s", err, out)
	}
	return store
}

// tamper rewrites one record of a closed store the way someone who knows
// the format would: the JSON changed and the envelope's checksum made
// again (recovery/record.go), so that only the commitment can tell.
func tamper(t *testing.T, path, bucket string, edit func(key []byte, v map[string]any) bool) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	done := false
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		c := b.Cursor()
		for k, raw := c.Last(); k != nil && !done; k, raw = c.Prev() {
			var v map[string]any
			if err := json.Unmarshal(raw[5:], &v); err != nil {
				return err
			}
			if !edit(k, v) {
				continue
			}
			payload, err := json.Marshal(v)
			if err != nil {
				return err
			}
			h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
			h.Write([]byte(bucket))
			h.Write([]byte{0})
			h.Write(k)
			h.Write([]byte{0, raw[0]})
			h.Write(payload)
			out := append([]byte{raw[0], 0, 0, 0, 0}, payload...)
			binary.BigEndian.PutUint32(out[1:5], h.Sum32())
			done = true
			return b.Put(bytes.Clone(k), out)
		}
		return nil
	})
	if err != nil || !done {
		t.Fatalf("tamper %s: %v (edited: %v)", bucket, err, done)
	}
}

// swapCards swaps two different cards of a JSON card list.
func swapCards(cards []any) bool {
	for i := 1; i < len(cards); i++ {
		if cards[i] != cards[0] {
			cards[0], cards[i] = cards[i], cards[0]
			return true
		}
	}
	return false
}

// TestVerifyStore: every recalled round of a simulated store of every game
// verifies; a store whose revealed card order was altered (and sealed
// again), or whose recorded round cards were, fails `cabinet verify` with
// the mismatch named.
//
// CABINET_VERIFY_STORE names another store to run it on (a copy is
// altered): docs/verify.md's 10,000-round store.
func TestVerifyStore(t *testing.T) {
	store := os.Getenv("CABINET_VERIFY_STORE")
	if store == "" {
		store = simStore(t, "200")
	}
	out, err := cabinetCmd(t, "verify", "--store", store)
	if err != nil || !strings.Contains(out, " 0 mismatch") {
		t.Fatalf("verify of the simulated store = %v\n%.3000s", err, out)
	}
	for _, g := range game.IDs {
		if !strings.Contains(out, " "+string(g)+": shoe ") {
			t.Errorf("verify: no round of %s dealt from a committed shoe", g)
		}
	}
	summary := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]
	if m := regexp.MustCompile(`^(\d+) rounds: (\d+) verified`).FindStringSubmatch(summary); m == nil || m[2] == "0" {
		t.Errorf("verify summary: %s", summary)
	}
	t.Logf("%s: %s", store, strings.TrimSpace(summary))
	for _, tc := range []struct {
		name, bucket string
		edit         func(k []byte, v map[string]any) bool
	}{
		{"revealed order", "shoes", func(_ []byte, v map[string]any) bool {
			return swapCards(v["cards"].([]any))
		}},
		{"round's cards", "recall", func(_ []byte, v map[string]any) bool {
			for _, st := range v["steps"].([]any) {
				for _, e := range st.(map[string]any)["events"].([]any) {
					ev := e.(map[string]any)
					if ev["k"] == string(game.CardDealt) && v["shoe"] != nil {
						ev["c"] = map[bool]string{true: "2C", false: "3C"}[ev["c"] != "2C"]
						return true
					}
				}
			}
			return false
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "bad.db")
			if err := os.WriteFile(bad, fileBytesT(t, store), 0o600); err != nil {
				t.Fatal(err)
			}
			tamper(t, bad, tc.bucket, tc.edit)
			// The newest-store proof would discard the altered commit
			// (docs/recovery.md): the tamperer unlinks it too.
			tamper(t, bad, "meta", func(k []byte, v map[string]any) bool {
				if string(k) != "store" {
					return false
				}
				delete(v, "proof")
				return true
			})
			out, err := cabinetCmd(t, "verify", "--store", bad)
			if !errors.Is(err, auditcmd.ErrVerifyFailed) || !strings.Contains(out, "MISMATCH") {
				t.Errorf("verify of the store with its %s altered = %v, want ErrVerifyFailed\n%.3000s", tc.name, err, out)
			}
			summary := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]
			i := strings.Index(out, "MISMATCH")
			t.Logf("%s altered: %s; first: %s", tc.name, strings.TrimSpace(summary), strings.TrimSpace(out[strings.LastIndex(out[:i], "\n")+1:i+strings.Index(out[i:], "\n")+1+strings.Index(out[i+strings.Index(out[i:], "\n")+1:], "\n")]))
		})
	}
}

// chromiumFlags start Debian's chromium headless, offline, on a fresh profile.
func chromiumFlags(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
		"--virtual-time-budget=60000", "--dump-dom"}
}

type htmlCase struct {
	Reveal string `json:"reveal"`
	Noted  string `json:"noted"`
	Cards  string `json:"cards"`
	want   string // "verified" or "mismatch"
	what   string
}

// TestVerifyHTMLAgrees runs docs/verify.html in headless Chromium on the
// rounds of a simulated store: it must say "verified" exactly where
// `cabinet verify` does, and reject an altered order, another commitment
// and a card the round did not deal. Skipped without chromium unless
// CABINET_TEST_CHROMIUM is set (scripts/test sets it).
func TestVerifyHTMLAgrees(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CABINET_TEST_CHROMIUM") != "" {
			t.Fatalf("chromium: %v (apt-get install chromium)", err)
		}
		t.Skip("no chromium (apt-get install chromium; scripts/test sets CABINET_TEST_CHROMIUM)")
	}
	store := os.Getenv("CABINET_VERIFY_STORE") // as TestVerifyStore
	if store == "" {
		store = simStore(t, "120")
	}
	st, err := recovery.Open(store, recovery.Options{ReadOnly: true, Mirror: recovery.ProofFor(store)})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := auditcmd.VerifyStore(st, 0)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	var cases []htmlCase
	for _, v := range vs {
		if v.Shoe == nil {
			continue
		}
		var dealt []card.Card
		for _, s := range v.Rec.Steps {
			dealt = append(dealt, game.Drawn(s.Events)...)
		}
		want := map[bool]string{true: "verified", false: "mismatch"}[v.Err == nil]
		reveal := recovery.RevealText(v.Shoe, v.Rec.Shoe)
		what := fmt.Sprintf("round %d (%s)", v.Rec.Round, v.Rec.Game)
		cases = append(cases, htmlCase{Reveal: reveal, Noted: v.Rec.Shoe.Commitment[:8], Cards: card.Format(dealt), want: want, what: what})
		if len(cases)%7 != 1 {
			continue
		}
		// Altered: two cards of the order swapped; the commitment of
		// another shoe noted; a card the round did not deal claimed.
		alt := *v.Shoe
		alt.Cards = append([]card.Card(nil), v.Shoe.Cards...)
		for i := 1; i < len(alt.Cards); i++ {
			if alt.Cards[i] != alt.Cards[0] {
				alt.Cards[0], alt.Cards[i] = alt.Cards[i], alt.Cards[0]
				break
			}
		}
		cases = append(cases, htmlCase{Reveal: recovery.RevealText(&alt, v.Rec.Shoe), Noted: v.Rec.Shoe.Commitment[:8], want: "mismatch", what: what + " order altered"})
		other := strings.Map(func(r rune) rune { return map[bool]rune{true: '1', false: '0'}[r == '0'] }, v.Rec.Shoe.Commitment[:8])
		cases = append(cases, htmlCase{Reveal: reveal, Noted: other, want: "mismatch", what: what + " another commitment noted"})
		cases = append(cases, htmlCase{Reveal: reveal, Noted: v.Rec.Shoe.Commitment, Cards: "AS AS AS AS AS AS AS AS AS", want: "mismatch", what: what + " cards not dealt"})
	}
	// docs/verify.md's worked example, as the document prints it.
	cases = append(cases, htmlCase{Reveal: `commitment a3a3da7b59d2d2acb2aff5ee64f3c1d0186430a516e0614558dec5f4691e69c5
secret 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
cut 0
order 7S 8H 9C 8S 9S AC QD AD QC AH 7H JC JD 10D KS 10S JH 8C 10C QS 9D KC JS 7C 7D KH KD 8D 9H QH 10H AS
dealt 0 10
`, Noted: "a3a3da7b", Cards: "7S 8H", want: "verified", what: "docs/verify.md's worked example"})
	if len(cases) < 100 {
		t.Fatalf("%d cases: the store has too few revealed rounds", len(cases))
	}
	page, err := filepath.Abs(filepath.Join("..", "..", "docs", "verify.html"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for from, size := 0, 0; from < len(cases); {
		to := from
		for size = 0; to < len(cases) && (to == from || size+len(cases[to].Reveal)*4/3+200 < htmlBatchBytes); to++ {
			size += len(cases[to].Reveal)*4/3 + 200
		}
		lines = append(lines, runVerifyHTML(t, bin, page, cases[from:to])...)
		from = to
	}
	verified := 0
	for i, c := range cases {
		got, _, _ := strings.Cut(lines[i], " ")
		if got != c.want {
			t.Errorf("%s: verify.html says %q, cabinet verify %s", c.what, lines[i], c.want)
		}
		if got == "verified" {
			verified++
		}
	}
	t.Logf("verify.html agreed with cabinet verify on %d cases (%d verified rounds)", len(cases), verified)
}

// htmlBatchBytes bounds the batch fragment of one page load: the URL is
// one argument of the chromium command, and Linux limits an argument to
// 128 KiB.
const htmlBatchBytes = 120 << 10

// runVerifyHTML loads docs/verify.html in headless Chromium with cases in
// its batch fragment and returns its answer, one line per case.
func runVerifyHTML(t *testing.T, bin, page string, cases []htmlCase) []string {
	t.Helper()
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	url := "file://" + page + "#batch=" + base64.RawURLEncoding.EncodeToString(js)
	cmd := exec.Command(bin, append(chromiumFlags(t.TempDir()), url)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`(?s)<pre id="batch">(.*?)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("verify.html wrote no batch result:\n%.2000s\n%s", dom, stderr.String())
	}
	lines := strings.Split(html.UnescapeString(string(m[1])), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("verify.html answered %d cases of %d", len(lines), len(cases))
	}
	return lines
}
