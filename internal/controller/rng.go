package controller

import (
	"crypto/rand"
	"encoding/binary"
	"hash/fnv"
	"io"

	"cabinet/internal/game/card"
)

// RNG gives the random source for one step of one round. Cards are drawn from
// it only inside a step that is then committed (no re-roll).
type RNG interface {
	Step(round uint64, step int) io.Reader
}

// CryptoRNG is the production source: crypto/rand for every step.
type CryptoRNG struct{}

// Step implements RNG.
func (CryptoRNG) Step(uint64, int) io.Reader { return rand.Reader }

// SeededRNG derives a deterministic stream from (Seed, round, step). For the
// simulator and tests only: the same seed replays the same cards, also after
// a process is killed between decision and commit.
type SeededRNG struct{ Seed uint64 }

// Step implements RNG.
func (s SeededRNG) Step(round uint64, step int) io.Reader {
	h := fnv.New64a()
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], s.Seed)
	binary.LittleEndian.PutUint64(b[8:], round)
	binary.LittleEndian.PutUint64(b[16:], uint64(step))
	h.Write(b[:])
	return card.NewSeeded(h.Sum64())
}
