package selftest

import (
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
)

// LampLabel names a lamp of the sequence in lang: the button's label, or
// the tower light's.
func LampLabel(lang, lamp string) string {
	if b, err := hw.ParseButton(lamp); err == nil {
		return i18n.T(lang, "btn."+b.String())
	}
	return i18n.T(lang, "hwtest."+lamp)
}

// Text is the line in lang, amounts in currency (the technician's screen).
func (l Line) Text(lang, currency string) string {
	switch l.Kind {
	case LampLit:
		return i18n.Tf(lang, "hwtest.line.lamp", LampLabel(lang, l.Lamp))
	case Fault:
		return i18n.Tf(lang, "hwtest.line.fault", l.Err.Error())
	case InputSeen:
	default:
		return l.String()
	}
	in := l.Input
	switch in.Kind {
	case hw.ButtonPressed:
		return i18n.Tf(lang, "hwtest.line.press", i18n.T(lang, "btn."+in.Button.String()))
	case hw.SwitchChanged:
		key := "hwtest.line.switch_off"
		if in.On {
			key = "hwtest.line.switch_on"
		}
		return i18n.Tf(lang, key, i18n.T(lang, "sw."+in.Switch.String()))
	case hw.BillStacked:
		return i18n.Tf(lang, "hwtest.line.bill", i18n.Money(lang, in.Value, currency))
	case hw.BillRefused:
		return i18n.Tf(lang, "hwtest.line.refused", in.Err)
	case hw.BillError:
		return i18n.Tf(lang, "hwtest.line.error", in.Err)
	case hw.BillJam:
		if in.On {
			return i18n.Tf(lang, "hwtest.line.jam", in.Err)
		}
		return i18n.T(lang, "hwtest.line.jam_clear")
	}
	return l.String()
}
