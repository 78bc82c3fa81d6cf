package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Result is one benchmark's line: its name without the GOMAXPROCS suffix
// (BenchmarkRound/classic), iterations and every metric by unit (ns/op,
// rounds/s, …).
type Result struct {
	Pkg     string
	Name    string
	N       int64
	Metrics map[string]float64
}

// Run is everything read from the streams: the results in order and, for
// each package that did not pass, why.
type Run struct {
	Results []Result
	Failed  map[string]string // package -> reason
}

// event is the part of a test2json event benchfmt needs.
type event struct {
	Action     string
	Package    string
	ImportPath string // build events
	Test       string
	Output     string
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// Parse reads concatenated `go test -json` streams.
func Parse(in io.Reader) (*Run, error) {
	r := &Run{Failed: map[string]string{}}
	partial := map[string]string{} // package+test -> output not yet ended by a newline
	lastOut := map[string][]string{}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			continue // not a test2json event (a tool's own output)
		}
		pkg := e.Package
		if pkg == "" {
			pkg = e.ImportPath
		}
		switch e.Action {
		case "build-output", "output":
			key := pkg + "\x00" + e.Test
			text := partial[key] + e.Output
			lines := strings.Split(text, "\n")
			partial[key] = lines[len(lines)-1]
			for _, l := range lines[:len(lines)-1] {
				if res, ok := parseLine(pkg, l); ok {
					r.Results = append(r.Results, res)
				} else if t := strings.TrimSpace(l); t != "" && e.Test == "" {
					lastOut[pkg] = append(lastOut[pkg], t)
				}
			}
		case "build-fail":
			r.Failed[pkg] = "build failed: " + tail(lastOut[pkg])
		case "fail":
			if e.Test == "" {
				if _, ok := r.Failed[pkg]; !ok {
					r.Failed[pkg] = "failed: " + tail(lastOut[pkg])
				}
			}
		case "skip":
			if e.Test == "" {
				r.Failed[pkg] = "skipped"
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read go test -json: %w", err)
	}
	return r, nil
}

// tail is the last meaningful output line of a package, for a reason.
func tail(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if l == "FAIL" || strings.HasPrefix(l, "FAIL\t") || strings.HasPrefix(l, "# ") {
			continue
		}
		return l
	}
	return "no output"
}

// parseLine reads a benchmark result line:
//
//	BenchmarkEval-2   218201278   5.535 ns/op   180680815 evals/s   0 B/op
func parseLine(pkg, l string) (Result, bool) {
	f := strings.Fields(l)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
		return Result{}, false
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return Result{}, false
	}
	res := Result{Pkg: pkg, Name: procSuffix.ReplaceAllString(f[0], ""), N: n, Metrics: map[string]float64{}}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Result{}, false
		}
		res.Metrics[f[i+1]] = v
	}
	return res, true
}
