package duel

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultConfigValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("DefaultConfig().Validate() = %v, want nil", err)
	}
}

func TestConfigValidateNamesField(t *testing.T) {
	tests := []struct {
		key    string
		change func(*Config)
	}{
		{"price", func(c *Config) { c.Price = 0 }},
		{"decks", func(c *Config) { c.Decks = nil }},
		{"decks", func(c *Config) { c.Decks = []int{36} }},
		{"decks", func(c *Config) { c.Decks = []int{32, 32} }},
		{"stack", func(c *Config) { c.Stack = 0 }},
		{"ante", func(c *Config) { c.Ante = c.Stack + 1 }},
		{"raise_cap", func(c *Config) { c.RaiseCap = -1 }},
		{"min_bet", func(c *Config) { c.MinBet = 0 }},
		{"max_bet", func(c *Config) { c.MaxBet = c.MinBet - 1 }},
		{"items", func(c *Config) { c.Items = nil }},
		{"items", func(c *Config) { c.Items = []string{"hat", "hat"} }},
		{"pawn_value", func(c *Config) { c.PawnValue = c.Ante - 1 }},
		{"buy_back", func(c *Config) { c.BuyBack = c.PawnValue }},
		{"bluff_per_mille", func(c *Config) { c.BluffPerMille = 1001 }},
		{"levels", func(c *Config) { c.Levels = []string{"expert"} }},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			err := c.Validate()
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.key+" = ") {
				t.Errorf("Validate() = %v, want ErrConfig naming %q", err, tt.key)
			}
		})
	}
}
