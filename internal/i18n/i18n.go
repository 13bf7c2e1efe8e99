// Package i18n gives latchd's visitor-facing text (e-mails, the approval
// page, the social popup, the dev pages) the widget's locale (issue 24): the
// locales the widget ships, how a request's locale is chosen, and the
// server's catalogue of strings in each of them. English is the default and
// the fallback; a locale is never an error.
package i18n

import (
	"context"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// Default is the locale of a request that asks for none Latch ships.
const Default = "en"

// Locales are the locales the widget ships (core's SUPPORTED_LOCALES), as BCP 47 tags.
var Locales = []string{
	"ar", "de", "en", "es", "fa", "fr", "he", "hi", "id", "it", "ja", "ko",
	"ms", "nl", "pl", "pt-BR", "ru", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
}

// match maps a tag to a shipped locale by the widget's rules (core's
// matchLocale): an exact match in any case, then the language alone (de-AT →
// de, pt → pt-BR, zh-Hant/zh-TW/zh-HK/zh-MO → zh-TW, other zh → zh-CN, iw →
// he, in → id). ok is false when nothing matches.
func match(tag string) (locale string, ok bool) {
	lower := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(tag), "_", "-"))
	if lower == "" {
		return "", false
	}
	for _, l := range Locales {
		if strings.ToLower(l) == lower {
			return l, true
		}
	}
	parts := strings.Split(lower, "-")
	switch parts[0] {
	case "zh":
		for _, p := range parts[1:] {
			if p == "hant" || p == "tw" || p == "hk" || p == "mo" {
				return "zh-TW", true
			}
		}
		return "zh-CN", true
	case "pt":
		return "pt-BR", true
	case "iw":
		return "he", true
	case "in":
		return "id", true
	}
	for _, l := range Locales {
		if l == parts[0] {
			return l, true
		}
	}
	return "", false
}

// Match maps a BCP 47 tag to a shipped locale, or to Default when none
// matches. Whatever a client sends, the answer is one of Locales.
func Match(tag string) string {
	if l, ok := match(tag); ok {
		return l
	}
	return Default
}

// Dir is the writing direction of a locale: "rtl" for ar, fa and he, else "ltr".
func Dir(locale string) string {
	switch locale {
	case "ar", "fa", "he":
		return "rtl"
	}
	return "ltr"
}

// maxAcceptLanguage bounds the Accept-Language header read: a browser's is
// short, and the header is the client's to make long.
const maxAcceptLanguage = 512

// FromAcceptLanguage returns the first supported language of an
// Accept-Language header in order of preference (q, then position), else Default.
func FromAcceptLanguage(header string) string {
	if len(header) > maxAcceptLanguage {
		header = header[:maxAcceptLanguage]
	}
	type entry struct {
		tag string
		q   float64
	}
	var entries []entry
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				continue
			}
			q = f
		}
		if tag = strings.TrimSpace(tag); tag != "" && tag != "*" && q > 0 {
			entries = append(entries, entry{tag, q})
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].q > entries[j].q })
	for _, e := range entries {
		if l, ok := match(e.tag); ok {
			return l
		}
	}
	return Default
}

// FromRequest chooses the locale of a request: explicit (a JSON body's
// locale field, "" when it has none) first, then the query's locale
// parameter, then the Accept-Language header, else Default. An explicit
// locale Latch does not ship is Default: the widget chose it, the browser's
// languages do not overrule it.
func FromRequest(r *http.Request, explicit string) string {
	if explicit != "" {
		return Match(explicit)
	}
	if q := r.URL.Query().Get("locale"); q != "" {
		return Match(q)
	}
	return FromAcceptLanguage(r.Header.Get("Accept-Language"))
}

type ctxKey struct{}

// NewContext returns ctx carrying locale (matched): what the request that
// causes an e-mail asked for, read by the code that renders it.
func NewContext(ctx context.Context, locale string) context.Context {
	return context.WithValue(ctx, ctxKey{}, Match(locale))
}

// FromContext is the locale NewContext put in ctx, else Default.
func FromContext(ctx context.Context) string {
	if l, ok := ctx.Value(ctxKey{}).(string); ok {
		return l
	}
	return Default
}
