package social_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The popup's pages are in the locale parameter, else the browser's languages.
func TestHandler_PageLocale(t *testing.T) {
	h := social.NewHandler(nil, func(*http.Request) string { return "192.0.2.1" })
	rec := httptest.NewRecorder()
	h.Loading(rec, httptest.NewRequest("GET", "/auth/v1/social/loading?locale=he", nil))
	if body := rec.Body.String(); !strings.Contains(body, `<html lang="he" dir="rtl">`) || !strings.Contains(body, "<p>טוען…</p>") {
		t.Fatalf("loading: %s", body)
	}
	rec = httptest.NewRecorder()
	h.Loading(rec, httptest.NewRequest("GET", "/auth/v1/social/loading", nil))
	if body := rec.Body.String(); !strings.Contains(body, `lang="en"`) || !strings.Contains(body, "Loading…") {
		t.Fatalf("loading: %s", body)
	}

	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		// The provider's redirect carries no locale: the browser's languages decide.
		r := httptest.NewRequest("GET", social.CallbackPath+"?state=unknown&code=x", nil)
		r.Header.Set("Accept-Language", "ja-JP,ja;q=0.9,en;q=0.5")
		rec := httptest.NewRecorder()
		e.callbackPage.ServeHTTP(rec, r)
		body := rec.Body.String()
		if rec.Code == http.StatusOK || !strings.Contains(body, `<html lang="ja" dir="ltr">`) || !strings.Contains(body, "<h1>ログインに失敗しました</h1>") || !strings.Contains(body, `id="latch-social-error"`) {
			t.Fatalf("%d %s", rec.Code, body)
		}
	})
}
