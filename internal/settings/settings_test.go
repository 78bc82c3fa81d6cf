package settings

import (
	"errors"
	"testing"

	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/game"
)

// One deck, H17, European dealing with surrender: about 99.9 %; the same
// with American dealing gives the player the advantage.
const oneDeck = "[cabinet]\ncurrency = \"EUR\"\n[games]\nenabled = [\"classic\"]\n[games.classic]\ndecks = 1\nhit_soft17 = true\ndealing = \"european\"\n"

// TestApplyAndExplain: Apply refuses a forbidden return with the figure
// and a bad value naming the key; Explain reads both for the operator
// menu; Return is the main bet's figure with min_rtp.
func TestApplyAndExplain(t *testing.T) {
	cfg, err := config.Parse([]byte(oneDeck))
	if err != nil {
		t.Fatal(err)
	}
	base, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := New(cfg, rtp.NewGuard())

	_, err = st.Apply(base, map[string]string{"games.classic.dealing": "american"})
	var re *rtp.RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("Apply(dealing american) = %v, want a refused return", err)
	}
	why := st.Explain(err)
	if why.Return == nil || !why.Return.Refused || why.Return.Game != game.Classic || why.Return.RTP < 10000 || why.Invalid {
		t.Errorf("Explain(refused return) = %+v, want the refused figure of classic at 100 %% or more", why)
	}

	_, err = st.Apply(base, map[string]string{"games.classic.min_bet": "999999.00"})
	why = st.Explain(err)
	if err == nil || !why.Invalid || why.Key == "" || why.Return != nil {
		t.Errorf("Apply(min_bet above max_bet) = %v, Explain %+v; want an invalid value naming a key", err, why)
	}

	s, err := st.Apply(base, map[string]string{"games.classic.max_hands": "2"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Return(s, game.Classic)
	if err != nil || r == nil || r.Refused || r.RTP < 9900 || r.RTP >= 10000 || r.MinRTP != cfg.MinRTP() {
		t.Errorf("Return(max_hands 2) = %+v, %v; want a figure in [99.00, 100.00) with min_rtp %d", r, err, cfg.MinRTP())
	}
	if figs := New(cfg, nil).Figures(s, game.Classic); figs != nil {
		t.Errorf("Figures without a guard = %+v, want none", figs)
	}
}
