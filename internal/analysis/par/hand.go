package par

// hand is a player hand as a multiset of values 1..10 (ace = 1).
type hand struct {
	key  uint64 // 5 bits per value: the memo key
	cnt  [11]uint8
	n    int
	hard int
}

func (h hand) add(v int) hand {
	h.key += 1 << (5 * (v - 1))
	h.cnt[v]++
	h.n++
	h.hard += v
	return h
}

func (h hand) total() (int, bool) { return handTotal(h.hard, h.cnt[1] > 0) }

func handOf(vs ...int) hand {
	var h hand
	for _, v := range vs {
		h = h.add(v)
	}
	return h
}

// kind is how a hand is paid: net win, net loss, what it loses to a dealer
// blackjack found after play (European dealing, Free Bet ten up), and the
// money staked on it (tokens are not money). A win cap (Zappit) is not
// valued here: it joins every hand of the round (capbound.go).
type kind struct {
	win, loss, late, stake float64
}

// pay is the hand's net win when it wins.
func (k kind) pay() float64 { return k.win }

// val is an expected value and the expected money staked beyond the
// original bet, under the strategy chosen by maximising the value.
type val struct{ ev, stake float64 }

func (a val) add(b val) val       { return val{a.ev + b.ev, a.stake + b.stake} }
func (a val) scale(f float64) val { return val{a.ev * f, a.stake * f} }
func better(a, b val) bool        { return a.ev > b.ev+1e-12 }
func maxVal(a, b val) val {
	if better(b, a) {
		return b
	}
	return a
}
