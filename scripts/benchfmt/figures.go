package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The packages whose benchmarks make the figures.
const (
	pkgRecovery  = "cabinet/internal/recovery"
	pkgPoker     = "cabinet/internal/game/poker"
	pkgBlackjack = "cabinet/internal/player" // the engines played by player.Basic
	pkgDuel      = "cabinet/internal/game/duel"
	pkgDisplay   = "cabinet/internal/display"
	pkgSASHost   = "cabinet/internal/sashost"
	pkgRTP       = "cabinet/internal/analysis/rtp" // the return guard
)

// Figure is one line of the report. Value is nil when the figure is not
// available (NA), with the reason. Goal is the performance goal (README, Performance), when it set
// one ("<= 2.1", ">= 8e7").
type Figure struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"`
	Unit  string   `json:"unit,omitempty"`
	NA    string   `json:"na,omitempty"`
	Goal  string   `json:"goal,omitempty"`
}

// Line is the figure as `name value unit` or `name NA reason`.
func (f Figure) Line() string {
	if f.Value == nil {
		return f.Name + " NA " + f.NA
	}
	return f.Name + " " + format(*f.Value) + " " + f.Unit
}

// MarshalJSON keeps the value's printed precision in JSON too.
func (f Figure) MarshalJSON() ([]byte, error) {
	type plain Figure
	p := plain(f)
	if p.Value != nil {
		v, _ := strconv.ParseFloat(format(*p.Value), 64)
		p.Value = &v
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // goals read "<= 2.1", not "\u003c= 2.1"
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// format prints large values whole and small ones with three significant
// digits.
func format(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func value(name string, v float64, unit, goal string) Figure {
	return Figure{Name: name, Value: &v, Unit: unit, Goal: goal}
}

func na(name, reason string) Figure { return Figure{Name: name, NA: reason} }

// find returns a package's benchmark by name, or why it is not there.
func (r *Run) find(pkg, name string) (Result, string) {
	for _, res := range r.Results {
		if res.Pkg == pkg && res.Name == name {
			return res, ""
		}
	}
	if why, ok := r.Failed[pkg]; ok {
		return Result{}, pkg + " " + why
	}
	return Result{}, name + " not found in " + pkg
}

// metric is one metric of one benchmark, or why it is not there.
func (r *Run) metric(pkg, name, unit string) (float64, string) {
	res, why := r.find(pkg, name)
	if why != "" {
		return 0, why
	}
	v, ok := res.Metrics[unit]
	if !ok {
		return 0, name + " reports no " + unit
	}
	return v, ""
}

// single makes a figure from one metric scaled by k.
func (r *Run) single(fig, pkg, bench, unit string, k float64, figUnit, goal string) Figure {
	v, why := r.metric(pkg, bench, unit)
	if why != "" {
		return na(fig, why)
	}
	return value(fig, v*k, figUnit, goal)
}

// evals is an evaluator benchmark's rate per core: evaluations per second of
// the process's CPU time (evals/cpu-s) when reported, which on a shared
// machine counts only the time the benchmark really ran, else its
// wall-clock evals/s (the benchmark runs on one goroutine with -cpu 1).
func (r *Run) evals(fig, bench, goal string) Figure {
	if v, why := r.metric(pkgPoker, bench, "evals/cpu-s"); why == "" {
		return value(fig, v, "evals/s/core", goal)
	}
	return r.single(fig, pkgPoker, bench, "evals/s", 1, "evals/s/core", goal)
}

// ratio makes a figure from two benchmarks' metrics of the same run.
func (r *Run) ratio(fig, pkg, num, numUnit, den, denUnit, goal string) Figure {
	a, why := r.metric(pkg, num, numUnit)
	if why != "" {
		return na(fig, why)
	}
	b, why := r.metric(pkg, den, denUnit)
	if why != "" {
		return na(fig, why)
	}
	if b == 0 {
		return na(fig, den+" measured 0 "+denUnit)
	}
	return value(fig, a/b, "ratio", goal)
}

// Figures computes every performance figure (README, Performance) from one run, in a fixed order.
// The engine and frame figures are one per benchmark found, so benchmarks
// added later (BenchmarkClassicRound, BenchmarkFrameX) appear by themselves.
func Figures(r *Run) []Figure {
	figs := []Figure{
		r.ratio("step_commit_per_raw_write", pkgRecovery, "BenchmarkStepCommit", "ns/op", "BenchmarkRawFdatasync", "ns/op", "<= 2.1"),
		r.single("step_commit_bytes", pkgRecovery, "BenchmarkStepCommit", "bytes/step", 1, "bytes/step", ""),
		r.single("boot_resume", pkgRecovery, "BenchmarkBootResume", "ns/op", 1e-6, "ms", ""),
		r.evals("evaluator", "BenchmarkEval", ">= 8e7"),
		r.evals("evaluator_32", "BenchmarkEval32", ">= 8e7"),
		r.evals("evaluator_old", "BenchmarkEvalBitsOld", ""),
		r.single("evaluator_all_52", pkgPoker, "BenchmarkEnumerate52", "ns/op", 1e-6, "ms", "< 40"),
		r.single("evaluator_all_32", pkgPoker, "BenchmarkEnumerate32", "ns/op", 1e-6, "ms", ""),
	}
	figs = append(figs, r.engines()...)
	figs = append(figs, r.frames()...)
	// The return guard: the slowest single operator change of the shipped
	// configuration answered on a fresh guard (start-up with it), CPU time
	// on one core (-cpu 1), so the machine's load does not count.
	figs = append(figs, r.single("guard_change", pkgRTP, "BenchmarkGuardChange", "max-cpu-ms", 1, "ms", "< 500"))
	figs = append(figs, r.sasSlowSync()...)
	return figs
}

// sasSlowSync is the SAS link's timing with every fdatasync of the cabinet
// delayed 40 ms (BenchmarkSASSlowSync in internal/sashost, issue 27): the
// replies that started after SAS's 20 ms as a count over all replies
// ("236 late/420"; goal none), and the slowest reply.
func (r *Run) sasSlowSync() []Figure {
	const bench = "BenchmarkSASSlowSync"
	late, why := r.metric(pkgSASHost, bench, "late")
	if why != "" {
		return []Figure{na("sas_late_replies_40ms_sync", why), na("sas_reply_max_40ms_sync", why)}
	}
	replies, why := r.metric(pkgSASHost, bench, "replies")
	if why != "" {
		return []Figure{na("sas_late_replies_40ms_sync", why), na("sas_reply_max_40ms_sync", why)}
	}
	return []Figure{
		value("sas_late_replies_40ms_sync", late, "late/"+format(replies), "== 0"),
		r.single("sas_reply_max_40ms_sync", pkgSASHost, bench, "max-ms", 1, "ms", "<= 20"),
	}
}

// engines is one figure per blackjack benchmark that reports rounds/s (its
// rounds/cpu-s when it reports that too), and
// Poker Duel's whole deal (BenchmarkDeal: the hard level against a checking
// player), whose rounds/s is 1e9 / ns/op.
func (r *Run) engines() []Figure {
	var figs []Figure
	seen := map[string]bool{}
	for _, res := range r.Results {
		v, ok := res.Metrics["rounds/cpu-s"] // per CPU-second when reported, as the evaluator
		if !ok {
			v, ok = res.Metrics["rounds/s"]
		}
		if res.Pkg != pkgBlackjack || !ok {
			continue
		}
		name := "engine_" + engineName(res.Name)
		if seen[name] {
			name = "engine_" + strings.ToLower(strings.NewReplacer("/", "_").Replace(strings.TrimPrefix(res.Name, "Benchmark")))
		}
		seen[name] = true
		goal := ""
		if name == "engine_classic" {
			goal = ">= 1e6"
		}
		figs = append(figs, value(name, v, "rounds/s/core", goal))
	}
	sort.SliceStable(figs, func(i, j int) bool { return figs[i].Name < figs[j].Name })
	if len(figs) == 0 {
		why := "no benchmark of " + pkgBlackjack + " reports rounds/s"
		if f, ok := r.Failed[pkgBlackjack]; ok {
			why = pkgBlackjack + " " + f
		}
		figs = append(figs, na("engine_blackjack", why))
	}
	ns, why := r.metric(pkgDuel, "BenchmarkDeal", "ns/op")
	if why != "" || ns <= 0 {
		figs = append(figs, na("engine_duel", why))
	} else {
		figs = append(figs, value("engine_duel", 1e9/ns, "rounds/s/core", ""))
	}
	return figs
}

// engineName makes a game's name from a benchmark's: BenchmarkRound/classic,
// BenchmarkClassicRound and BenchmarkRound/Classic all give "classic".
func engineName(bench string) string {
	s := strings.ToLower(strings.TrimPrefix(bench, "Benchmark"))
	s = strings.ReplaceAll(s, "rounds", "")
	s = strings.ReplaceAll(s, "round", "")
	s = strings.Trim(strings.ReplaceAll(s, "/", "_"), "_-")
	if s == "" {
		return "round"
	}
	return s
}

// frames is one figure per display benchmark named BenchmarkFrame… that
// reports busy/empty (the busiest table frame over an empty frame, both
// drawn in the same run).
func (r *Run) frames() []Figure {
	var figs []Figure
	for _, res := range r.Results {
		v, ok := res.Metrics["busy/empty"]
		if res.Pkg != pkgDisplay || !ok || !strings.HasPrefix(res.Name, "BenchmarkFrame") {
			continue
		}
		name := "frame_busy_per_empty"
		if sub := strings.ToLower(strings.Trim(strings.ReplaceAll(strings.TrimPrefix(res.Name, "BenchmarkFrame"), "/", "_"), "_")); sub != "" {
			name = "frame_" + sub + "_busy_per_empty"
		}
		figs = append(figs, value(name, v, "ratio", ""))
	}
	if len(figs) == 0 {
		_, why := r.metric(pkgDisplay, "BenchmarkFrame", "busy/empty")
		figs = append(figs, na("frame_busy_per_empty", why))
	}
	return figs
}

// parseExtra reads an -extra figure: "par 1.31 s" or "par NA reason…".
func parseExtra(s string) (Figure, error) {
	f := strings.Fields(s)
	if len(f) >= 2 && f[1] == "NA" {
		reason := strings.TrimSpace(strings.Join(f[2:], " "))
		if reason == "" {
			reason = "no reason given"
		}
		return na(f[0], reason), nil
	}
	if len(f) != 3 {
		return Figure{}, fmt.Errorf("-extra %q: want 'name value unit' or 'name NA reason'", s)
	}
	v, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		return Figure{}, fmt.Errorf("-extra %q: value: %w", s, err)
	}
	goal := ""
	if f[0] == "par" {
		goal = "< 60"
	}
	return value(f[0], v, f[2], goal), nil
}
