// Command benchfmt turns the `go test -json -bench` output of scripts/bench
// into the cabinet's performance figures (README, Performance), one line per figure:
//
//	name value unit
//	name NA reason
//
// or, with -json, one JSON array of the same figures. It reads the
// concatenated `go test -json` streams of the benchmark runs on standard
// input (lines that are not JSON are ignored) and takes figures measured
// outside `go test` (the PAR run's seconds) from -extra flags:
//
//	go test -json -run '^$' -bench . ./internal/recovery | benchfmt -extra 'par 1.31 s'
//
// A benchmark that is missing, a package that did not build or failed, a
// metric that was not reported: each gives its figure as NA with the reason,
// never an error, since the benchmarks of several engineers land at
// different times. benchfmt exits non-zero only on bad flags or input it
// cannot read.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchfmt:", err)
		os.Exit(2)
	}
}

// extras collects repeated -extra flags.
type extras []string

func (e *extras) String() string     { return strings.Join(*e, "; ") }
func (e *extras) Set(s string) error { *e = append(*e, s); return nil }

func run(args []string, in io.Reader, out io.Writer) error {
	fs := flag.NewFlagSet("benchfmt", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the figures as one JSON array")
	var ex extras
	fs.Var(&ex, "extra", "a figure measured elsewhere: 'name value unit' or 'name NA reason' (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	r, err := Parse(in)
	if err != nil {
		return err
	}
	figs := Figures(r)
	for _, e := range ex {
		f, err := parseExtra(e)
		if err != nil {
			return err
		}
		figs = append(figs, f)
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(figs)
	}
	for _, f := range figs {
		if _, err := fmt.Fprintln(out, f.Line()); err != nil {
			return err
		}
	}
	return nil
}
