package recovery

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestGuardOnlyFaultsAreCorruption: a real memory fault (a read of a mapped
// file beyond its end after it was truncated: SIGBUS, turned into a panic by
// SetPanicOnFault) is reported as ErrCorrupt; ordinary panics propagate as
// the bugs they are (docs/recovery.md: they were all reported as corruption).
func TestGuardOnlyFaultsAreCorruption(t *testing.T) {
	t.Run("fault", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mapped")
		if err := os.WriteFile(path, make([]byte, 8192), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		data, err := syscall.Mmap(int(f.Fd()), 0, 8192, syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Munmap(data)
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		var sink byte
		err = guard("test", func() error { sink = data[4096]; return nil })
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("guard(fault) = %v (read %d), want ErrCorrupt", err, sink)
		}
	})
	bugs := map[string]func(){
		"nil map": func() {
			var m map[string]int
			m["x"] = 1
		},
		"index out of range": func() {
			s := []int{1}
			i := 3
			_ = s[i]
		},
		"nil pointer": func() {
			var p *Machine
			_ = p.Credits
		},
		"string": func() { panic("something else") },
	}
	for name, bug := range bugs {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("panic swallowed, want it to propagate")
				}
			}()
			err := guard("test", func() error { bug(); return nil })
			t.Errorf("guard returned %v, want the panic to propagate", err)
		})
	}
}
