package auditcmd

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/i18n"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// DefaultStore is the store file used without --store (the shipped
// configuration's [cabinet] store).
const DefaultStore = "var/cabinet.db"

const usage = `usage: cabinet audit [--store FILE] [--mirror FILE] [--lang en|fr] meters|recall [N]|events [N]|tickets [N]|check [--json|--csv]

  meters     lifetime meters, credits, progressive pool, named as the audit screen names them
             (--lang: in English, the default, or French; --json and --csv keep the meters' keys)
  recall N   the N newest recalled rounds (default: all kept), every step, card and payout,
             the shoe's commitment and, once the shoe is finished, its reveal and verdict
  events N   the N newest events of the log (default: all kept)
  tickets N  the N newest tickets out and tickets in (default: all kept), the ticket meters
  check      integrity check (records, checksums, invariant, bbolt); non-zero exit on failure

The store is opened read-only; it works while the cabinet is off.`

type options struct {
	store     string
	mirror    string // newest-store proof ("": recovery.ProofFor)
	json, csv bool
	lang      string // the meters' labels (i18n.EN or i18n.FR)
	cmd       string
	n         int
	stdout    io.Writer
	stderr    io.Writer
}

func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, usage) }
	fs.StringVar(&o.store, "store", DefaultStore, "store file")
	fs.StringVar(&o.mirror, "mirror", "", "newest-store proof to compare with the store (default: <store>.mirror when it exists, else the proof file the store names; docs/recovery.md)")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.BoolVar(&o.csv, "csv", false, "print CSV")
	fs.StringVar(&o.lang, "lang", i18n.EN, "language of the meters' labels in the text output: en or fr")
	rest := args
	var pos []string
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) == 0 {
		fs.Usage()
		return nil, fmt.Errorf("%w: missing command (meters, recall, events, tickets or check)", ErrUsage)
	}
	o.cmd = pos[0]
	switch o.cmd {
	case "meters", "check":
		if len(pos) > 1 {
			return nil, fmt.Errorf("%w: %s takes no argument, got %q", ErrUsage, o.cmd, pos[1])
		}
	case "recall", "events", "tickets":
		if len(pos) > 2 {
			return nil, fmt.Errorf("%w: %s takes at most one number, got %q", ErrUsage, o.cmd, pos[2])
		}
		if len(pos) == 2 {
			n, err := strconv.Atoi(pos[1])
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%w: %s %q: want a positive number", ErrUsage, o.cmd, pos[1])
			}
			o.n = n
		}
	default:
		fs.Usage()
		return nil, fmt.Errorf("%w: unknown command %q (want meters, recall, events, tickets or check)", ErrUsage, o.cmd)
	}
	if o.lang != i18n.EN && o.lang != i18n.FR {
		return nil, fmt.Errorf("%w: --lang %q: want en or fr", ErrUsage, o.lang)
	}
	if o.json && o.csv {
		return nil, fmt.Errorf("%w: --json and --csv are exclusive", ErrUsage)
	}
	return o, nil
}

// Run implements `cabinet audit [--store FILE] meters|recall [N]|events [N]|tickets [N]|check [--json|--csv]`
// on the store opened read-only. If a running cabinet holds the file, the
// error says so (recovery.ErrLocked).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	o.stdout, o.stderr = stdout, stderr
	if o.mirror == "" {
		// <store>.mirror, else the proof the store names (missing or not:
		// a missing proof is the same memory error as for run and sim).
		o.mirror = recovery.ProofFor(o.store)
	}
	st, err := recovery.Open(o.store, recovery.Options{ReadOnly: true, Mirror: o.mirror})
	if err != nil {
		if o.cmd == "check" {
			var ce *recovery.CheckError
			if errors.As(err, &ce) {
				if perr := o.printCheck(ce); perr != nil {
					return perr
				}
				return fmt.Errorf("%w: %s cannot be opened", ErrCheckFailed, o.store)
			}
		}
		if errors.Is(err, recovery.ErrLocked) {
			return fmt.Errorf("audit: %w\n(the cabinet is running on this file: use the audit screens, or stop the cabinet first)", err)
		}
		return fmt.Errorf("audit: %w", err)
	}
	defer st.Close()
	switch o.cmd {
	case "meters":
		return o.meters(st)
	case "recall":
		return o.recall(st)
	case "events":
		return o.events(st)
	case "tickets":
		return o.tickets(st)
	default:
		return o.check(st)
	}
}

// --- meters ---

type metersOut struct {
	Store       string        `json:"store"`
	Credits     money.Cents   `json:"credits"`
	PoolUnits   int64         `json:"pool_units"`
	Pool        money.Cents   `json:"pool"`
	Handpay     money.Cents   `json:"handpay"`
	HandpayKind string        `json:"handpay_kind,omitempty"`
	NextRound   uint64        `json:"next_round"`
	Meters      meters.Meters `json:"meters"`
}

// poolUnitsPerCent: the pool is kept in 1e-7 cent (games.md §1, "Progressive jackpot": fractional cents kept).
const poolUnitsPerCent = 10_000_000

func (o *options) meters(st *recovery.Store) error {
	var m recovery.Machine
	if err := st.View(func(tx *recovery.Tx) error {
		var err error
		m, err = tx.Machine()
		return err
	}); err != nil {
		return fmt.Errorf("audit: meters of %s: %w", o.store, err)
	}
	out := metersOut{Store: o.store, Credits: m.Credits, PoolUnits: m.PoolUnits, Pool: money.Cents(m.PoolUnits / poolUnitsPerCent),
		Handpay: m.Handpay, HandpayKind: m.HandpayKind, NextRound: m.NextRound, Meters: m.Meters}
	head := []meters.Line{
		{Name: "credits", Value: int64(m.Credits), Unit: meters.UnitCents},
		{Name: "progressive_pool", Value: m.PoolUnits, Unit: meters.UnitPoolUnits},
		{Name: "handpay_pending", Value: int64(m.Handpay), Unit: meters.UnitCents},
		{Name: "next_round", Value: int64(m.NextRound), Unit: meters.UnitCount},
	}
	lines := append(head, m.Meters.Lines()...)
	switch {
	case o.json:
		return writeJSON(o.stdout, out)
	case o.csv:
		rows := [][]string{{"meter", "value", "unit"}}
		for _, l := range lines {
			rows = append(rows, []string{l.Name, strconv.FormatInt(l.Value, 10), l.Unit})
		}
		return writeCSV(o.stdout, rows)
	}
	// The text names each meter as the audit screen does (issue 35: it
	// printed the JSON keys); amounts stay plain decimals, in the
	// cabinet's currency.
	// Labels left, values right-aligned after them.
	var rows [][2]string
	for _, l := range lines {
		label, _ := i18n.MeterLabel(o.lang, l.Name, money.Cents.String)
		rows = append(rows, [2]string{label, formatValue(l)})
	}
	if m.HandpayKind != "" {
		rows = append(rows, [2]string{i18n.T(o.lang, "meter.handpay_kind"), i18n.T(o.lang, "handpay_kind."+m.HandpayKind)})
	}
	lw, vw := 0, 0
	for _, r := range rows {
		lw, vw = max(lw, utf8.RuneCountInString(r[0])), max(vw, utf8.RuneCountInString(r[1]))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "store %s\n", o.store)
	for _, r := range rows {
		b.WriteString(r[0] + strings.Repeat(" ", lw-utf8.RuneCountInString(r[0])+2+vw-utf8.RuneCountInString(r[1])) + r[1] + "\n")
	}
	_, err := io.WriteString(o.stdout, b.String())
	return err
}

func formatValue(l meters.Line) string {
	switch l.Unit {
	case meters.UnitCents:
		return money.Cents(l.Value).String()
	case meters.UnitPoolUnits:
		return fmt.Sprintf("%s (%d units of 1e-7 cent)", money.Cents(l.Value/poolUnitsPerCent), l.Value)
	}
	return strconv.FormatInt(l.Value, 10)
}

// --- recall ---

func (o *options) recall(st *recovery.Store) error {
	var recs []meters.Recall
	if err := st.View(func(tx *recovery.Tx) error {
		var err error
		recs, err = tx.Recall(o.n)
		return err
	}); err != nil {
		return fmt.Errorf("audit: recall of %s: %w", o.store, err)
	}
	vs, err := VerifyStore(st, 0)
	if err != nil {
		return fmt.Errorf("audit: recall of %s: %w", o.store, err)
	}
	verdicts := make(map[uint64]Verdict, len(vs))
	for _, v := range vs {
		verdicts[v.Rec.Round] = v
	}
	switch {
	case o.json:
		if recs == nil {
			recs = []meters.Recall{}
		}
		return writeJSON(o.stdout, recs)
	case o.csv:
		rows := [][]string{{"round", "game", "start", "end", "credits_before", "credits_after", "voided",
			"step", "action", "event", "hand", "spot", "bet", "card", "face_down", "amount", "outcome", "handpay"}}
		for _, r := range recs {
			head := []string{strconv.FormatUint(r.Round, 10), string(r.Game), r.Start.Format(time.RFC3339), r.End.Format(time.RFC3339),
				r.CreditsBefore.String(), r.CreditsAfter.String(), strconv.FormatBool(r.Voided)}
			for _, s := range r.Steps {
				step := []string{strconv.Itoa(s.N), actionText(s.Action)}
				if len(s.Events) == 0 {
					rows = append(rows, append(append(append([]string{}, head...), step...), "", "", "", "", "", "", "", "", ""))
				}
				for _, e := range s.Events {
					c := ""
					if e.Card.Valid() {
						c = e.Card.String()
					}
					amount := ""
					if e.Amount != 0 {
						amount = e.Amount.String()
					}
					row := append(append(append([]string{}, head...), step...), string(e.Kind), strconv.Itoa(e.Hand),
						strconv.Itoa(e.Spot), string(e.Bet), c, strconv.FormatBool(e.FaceDown), amount, string(e.Outcome),
						strconv.FormatBool(e.Handpay))
					rows = append(rows, row)
				}
			}
		}
		return writeCSV(o.stdout, rows)
	}
	if len(recs) == 0 {
		fmt.Fprintln(o.stdout, "no recalled round")
		return nil
	}
	for _, r := range recs {
		staked, paid := r.Money()
		void := ""
		if r.Voided {
			void = "  VOIDED"
		}
		fmt.Fprintf(o.stdout, "round %d  %s  %s → %s  credits %s → %s  staked %s paid %s%s\n", r.Round, r.Game,
			r.Start.Format(time.DateTime), r.End.Format(time.DateTime), r.CreditsBefore, r.CreditsAfter, staked, paid, void)
		for _, s := range r.Steps {
			fmt.Fprintf(o.stdout, "  %2d %-28s %s\n", s.N, actionText(s.Action), eventsText(s.Events))
		}
		// The commitment, and once the shoe is finished its reveal and
		// the verdict (docs/verify.md).
		if v, ok := verdicts[r.Round]; ok && r.Shoe != nil {
			fmt.Fprintf(o.stdout, "  %s\n", verdictLine(v))
			if v.Status() == "MISMATCH" {
				fmt.Fprintf(o.stdout, "  %v\n", v.Err)
			}
			if v.Shoe != nil {
				fmt.Fprint(o.stdout, indent(indent(recovery.RevealText(v.Shoe, r.Shoe))))
			}
		}
	}
	return nil
}

func actionText(a game.Action) string {
	var b strings.Builder
	b.WriteString(string(a.Kind))
	for _, bet := range a.Bets {
		fmt.Fprintf(&b, " %s@%d=%s", bet.Kind, bet.Spot+1, bet.Amount)
	}
	// Params are Poker Duel's (the only game with its own payload).
	p, err := duel.ParamsOf(a)
	if err != nil {
		fmt.Fprintf(&b, " params=%s", a.Params)
	}
	if p.Amount != 0 {
		fmt.Fprintf(&b, " %d", p.Amount)
	}
	if len(p.Discard) > 0 {
		fmt.Fprintf(&b, " discard%v", p.Discard)
	}
	if p.Deck != 0 {
		fmt.Fprintf(&b, " deck=%d", p.Deck)
	}
	if p.Level != "" {
		fmt.Fprintf(&b, " level=%s", p.Level)
	}
	return b.String()
}

func eventsText(evs []game.Event) string {
	var parts []string
	var cards []card.Card
	flush := func() {
		if len(cards) > 0 {
			parts = append(parts, "cards "+card.Format(cards))
			cards = nil
		}
	}
	for _, e := range evs {
		switch e.Kind {
		case game.CardDealt:
			cards = append(cards, e.Card)
			continue
		case game.Stake:
			flush()
			parts = append(parts, fmt.Sprintf("stake %s %s", e.Bet, e.Amount))
		case game.Payout:
			flush()
			hp := ""
			if e.Handpay {
				hp = " (handpay)"
			}
			parts = append(parts, fmt.Sprintf("payout %s %s%s", e.Bet, e.Amount, hp))
		case game.JackpotWin:
			flush()
			parts = append(parts, fmt.Sprintf("jackpot %d%% = %s", e.Percent, e.Amount))
		case game.Result:
			flush()
			who := "hand " + strconv.Itoa(e.Hand+1)
			if e.Hand == game.Dealer {
				who = "dealer"
			}
			if e.Bet != "" && e.Bet != game.Main {
				who = string(e.Bet)
			}
			parts = append(parts, fmt.Sprintf("%s %s", who, e.Outcome))
		}
	}
	flush()
	return strings.Join(parts, "; ")
}

// --- events ---

func (o *options) events(st *recovery.Store) error {
	var evs []meters.Event
	if err := st.View(func(tx *recovery.Tx) error {
		var err error
		evs, err = tx.Events(o.n)
		return err
	}); err != nil {
		return fmt.Errorf("audit: events of %s: %w", o.store, err)
	}
	switch {
	case o.json:
		if evs == nil {
			evs = []meters.Event{}
		}
		return writeJSON(o.stdout, evs)
	case o.csv:
		rows := [][]string{{"seq", "time", "kind", "text"}}
		for _, e := range evs {
			rows = append(rows, []string{strconv.FormatUint(e.Seq, 10), e.At.Format(time.RFC3339), e.Kind, e.Text})
		}
		return writeCSV(o.stdout, rows)
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "seq\ttime\tkind\ttext")
	noise := 0
	for _, e := range evs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", e.Seq, e.At.Format(time.DateTime), e.Kind, e.Text)
		if meters.Noise(e.Kind) {
			noise++
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The two rings (docs/recovery.md, "The event log").
	_, err := fmt.Fprintf(o.stdout, "%d significant events, %d device-noise events (kept apart: noise never evicts a significant event)\n", len(evs)-noise, noise)
	return err
}

// --- check ---

type checkOut struct {
	Store    string    `json:"store"`
	OK       bool      `json:"ok"`
	Problems []problem `json:"problems"`
}

type problem struct {
	Bucket string `json:"bucket"`
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

func (o *options) check(st *recovery.Store) error {
	err := st.Check()
	if err == nil {
		return o.printCheck(nil)
	}
	var ce *recovery.CheckError
	if !errors.As(err, &ce) {
		return fmt.Errorf("audit: check %s: %w", o.store, err)
	}
	if perr := o.printCheck(ce); perr != nil {
		return perr
	}
	return fmt.Errorf("%w: %s: %d problem(s)", ErrCheckFailed, o.store, len(ce.Problems))
}

func problems(ce *recovery.CheckError) []problem {
	out := []problem{}
	if ce == nil {
		return out
	}
	for _, p := range ce.Problems {
		var c *recovery.CorruptError
		switch {
		case errors.As(p, &c):
			out = append(out, problem{c.Bucket, c.Key, c.Reason})
		case errors.Is(p, recovery.ErrInvariant):
			out = append(out, problem{"machine", "machine", p.Error()})
		default:
			out = append(out, problem{"", "", p.Error()})
		}
	}
	return out
}

func (o *options) printCheck(ce *recovery.CheckError) error {
	ps := problems(ce)
	switch {
	case o.json:
		return writeJSON(o.stdout, checkOut{Store: o.store, OK: len(ps) == 0, Problems: ps})
	case o.csv:
		rows := [][]string{{"bucket", "key", "problem"}}
		for _, p := range ps {
			rows = append(rows, []string{p.Bucket, p.Key, p.Reason})
		}
		return writeCSV(o.stdout, rows)
	}
	if len(ps) == 0 {
		fmt.Fprintf(o.stdout, "OK %s: records, checksums, meter invariant and bbolt structure verified\n", o.store)
		return nil
	}
	fmt.Fprintf(o.stdout, "FAILED %s: %d problem(s)\n", o.store, len(ps))
	for _, p := range ps {
		fmt.Fprintf(o.stdout, "  %s/%s: %s\n", p.Bucket, p.Key, p.Reason)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("audit: write JSON: %w", err)
	}
	return nil
}

func writeCSV(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("audit: write CSV: %w", err)
	}
	return nil
}
