package duel

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// Fixture hands: the player's pair of aces beats the computer's pair of kings.
const (
	aces  = "AS AD 7C 8H 2S"
	kings = "KS KD 9C 10H 3S"
	spare = "4C 5C 6C 9D JD QC" // draw replacements
)

// dealt returns a round after Deal with a scripted computer. mod changes
// the fresh session first.
func dealt(t *testing.T, cfg Config, playerFirst bool, mod func(*Session), comp ...Decision) (*Round, *card.Stack) {
	r, src, _ := dealtEvents(t, cfg, playerFirst, mod, comp...)
	return r, src
}

func dealtEvents(t *testing.T, cfg Config, playerFirst bool, mod func(*Session), comp ...Decision) (*Round, *card.Stack, []game.Event) {
	t.Helper()
	s := NewSession(cfg, 52, Hard, 1)
	s.PlayerFirst = playerFirst
	if mod != nil {
		mod(s)
	}
	r, err := New(cfg, s, 7)
	if err != nil {
		t.Fatal(err)
	}
	r.SetComputer(&script{ds: comp})
	src := stacked(interleave(aces, kings) + " " + spare)
	evs := apply(t, r, game.Action{Kind: game.Deal}, src)
	return r, src, evs
}

func act(k game.ActionKind, amount int64) game.Action {
	return Act(k, Params{Amount: amount})
}

func dec(k game.ActionKind, amount int64) Decision { return Decision{Kind: k, Amount: amount} }

func wantLegal(t *testing.T, r *Round, want ...game.ActionKind) {
	t.Helper()
	if got := r.Legal(0); !slices.Equal(got, want) {
		t.Fatalf("Legal() = %v, want %v (phase %s)", got, want, r.Phase)
	}
}

func wantIllegal(t *testing.T, r *Round, a game.Action) {
	t.Helper()
	before := r.clone()
	if _, err := r.Apply(a, card.NewStack()); !errors.Is(err, game.ErrIllegal) {
		t.Fatalf("Apply(%+v) = %v, want ErrIllegal", a, err)
	}
	if !reflect.DeepEqual(before, r) {
		t.Fatalf("refused Apply(%+v) changed the round", a)
	}
}

func TestBettingRules(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		name        string
		playerFirst bool
		comp        []Decision
		run         func(t *testing.T, r *Round, src *card.Stack)
	}{
		{"first speaker: open, wait, pass", true, nil, func(t *testing.T, r *Round, _ *card.Stack) {
			wantLegal(t, r, game.Open, game.Wait, game.Pass)
			wantIllegal(t, r, act(game.Change, 0))
			wantIllegal(t, r, act(game.See, 0))
			wantIllegal(t, r, act(game.Open, 0))
			wantIllegal(t, r, act(game.Open, cfg.MaxBet+1))
		}},
		{"after a wait: open, change, pass (two waits end the round)", false, []Decision{dec(game.Wait, 0)}, func(t *testing.T, r *Round, _ *card.Stack) {
			wantLegal(t, r, game.Open, game.Change, game.Pass)
			wantIllegal(t, r, act(game.Wait, 0))
			apply(t, r, act(game.Change, 0), card.NewStack())
			if r.Phase != PhaseDraw || r.Pot != 10 {
				t.Fatalf("after wait, change: phase %s pot %d, want draw and 10", r.Phase, r.Pot)
			}
		}},
		{"facing an open: raise, change, pass", false, []Decision{dec(game.Open, 20)}, func(t *testing.T, r *Round, _ *card.Stack) {
			wantLegal(t, r, game.Raise, game.Change, game.Pass)
			if tab := r.Table(); PictureOf(tab).ToCall != 20 {
				t.Fatalf("Table().Duel.ToCall = %d, want 20", PictureOf(tab).ToCall)
			}
			apply(t, r, act(game.Change, 0), card.NewStack())
			if r.Phase != PhaseDraw || r.Pot != 50 || r.Sess.PlayerStack != 475 {
				t.Fatalf("change after open 20: phase %s pot %d stack %d, want draw, 50, 475", r.Phase, r.Pot, r.Sess.PlayerStack)
			}
		}},
		{"raise matches then adds; the raise gives the same choice back", true, []Decision{dec(game.Raise, 30)}, func(t *testing.T, r *Round, _ *card.Stack) {
			apply(t, r, act(game.Open, 20), card.NewStack())
			wantLegal(t, r, game.Raise, game.Change, game.Pass)
			if r.In != [2]int64{20, 50} || r.Sess.ComputerStack != 445 {
				t.Fatalf("open 20, raise 30: in %v computer stack %d, want [20 50] and 445", r.In, r.Sess.ComputerStack)
			}
		}},
		{"raise cap (3)", true, []Decision{dec(game.Raise, 5), dec(game.Raise, 5)}, func(t *testing.T, r *Round, _ *card.Stack) {
			apply(t, r, act(game.Open, 5), card.NewStack())
			apply(t, r, act(game.Raise, 5), card.NewStack()) // raises: computer 1, player 2, computer 3
			if r.Raises != 3 {
				t.Fatalf("raises = %d, want 3", r.Raises)
			}
			wantLegal(t, r, game.Change, game.Pass)
			wantIllegal(t, r, act(game.Raise, 5))
		}},
		{"pass gives the pot to the other, no showdown", true, nil, func(t *testing.T, r *Round, _ *card.Stack) {
			evs := apply(t, r, act(game.Pass, 0), card.NewStack())
			if r.Outcome != game.Lose || r.Sess.ComputerStack != 505 || r.Sess.PlayerStack != 495 || r.Showdown {
				t.Fatalf("pass: outcome %s stacks %d/%d showdown %v, want lose 495/505 no showdown", r.Outcome, r.Sess.PlayerStack, r.Sess.ComputerStack, r.Showdown)
			}
			for _, e := range evs {
				if e.Kind == game.Reveal {
					t.Fatalf("pass revealed the computer's card %v", e.Card)
				}
			}
			if PictureOf(r.Table()).Computer != nil {
				t.Fatalf("Table shows the computer's cards after a pass")
			}
		}},
		{"draw, then second round: open, see, pass; see shows down at once", true, []Decision{dec(game.Change, 0)}, func(t *testing.T, r *Round, src *card.Stack) {
			apply(t, r, act(game.Wait, 0), card.NewStack())
			wantLegal(t, r, game.Draw)
			wantIllegal(t, r, Act(game.Draw, Params{Discard: []int{1, 1}}))
			apply(t, r, Act(game.Draw, Params{Discard: []int{4}}), src) // 2S -> 4C; computer stands pat (script)
			if r.Hands[0][4] != card.MustParse("4C")[0] || r.Drew != [2]int{1, 0} {
				t.Fatalf("draw: hand %v drew %v, want 4C at 4 and drew [1 0]", r.Hands[0], r.Drew)
			}
			wantLegal(t, r, game.Open, game.See, game.Pass)
			apply(t, r, act(game.See, 0), card.NewStack())
			if !r.Showdown || r.Outcome != game.Win || r.Sess.PlayerStack != 505 {
				t.Fatalf("see: showdown %v outcome %s stack %d, want a won showdown and 505", r.Showdown, r.Outcome, r.Sess.PlayerStack)
			}
			if got := PictureOf(r.Table()).Computer; card.Format(got) != kings {
				t.Fatalf("Table().Duel.Computer = %v after showdown, want %s", got, kings)
			}
		}},
		{"second round facing a bet: raise, see, pass", false, []Decision{dec(game.Wait, 0), {Kind: game.Draw}, dec(game.Open, 10)}, func(t *testing.T, r *Round, src *card.Stack) {
			apply(t, r, act(game.Change, 0), card.NewStack())
			apply(t, r, game.Action{Kind: game.Draw}, src)
			wantLegal(t, r, game.Raise, game.See, game.Pass)
			apply(t, r, act(game.See, 0), card.NewStack())
			if r.Sess.PlayerStack != 515 {
				t.Fatalf("see a bet of 10 with aces: stack %d, want 515", r.Sess.PlayerStack)
			}
		}},
		{"bets capped at what the opponent can match", true, nil, func(t *testing.T, r *Round, _ *card.Stack) {
			r.Sess.ComputerStack, r.Sess.Worn = 25, nil // after the ante; nothing left to pawn
			r.Sess.Chips = r.Sess.PlayerStack + r.Sess.ComputerStack + r.Pot
			if lo, hi := r.BetRange(); lo != 5 || hi != 25 {
				t.Fatalf("BetRange() = %d..%d, want 5..25", lo, hi)
			}
			wantIllegal(t, r, act(game.Open, 26))
			apply(t, r, act(game.Open, 25), card.NewStack())
		}},
		{"the cap counts what the computer can pawn", true, nil, func(t *testing.T, r *Round, _ *card.Stack) {
			r.Sess.ComputerStack, r.Sess.Worn = 25, []string{"hat"}
			r.Sess.Chips = r.Sess.PlayerStack + r.Sess.ComputerStack + r.Pot
			if _, hi := r.BetRange(); hi != 100 {
				t.Fatalf("BetRange() hi = %d, want 100 (max bet; 25 + a pawn of 100 can match)", hi)
			}
		}},
		{"a cap below the minimum bet is the only size", true, nil, func(t *testing.T, r *Round, _ *card.Stack) {
			r.Sess.ComputerStack, r.Sess.Worn = 3, nil
			r.Sess.Chips = r.Sess.PlayerStack + r.Sess.ComputerStack + r.Pot
			if lo, hi := r.BetRange(); lo != 3 || hi != 3 {
				t.Fatalf("BetRange() = %d..%d, want 3..3", lo, hi)
			}
			r.Sess.ComputerStack = 0
			r.Sess.Chips = r.Sess.PlayerStack + r.Sess.ComputerStack + r.Pot
			wantLegal(t, r, game.Wait, game.Pass)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, src := dealt(t, cfg, tt.playerFirst, nil, tt.comp...)
			tt.run(t, r, src)
		})
	}
}

func TestFirstSpeakerAlternates(t *testing.T) {
	cfg := DefaultConfig()
	r, _ := dealt(t, cfg, true, nil)
	if r.Turn != playerSide {
		t.Fatalf("player first: turn %d", r.Turn)
	}
	apply(t, r, act(game.Pass, 0), card.NewStack())
	s := r.Session()
	if s.PlayerFirst || s.Deals != 1 {
		t.Fatalf("after a deal the player spoke first: PlayerFirst %v deals %d, want false, 1", s.PlayerFirst, s.Deals)
	}
	r2, err := New(cfg, s, 8)
	if err != nil {
		t.Fatal(err)
	}
	r2.SetComputer(&script{ds: []Decision{dec(game.Open, 10)}})
	evs := apply(t, r2, game.Action{Kind: game.Deal}, stacked(interleave(aces, kings)))
	if r2.Turn != playerSide || r2.Moves[0].Who != WhoComputer || !slices.ContainsFunc(evs, func(e game.Event) bool { return e.Who == WhoComputer && e.Text == "open" }) {
		t.Fatalf("second deal: the computer must speak first (moves %v)", r2.Moves)
	}
	apply(t, r2, act(game.Pass, 0), card.NewStack())
	if !r2.Session().PlayerFirst {
		t.Fatalf("third deal: the player must speak first again")
	}
}

func TestIdenticalHandsCarryThePot(t *testing.T) {
	cfg := DefaultConfig()
	s := NewSession(cfg, 52, Hard, 1)
	r, err := New(cfg, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.SetComputer(&script{ds: []Decision{dec(game.Change, 0), {Kind: game.Draw}}})
	apply(t, r, game.Action{Kind: game.Deal}, stacked(interleave("AS KS 9D 8C 7H", "AH KH 9C 8D 7S")))
	apply(t, r, act(game.Wait, 0), card.NewStack())
	apply(t, r, game.Action{Kind: game.Draw}, card.NewStack())
	apply(t, r, act(game.See, 0), card.NewStack())
	s = r.Session()
	if r.Outcome != game.Push || s.Carry != 10 || s.PlayerStack != 495 || s.ComputerStack != 495 {
		t.Fatalf("identical hands: outcome %s carry %d stacks %d/%d, want push, 10, 495/495", r.Outcome, s.Carry, s.PlayerStack, s.ComputerStack)
	}
	if got := PictureOf(r.Table()).Pot; got != 10 {
		t.Fatalf("Table().Duel.Pot = %d after the carry, want 10", got)
	}
	r2, _ := New(cfg, s, 2)
	r2.SetComputer(&script{})
	apply(t, r2, game.Action{Kind: game.Deal}, stacked(interleave(aces, kings)))
	if r2.Pot != 20 || r2.Session().Carry != 0 {
		t.Fatalf("next deal's pot = %d (carry %d), want 10 carried + 10 antes", r2.Pot, r2.Session().Carry)
	}
}

func TestOutfit(t *testing.T) {
	cfg := DefaultConfig()
	type want struct {
		worn, lost []string
		pawned     string
		stack      int64
		over, won  bool
	}
	tests := []struct {
		name string
		mod  func(*Session)
		play []game.Action // player's actions after the deal (the computer checks/calls)
		comp []Decision
		want want
		evs  []string // event texts that must appear
	}{
		{"pawn the next item when the ante cannot be paid",
			func(s *Session) { s.ComputerStack, s.PlayerStack = 3, 997 }, nil, nil,
			want{worn: []string{"glasses", "scarf", "jacket", "gloves", "shoes"}, lost: []string{}, pawned: "hat", stack: 98},
			[]string{"pawn:hat"}},
		{"pawn for a call the stack cannot cover",
			func(s *Session) { s.ComputerStack, s.PlayerStack, s.Worn = 20, 980, []string{"hat"} },
			[]game.Action{act(game.Open, 100)}, []Decision{dec(game.Change, 0)},
			want{worn: []string{}, lost: []string{}, pawned: "hat", stack: 15},
			[]string{"pawn:hat"}},
		{"the pawned item comes off when its chips are lost",
			func(s *Session) {
				s.Worn, s.Pawned, s.PawnFloor = []string{"scarf"}, "hat", 50
				s.ComputerStack, s.PlayerStack = 55, 945
			},
			[]game.Action{act(game.Open, 5)}, []Decision{dec(game.Pass, 0)},
			want{worn: []string{"scarf"}, lost: []string{"hat"}, stack: 50},
			[]string{"off:hat"}},
		{"a new pawn takes off the item pawned before",
			func(s *Session) {
				s.Worn, s.Pawned, s.PawnFloor = []string{"scarf"}, "hat", 0
				s.ComputerStack, s.PlayerStack = 2, 998
			},
			[]game.Action{act(game.Pass, 0)}, nil,
			want{worn: []string{}, lost: []string{"hat"}, pawned: "scarf", stack: 107},
			[]string{"off:hat", "pawn:scarf"}},
		{"buy back the last item taken off above the threshold",
			func(s *Session) {
				s.Worn, s.Lost = []string{"scarf"}, []string{"glasses", "hat"}
				s.ComputerStack, s.PlayerStack = 700, 300
			},
			[]game.Action{act(game.Pass, 0)}, nil,
			want{worn: []string{"hat", "scarf"}, lost: []string{"glasses"}, stack: 605},
			[]string{"buyback:hat"}},
		{"redeem the pawned item above the threshold",
			func(s *Session) {
				s.Worn, s.Pawned, s.PawnFloor = []string{"scarf"}, "hat", 500
				s.ComputerStack, s.PlayerStack = 700, 300
			},
			[]game.Action{act(game.Pass, 0)}, nil,
			want{worn: []string{"hat", "scarf"}, lost: []string{}, stack: 605},
			[]string{"buyback:hat"}},
		{"player wins the session: nothing left to pawn and cannot pay",
			func(s *Session) {
				s.Worn, s.Pawned, s.PawnFloor, s.Lost = []string{}, "shoes", 0, []string{"hat"}
				s.ComputerStack, s.PlayerStack = 8, 992
			},
			[]game.Action{act(game.Open, 3)}, []Decision{dec(game.Pass, 0)},
			want{worn: []string{}, lost: []string{"hat", "shoes"}, stack: 3, over: true, won: true},
			[]string{"off:shoes", "duel.session_won"}},
		{"player loses the session: cannot pay the ante",
			func(s *Session) { s.ComputerStack, s.PlayerStack = 992, 8 },
			[]game.Action{act(game.Pass, 0)}, nil,
			want{worn: cfg.Items, lost: []string{}, stack: 997, over: true},
			[]string{"duel.session_lost"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mod := func(s *Session) {
				tt.mod(s)
				s.Chips = s.PlayerStack + s.ComputerStack
			}
			r, _, evs := dealtEvents(t, cfg, true, mod, tt.comp...)
			for _, a := range tt.play {
				evs = append(evs, apply(t, r, a, card.NewStack())...)
			}
			s := r.Session()
			got := want{worn: s.Worn, lost: s.Lost, pawned: s.Pawned, stack: s.ComputerStack, over: s.Over, won: s.PlayerWon}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("session = %+v, want %+v", got, tt.want)
			}
			var texts []string
			for _, e := range evs {
				texts = append(texts, e.Text)
			}
			for _, w := range tt.evs {
				if !slices.Contains(texts, w) {
					t.Errorf("events %q lack %q", texts, w)
				}
			}
			if s.Over {
				next, err := New(cfg, s, 99)
				if err != nil || next.Phase != PhaseBuy {
					t.Errorf("New after the session ended: phase %v, %v; want buy", next.Phase, err)
				}
				tab := r.Table()
				if !PictureOf(tab).SessionOver || PictureOf(tab).PlayerWon != tt.want.won {
					t.Errorf("Table().Duel session over %v won %v, want true %v", PictureOf(tab).SessionOver, PictureOf(tab).PlayerWon, tt.want.won)
				}
			}
			if tt.want.pawned != "" {
				if tab := r.Table(); !slices.Equal(PictureOf(tab).Pawned, []string{tt.want.pawned}) || !slices.Equal(PictureOf(tab).Outfit, tt.want.worn) {
					t.Errorf("Table().Duel outfit %v pawned %v, want %v and [%s]", PictureOf(tab).Outfit, PictureOf(tab).Pawned, tt.want.worn, tt.want.pawned)
				}
			}
		})
	}
}
