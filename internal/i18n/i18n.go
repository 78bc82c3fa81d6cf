package i18n

import (
	"fmt"
	"sort"
	"strings"
)

// The languages of the catalogue.
const (
	FR = "fr"
	EN = "en"
)

// Langs lists the catalogue's languages, French (the house default) first.
func Langs() []string { return []string{FR, EN} }

// Normalize maps a language tag to a catalogue language: "en", "en-GB",
// "EN" → "en"; everything else, including "", → "fr" (decided: the
// cabinet's house language, so an unknown setting still shows words).
func Normalize(lang string) string {
	if strings.HasPrefix(strings.ToLower(lang), EN) {
		return EN
	}
	return FR
}

func table(lang string) map[string]string {
	if Normalize(lang) == EN {
		return en
	}
	return fr
}

// T returns the message of key in lang. A key missing from the catalogue
// returns the key itself, so a screen never shows an empty label.
func T(lang, key string) string {
	if s, ok := table(lang)[key]; ok {
		return s
	}
	return key
}

// Tf formats the message of key in lang with args (fmt verbs).
func Tf(lang, key string, args ...any) string {
	return fmt.Sprintf(T(lang, key), args...)
}

// Has reports whether key is in lang's catalogue.
func Has(lang, key string) bool {
	_, ok := table(lang)[key]
	return ok
}

// Lookup translates a bare key handed over by an engine or the controller
// (a hand name, a prompt, a tilt reason): it tries namespace+"."+key, then
// key itself, and falls back to the key made readable ("main_door" →
// "main door"). The second result is false for the fallback.
func Lookup(lang, namespace, key string) (string, bool) {
	t := table(lang)
	if namespace != "" {
		if s, ok := t[namespace+"."+key]; ok {
			return s, true
		}
	}
	if s, ok := t[key]; ok {
		return s, true
	}
	return strings.ReplaceAll(key, "_", " "), false
}

// Keys returns every key of lang's catalogue, sorted.
func Keys(lang string) []string {
	t := table(lang)
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
