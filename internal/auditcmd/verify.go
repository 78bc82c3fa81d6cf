package auditcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

const verifyUsage = `usage: cabinet verify [--store FILE] [--mirror FILE] [--reveal] [ROUND]

Checks every recalled round (or ROUND alone) against its committed shoe
(docs/verify.md): the revealed secret, cut card and order hash to the
commitment shown before the bet, and the round's cards are the shoe's, in
order, at the positions the round names. A round whose continuous shoe is
still in play is reported "not revealed yet", one played before the cabinet
committed shoes "not committed". Non-zero exit on any mismatch.
With ROUND (or --reveal) each round's revealed shoe is printed as the
player's verifier (docs/verify.html) reads it.`

// Verdict is one round's result.
type Verdict struct {
	Rec  meters.Recall
	Shoe *recovery.Shoe // revealed shoe (nil: not revealed, or none)
	Err  error          // nil verified; recovery.ErrNotRevealed; else a mismatch
}

// Status is "verified", "not revealed yet", "not committed" or
// "MISMATCH".
func (v Verdict) Status() string {
	switch {
	case v.Err == nil:
		return "verified"
	case errors.Is(v.Err, recovery.ErrNotRevealed):
		return "not revealed yet"
	case errors.Is(v.Err, recovery.ErrNotCommitted):
		return "not committed"
	}
	return "MISMATCH"
}

// VerifyStore checks the recalled rounds of st (newest first; round 0: all
// of them, else that round only).
func VerifyStore(st *recovery.Store, round uint64) ([]Verdict, error) {
	var out []Verdict
	err := st.View(func(tx *recovery.Tx) error {
		recs, err := tx.Recall(0)
		if err != nil {
			return err
		}
		shoes, err := tx.RevealedShoes(0)
		if err != nil {
			return err
		}
		byNo := make(map[uint64]*recovery.Shoe, len(shoes))
		for i := range shoes {
			byNo[shoes[i].No] = &shoes[i]
		}
		for i := range recs {
			r := &recs[i]
			if round != 0 && r.Round != round {
				continue
			}
			var s *recovery.Shoe
			if r.Shoe != nil {
				s = byNo[r.Shoe.No]
			}
			out = append(out, Verdict{Rec: *r, Shoe: s, Err: recovery.VerifyRound(r, s)})
		}
		return nil
	})
	return out, err
}

// RunVerify implements `cabinet verify` on the store opened read-only.
func RunVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, verifyUsage) }
	store := fs.String("store", DefaultStore, "store file")
	mirror := fs.String("mirror", "", "newest-store proof (default: as cabinet audit)")
	reveal := fs.Bool("reveal", false, "print each round's revealed shoe")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	var round uint64
	switch fs.NArg() {
	case 0:
	case 1:
		n, err := strconv.ParseUint(fs.Arg(0), 10, 64)
		if err != nil || n == 0 {
			return fmt.Errorf("%w: verify: round %q: want a round number", ErrUsage, fs.Arg(0))
		}
		round, *reveal = n, true
	default:
		return fmt.Errorf("%w: verify: at most one round, got %q", ErrUsage, fs.Args())
	}
	if *mirror == "" {
		*mirror = recovery.ProofFor(*store)
	}
	st, err := recovery.Open(*store, recovery.Options{ReadOnly: true, Mirror: *mirror})
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer st.Close()
	vs, err := VerifyStore(st, round)
	if err != nil {
		return fmt.Errorf("verify: %s: %w", *store, err)
	}
	if round != 0 && len(vs) == 0 {
		return fmt.Errorf("verify: round %d is not in the recall of %s", round, *store)
	}
	counts := map[string]int{}
	committed := false                  // a round with a committed shoe seen (oldest first)
	for i := len(vs) - 1; i >= 0; i-- { // oldest first
		v := vs[i]
		if v.Status() == "not committed" && committed {
			// Rounds before the first committed one were played before
			// the cabinet committed shoes; after it, none may lack one.
			v.Err = fmt.Errorf("%w: %w after rounds dealt from committed shoes", recovery.ErrMismatch, v.Err)
		}
		committed = committed || v.Rec.Shoe != nil
		counts[v.Status()]++
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintln(stdout, verdictLine(v))
		if v.Err != nil && v.Status() == "MISMATCH" {
			fmt.Fprintf(stdout, "  %v\n", v.Err)
		}
		if *reveal && v.Shoe != nil {
			fmt.Fprint(stdout, indent(recovery.RevealText(v.Shoe, v.Rec.Shoe)))
		}
	}
	fmt.Fprintf(stdout, "%d rounds: %d verified, %d not revealed yet (shoe in play), %d mismatch", len(vs),
		counts["verified"], counts["not revealed yet"], counts["MISMATCH"])
	if n := counts["not committed"]; n > 0 {
		fmt.Fprintf(stdout, ", %d not committed (played before the cabinet committed shoes)", n)
	}
	fmt.Fprintln(stdout)
	if counts["MISMATCH"] > 0 {
		return ErrVerifyFailed
	}
	return nil
}

// verdictLine is a round's one-line verdict.
func verdictLine(v Verdict) string {
	r := v.Rec
	if r.Shoe == nil && v.Err == nil {
		return fmt.Sprintf("round %d %s: no card dealt, no shoe: %s", r.Round, r.Game, v.Status())
	}
	if r.Shoe == nil {
		return fmt.Sprintf("round %d %s: cards dealt from no committed shoe: %s", r.Round, r.Game, v.Status())
	}
	return fmt.Sprintf("round %d %s: shoe %d commitment %s cards %d to %d: %s", r.Round, r.Game, r.Shoe.No,
		r.Shoe.Commitment, r.Shoe.From, r.Shoe.To-1, v.Status())
}

func indent(s string) string {
	out := make([]byte, 0, len(s)+32)
	start := true
	for i := 0; i < len(s); i++ {
		if start {
			out = append(out, "  "...)
		}
		out = append(out, s[i])
		start = s[i] == '\n'
	}
	return string(out)
}
