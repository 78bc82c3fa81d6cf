package sim

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestScript(t *testing.T) {
	b := New()
	b.SetAcceptance(5000)
	var waited []time.Duration
	sleep := func(_ context.Context, d time.Duration) error { waited = append(waited, d); return nil }
	script := `# panel check
press deal
switch main_door on   # open
wait 250ms

bill 20.00
bill 100.00
jam on
garble
switch main_door off
`
	if err := Script(context.Background(), b, strings.NewReader(script), sleep); err != nil {
		t.Fatalf("Script = %v", err)
	}
	var got []string
	for len(b.Inputs()) > 0 {
		got = append(got, (<-b.Inputs()).String())
	}
	want := []string{"press deal", "main_door on", "bill stacked 20.00",
		"bill refused: acceptor inhibited or bill above limit", "bill jam: simulated jam",
		"bill error: simulated: the acceptor's signal was no bill", "main_door off"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("inputs %q, want %q", got, want)
	}
	if len(waited) != 1 || waited[0] != 250*time.Millisecond {
		t.Errorf("waits %v, want [250ms]", waited)
	}
}

func TestScriptErrors(t *testing.T) {
	for _, tt := range []struct{ script, want string }{
		{"press fold", `line 1 "press fold": hw: unknown button "fold"`},
		{"press\n", `line 1 "press"`},
		{"\n# x\nswitch back_door on", `line 3 "switch back_door on": hw: unknown switch "back_door"`},
		{"switch main_door open", `"open": want on or off`},
		{"bill 20.005", `line 1 "bill 20.005"`},
		{"wait soon", `want a duration`},
		{"garble twice", `line 1 "garble twice": garble: want 0 word(s)`},
		{"dance", `unknown action "dance" (want press <button>`},
	} {
		err := Script(context.Background(), New(), strings.NewReader(tt.script), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Script(%q) = %v, want an error containing %q", tt.script, err, tt.want)
		}
	}
	// A bad line stops the script: nothing after it runs.
	b := New()
	if err := Script(context.Background(), b, strings.NewReader("press deal\npress nope\npress hit"), nil); err == nil {
		t.Fatal("bad line: no error")
	}
	if n := len(b.Inputs()); n != 1 {
		t.Errorf("inputs after a bad line 2: %d, want 1", n)
	}
}
