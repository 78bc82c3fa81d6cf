package meters

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"cabinet/internal/money"
)

// TestTicketsInvariant: the extended equation accepts every legal state and
// refuses credits that moved without their ticket meter (and the reverse).
func TestTicketsInvariant(t *testing.T) {
	base := func() (Meters, money.Cents) {
		var m Meters
		m.BillsIn = 10000
		return m, 10000
	}
	tests := []struct {
		name string
		move func(m *Meters, c *money.Cents)
		err  error
	}{
		{"issue with debit", func(m *Meters, c *money.Cents) { *c -= 2500; m.TicketIssued(2500) }, nil},
		{"issue then print", func(m *Meters, c *money.Cents) { *c -= 2500; m.TicketIssued(2500); m.TicketPrinted(2500) }, nil},
		{"issue then void", func(m *Meters, c *money.Cents) { *c -= 2500; m.TicketIssued(2500); m.TicketVoided(2500) }, nil},
		{"ticket in credited", func(m *Meters, c *money.Cents) { *c += 700; m.TicketRedeemed(700) }, nil},
		{"issue without debit", func(m *Meters, c *money.Cents) { m.TicketIssued(2500) }, ErrInvariant},
		{"debit without issue", func(m *Meters, c *money.Cents) { *c -= 2500 }, ErrInvariant},
		{"credit without ticket in meter", func(m *Meters, c *money.Cents) { *c += 700 }, ErrInvariant},
		{"printed never issued", func(m *Meters, c *money.Cents) { m.TicketPrinted(2500) }, ErrInvariant},
		{"printed and voided", func(m *Meters, c *money.Cents) {
			*c -= 2500
			m.TicketIssued(2500)
			m.TicketPrinted(2500)
			m.TicketVoided(2500)
		}, ErrInvariant},
		{"two outstanding", func(m *Meters, c *money.Cents) {
			*c -= 3000
			m.TicketIssued(1000)
			m.TicketIssued(2000)
		}, ErrInvariant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, c := base()
			tt.move(&m, &c)
			if err := m.Check(c); !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Errorf("Check(%v) = %v, want %v", c, err, tt.err)
			}
		})
	}
}

func TestTicketMeterPanicsOnNonPositive(t *testing.T) {
	for _, f := range []func(*Meters, money.Cents){(*Meters).TicketIssued, (*Meters).TicketPrinted, (*Meters).TicketVoided, (*Meters).TicketRedeemed} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a ticket meter took 0 cents without panicking")
				}
			}()
			var m Meters
			f(&m, 0)
		}()
	}
}

// TestTicketConservationProperty: bills, stakes, cash-outs to tickets
// printed or voided and tickets in keep bills + tickets in = credits +
// played net + tickets out + handpays.
func TestTicketConservationProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m Meters
		var credits, outstanding money.Cents
		for range rapid.IntRange(1, 80).Draw(t, "ops") {
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0:
				v := money.Cents(rapid.SampledFrom([]int64{500, 1000, 2000}).Draw(t, "bill"))
				m.BillsIn += v
				credits += v
			case 1:
				a := money.Cents(rapid.Int64Range(0, int64(credits)).Draw(t, "stake"))
				m.TotalIn += a
				credits -= a
			case 2:
				if outstanding == 0 && credits > 0 {
					outstanding = credits
					m.TicketIssued(credits)
					credits = 0
				}
			case 3:
				if outstanding > 0 {
					if rapid.Bool().Draw(t, "printed") {
						m.TicketPrinted(outstanding)
					} else {
						m.TicketVoided(outstanding)
					}
					outstanding = 0
				}
			case 4:
				a := money.Cents(rapid.Int64Range(1, 50000).Draw(t, "ticket in"))
				m.TicketRedeemed(a)
				credits += a
			case 5:
				a := money.Cents(rapid.Int64Range(0, 3000).Draw(t, "win"))
				m.TotalWon += a
				credits += a
			}
			if err := m.Check(credits); err != nil {
				t.Fatalf("Check(%v) = %v", credits, err)
			}
			if a, _ := m.TicketsOutstanding(); a != outstanding {
				t.Fatalf("TicketsOutstanding() = %v, want %v", a, outstanding)
			}
			in := m.BillsIn + m.TicketsIn
			out := credits + m.TotalIn - m.TotalWon + m.TicketsOut + m.TicketsVoided + outstanding + m.HandpayCancelled
			if in != out {
				t.Fatalf("bills + tickets in %v, credits + played net + tickets out + handpays %v", in, out)
			}
		}
	})
}
