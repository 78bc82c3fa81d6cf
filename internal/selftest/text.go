package selftest

import (
	"strings"

	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/view"
)

// LampLabel names a lamp of the sequence in lang: the button's label, or
// the tower light's.
func LampLabel(lang, lamp string) string {
	if b, err := hw.ParseButton(lamp); err == nil {
		return i18n.T(lang, "btn."+b.String())
	}
	return i18n.T(lang, "hwtest."+lamp)
}

// Typed is the line as the screen's data.
func (l Line) Typed() view.TestLine {
	switch l.Kind {
	case LampLit:
		return view.TestLine{Kind: "lamp", Name: l.Lamp}
	case Fault:
		return view.TestLine{Kind: "fault", Text: l.Err.Error()}
	case ValidatorSeen:
		v := l.Validator
		return view.TestLine{Kind: "validator", Name: strings.TrimSpace(v.Model + " " + v.Version), Text: v.Status}
	}
	in := l.Input
	switch in.Kind {
	case hw.ButtonPressed:
		return view.TestLine{Kind: "press", Name: in.Button.String()}
	case hw.SwitchChanged:
		if in.On {
			return view.TestLine{Kind: "switch_on", Name: in.Switch.String()}
		}
		return view.TestLine{Kind: "switch_off", Name: in.Switch.String()}
	case hw.BillStacked:
		return view.TestLine{Kind: "bill", Amount: in.Value}
	case hw.BillRefused:
		return view.TestLine{Kind: "refused", Text: in.Err}
	case hw.BillError:
		return view.TestLine{Kind: "error", Text: in.Err}
	case hw.BillJam:
		if in.On {
			return view.TestLine{Kind: "jam", Text: in.Err}
		}
		return view.TestLine{Kind: "jam_clear"}
	}
	return view.TestLine{Kind: "fault", Text: l.String()}
}

// LineText words a self-test line in lang, amounts in currency.
func LineText(lang, currency string, t view.TestLine) string {
	switch t.Kind {
	case "lamp":
		return i18n.Tf(lang, "hwtest.line.lamp", LampLabel(lang, t.Name))
	case "fault":
		return i18n.Tf(lang, "hwtest.line.fault", t.Text)
	case "press":
		return i18n.Tf(lang, "hwtest.line.press", i18n.T(lang, "btn."+t.Name))
	case "switch_on", "switch_off":
		return i18n.Tf(lang, "hwtest.line."+t.Kind, i18n.T(lang, "sw."+t.Name))
	case "bill":
		return i18n.Tf(lang, "hwtest.line.bill", i18n.Money(lang, t.Amount, currency))
	case "refused", "error", "jam":
		return i18n.Tf(lang, "hwtest.line."+t.Kind, t.Text)
	case "jam_clear":
		return i18n.T(lang, "hwtest.line.jam_clear")
	case "validator":
		return i18n.Tf(lang, "hwtest.line.validator", t.Name, t.Text)
	}
	return t.Text
}

// Text is the line in lang, amounts in currency.
func (l Line) Text(lang, currency string) string { return LineText(lang, currency, l.Typed()) }
