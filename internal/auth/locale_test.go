package auth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/i18n"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The mail is in the locale of the request that caused it, and its approval
// link carries that locale to the approval page.
func TestService_MailLocale(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		ctx := i18n.NewContext(context.Background(), "de")
		if _, err := e.svc.Start(ctx, auth.StartRequest{Project: e.p, Email: "a@example.com", DeviceID: newDevice(), IP: "192.0.2.1"}); err != nil {
			t.Fatal(err)
		}
		m := e.last("a@example.com")
		if m.Subject != "Neues Gerät für Demo bestätigen" || !strings.Contains(m.HTML, `lang="de"`) || !strings.HasSuffix(m.Link, "&locale=de") {
			t.Fatalf("%q %q", m.Subject, m.Link)
		}
		// No locale in the context: English.
		if _, err := e.svc.Start(context.Background(), auth.StartRequest{Project: e.p, Email: "b@example.com", DeviceID: newDevice(), IP: "192.0.2.1"}); err != nil {
			t.Fatal(err)
		}
		if m := e.last("b@example.com"); m.Subject != "Approve a new device for Demo" || !strings.HasSuffix(m.Link, "&locale=en") {
			t.Fatalf("%q %q", m.Subject, m.Link)
		}
	})
}

// POST /auth/v1/email/start takes the locale field (matched; a bad one is
// English, not an error), else Accept-Language.
func TestHandler_StartLocale(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		h := auth.NewHandler(e.svc, func(*http.Request) string { return "192.0.2.1" }, false)
		start := func(email, body, accept string) {
			t.Helper()
			r := httptest.NewRequest("POST", "/auth/v1/email/start", strings.NewReader(`{"email":"`+email+`","deviceId":"`+newDevice()+`"`+body+`}`))
			r.Header.Set("Content-Type", "application/json")
			if accept != "" {
				r.Header.Set("Accept-Language", accept)
			}
			r = r.WithContext(project.NewContext(r.Context(), e.p))
			w := httptest.NewRecorder()
			h.Start(w, r)
			if w.Code != http.StatusOK {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
		}
		start("ja@example.com", `,"locale":"ja"`, "de")
		start("bad@example.com", `,"locale":"tlh"`, "de")
		start("accept@example.com", ``, "fr-CH, fr;q=0.9")
		for to, want := range map[string]string{"ja@example.com": "ja", "bad@example.com": "en", "accept@example.com": "fr"} {
			if m := e.last(to); !strings.Contains(m.HTML, `lang="`+want+`"`) {
				t.Errorf("%s: %q", to, m.HTML)
			}
		}
	})
}

// The approval page is in the link's locale, else the browser's.
func TestHandler_ApprovePageLocale(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		h := auth.NewHandler(e.svc, func(*http.Request) string { return "192.0.2.1" }, false)
		page := func(target, accept string) (int, string) {
			r := httptest.NewRequest("GET", target, nil)
			if accept != "" {
				r.Header.Set("Accept-Language", accept)
			}
			w := httptest.NewRecorder()
			h.ApprovePage(w, r)
			b, _ := io.ReadAll(w.Body)
			return w.Code, string(b)
		}
		e.start("a@example.com", newDevice())
		tok := e.token("a@example.com")
		code, body := page(auth.ApprovePath+"?token="+tok+"&locale=ar", "de")
		if code != http.StatusOK || !strings.Contains(body, `<html lang="ar" dir="rtl">`) || !strings.Contains(body, "الموافقة على هذا الجهاز") ||
			!strings.Contains(body, `data-testid="latch-approve-button"`) || !strings.Contains(body, `action="`+auth.ApprovePath+`?locale=ar"`) {
			t.Fatalf("%d %s", code, body)
		}
		if code, body := page(auth.ApprovePath, "es-MX,es;q=0.9"); code != http.StatusBadRequest || !strings.Contains(body, `lang="es" dir="ltr"`) || !strings.Contains(body, "Enlace no válido") {
			t.Fatalf("%d %s", code, body)
		}
		if _, body := page(auth.ApprovePath+"?locale=nope", "de"); !strings.Contains(body, `lang="en"`) || !strings.Contains(body, "Link not valid") {
			t.Fatalf("a bad locale: %s", body)
		}
		// The form posts back with the locale: the answer page is in it too.
		r := httptest.NewRequest("POST", auth.ApprovePath+"?locale=ar", strings.NewReader(url.Values{"token": {tok}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		h.Approve(w, r)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "تمت الموافقة على الجهاز") {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
}
