package recovery

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cabinet/internal/meters"
)

// FuzzUnseal: any bytes either fail with a CorruptError or are a record
// whose re-sealing gives the same bytes.
func FuzzUnseal(f *testing.F) {
	f.Add([]byte("machine"), []byte("machine"), seal(bMachine, kMachine, []byte(`{"credits":5}`)))
	f.Add([]byte("events"), seqKey(3), seal(bEvents, seqKey(3), []byte(`{"seq":3}`)))
	f.Add([]byte("x"), []byte("y"), []byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, bucket, key, raw []byte) {
		p, err := unseal(bucket, key, raw)
		if err != nil {
			var ce *CorruptError
			if !asCorrupt(err, &ce) || ce.Bucket != string(bucket) {
				t.Fatalf("unseal error %v is not a CorruptError naming bucket %q", err, bucket)
			}
			return
		}
		if got := seal(bucket, key, p); !bytes.Equal(got, raw) {
			t.Fatalf("seal(unseal(raw)) = %x, want %x", got, raw)
		}
	})
}

func asCorrupt(err error, ce **CorruptError) bool {
	c, ok := err.(*CorruptError)
	*ce = c
	return ok
}

// fuzzDecode checks one record type: a sealed payload decodes without panic,
// and a value that decodes re-encodes to a value that decodes the same.
func fuzzDecode[T any](f *testing.F, bucket, key []byte, seeds ...T) {
	for _, s := range seeds {
		b, err := json.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		var v T
		if err := decode(bucket, key, seal(bucket, key, payload), &v); err != nil {
			return
		}
		raw, err := encode(bucket, key, v)
		if err != nil {
			return // e.g. a decoded value JSON cannot re-encode; not a store bug
		}
		var w T
		if err := decode(bucket, key, raw, &w); err != nil {
			t.Fatalf("re-encoded %s/%s does not decode: %v", bucket, keyString(key), err)
		}
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(w)
		if !bytes.Equal(a, b) {
			t.Fatalf("round trip changed the record:\n%s\n%s", a, b)
		}
	})
}

func FuzzDecodeMachine(f *testing.F) {
	m := Machine{Credits: 100, NextRound: 3, PoolUnits: 77}
	m.Meters.BillsIn = 100
	m.Meters.Bills = map[string]int64{"500": 1}
	fuzzDecode(f, bMachine, kMachine, m)
}

func FuzzDecodeOpenRound(f *testing.F) {
	fuzzDecode(f, bRound, kOpen, OpenRound{Game: "classic", Round: 2, State: json.RawMessage(`{"a":1}`)})
}

func FuzzDecodeRecall(f *testing.F) {
	fuzzDecode(f, bRecall, seqKey(1), sampleRecall(1))
}

func FuzzDecodeEvent(f *testing.F) {
	fuzzDecode(f, bEvents, seqKey(1), meters.Event{Seq: 1, Kind: meters.KindDoor, Text: "main door opened"})
}

func FuzzDecodeMeta(f *testing.F) {
	fuzzDecode(f, bMeta, kStore, storeMeta{Format: storeFormat})
}

// FuzzCheckFile: the file walker reads arbitrary bytes (a damaged store)
// without panicking or reading out of bounds.
func FuzzCheckFile(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed.db")
	s, err := Open(path, Options{Init: true})
	if err != nil {
		f.Fatal(err)
	}
	_ = s.Update(func(tx *Tx) error { return tx.Log(meters.KindPowerUp, "power up") })
	s.Close()
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, uint32(0), byte(0))
	f.Add(good, uint32(4096*2+20), byte(0xff))
	f.Add(good[:8192], uint32(100), byte(1))
	f.Fuzz(func(t *testing.T, data []byte, at uint32, x byte) {
		if len(data) > 0 {
			data = bytes.Clone(data)
			data[int(at)%len(data)] ^= x
		}
		fatal, problems, err := checkFile(data)
		if err != nil {
			t.Fatalf("checkFile = %v", err)
		}
		if fatal && len(problems) == 0 {
			t.Fatalf("checkFile: fatal without a problem")
		}
	})
}

// TestFuzzSeedsDecode: the committed corpus directories exist for every
// decoder fuzz target (go test runs them as regular tests).
func TestFuzzSeedsDecode(t *testing.T) {
	for _, name := range []string{"FuzzUnseal", "FuzzDecodeMachine", "FuzzDecodeOpenRound", "FuzzDecodeRecall", "FuzzDecodeEvent", "FuzzDecodeMeta"} {
		ents, err := os.ReadDir(filepath.Join("testdata", "fuzz", name))
		if err != nil || len(ents) == 0 {
			t.Errorf("testdata/fuzz/%s: %v, %d files; want a committed seed corpus", name, err, len(ents))
		}
	}
}
