package sashost

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// auditEvents reads `cabinet audit events --json` of a store no cabinet
// runs on, oldest first.
func auditEvents(t *testing.T, store string) []struct {
	Seq                uint64
	Kind, Text, Detail string
	Args               []struct{ Type, Value string }
} {
	t.Helper()
	bin, _ := binary()
	out, err := exec.Command(bin, "audit", "--store", store, "--json", "events").Output()
	if err != nil {
		t.Fatalf("cabinet audit events: %v\n%s", err, out)
	}
	var evs []struct {
		Seq                uint64
		Kind, Text, Detail string
		Args               []struct{ Type, Value string }
	}
	if err := json.Unmarshal(out, &evs); err != nil {
		t.Fatalf("audit events JSON: %v\n%s", err, out)
	}
	for i, j := 0, len(evs)-1; i < j; i, j = i+1, j-1 {
		evs[i], evs[j] = evs[j], evs[i]
	}
	return evs
}

// TestGarblingHostKeepsTheLog (issue 37): a host whose every long poll
// arrives damaged for 1,500 polls (60 s at the 40 ms a ticketing host may
// poll) gets each one NACKed; the event log keeps the store's
// initialisation (memory clear) and the power up, and records the link's
// fault as a handful of events carrying its count; clean polls clear it.
func TestGarblingHostKeepsTheLog(t *testing.T) {
	h, err := Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer h.Close()
	store := filepath.Join(t.TempDir(), "sas.db")
	sm := startSim(t, h, store, "--game", "classic", "--rounds", "100000", "--pace", "25ms", "--seed", "3")
	s := &session{t: t, h: h}
	s.send(0x82) // synchronise
	bad := WithCRC(addr, 0x09, 0x00, 0x01, 0x00)
	bad[len(bad)-1] ^= 0x5A
	for i := range 1500 {
		bad[4] = byte(i) // never the same message twice (no resend)
		if r := s.poll(bad, 1); len(r) != 1 || r[0] != 0x80|addr {
			t.Fatalf("damaged poll %d: % X, want the NACK %02X", i, r, 0x80|addr)
		}
	}
	for range 30 { // clean polls: the fault clears
		s.poll(gp, 1)
		s.send(ack...)
	}
	sm.stop(t, syscall.SIGTERM)

	evs := auditEvents(t, store)
	kinds := map[string]int{}
	var dev []string
	for _, e := range evs {
		kinds[e.Kind]++
		if e.Kind == "device" {
			dev = append(dev, e.Text)
			if last := e.Args[len(e.Args)-1]; e.Detail != "line_fault_began" && last.Type != "count" {
				t.Errorf("device event %q carries no count: %+v", e.Text, e.Args)
			}
		}
	}
	if kinds["memory_clear"] == 0 || kinds["power_up"] == 0 {
		t.Errorf("the log lost its memory clear or power up: %v", kinds)
	}
	t.Logf("%d events kept (%v); device events: %q", len(evs), kinds, dev)
	if len(dev) == 0 || len(dev) > 5 {
		t.Fatalf("%d device events for 1500 damaged polls, want 1 to 5: %q", len(dev), dev)
	}
	if !strings.HasPrefix(dev[0], "sas line fault began: long poll 09 with a bad CRC (01 09 00 01 00") ||
		!strings.HasPrefix(dev[len(dev)-1], "sas line fault cleared after 1500 errors") {
		t.Errorf("device events %q, want the fault begun with its first bytes … cleared after 1500 errors", dev)
	}
}
