package crashtest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// The power-cut harness (docs/recovery.md), in the spirit of ALICE (OSDI'14)
// and of bbolt's dm-flakey tests. A SIGKILL keeps the kernel's page cache,
// so it cannot show that the store survives a power cut; this harness does:
//
//  1. a `cabinet sim` child makes a store with its proof (--rounds 0), then
//     plays PowerCut rounds on it under strace, which records every write
//     (pwrite64), truncation and sync (fdatasync, fsync) of the store and of
//     the proof file, with their bytes;
//  2. the trace is replayed over a copy of the two files as they were before
//     the traced run. At every sync (and at the end) the harness builds the
//     states a power cut may leave: the files as of their last syncs plus
//     any subset of the writes not yet synced (all subsets up to 2^6, else
//     every prefix and random subsets), and every write torn after each of
//     its 512-byte sectors on top of the writes before it;
//  3. the cabinet's store boots on each state (recovery.Open with the proof,
//     Check, a read of every record, the boot's first write, Check again),
//     and the harness requires: a memory error, or the store holds exactly
//     commit s or s+1, where s is the number of commits whose proof write
//     had been synced (shown) at the cut, and its records are those of that
//     commit in the uninterrupted trace (restart events aside) — never other
//     credits, never another card.
//
// What a state is "exactly" is taken from the same trace: the store as
// durable after commit k's proof was synced. A missing fsync anywhere in the
// commit path would let a shown commit be lost in some state and fail the
// harness.

// PowerCutConfig is one power-cut run.
type PowerCutConfig struct {
	Bin, Config string
	Game        string
	Rounds      int64
	Seed        uint64
	Dir         string
	// MaxSubsets bounds the subsets of unsynced writes tried per sync
	// (all of them when there are at most 2^6), TornPerWrite the torn
	// variants per write (0: every sector boundary).
	MaxSubsets, TornPerWrite int
	// FlipSyncs is the proof-damage case (issue 27): at this many syncs,
	// evenly spread (the last one included; negative: every sync), and
	// after the run, each byte of each proof slot is flipped (XOR 0xFF) in
	// two crash states — none of the unsynced writes, and all of them —
	// and each is booted: none may hold an older commit than the last one
	// shown. 0: no flips.
	FlipSyncs int
	Out       io.Writer
}

// PowerCutSummary counts the crash states booted by outcome.
type PowerCutSummary struct {
	States, Duplicates, Syncs, Commits int
	Clean, MemoryError, Failed         int
	// Flips counts the states of the proof-damage case (PowerCutConfig.FlipSyncs),
	// booted and judged like the others but counted apart.
	Flips    FlipSummary
	Failures []string
}

// FlipSummary counts the proof-damage states by outcome.
type FlipSummary struct {
	Points, States, Duplicates, Clean, MemoryError, Failed int
}

func (s PowerCutSummary) String() string {
	out := fmt.Sprintf("power cut: %d syncs over %d commits traced; %d distinct crash states booted (%d duplicates skipped): %d exact (commit shown or the unshown next), %d memory error, %d FAILED",
		s.Syncs, s.Commits, s.States, s.Duplicates, s.Clean, s.MemoryError, s.Failed)
	if f := s.Flips; f.States > 0 {
		out += fmt.Sprintf("\nproof damage: each byte of each proof slot flipped at %d points: %d states booted: %d exact, %d memory error, %d FAILED (older than the commit shown, or other records)",
			f.Points, f.States, f.Clean, f.MemoryError, f.Failed)
	}
	return out
}

type fileOp struct {
	file int // 0 store, 1 proof
	kind byte
	off  int64
	data []byte // write
	size int64  // truncate
}

const (
	opWrite = 'w'
	opTrunc = 't'
	opSync  = 's'
)

// PowerCut runs the harness.
func PowerCut(ctx context.Context, c PowerCutConfig) (PowerCutSummary, error) {
	var sum PowerCutSummary
	if c.Out == nil {
		c.Out = io.Discard
	}
	if _, err := exec.LookPath("strace"); err != nil {
		return sum, fmt.Errorf("crashtest: the power-cut harness records syscalls with strace: %w", err)
	}
	store, err := filepath.Abs(filepath.Join(c.Dir, "powercut.db"))
	if err != nil {
		return sum, err
	}
	mirror := store + ".mirror"
	if err := removeStore(store); err != nil {
		return sum, err
	}
	sim := func(rounds int64, prefix ...string) *exec.Cmd {
		args := append(prefix, c.Bin, "sim", "--game", c.Game, "--rounds", strconv.FormatInt(rounds, 10),
			"--seed", strconv.FormatUint(c.Seed, 10), "--store", store, "--quiet")
		if c.Config != "" {
			args = append(args, "--config", c.Config)
		}
		return exec.CommandContext(ctx, args[0], args[1:]...)
	}
	if out, err := sim(0).CombinedOutput(); err != nil {
		return sum, fmt.Errorf("%w: power-cut setup: %w\n%s", ErrChild, err, out)
	}
	var base [2][]byte
	for i, p := range []string{store, mirror} {
		if base[i], err = os.ReadFile(p); err != nil {
			return sum, fmt.Errorf("crashtest: power-cut setup: %w", err)
		}
	}
	st, err := recovery.Open(store, recovery.Options{ReadOnly: true})
	if err != nil {
		return sum, err
	}
	baseN, err := st.Commits()
	_ = st.Close()
	if err != nil {
		return sum, err
	}
	trace := filepath.Join(c.Dir, "powercut.strace")
	cmd := sim(c.Rounds, "strace", "-f", "-qq", "-o", trace, "-xx", "-s", "67108864", "-e", "signal=none",
		"-e", "trace=openat,open,close,write,pwrite64,pwritev,pwritev2,writev,fdatasync,fsync,ftruncate,fallocate,sync_file_range,rename,renameat,renameat2,unlink,unlinkat")
	if out, err := cmd.CombinedOutput(); err != nil {
		return sum, fmt.Errorf("%w: traced run: %w\n%s", ErrChild, err, out)
	}
	ops, err := parseTrace(trace, [2]string{store, mirror})
	if err != nil {
		return sum, err
	}
	_ = os.Remove(trace)
	fmt.Fprintf(c.Out, "power cut: %d rounds traced, %d writes/truncations/syncs of the store and its proof\n", c.Rounds, len(ops))

	// Pass 1: the store as durable after each commit's proof sync.
	expected := map[uint64]*State{}
	boot := filepath.Join(c.Dir, "boot")
	if err := os.MkdirAll(boot, 0o755); err != nil {
		return sum, err
	}
	bstore, bmirror := filepath.Join(boot, "s.db"), filepath.Join(boot, "s.db.mirror")
	durable := [2][]byte{bytes.Clone(base[0]), bytes.Clone(base[1])}
	var pending []fileOp
	shown := baseN
	if err := writePair(bstore, bmirror, durable); err != nil {
		return sum, err
	}
	if expected[baseN], err = Load(bstore); err != nil {
		return sum, fmt.Errorf("crashtest: the store before the traced run: %w", err)
	}
	for _, op := range ops {
		if op.kind != opSync {
			pending = append(pending, op)
			continue
		}
		sum.Syncs++
		pending = syncFile(&durable, pending, op.file)
		if op.file == 1 {
			shown++
			sum.Commits++
			if err := writePair(bstore, bmirror, durable); err != nil {
				return sum, err
			}
			s, err := Load(bstore)
			if err != nil {
				return sum, fmt.Errorf("crashtest: the traced store after commit %d: %w", shown, err)
			}
			expected[shown] = s
		}
	}

	// Pass 2: every crash state, booted.
	rng := rand.New(rand.NewPCG(c.Seed, 0x706f776572))
	seen := map[[32]byte]bool{}
	durable = [2][]byte{bytes.Clone(base[0]), bytes.Clone(base[1])}
	pending, shown = nil, baseN
	flipped := map[[32]byte]bool{}
	bootOne := func(files [2][]byte, what string, seen map[[32]byte]bool, states, dups, clean, memErr, failed *int) error {
		// A state is judged against the commit shown at its cut: the same
		// files met again after a proof sync are judged again, stricter.
		h := sha256.New()
		h.Write(files[0])
		h.Write([]byte{0})
		h.Write(files[1])
		h.Write([]byte(strconv.FormatUint(shown, 10)))
		var k [32]byte
		copy(k[:], h.Sum(nil))
		if seen[k] {
			*dups++
			return nil
		}
		seen[k] = true
		*states++
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := writePair(bstore, bmirror, files); err != nil {
			return err
		}
		o, detail := bootCut(bstore, bmirror, shown, expected)
		switch o {
		case Clean:
			*clean++
		case MemoryError:
			*memErr++
		default:
			*failed++
			if len(sum.Failures) < 20 {
				sum.Failures = append(sum.Failures, fmt.Sprintf("%s (commit %d shown): %s", what, shown, detail))
			}
		}
		return nil
	}
	try := func(files [2][]byte, what string) error {
		return bootOne(files, what, seen, &sum.States, &sum.Duplicates, &sum.Clean, &sum.MemoryError, &sum.Failed)
	}
	// flips boots files with each byte of the proof flipped in turn.
	flips := func(files [2][]byte, what string) error {
		f := &sum.Flips
		for i := range min(len(files[1]), 2*recovery.ProofSlotSize) {
			proof := bytes.Clone(files[1])
			proof[i] ^= 0xFF
			if err := bootOne([2][]byte{files[0], proof}, fmt.Sprintf("%s, proof byte %d flipped", what, i),
				flipped, &f.States, &f.Duplicates, &f.Clean, &f.MemoryError, &f.Failed); err != nil {
				return err
			}
		}
		return nil
	}
	flipAt := flipPoints(ops, c.FlipSyncs)
	cut := func(where string) error {
		for _, sub := range subsets(len(pending), c.MaxSubsets, rng) {
			if err := try(applyOps(durable, pending, sub, -1, 0), fmt.Sprintf("%s, unsynced writes %v of %d", where, sub, len(pending))); err != nil {
				return err
			}
		}
		for i, op := range pending {
			if op.kind != opWrite {
				continue
			}
			for _, n := range tornAt(op, c.TornPerWrite) {
				prefix := make([]int, i)
				for j := range prefix {
					prefix[j] = j
				}
				if err := try(applyOps(durable, pending, prefix, i, n), fmt.Sprintf("%s, write %d of %d torn after %d bytes", where, i, len(pending), n)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i, op := range ops {
		if op.kind != opSync {
			pending = append(pending, op)
			continue
		}
		where := fmt.Sprintf("cut before sync %d (%s)", i, []string{"store", "proof"}[op.file])
		if err := cut(where); err != nil {
			return sum, err
		}
		if flipAt[i] {
			sum.Flips.Points++
			all := make([]int, len(pending))
			for j := range all {
				all[j] = j
			}
			if err := flips(applyOps(durable, pending, nil, -1, 0), where+", no unsynced write"); err != nil {
				return sum, err
			}
			if err := flips(applyOps(durable, pending, all, -1, 0), where+", every unsynced write"); err != nil {
				return sum, err
			}
		}
		pending = syncFile(&durable, pending, op.file)
		if op.file == 1 {
			shown++
		}
	}
	if err := cut("cut after the run"); err != nil {
		return sum, err
	}
	if c.FlipSyncs != 0 {
		sum.Flips.Points++
		if err := flips(applyOps(durable, pending, nil, -1, 0), "after the run"); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// flipPoints chooses the syncs (indexes into ops) of the proof-damage case:
// n of them evenly spread with the last one included (every sync when n < 0
// or n is at least their number; none when n is 0).
func flipPoints(ops []fileOp, n int) map[int]bool {
	var syncs []int
	for i, op := range ops {
		if op.kind == opSync {
			syncs = append(syncs, i)
		}
	}
	at := map[int]bool{}
	switch {
	case n == 0 || len(syncs) == 0:
	case n < 0 || n >= len(syncs):
		for _, i := range syncs {
			at[i] = true
		}
	default:
		for k := range n {
			at[syncs[len(syncs)-1-k*len(syncs)/n]] = true
		}
	}
	return at
}

func writePair(store, mirror string, files [2][]byte) error {
	for i, p := range []string{store, mirror} {
		if err := os.WriteFile(p, files[i], 0o600); err != nil {
			return fmt.Errorf("crashtest: write crash state: %w", err)
		}
	}
	return nil
}

// syncFile makes the pending operations of file f durable.
func syncFile(durable *[2][]byte, pending []fileOp, f int) []fileOp {
	var rest []fileOp
	for _, op := range pending {
		if op.file == f {
			durable[f] = apply(durable[f], op, -1)
		} else {
			rest = append(rest, op)
		}
	}
	return rest
}

// apply performs op on data (a write cut after n bytes when n >= 0).
func apply(data []byte, op fileOp, n int) []byte {
	switch op.kind {
	case opTrunc:
		if op.size <= int64(len(data)) {
			return data[:op.size]
		}
		return append(data, make([]byte, op.size-int64(len(data)))...)
	case opWrite:
		w := op.data
		if n >= 0 {
			w = w[:n]
		}
		end := op.off + int64(len(w))
		if end > int64(len(data)) {
			data = append(data, make([]byte, end-int64(len(data)))...)
		}
		copy(data[op.off:], w)
	}
	return data
}

// applyOps returns the durable files with the pending operations sub
// applied in order, then (torn >= 0) pending[torn] cut after n bytes.
func applyOps(durable [2][]byte, pending []fileOp, sub []int, torn, n int) [2][]byte {
	files := [2][]byte{bytes.Clone(durable[0]), bytes.Clone(durable[1])}
	for _, i := range sub {
		files[pending[i].file] = apply(files[pending[i].file], pending[i], -1)
	}
	if torn >= 0 {
		files[pending[torn].file] = apply(files[pending[torn].file], pending[torn], n)
	}
	return files
}

// subsets lists subsets of n pending operations (indexes in order): all of
// them when 2^n <= max(64, limit), else every prefix plus random ones.
func subsets(n, limit int, rng *rand.Rand) [][]int {
	limit = max(limit, 64)
	var out [][]int
	if n < 20 && 1<<n <= limit {
		for mask := range 1 << n {
			var s []int
			for i := range n {
				if mask&(1<<i) != 0 {
					s = append(s, i)
				}
			}
			out = append(out, s)
		}
		return out
	}
	for k := 0; k <= n; k++ {
		s := make([]int, k)
		for i := range s {
			s[i] = i
		}
		out = append(out, s)
	}
	for len(out) < limit {
		var s []int
		for i := range n {
			if rng.IntN(2) == 0 {
				s = append(s, i)
			}
		}
		out = append(out, s)
	}
	return out
}

// tornAt lists the lengths after which a write may be torn: every 512-byte
// sector boundary (absolute file offsets) inside it, or limit of them evenly
// spread.
func tornAt(op fileOp, limit int) []int {
	var cuts []int
	for b := (op.off/512 + 1) * 512; b < op.off+int64(len(op.data)); b += 512 {
		cuts = append(cuts, int(b-op.off))
	}
	if limit <= 0 || len(cuts) <= limit {
		return cuts
	}
	out := make([]int, 0, limit)
	for i := range limit {
		out = append(out, cuts[i*len(cuts)/limit])
	}
	return out
}

// bootCut boots the store on one crash state as the cabinet does and judges
// it (see PowerCut).
func bootCut(store, mirror string, shown uint64, expected map[uint64]*State) (o Outcome, detail string) {
	defer func() {
		if r := recover(); r != nil {
			o, detail = Crashed, fmt.Sprint(r)
		}
	}()
	st, err := recovery.Open(store, recovery.Options{Mirror: mirror})
	if err != nil {
		return Refused, "open: " + err.Error()
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		uerr := st.Update(func(tx *recovery.Tx) error { return tx.Log(meters.KindPowerUp, "power up") })
		if !errors.Is(uerr, recovery.ErrFailed) {
			return Different, fmt.Sprintf("memory error (%v) but a write was accepted (%v)", err, uerr)
		}
		return MemoryError, err.Error()
	}
	n, err := st.Commits()
	if err != nil {
		return Different, "commit counter: " + err.Error()
	}
	// A repair at boot is itself a commit (logged): the state read is the
	// commit found plus that event.
	found := n
	if found > shown+1 {
		found-- // the boot's repair commit
	}
	if found != shown && found != shown+1 {
		return Different, fmt.Sprintf("booted at commit %d, commit %d was shown", found, shown)
	}
	want := expected[found]
	if want == nil {
		return Different, fmt.Sprintf("booted at commit %d, which the uninterrupted trace never completed", found)
	}
	got, err := read(st)
	if err != nil {
		return Different, "check passed but reading failed: " + err.Error()
	}
	if d := Compare(got, want); len(d) > 0 {
		return Different, fmt.Sprintf("commit %d: %s", found, d[0])
	}
	if got.Machine.Credits != want.Machine.Credits {
		return Different, fmt.Sprintf("commit %d: credits %s, want %s", found, got.Machine.Credits, want.Machine.Credits)
	}
	err = st.Update(func(tx *recovery.Tx) error { return tx.Log(meters.KindPowerUp, "power up") })
	if err != nil {
		return LateError, "boot write: " + err.Error()
	}
	if err := st.Check(); err != nil {
		return LateError, "check after the boot write: " + err.Error()
	}
	return Clean, ""
}

// parseTrace reads an strace -f -xx log and returns the writes, truncations
// and syncs of the two files, in order.
func parseTrace(path string, files [2]string) ([]fileOp, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("crashtest: read trace: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	fds := map[string]int{} // "pid:fd" would be per process; one process here: fd → file
	unfinished := map[string]string{}
	var ops []fileOp
	for sc.Scan() {
		line := sc.Text()
		pid, rest, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " ")
		if strings.HasSuffix(rest, "<unfinished ...>") {
			unfinished[pid] = strings.TrimSuffix(rest, "<unfinished ...>")
			continue
		}
		if strings.HasPrefix(rest, "<... ") {
			_, tail, _ := strings.Cut(rest, "resumed>")
			rest = unfinished[pid] + tail
			delete(unfinished, pid)
		}
		name, args, ok := strings.Cut(rest, "(")
		if !ok {
			continue
		}
		eq := strings.LastIndex(args, " = ")
		if eq < 0 {
			continue
		}
		ret := strings.Fields(args[eq+3:])
		if len(ret) == 0 || strings.HasPrefix(ret[0], "-") || ret[0] == "?" {
			continue
		}
		args = strings.TrimSuffix(strings.TrimRight(args[:eq], " "), ")")
		fdOf := func() (int, bool) {
			s, _, _ := strings.Cut(args, ",")
			k, ok := fds[strings.TrimSpace(s)]
			return k, ok
		}
		switch name {
		case "openat", "open":
			p, err := quoted(args)
			if err != nil {
				return nil, err
			}
			for i, want := range files {
				if p == want {
					fds[ret[0]] = i
				}
			}
		case "close":
			delete(fds, strings.TrimSpace(args))
		case "pwrite64":
			k, ok := fdOf()
			if !ok {
				continue
			}
			data, err := quotedBytes(args)
			if err != nil {
				return nil, err
			}
			fields := strings.Split(args, ", ")
			off, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("crashtest: trace: pwrite64 offset in %.80q", line)
			}
			n, _ := strconv.Atoi(ret[0])
			ops = append(ops, fileOp{file: k, kind: opWrite, off: off, data: data[:n]})
		case "ftruncate":
			k, ok := fdOf()
			if !ok {
				continue
			}
			fields := strings.Split(args, ", ")
			size, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("crashtest: trace: ftruncate size in %q", line)
			}
			ops = append(ops, fileOp{file: k, kind: opTrunc, size: size})
		case "fdatasync", "fsync":
			if k, ok := fdOf(); ok {
				ops = append(ops, fileOp{file: k, kind: opSync})
			}
		case "write", "writev", "pwritev", "pwritev2", "fallocate", "sync_file_range":
			if _, ok := fdOf(); ok {
				return nil, fmt.Errorf("crashtest: trace: %s on the store or its proof is not modelled: %.120q", name, line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("crashtest: read trace: %w", err)
	}
	return ops, nil
}

// quoted decodes the first "\xNN…" string of strace -xx arguments.
func quoted(args string) (string, error) {
	b, err := quotedBytes(args)
	return string(b), err
}

func quotedBytes(args string) ([]byte, error) {
	i := strings.IndexByte(args, '"')
	if i < 0 {
		return nil, fmt.Errorf("crashtest: trace: no string in %.80q", args)
	}
	j := strings.IndexByte(args[i+1:], '"')
	if j < 0 {
		return nil, fmt.Errorf("crashtest: trace: unterminated string in %.80q", args)
	}
	s := strings.ReplaceAll(args[i+1:i+1+j], `\x`, "")
	return hex.DecodeString(s)
}
