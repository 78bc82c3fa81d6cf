package tcl_test

import (
	"errors"
	"testing"

	"cabinet/internal/hw/tcl"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
)

func TestAmountWords(t *testing.T) {
	tests := []struct {
		c      money.Cents
		en, fr string
	}{
		{0, "ZERO AND 00/100", "ZERO ET 00/100"},
		{1, "ZERO AND 01/100", "ZERO ET 01/100"},
		{99, "ZERO AND 99/100", "ZERO ET 99/100"},
		{100, "ONE AND 00/100", "UN ET 00/100"},
		{1_000, "TEN AND 00/100", "DIX ET 00/100"},
		{1_700, "SEVENTEEN AND 00/100", "DIX-SEPT ET 00/100"},
		{2_000, "TWENTY AND 00/100", "VINGT ET 00/100"},
		{2_100, "TWENTY-ONE AND 00/100", "VINGT ET UN ET 00/100"},
		{2_250, "TWENTY-TWO AND 50/100", "VINGT-DEUX ET 50/100"},
		{6_100, "SIXTY-ONE AND 00/100", "SOIXANTE ET UN ET 00/100"},
		{7_000, "SEVENTY AND 00/100", "SOIXANTE-DIX ET 00/100"},
		{7_100, "SEVENTY-ONE AND 00/100", "SOIXANTE ET ONZE ET 00/100"},
		{7_200, "SEVENTY-TWO AND 00/100", "SOIXANTE-DOUZE ET 00/100"},
		{7_900, "SEVENTY-NINE AND 00/100", "SOIXANTE-DIX-NEUF ET 00/100"},
		{8_000, "EIGHTY AND 00/100", "QUATRE-VINGTS ET 00/100"},
		{8_100, "EIGHTY-ONE AND 00/100", "QUATRE-VINGT-UN ET 00/100"},
		{9_000, "NINETY AND 00/100", "QUATRE-VINGT-DIX ET 00/100"},
		{9_100, "NINETY-ONE AND 00/100", "QUATRE-VINGT-ONZE ET 00/100"},
		{9_999, "NINETY-NINE AND 99/100", "QUATRE-VINGT-DIX-NEUF ET 99/100"},
		{10_000, "ONE HUNDRED AND 00/100", "CENT ET 00/100"},
		{10_100, "ONE HUNDRED ONE AND 00/100", "CENT UN ET 00/100"},
		{18_000, "ONE HUNDRED EIGHTY AND 00/100", "CENT QUATRE-VINGTS ET 00/100"},
		{20_000, "TWO HUNDRED AND 00/100", "DEUX CENTS ET 00/100"},
		{20_100, "TWO HUNDRED ONE AND 00/100", "DEUX CENT UN ET 00/100"},
		{100_000, "ONE THOUSAND AND 00/100", "MILLE ET 00/100"},
		{100_100, "ONE THOUSAND ONE AND 00/100", "MILLE UN ET 00/100"},
		{123_456, "ONE THOUSAND TWO HUNDRED THIRTY-FOUR AND 56/100", "MILLE DEUX CENT TRENTE-QUATRE ET 56/100"},
		{200_000, "TWO THOUSAND AND 00/100", "DEUX MILLE ET 00/100"},
		{2_100_000, "TWENTY-ONE THOUSAND AND 00/100", "VINGT ET UN MILLE ET 00/100"},
		{8_000_000, "EIGHTY THOUSAND AND 00/100", "QUATRE-VINGT MILLE ET 00/100"},
		{8_008_000, "EIGHTY THOUSAND EIGHTY AND 00/100", "QUATRE-VINGT MILLE QUATRE-VINGTS ET 00/100"},
		{10_000_000, "ONE HUNDRED THOUSAND AND 00/100", "CENT MILLE ET 00/100"},
		{20_000_000, "TWO HUNDRED THOUSAND AND 00/100", "DEUX CENT MILLE ET 00/100"},
		{20_020_000, "TWO HUNDRED THOUSAND TWO HUNDRED AND 00/100", "DEUX CENT MILLE DEUX CENTS ET 00/100"},
		{99_999_999,
			"NINE HUNDRED NINETY-NINE THOUSAND NINE HUNDRED NINETY-NINE AND 99/100",
			"NEUF CENT QUATRE-VINGT-DIX-NEUF MILLE NEUF CENT QUATRE-VINGT-DIX-NEUF ET 99/100"},
	}
	for _, tt := range tests {
		for _, l := range []struct{ lang, want string }{{i18n.EN, tt.en}, {i18n.FR, tt.fr}} {
			t.Run(l.lang+"/"+tt.c.String(), func(t *testing.T) {
				got, err := tcl.AmountWords(tt.c, l.lang)
				if err != nil {
					t.Fatalf("AmountWords(%s, %s): %v", tt.c, l.lang, err)
				}
				if got != l.want {
					t.Errorf("AmountWords(%s, %s) = %q, want %q", tt.c, l.lang, got, l.want)
				}
			})
		}
	}
}

func TestAmountWordsRefuses(t *testing.T) {
	tests := []struct {
		c    money.Cents
		lang string
		want error
	}{
		{-1, i18n.EN, tcl.ErrAmount},
		{tcl.MaxAmount + 1, i18n.FR, tcl.ErrAmount},
		{100, "de", tcl.ErrLanguage},
		{100, "", tcl.ErrLanguage},
	}
	for _, tt := range tests {
		got, err := tcl.AmountWords(tt.c, tt.lang)
		if !errors.Is(err, tt.want) {
			t.Errorf("AmountWords(%s, %q) = %q, %v; want %v", tt.c, tt.lang, got, err, tt.want)
		}
	}
}
