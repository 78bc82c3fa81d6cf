package rtp

import (
	"context"
	"testing"
)

// BenchmarkCheckShipped is the start-up cost on the shipped configuration:
// a fresh Guard answers from the embedded figures.
func BenchmarkCheckShipped(b *testing.B) {
	in, err := FromConfig(shipped(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := NewGuard().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckCold computes every game of the shipped configuration (what
// start-up costs when the rules in force are not the shipped ones).
func BenchmarkCheckCold(b *testing.B) {
	in, err := FromConfig(shipped(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		g := newColdGuard()
		if _, err := g.Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
