package display

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"time"

	"cabinet/internal/hw/sim"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// TestQuickTapsAreInputs types on the real window through the X server
// (xdotool's XTEST, as a keyboard does): taps released before the next frame
// reads the keyboard — here every key of the burst is pressed and released
// while no frame runs — must each reach the panel once, in order. Reading
// each key's state at the frame instead of raylib's queue of presses loses
// them all (the key is up at both frames).
func TestQuickTapsAreInputs(t *testing.T) {
	xdotool, err := exec.LookPath("xdotool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xdotool is missing (scripts/test installs it)")
		}
		t.Skip("xdotool not installed (scripts/test installs it)")
	}
	o := offscreen(t)
	frame := func() { rl.BeginDrawing(); rl.ClearBackground(colBackground); rl.EndDrawing() }
	if err := o.do(func() { rl.ClearWindowState(rl.FlagWindowHidden); frame() }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.do(func() { rl.SetWindowState(rl.FlagWindowHidden); frame() }) })
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(xdotool, args...).CombinedOutput(); err != nil {
			t.Fatalf("xdotool %v: %v: %s", args, err, out)
		}
	}
	// This process's window only (tests of other packages may draw on the
	// same X server at the same time).
	run("search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(os.Getpid()), "--name", "^cabinet offscreen$", "windowfocus", "--sync")
	// Nothing from before the burst: one frame drains the queue.
	if err := o.do(frame); err != nil {
		t.Fatal(err)
	}
	// Deal, Help, Hit, a 10.00 bill, the main door: each pressed and
	// released at once, all before the next frame.
	run("key", "--delay", "0", "d", "F1", "h", "2", "m")
	time.Sleep(100 * time.Millisecond) // the X server has delivered them all
	be := sim.New()
	if err := be.SetAcceptance(100000); err != nil {
		t.Fatal(err)
	}
	if err := o.do(func() {
		frame() // reads the window system's events
		pollInput(be, keymap(), func(p rl.Vector2) (float32, float32) { return p.X, p.Y })
	}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(be.Inputs()) > 0 {
		got = append(got, (<-be.Inputs()).String())
	}
	want := []string{"press deal", "press help", "press hit", "bill stacked 10.00", "main_door on"}
	if !slices.Equal(got, want) {
		t.Errorf("inputs from five quick taps = %q, want %q", got, want)
	}
}
