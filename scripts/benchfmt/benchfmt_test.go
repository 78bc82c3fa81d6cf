package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// ev is one test2json output event.
func ev(pkg, test, out string) string {
	b, _ := json.Marshal(event{Action: "output", Package: pkg, Test: test, Output: out})
	return string(b) + "\n"
}

func act(pkg, action string) string {
	return fmt.Sprintf(`{"Action":%q,"Package":%q}`+"\n", action, pkg)
}

// full is a run where every benchmark reported, with a GOMAXPROCS suffix,
// a result line split over two events and a line of noise.
func full() string {
	var b strings.Builder
	b.WriteString("xvfb noise, not JSON\n")
	b.WriteString(ev(pkgRecovery, "BenchmarkStepCommit", "BenchmarkStepCommit-2   \t"))
	b.WriteString(ev(pkgRecovery, "BenchmarkStepCommit", "     500\t   5000000 ns/op\t      2966 bytes/step\n"))
	b.WriteString(ev(pkgRecovery, "BenchmarkRawFdatasync", "BenchmarkRawFdatasync-2 \t 1000\t 2000000 ns/op\n"))
	b.WriteString(ev(pkgRecovery, "BenchmarkBootResume", "BenchmarkBootResume-2 \t 100\t 8500000 ns/op\n"))
	b.WriteString(act(pkgRecovery, "pass"))
	b.WriteString(ev(pkgPoker, "BenchmarkEval", "BenchmarkEval \t 218201278\t 5.535 ns/op\t 181004192 evals/cpu-s\t 180680815 evals/s\t 0 B/op\t 0 allocs/op\n"))
	b.WriteString(ev(pkgPoker, "BenchmarkEvalBitsOld", "BenchmarkEvalBitsOld \t 1000\t 20 ns/op\t 50000000 evals/s\n"))
	b.WriteString(ev(pkgPoker, "BenchmarkEnumerate52", "BenchmarkEnumerate52 \t 67\t 19834712 ns/op\t 131030894 evals/s\n"))
	b.WriteString(ev(pkgBlackjack, "BenchmarkRound/classic", "BenchmarkRound/classic \t 1000\t 2500 ns/op\t 400000 rounds/s\n"))
	b.WriteString(ev(pkgBlackjack, "BenchmarkRound/classic-european", "BenchmarkRound/classic-european \t 1000\t 2000 ns/op\t 500000 rounds/s\n"))
	b.WriteString(ev(pkgBlackjack, "BenchmarkZappitRound", "BenchmarkZappitRound \t 1000\t 3000 ns/op\t 900000 rounds/cpu-s\t 333333 rounds/s\n"))
	b.WriteString(ev(pkgBlackjack, "BenchmarkShoe", "BenchmarkShoe \t 1000\t 30 ns/op\n"))
	b.WriteString(ev(pkgDuel, "BenchmarkDeal", "BenchmarkDeal \t 1000\t 250000 ns/op\n"))
	b.WriteString(ev(pkgDisplay, "BenchmarkFrame", "BenchmarkFrame-2 \t 300\t 4000000 ns/op\t 3.1 busy-ms/frame\t 0.2 empty-ms/frame\t 15.5 busy/empty\n"))
	b.WriteString(ev(pkgDisplay, "BenchmarkFrameAttract", "BenchmarkFrameAttract-2 \t 300\t 4000000 ns/op\t 2.5 busy/empty\n"))
	b.WriteString(ev(pkgRTP, "BenchmarkGuardChange", "BenchmarkGuardChange \t 17\t 120000000 ns/op\t 341.2 max-cpu-ms\t 360.5 max-ms\n"))
	b.WriteString(ev(pkgSASHost, "BenchmarkSASSlowSync", "BenchmarkSASSlowSync-2 \t 1\t 20920271754 ns/op\t 236.0 late\t 163.7 max-ms\t 420.0 replies\n"))
	return b.String()
}

func TestFigures(t *testing.T) {
	tests := []struct {
		name  string
		input string
		extra []string
		want  []string // lines that must appear, in this order
	}{
		{"every benchmark", full(), []string{"par 1.31 s"}, []string{
			"step_commit_per_raw_write 2.5 ratio",
			"step_commit_bytes 2966 bytes/step",
			"boot_resume 8.5 ms",
			"evaluator 181004192 evals/s/core",
			"evaluator_32 NA BenchmarkEval32 not found in cabinet/internal/game/poker",
			"evaluator_old 50000000 evals/s/core",
			"evaluator_all_52 19.8 ms",
			"engine_classic 400000 rounds/s/core",
			"engine_classic-european 500000 rounds/s/core",
			"engine_zappit 900000 rounds/s/core", // rounds/cpu-s preferred
			"engine_duel 4000 rounds/s/core",
			"frame_busy_per_empty 15.5 ratio",
			"frame_attract_busy_per_empty 2.5 ratio",
			"guard_change 341 ms",
			"sas_late_replies_40ms_sync 236 late/420",
			"sas_reply_max_40ms_sync 164 ms",
			"par 1.31 s",
		}},
		{"nothing ran", "", []string{"par NA cabinet par did not build"}, []string{
			"step_commit_per_raw_write NA BenchmarkStepCommit not found in cabinet/internal/recovery",
			"boot_resume NA BenchmarkBootResume not found in cabinet/internal/recovery",
			"engine_blackjack NA no benchmark of cabinet/internal/player reports rounds/s",
			"engine_duel NA BenchmarkDeal not found in cabinet/internal/game/duel",
			"frame_busy_per_empty NA BenchmarkFrame not found in cabinet/internal/display",
			"guard_change NA BenchmarkGuardChange not found in cabinet/internal/analysis/rtp",
			"sas_late_replies_40ms_sync NA BenchmarkSASSlowSync not found in cabinet/internal/sashost",
			"par NA cabinet par did not build",
		}},
		{"build failure and test failure", `{"ImportPath":"cabinet/internal/display","Action":"build-output","Output":"# cabinet/internal/display\n"}
{"ImportPath":"cabinet/internal/display","Action":"build-output","Output":"x.go:1: undefined: y\n"}
{"ImportPath":"cabinet/internal/display","Action":"build-fail"}
` + ev(pkgRecovery, "BenchmarkRawFdatasync", "BenchmarkRawFdatasync \t 1000\t 2000000 ns/op\n") +
			ev(pkgRecovery, "", "--- FAIL: BenchmarkStepCommit\n") + ev(pkgRecovery, "", "FAIL\n") + act(pkgRecovery, "fail"), nil, []string{
			"step_commit_per_raw_write NA cabinet/internal/recovery failed: --- FAIL: BenchmarkStepCommit",
			"frame_busy_per_empty NA cabinet/internal/display build failed: x.go:1: undefined: y",
		}},
		{"metric missing", ev(pkgRecovery, "BenchmarkStepCommit", "BenchmarkStepCommit \t 500\t 5000000 ns/op\n"), nil, []string{
			"step_commit_bytes NA BenchmarkStepCommit reports no bytes/step",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{}
			for _, e := range tt.extra {
				args = append(args, "-extra", e)
			}
			var out bytes.Buffer
			if err := run(args, strings.NewReader(tt.input), &out); err != nil {
				t.Fatalf("run: %v", err)
			}
			got := out.String()
			pos := 0
			for _, w := range tt.want {
				i := strings.Index(got[pos:], w+"\n")
				if i < 0 {
					t.Fatalf("output lacks %q after offset %d:\n%s", w, pos, got)
				}
				pos += i + len(w)
			}
			for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
				if f := strings.Fields(l); len(f) < 3 {
					t.Errorf("line %q has %d fields, want name value unit", l, len(f))
				}
			}
		})
	}
}

func TestJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-json", "-extra", "par 1.31 s"}, strings.NewReader(full()), &out); err != nil {
		t.Fatal(err)
	}
	var figs []struct {
		Name  string
		Value *float64
		Unit  string
		NA    string
		Goal  string
	}
	if !strings.Contains(out.String(), `"goal": "<= 2.1"`) {
		t.Errorf("goal not printed as plain text:\n%s", out.String())
	}
	if err := json.Unmarshal(out.Bytes(), &figs); err != nil {
		t.Fatalf("output is not a JSON array: %v\n%s", err, out.String())
	}
	byName := map[string]int{}
	for i, f := range figs {
		byName[f.Name] = i
	}
	tests := []struct {
		name, unit, goal, na string
		value                float64
	}{
		{"step_commit_per_raw_write", "ratio", "<= 2.1", "", 2.5},
		{"evaluator", "evals/s/core", ">= 8e7", "", 181004192},
		{"par", "s", "< 60", "", 1.31},
		{"sas_late_replies_40ms_sync", "late/420", "== 0", "", 236},
		{"evaluator_32", "", ">= 8e7", "BenchmarkEval32 not found in cabinet/internal/game/poker", 0},
	}
	for _, tt := range tests {
		i, ok := byName[tt.name]
		if !ok {
			t.Errorf("figure %s missing", tt.name)
			continue
		}
		f := figs[i]
		if tt.na != "" {
			if f.Value != nil || f.NA != tt.na {
				t.Errorf("%s = %v NA %q, want null NA %q", tt.name, f.Value, f.NA, tt.na)
			}
			continue
		}
		if f.Value == nil || *f.Value != tt.value || f.Unit != tt.unit || f.Goal != tt.goal {
			t.Errorf("%s = %+v, want %v %s goal %q", tt.name, f, tt.value, tt.unit, tt.goal)
		}
	}
}

func TestBadExtra(t *testing.T) {
	for _, e := range []string{"par", "par 1.3", "par x s", "par 1 s extra"} {
		if err := run([]string{"-extra", e}, strings.NewReader(""), &bytes.Buffer{}); err == nil {
			t.Errorf("run(-extra %q) = nil error, want one", e)
		}
	}
}

func TestEngineName(t *testing.T) {
	tests := map[string]string{
		"BenchmarkRound/classic":          "classic",
		"BenchmarkClassicRound":           "classic",
		"BenchmarkRound/classic-european": "classic-european",
		"BenchmarkFreeBetRounds":          "freebet",
		"BenchmarkRound":                  "round",
	}
	for in, want := range tests {
		if got := engineName(in); got != want {
			t.Errorf("engineName(%q) = %q, want %q", in, got, want)
		}
	}
}
