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
// money staked on it (tokens are not money). cap, when above zero, bounds
// the hand's net win (Zappit's win cap at the worst bet: see bj.capUnits).
type kind struct {
	win, loss, late, stake float64
	cap                    float64
}

// pay is the hand's net win when it wins: win, bounded by the cap.
func (k kind) pay() float64 {
	if k.cap > 0 && k.win > k.cap {
		return k.cap
	}
	return k.win
}

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
