package controller

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// TestTechnicianScreens: the event log pages reach the oldest event of the
// ring, every configured bill denomination has a meter line (at zero too),
// a round resumed after a power cut is marked recovered in the recall, the
// program page carries the version, and the meters shown balance.
func TestTechnicianScreens(t *testing.T) {
	r := newRig(t, 5)
	r.bill(5000)
	// A round cut by a power loss, then finished.
	for r.c.Round() == nil {
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
	}
	r.boot()
	if !r.c.Snapshot().Recovered {
		t.Fatal("resumed round not marked recovered")
	}
	r.playOut()
	// Enough events for several pages: doors opened and shut.
	for range 30 {
		r.set(hw.MainDoor, true)
		r.set(hw.MainDoor, false)
	}
	r.c.opt.Version = "1.2.3"
	r.set(hw.AuditKey, true)
	a := r.c.Snapshot().Audit
	if a.Page != "meters" || a.Version != "1.2.3" {
		t.Fatalf("audit page %q version %q", a.Page, a.Version)
	}
	got := map[string]string{}
	for _, kv := range a.Meters {
		got[kv.Key] = kv.Value
	}
	for _, b := range r.c.set.Bills {
		want := "0"
		if b == 5000 {
			want = "1"
		}
		if v, ok := got["bills."+strconv.FormatInt(int64(b), 10)]; !ok || v != want {
			t.Errorf("bills.%d = %q (present %v), want %q", b, v, ok, want)
		}
	}
	m := r.c.Machine()
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Errorf("meters shown do not balance: %v", err)
	}
	// Recall: the newest round is the recovered one.
	r.mustPress(hw.Spot)
	if rv := r.c.Snapshot().Audit.Recall; rv == nil || !rv.Recovered {
		t.Fatalf("recall of the recovered round: %+v", rv)
	}
	// Events: page back to the oldest (the store's initialisation).
	r.mustPress(hw.Spot)
	a = r.c.Snapshot().Audit
	if a.Page != "events" || a.EventPages < 4 || a.EventPage != 0 || len(a.Events) != eventPageSize {
		t.Fatalf("events page %q %d/%d with %d events", a.Page, a.EventPage, a.EventPages, len(a.Events))
	}
	newest := a.Events[0].Seq
	for range a.EventPages - 1 {
		r.mustPress(hw.Hit)
	}
	a = r.c.Snapshot().Audit
	last := a.Events[len(a.Events)-1]
	if a.EventPage != a.EventPages-1 || last.Kind != "memory_clear" || last.Seq >= newest {
		t.Fatalf("last page %d/%d ends with %+v, want the store's initialisation", a.EventPage, a.EventPages, last)
	}
	if r.be.Lamps().Has(hw.Hit) {
		t.Fatal("HIT lit on the oldest page")
	}
	r.mustPress(hw.Stand)
	if p := r.c.Snapshot().Audit.EventPage; p != a.EventPages-2 {
		t.Fatalf("STAND: page %d, want %d", p, a.EventPages-2)
	}
}

// TestEventDetailsTranslated: the events the controller writes carry their
// details as typed data, and every detail and argument has its words in
// both languages (no raw "audit_key on" or "bill 20.00" on screen).
func TestEventDetailsTranslated(t *testing.T) {
	r := newRigSAS(t, 3, true)
	r.bill(2000)
	for _, in := range []hw.Input{{Kind: hw.BillRefused, Value: 500, Err: "not a bill it takes"}, {Kind: hw.BillRefused},
		{Kind: hw.BillError, Err: "pulse: partial train"}} {
		if err := r.c.Handle(HW(in)); err != nil {
			t.Fatal(err)
		}
	}
	for _, hc := range []HostCommand{{Kind: HostPlay}, {Kind: HostPlay, On: true}, {Kind: HostBills}, {Kind: HostBills, On: true},
		{Kind: HostBillDenoms, Mask: 0x1C, KeepOn: true}, {Kind: HostBillDenoms, Mask: 0x1C}, {Kind: HostGameOnOff, Game: game.Zappit}, {Kind: HostGameOnOff, Game: game.Zappit, On: true},
		{Kind: HostSound}, {Kind: HostSound, On: true}} {
		if err := r.host(hc); err != nil {
			t.Fatal(err)
		}
	}
	r.bill(1000) // the acceptor goes off after it (LP 08's action)
	if err := r.host(HostCommand{Kind: HostBills, On: true}); err != nil {
		t.Fatal(err)
	}
	r.toTable(game.Classic)
	r.playRound()
	r.mustPress(hw.Game)
	r.set(hw.AuditKey, true)
	r.mustPress(hw.Spot) // the recall page: logged (SAS 8A)
	r.set(hw.AuditKey, false)
	r.set(hw.MainDoor, true)
	r.set(hw.MainDoor, false)
	r.set(hw.OperatorKey, true)
	r.set(hw.OperatorKey, false)
	if err := r.c.Handle(HW(hw.Input{Kind: hw.BillJam, On: true, Err: "jam"})); err != nil {
		t.Fatal(err)
	}
	if err := r.c.Handle(HW(hw.Input{Kind: hw.BillJam, On: false})); err != nil {
		t.Fatal(err)
	}
	r.mustPress(hw.CashOut)
	r.set(hw.ResetKey, true)
	r.set(hw.ResetKey, false)
	var evs []meters.Event
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		evs, err = tx.Events(0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	details := map[string]bool{}
	for _, want := range []string{"host_play_locked", "host_play_enabled", "host_bills_off", "host_bills_on", "host_bill_denoms",
		"host_game_off", "host_game_on", "host_sound_off", "host_sound_on", "recall_shown", "host_bill_denoms_one",
		"host_bills_oneshot"} {
		found := false
		for _, e := range evs {
			found = found || e.Detail == want
		}
		if !found {
			t.Errorf("no %s event logged", want)
		}
	}
	verbs := regexp.MustCompile(`%[-+ #0-9.]*[a-zA-Z]`)
	for _, e := range evs {
		if e.Detail == "" {
			continue
		}
		details[e.Detail] = true
		for _, lang := range i18n.Langs() {
			key := "detail." + e.Detail
			if !i18n.Has(lang, key) {
				t.Errorf("%s: no %s", lang, key)
				continue
			}
			n := len(verbs.FindAllString(i18n.T(lang, key), -1))
			joined := e.Detail == "tilt" || e.Detail == "jam_cleared_still_tilted" // reasons joined in one verb
			if (!joined && n != len(e.Args)) || (joined && n != 1) {
				t.Errorf("%s %s: %d verbs for args %v", lang, key, n, e.Args)
			}
			for _, a := range e.Args {
				switch a.Type {
				case meters.ArgKey:
					if !i18n.Has(lang, a.Value) {
						t.Errorf("%s: no %s (in %s)", lang, a.Value, key)
					}
				case meters.ArgSwitch:
					if !i18n.Has(lang, "sw."+a.Value) {
						t.Errorf("%s: no sw.%s", lang, a.Value)
					}
				case meters.ArgMoney, meters.ArgCount, meters.ArgText:
				default:
					t.Errorf("%s: arg type %q", key, a.Type)
				}
			}
		}
	}
	for _, d := range []string{"bill", "switch_opened", "switch_closed", "switch_on", "switch_off", "tilt", "tilt_cleared", "cashout_handpay", "handpay_paid",
		"bill_refused", "bill_refused_unknown", "bill_error"} {
		if !details[d] {
			t.Errorf("no event with detail %q (got %v)", d, details)
		}
	}
	// The audit screen carries them.
	r.set(hw.AuditKey, true)
	r.mustPress(hw.Spot)
	r.mustPress(hw.Spot)
	a := r.c.Snapshot().Audit
	if a.Page != "events" || len(a.Events) == 0 || a.Events[0].Detail == "" || len(a.Events[0].Args) == 0 {
		t.Fatalf("events page: %+v", a.Events[:min(2, len(a.Events))])
	}
}

// TestSelfTestPageLive: the audit's self-test page runs the real checks
// when it opens: a sound cabinet is all OK; an open door and a jammed
// acceptor show as such.
func TestSelfTestPageLive(t *testing.T) {
	r := newRig(t, 2)
	checks := func() map[string]string {
		r.set(hw.AuditKey, true)
		for r.c.Snapshot().Audit.Page != "selftest" {
			r.mustPress(hw.Spot)
		}
		out := map[string]string{}
		for _, kv := range r.c.Snapshot().Audit.Checks {
			out[kv.Key] = kv.Value
		}
		r.set(hw.AuditKey, false)
		return out
	}
	got := checks()
	for _, k := range []string{"store", "invariant", "pool", "digest", "rng", "config", "main_door", "cash_door", "acceptor"} {
		if got[k] != "ok" {
			t.Errorf("sound cabinet: %s = %q, want ok", k, got[k])
		}
	}
	r.set(hw.MainDoor, true)
	if err := r.c.Handle(HW(hw.Input{Kind: hw.BillJam, On: true, Err: "test"})); err != nil {
		t.Fatal(err)
	}
	got = checks()
	if got["main_door"] != "open" || got["acceptor"] != "jammed" || got["store"] != "ok" {
		t.Errorf("door open and jam: %v", got)
	}
}

func TestRNGHealth(t *testing.T) {
	if err := rngHealthy(SeededRNG{Seed: 1}.Step(0, -1)); err != nil {
		t.Errorf("a sound source failed: %v", err)
	}
	if err := rngHealthy(bytes.NewReader(make([]byte, 2500))); err == nil {
		t.Error("a source of zeros passed")
	}
}
