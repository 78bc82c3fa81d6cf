package controller

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/player"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// queued drains the store's SAS exception queue as a host would.
func (r *rig) queued() []byte {
	r.t.Helper()
	var out []byte
	for range 200 {
		var e recovery.Exception
		var ok bool
		if err := r.st.View(func(tx *recovery.Tx) error {
			var err error
			e, ok, err = tx.PeekException()
			return err
		}); err != nil {
			r.t.Fatal(err)
		}
		if !ok {
			return out
		}
		out = append(out, e.Code)
		if err := r.st.Update(func(tx *recovery.Tx) error { return tx.AckException(e.Seq) }); err != nil {
			r.t.Fatal(err)
		}
	}
	r.t.Fatal("queue does not drain")
	return nil
}

// playRound plays one Classic round at the minimum bet with basic strategy,
// pressing only lit buttons.
func (r *rig) playRound() {
	r.t.Helper()
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	r.finishRound()
}

// finishRound plays the open round to its end with basic strategy,
// pressing only lit buttons.
func (r *rig) finishRound() {
	r.t.Helper()
	for i := 0; r.c.Round() != nil; i++ {
		if i > 30 {
			r.t.Fatal("round did not finish")
		}
		legal := r.c.Round().Legal(r.c.Credits())
		act := player.Basic(r.c.Round().(*blackjack.Round), legal)
		for b := hw.Button(0); b < hw.NumButtons; b++ {
			if k, ok := ActionFor(b, legal); ok && k == act {
				r.mustPress(b)
				break
			}
		}
	}
}

func (r *rig) toTable(id game.ID) {
	r.t.Helper()
	for r.c.Snapshot().Game != id {
		r.mustPress(hw.Spot)
	}
	r.mustPress(hw.Deal)
}

func newSASRig(t *testing.T) *rig { return newRigSAS(t, 3, true) }

// Every event the host may have to hear of is emitted in the commit of the
// event itself, in order; a refused input emits nothing.
func TestHostEventsFollowEvents(t *testing.T) {
	r := newSASRig(t)
	logged := func(detail string) []byte { return []byte{byte(HostLogged), detail[0]} }
	cat := func(bs ...[]byte) []byte { return slices.Concat(bs...) }
	if got, want := r.queued(), cat(logged("pool_set"), logged("power_up")); !cmp.Equal(got, want) {
		t.Fatalf("at boot queued % X, want % X", got, want)
	}
	r.set(hw.MainDoor, true)
	r.set(hw.MainDoor, false)
	r.bill(2000)
	r.toTable(game.Classic)
	r.playRound()
	want := cat(logged("switch_opened"), logged("tilt"), logged("switch_closed"), logged("tilt_cleared"), logged("bill"),
		[]byte{byte(HostGameSelected)}, []byte{byte(HostGameStarted)})
	got := r.queued()
	if len(got) < len(want) || !cmp.Equal(got[:len(want)], want) {
		t.Errorf("queued % X\nwant   % X…", got, want)
	}
	if !bytes.Contains(got, []byte{byte(HostGameEnded)}) {
		t.Errorf("queued % X: no game ended", got)
	}
	// A refused input commits nothing and queues nothing.
	if err := r.press(hw.Split); err == nil {
		t.Fatal("SPLIT accepted between rounds")
	}
	if got := r.queued(); len(got) != 0 {
		t.Errorf("a refused input queued % X", got)
	}
}

// TestBillAcceptorOneShot: LP 08 with its action flag 00 turns the acceptor
// off after each accepted bill, in that bill's own transaction (a power
// cut cannot lose it), until LP 06 enables it again; a bill offered
// meanwhile is returned and says why. Action 01 keeps it on.
func TestBillAcceptorOneShot(t *testing.T) {
	r := newSASRig(t)
	if err := r.host(HostCommand{Kind: HostBillDenoms, Mask: 0xFFF}); err != nil {
		t.Fatal(err)
	}
	if r.be.Acceptance() == 0 {
		t.Fatal("acceptor off before any bill")
	}
	mustOK(r, r.insert(2000))
	wantCredits(t, r, 2000)
	if got := r.be.Acceptance(); got != 0 {
		t.Fatalf("acceptance after a bill under LP 08 action 00 = %v, want off", got)
	}
	r.boot() // the acceptor stays off across a power cut
	if got := r.be.Acceptance(); got != 0 {
		t.Fatalf("acceptance after a reboot = %v, want still off", got)
	}
	mustOK(r, r.insert(2000))
	wantCredits(t, r, 2000)
	if got := r.c.Snapshot().Message; got != NoticeBillInhibited {
		t.Errorf("bill offered while off: message %q, want %q", got, NoticeBillInhibited)
	}
	if err := r.host(HostCommand{Kind: HostBills, On: true}); err != nil { // LP 06
		t.Fatal(err)
	}
	mustOK(r, r.insert(2000))
	wantCredits(t, r, 4000)
	// Action 01: the acceptor stays on.
	if err := r.host(HostCommand{Kind: HostBillDenoms, Mask: 0xFFF, KeepOn: true}); err != nil {
		t.Fatal(err)
	}
	if err := r.host(HostCommand{Kind: HostBills, On: true}); err != nil {
		t.Fatal(err)
	}
	mustOK(r, r.insert(2000))
	mustOK(r, r.insert(2000))
	wantCredits(t, r, 8000)
	r.boot() // a boot sets the acceptor from the store (so the check above after a reboot can fail)
	if r.be.Acceptance() == 0 {
		t.Error("acceptor off after a reboot with action 01")
	}
}

// TestResetKeyInAuditSaysWhy: with the audit key on, the reset key does not
// pay a pending handpay; the screen says so (and keeps saying it after the
// key springs back), and once the audit key is off the reset key pays it.
func TestResetKeyInAuditSaysWhy(t *testing.T) {
	r := newRig(t, 3)
	r.bill(2000)
	r.mustPress(hw.CashOut)
	r.set(hw.AuditKey, true)
	r.set(hw.ResetKey, true)
	if m := r.c.Machine(); m.Handpay != 2000 || m.Credits != 2000 {
		t.Fatalf("handpay paid with the audit key on: handpay %v credits %v", m.Handpay, m.Credits)
	}
	if got := r.c.Snapshot().Message; got != NoticeResetInAudit {
		t.Errorf("message = %q, want %q", got, NoticeResetInAudit)
	}
	r.set(hw.ResetKey, false)
	if got := r.c.Snapshot().Message; got != NoticeResetInAudit {
		t.Errorf("message after the key springs back = %q, want %q", got, NoticeResetInAudit)
	}
	r.set(hw.AuditKey, false)
	if got := r.c.Snapshot().Message; got != "" {
		t.Errorf("message after the audit key = %q, want none", got)
	}
	r.set(hw.ResetKey, true)
	if m := r.c.Machine(); m.Handpay != 0 || m.Credits != 0 || m.Meters.HandpayCancelled != 2000 {
		t.Errorf("after the reset key: handpay %v credits %v cancelled %v", m.Handpay, m.Credits, m.Meters.HandpayCancelled)
	}
}

// TestHostEqualSeesEveryField: changing any one field of the host state
// makes hostEqual false (a command that changes a field nobody compares
// would be dropped as "nothing changed").
func TestHostEqualSeesEveryField(t *testing.T) {
	typ := reflect.TypeOf(recovery.HostState{})
	for i := range typ.NumField() {
		var a recovery.HostState
		f := reflect.ValueOf(&a).Elem().Field(i)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint32, reflect.Uint64:
			f.SetUint(1)
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		default:
			t.Fatalf("field %s of kind %s: teach this test", typ.Field(i).Name, f.Kind())
		}
		if hostEqual(a, recovery.HostState{}) {
			t.Errorf("hostEqual ignores HostState.%s", typ.Field(i).Name)
		}
	}
}

// Without SAS nothing is queued.
func TestNoSASNoExceptions(t *testing.T) {
	r := newRig(t, 3)
	r.set(hw.MainDoor, true)
	r.set(hw.MainDoor, false)
	r.bill(2000)
	if got := r.queued(); len(got) != 0 {
		t.Errorf("queued % X without SAS", got)
	}
}

// LP 01 lets the round in progress finish, then refuses to start one with
// its reason on screen; cash out still works; the lock-out outlives a power
// cut; LP 02 lifts it.
func TestHostLockOut(t *testing.T) {
	r := newSASRig(t)
	r.bill(5000)
	r.toTable(game.Classic)
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	if r.c.Round() == nil {
		t.Skip("seed settled the round at the deal")
	}
	if err := r.host(HostCommand{Kind: HostPlay, On: false}); err != nil {
		t.Fatal(err)
	}
	r.finishRound()
	r.boot() // a power cut: the lock-out is in the store
	r.toTable(game.Classic)
	r.mustPress(hw.BetPlus)
	s := r.c.Snapshot()
	if s.Lamps.Has(hw.Deal) {
		t.Error("DEAL lit while the host locks play out")
	}
	err := r.press(hw.Deal)
	if !errors.Is(err, ErrNotNow) {
		t.Fatalf("deal while locked out = %v, want ErrNotNow", err)
	}
	if got := r.c.Snapshot().Message; got != NoticeHostLocked {
		t.Errorf("message = %q, want %q", got, NoticeHostLocked)
	}
	if err := r.play(game.Action{Kind: game.Deal, Bets: r.c.set.autoBets(game.Classic)}); !errors.Is(err, ErrHostLocked) {
		t.Errorf("Play while locked out = %v, want ErrHostLocked", err)
	}
	r.mustPress(hw.Game)
	r.mustPress(hw.CashOut) // cash out stays available
	r.set(hw.ResetKey, true)
	r.set(hw.ResetKey, false)
	if err := r.host(HostCommand{Kind: HostPlay, On: true}); err != nil {
		t.Fatal(err)
	}
	r.bill(2000)
	r.toTable(game.Classic)
	r.playRound()
}

func TestHostGameAndBills(t *testing.T) {
	r := newSASRig(t)
	r.bill(5000)
	if err := r.host(HostCommand{Kind: HostGameOnOff, Game: game.Classic, On: false}); err != nil {
		t.Fatal(err)
	}
	hi := r.c.HostInfo()
	if len(hi.Games) != len(game.IDs) || hi.Games[3].ID != game.Classic || hi.Games[3].Enabled || !hi.Games[0].Enabled {
		t.Fatalf("host info games = %+v", hi.Games)
	}
	r.toTable(game.Classic)
	r.mustPress(hw.BetPlus)
	if err := r.press(hw.Deal); !errors.Is(err, ErrNotNow) {
		t.Fatalf("deal of a disabled game = %v", err)
	}
	if got := r.c.Snapshot().Message; got != NoticeHostGameOff {
		t.Errorf("message = %q, want %q", got, NoticeHostGameOff)
	}
	if err := r.host(HostCommand{Kind: HostGameOnOff, Game: "nope"}); err == nil {
		t.Error("unknown game accepted")
	}
	r.mustPress(hw.Game)
	if got := acceptance(r.c.led.cur(), &r.c.set, r.c.scr.mode); got == 0 {
		t.Fatal("acceptor off before the host command")
	}
	if err := r.host(HostCommand{Kind: HostBills, On: false}); err != nil {
		t.Fatal(err)
	}
	if got := r.be.Acceptance(); got != 0 {
		t.Errorf("acceptance after LP 07 = %v, want 0", got)
	}
	if err := r.host(HostCommand{Kind: HostBills, On: true}); err != nil {
		t.Fatal(err)
	}
	if err := r.host(HostCommand{Kind: HostBillDenoms, Mask: 1<<2 | 1<<3}); err != nil { // $5, $10
		t.Fatal(err)
	}
	if got := r.be.Acceptance(); got != 1000 {
		t.Errorf("acceptance with only 5 and 10 allowed = %v, want 10.00", got)
	}
	if r.c.Snapshot().Mode != view.Menu {
		t.Errorf("mode = %s", r.c.Snapshot().Mode)
	}
}
