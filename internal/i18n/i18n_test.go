package i18n

import (
	"context"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"
)

func TestMatch(t *testing.T) {
	for tag, want := range map[string]string{
		"de": "de", "DE": "de", "de-AT": "de", "de_CH": "de", "pt": "pt-BR", "pt-PT": "pt-BR", "PT-br": "pt-BR",
		"zh": "zh-CN", "zh-Hans": "zh-CN", "zh-CN": "zh-CN", "zh-Hant": "zh-TW", "zh-HK": "zh-TW", "zh-Hant-MO": "zh-TW", "zh-tw": "zh-TW",
		"iw": "he", "he-IL": "he", "in": "id", "en-GB": "en", "ar-EG": "ar",
		"": "en", "xx": "en", "klingon": "en", "<script>": "en", "de-x-" + string(make([]byte, 300)): "de",
	} {
		if got := Match(tag); got != want {
			t.Errorf("Match(%q) = %q, want %q", tag, got, want)
		}
	}
}

func TestDir(t *testing.T) {
	for _, l := range Locales {
		want := "ltr"
		if l == "ar" || l == "fa" || l == "he" {
			want = "rtl"
		}
		if Dir(l) != want {
			t.Errorf("Dir(%s) = %s", l, Dir(l))
		}
	}
}

func TestFromRequest(t *testing.T) {
	req := func(target, accept string) string {
		r := httptest.NewRequest("GET", target, nil)
		if accept != "" {
			r.Header.Set("Accept-Language", accept)
		}
		return FromRequest(r, "")
	}
	cases := []struct{ target, accept, want string }{
		{"/", "", "en"},
		{"/", "fr-CH, fr;q=0.9, en;q=0.8", "fr"},
		{"/", "xx, ja;q=0.5, ko;q=0.7", "ko"},   // q order, unsupported skipped
		{"/", "en;q=0.1, zh-TW;q=0.9", "zh-TW"}, // q beats position
		{"/", "de;q=0, *", "en"},                // q=0 is "not this one"
		{"/", "de;q=oops, es", "es"},            // an unreadable entry is skipped
		{"/?locale=ar", "de", "ar"},             // the query before the header
		{"/?locale=tlh", "de", "en"},            // a bad explicit locale is English, not an error
		{"/?locale=pt", "", "pt-BR"},
	}
	for _, c := range cases {
		if got := req(c.target, c.accept); got != c.want {
			t.Errorf("%s with Accept-Language %q: %q, want %q", c.target, c.accept, got, c.want)
		}
	}
	r := httptest.NewRequest("GET", "/?locale=fr", nil)
	if got := FromRequest(r, "he"); got != "he" {
		t.Errorf("a body's locale comes first: %q", got)
	}
	if got := FromRequest(r, "nope"); got != "en" {
		t.Errorf("a body's bad locale: %q", got)
	}
}

func TestContext(t *testing.T) {
	if FromContext(context.Background()) != "en" {
		t.Error("no locale in the context is English")
	}
	if FromContext(NewContext(context.Background(), "zh-hk")) != "zh-TW" {
		t.Error("the context's locale is matched")
	}
}

var placeholder = regexp.MustCompile(`\{[a-zA-Z]+\}`)

func placeholders(s string) []string {
	p := placeholder.FindAllString(s, -1)
	slices.Sort(p)
	return slices.Compact(p)
}

// Every shipped locale has every key, no other key, the same placeholders
// as English, and no empty string.
func TestCataloguesComplete(t *testing.T) {
	if len(catalogues) != len(Locales) {
		t.Errorf("%d catalogues for %d locales", len(catalogues), len(Locales))
	}
	for _, l := range Locales {
		cat, ok := catalogues[l]
		if !ok {
			t.Errorf("%s: no catalogue", l)
			continue
		}
		for key, en := range english {
			s, ok := cat[key]
			if !ok || s == "" {
				t.Errorf("%s: %s missing", l, key)
				continue
			}
			if got, want := placeholders(s), placeholders(en); !slices.Equal(got, want) {
				t.Errorf("%s: %s has placeholders %v, English %v", l, key, got, want)
			}
		}
		for key := range cat {
			if _, ok := english[key]; !ok {
				t.Errorf("%s: %s is not an English key", l, key)
			}
		}
	}
}

func TestT(t *testing.T) {
	if got := T("de", MailCodeSubject, "project", "Acme", "code", "123456"); got != "Ihr Anmeldecode für Acme: 123456" {
		t.Errorf("German subject: %q", got)
	}
	if got := T("xx", TheApp); got != "the app" {
		t.Errorf("unknown locale: %q", got)
	}
	if p := For("fa-IR"); p.Locale() != "fa" || p.Dir() != "rtl" {
		t.Errorf("For(fa-IR) = %s %s", p.Locale(), p.Dir())
	}
}
