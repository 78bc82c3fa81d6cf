package crashtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"

	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// Outcome of booting one damaged store.
type Outcome int

// The outcomes. Refused, MemoryError and Clean (identical) are correct;
// Different and Crashed fail the harness. LateError (damage Check did not
// see, found after the boot's first write) is reported but safe: no money
// moved on a store the check passed with different content.
const (
	Refused     Outcome = iota // Open reported the file corrupt: the cabinet does not start
	MemoryError                // Check failed: memory-error tilt, nothing written
	Clean                      // Check passed and every record is identical
	LateError                  // Check passed, identical records, but the boot write exposed damage
	Different                  // Check passed with different content: FAILURE
	Crashed                    // a panic escaped: FAILURE
	numOutcomes
)

func (o Outcome) String() string {
	return [numOutcomes]string{"refused at open", "memory error", "clean boot, identical", "late memory error",
		"CLEAN BOOT WITH DIFFERENT CONTENT", "CRASH"}[o]
}

// Summary counts the outcomes of a corruption run.
type Summary struct {
	Cases    int
	Count    [numOutcomes]int
	ByDamage map[string][numOutcomes]int
	Failures []string // first failing cases, described
}

// Bad reports whether any case ended in a forbidden outcome.
func (s Summary) Bad() bool { return s.Count[Different] > 0 || s.Count[Crashed] > 0 }

func (s Summary) String() string {
	out := fmt.Sprintf("corruption: %d cases:", s.Cases)
	for o := range numOutcomes {
		out += fmt.Sprintf(" %s %d;", o, s.Count[o])
	}
	for _, d := range damageNames() {
		c := s.ByDamage[d]
		out += fmt.Sprintf("\n  %-22s refused %4d  memory error %4d  clean %4d  late %3d  different %d  crash %d",
			d, c[Refused], c[MemoryError], c[Clean], c[LateError], c[Different], c[Crashed])
	}
	for _, f := range s.Failures {
		out += "\n  FAIL " + f
	}
	return out
}

func damageNames() []string {
	return []string{"flip one bit", "flip bytes anywhere", "flip bytes in a page", "zero a page",
		"zero 64 bytes", "flip a meta page byte", "truncate"}
}

// damage applies damage kind k to a copy of data.
func damage(k int, data []byte, rng *rand.Rand) ([]byte, string) {
	b := append([]byte(nil), data...)
	ps := os.Getpagesize()
	pages := len(b) / ps
	switch k {
	case 0:
		i := rng.IntN(len(b))
		bit := byte(1) << rng.IntN(8)
		b[i] ^= bit
		return b, fmt.Sprintf("bit %#x of byte %d", bit, i)
	case 1:
		n := 1 + rng.IntN(16)
		for range n {
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		}
		return b, fmt.Sprintf("%d random bytes", n)
	case 2:
		p := 2 + rng.IntN(max(pages-2, 1))
		n := 1 + rng.IntN(4)
		for range n {
			i := min(p*ps+rng.IntN(ps), len(b)-1)
			b[i] ^= byte(1 + rng.IntN(255))
		}
		return b, fmt.Sprintf("%d bytes of page %d", n, p)
	case 3:
		p := rng.IntN(pages)
		clear(b[p*ps : (p+1)*ps])
		return b, fmt.Sprintf("page %d zeroed", p)
	case 4:
		i := rng.IntN(len(b) - 64)
		clear(b[i : i+64])
		return b, fmt.Sprintf("64 bytes at %d zeroed", i)
	case 5:
		p := rng.IntN(2)
		i := p*ps + 16 + rng.IntN(64)
		b[i] ^= byte(1 + rng.IntN(255))
		return b, fmt.Sprintf("byte %d of meta page %d", i, p)
	default:
		n := rng.IntN(len(b))
		return b[:n], fmt.Sprintf("truncated to %d of %d bytes", n, len(b))
	}
}

// Corrupt damages n copies of the store at src (in dir) and boots each.
func Corrupt(ctx context.Context, src, dir string, n int, seed uint64, out io.Writer) (Summary, error) {
	s := Summary{ByDamage: map[string][numOutcomes]int{}}
	want, err := Load(src)
	if err != nil {
		return s, fmt.Errorf("crashtest: corruption source %s: %w", src, err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return s, fmt.Errorf("crashtest: read %s: %w", src, err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f7272))
	path := filepath.Join(dir, "damaged.db")
	for i := range n {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		names := damageNames()
		k := rng.IntN(len(names))
		b, what := damage(k, data, rng)
		for _, p := range []string{path, path + ".clearing"} {
			if err := removeStore(p); err != nil {
				return s, err
			}
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return s, fmt.Errorf("crashtest: write %s: %w", path, err)
		}
		o, detail := boot(path, want)
		s.Cases++
		s.Count[o]++
		c := s.ByDamage[names[k]]
		c[o]++
		s.ByDamage[names[k]] = c
		if (o == Different || o == Crashed) && len(s.Failures) < 20 {
			s.Failures = append(s.Failures, fmt.Sprintf("case %d (%s: %s): %s: %s", i, names[k], what, o, detail))
		}
		if out != nil && (i+1)%100 == 0 {
			fmt.Fprintf(out, "corruption: %d/%d cases\n", i+1, n)
		}
	}
	_ = removeStore(path)
	return s, nil
}

// boot opens a damaged copy as the cabinet would (read-write), checks it,
// reads it, and on a clean check makes the boot's first write and checks
// again. It never lets a panic escape.
func boot(path string, want *State) (o Outcome, detail string) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			o, detail = Crashed, fmt.Sprint(r)
		}
	}()
	st, err := recovery.Open(path, recovery.Options{})
	if err != nil {
		return Refused, err.Error()
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		uerr := st.Update(func(tx *recovery.Tx) error { return tx.Log(meters.KindPowerUp, "power up") })
		if !errors.Is(uerr, recovery.ErrFailed) {
			return Different, fmt.Sprintf("check failed (%v) but a write was accepted (%v)", err, uerr)
		}
		return MemoryError, err.Error()
	}
	got, err := read(st)
	if err != nil {
		return Different, "check passed but reading failed: " + err.Error()
	}
	if !sameJSON(got, want) {
		if d := Compare(got, want); len(d) > 0 {
			return Different, d[0]
		}
		return Different, "records differ (times or event ring)"
	}
	// The boot's first write, as the controller makes it.
	err = st.Update(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Meters.PowerUps++
		if err := tx.Log(meters.KindPowerUp, "power up"); err != nil {
			return err
		}
		return tx.PutMachine(m)
	})
	if err != nil {
		return LateError, "boot write: " + err.Error()
	}
	if err := st.Check(); err != nil {
		return LateError, "check after the boot write: " + err.Error()
	}
	after, err := read(st)
	if err != nil {
		return LateError, "read after the boot write: " + err.Error()
	}
	if d := Compare(after, want); len(d) > 0 {
		return Different, "after the boot write: " + d[0]
	}
	return Clean, ""
}
