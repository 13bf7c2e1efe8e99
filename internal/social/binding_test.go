package social_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// start records a google login of a new device and returns its begin URI,
// state and verifier.
func (e *env) start(t *testing.T) (beginURI, state, verifier, device string) {
	t.Helper()
	verifier, device = newVerifier(), newDevice()
	uri, err := e.svc.Start(context.Background(), social.StartRequest{Project: e.p, Provider: "google", DeviceID: device, CodeChallenge: challenge(verifier), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(uri)
	return uri, u.Query().Get("state"), verifier, device
}

func TestService_Begin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db)
		_, state, _, _ := e.start(t)
		for _, origin := range []string{"", "https://evil.example", "null", pageOrigin + ".evil.example"} {
			_, err := e.svc.Begin(ctx, social.BeginRequest{State: state, Origin: origin})
			wantMessage(t, err, social.MsgBeginOrigin)
			if apperr.Code(err) != apperr.Forbidden {
				t.Fatalf("origin %q: %v", origin, err)
			}
		}
		res, err := e.svc.Begin(ctx, social.BeginRequest{State: state, Origin: pageOrigin})
		if err != nil || res.Binding == "" || !strings.Contains(res.AuthURL, "state="+state) || !strings.Contains(res.AuthURL, "code_challenge_method=S256") {
			t.Fatalf("begin: %+v %v", res, err)
		}
		_, err = e.svc.Begin(ctx, social.BeginRequest{State: state, Origin: pageOrigin})
		wantMessage(t, err, social.MsgBegun)
		_, err = e.svc.Begin(ctx, social.BeginRequest{State: "made-up", Origin: pageOrigin})
		wantMessage(t, err, social.MsgInvalidState)
		_, late, _, _ := e.start(t)
		e.clock.Add(social.FlowTTL)
		_, err = e.svc.Begin(ctx, social.BeginRequest{State: late, Origin: pageOrigin})
		wantMessage(t, err, social.MsgExpired)
	})
}

// The login reaches the provider in another browser than the one that
// began it (a provider URL sent to a victim): the callback there refuses
// and ends the login, so its code is of no use to anyone, the cookie's
// holder included.
func TestService_CallbackOtherBrowser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		for _, other := range []string{"", "a-cookie-of-another-login"} {
			e.google.QueueUser(&mockoidc.MockUser{Subject: "victim", Email: "victim@example.com", EmailVerified: true})
			uri, _, verifier, device := e.start(t)
			authURL, binding := e.begin(uri) // the attacker's browser holds the binding
			query := e.authorize(authURL)    // the victim logs in at the provider
			page := e.callback(query, other)
			if page.Code != http.StatusForbidden || !strings.Contains(page.Body.String(), "started in another browser") || strings.Contains(page.Body.String(), "postMessage") {
				t.Fatalf("callback with cookie %q: %d %s", other, page.Code, page.Body)
			}
			// The login is over: its holder's callback and a result made from the code are refused.
			if page := e.callback(query, binding); page.Code != http.StatusBadRequest || !strings.Contains(page.Body.String(), social.MsgUsed) {
				t.Fatalf("the binding's holder after the refusal: %d %s", page.Code, page.Body)
			}
			_, err := e.connect(login{device: device, verifier: verifier, resultURI: frameURL + social.ResultPath + "?" + query})
			wantMessage(t, err, social.MsgUsed)
			e.nothingStored()
		}
	})
}

// A provider URL made for a login that was never begun (the state taken
// from a begin URI, the rest copied from another login's): the callback
// hands nothing to anyone.
func TestService_CallbackNotBegun(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	e.google.QueueUser(&mockoidc.MockUser{Subject: "victim", Email: "victim@example.com", EmailVerified: true})
	_, state, verifier, device := e.start(t)
	other, _, _, _ := e.start(t)
	authURL, _ := e.begin(other)
	u, _ := url.Parse(authURL)
	q := u.Query()
	q.Set("state", state)
	u.RawQuery = q.Encode()
	query := e.authorize(u.String())
	page := e.callback(query, "")
	if page.Code != http.StatusBadRequest || !strings.Contains(page.Body.String(), social.MsgInvalidState) {
		t.Fatalf("callback of a login never begun: %d %s", page.Code, page.Body)
	}
	_, err := e.connect(login{device: device, verifier: verifier, resultURI: frameURL + social.ResultPath + "?" + query})
	wantMessage(t, err, social.MsgInvalidState)
	e.nothingStored()
}

// The HTTP side: start needs an Origin, begin sets the binding cookie
// (HttpOnly, SameSite=Lax, the callback's path only, Secure when asked) and
// goes on to the provider, and a provider's cross-site form post (sent
// without the Lax cookie) is posted again from the frame origin.
func TestHandler_Binding(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	secure, err := social.New(social.Config{DB: e.db, Auth: e.auth, FrameURL: func() string { return frameURL }, Now: e.clock.Now, SecureCookies: true,
		Credentials: func(string, string) (social.Credentials, bool) { return e.creds["google"], true }})
	if err != nil {
		t.Fatal(err)
	}
	ip := func(*http.Request) string { return "192.0.2.1" }
	h := social.NewHandler(secure, ip)

	t.Run("StartWithoutOrigin", func(t *testing.T) {
		body := `{"provider":"google","deviceId":"` + newDevice() + `","codeChallenge":"` + challenge(newVerifier()) + `","parentOrigin":"` + pageOrigin + `"}`
		req := httptest.NewRequest("POST", "/auth/v1/social/start", strings.NewReader(body)).WithContext(project.NewContext(context.Background(), e.p))
		rec := httptest.NewRecorder()
		h.Start(rec, req)
		if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), social.MsgNoOrigin) {
			t.Fatalf("start without Origin: %d %s", rec.Code, rec.Body)
		}
		req = httptest.NewRequest("POST", "/auth/v1/social/start", strings.NewReader(body)).WithContext(project.NewContext(context.Background(), e.p))
		req.Header.Set("Origin", frameURL)
		rec = httptest.NewRecorder()
		h.Start(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), frameURL+social.BeginPath+"?state=") {
			t.Fatalf("start from the frame: %d %s", rec.Code, rec.Body)
		}
	})

	uri, err := secure.Start(context.Background(), social.StartRequest{Project: e.p, Provider: "google", DeviceID: newDevice(), CodeChallenge: challenge(newVerifier()), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	state := uri[strings.Index(uri, "state=")+len("state="):]
	begin := func(origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", uri, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.Begin(rec, req)
		return rec
	}
	t.Run("BeginFromAnotherSite", func(t *testing.T) {
		for _, origin := range []string{"", "https://evil.example"} {
			rec := begin(origin)
			if rec.Code != http.StatusForbidden || rec.Header().Get("Set-Cookie") != "" || !strings.Contains(rec.Body.String(), social.MsgBeginOrigin) {
				t.Fatalf("begin from %q: %d %v %s", origin, rec.Code, rec.Header(), rec.Body)
			}
		}
	})
	var binding *http.Cookie
	t.Run("BeginSetsCookie", func(t *testing.T) {
		rec := begin(pageOrigin)
		res := rec.Result()
		if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), e.google.AuthorizationEndpoint()+"?") {
			t.Fatalf("begin: %d %v", rec.Code, rec.Header())
		}
		cookies := res.Cookies()
		if len(cookies) != 1 {
			t.Fatalf("cookies %v", cookies)
		}
		binding = cookies[0]
		if binding.Name != social.BindingCookieName(state) || !binding.HttpOnly || !binding.Secure || binding.SameSite != http.SameSiteLaxMode ||
			binding.Path != social.CallbackPath || binding.MaxAge != int(social.FlowTTL/time.Second) || len(binding.Value) < 43 {
			t.Fatalf("binding cookie %+v (%s)", binding, rec.Header().Get("Set-Cookie"))
		}
	})
	t.Run("FormPostIsPostedAgain", func(t *testing.T) {
		form := url.Values{"state": {state}, "code": {"c-1"}, "user": {`{"name":"x"}`}}
		post := func(f url.Values, c *http.Cookie) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", social.CallbackPath, strings.NewReader(f.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if c != nil {
				req.AddCookie(c)
			}
			rec := httptest.NewRecorder()
			h.Callback(rec, req)
			return rec
		}
		// The provider's cross-site post: no cookie came with it.
		rec := post(form, nil)
		page := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(page, `<form method="post" action="`+social.CallbackPath+`"`) || !strings.Contains(page, `name="latch_repost" value="1"`) ||
			!strings.Contains(page, `name="code" value="c-1"`) || strings.Contains(page, "name=\"user\"") || !strings.Contains(rec.Header().Get("Content-Security-Policy"), "form-action 'self'") {
			t.Fatalf("re-post page: %d %s", rec.Code, page)
		}
		// Posted again from the frame origin, without the cookie still: refused.
		form.Set("latch_repost", "1")
		if rec := post(form, nil); rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "started in another browser") {
			t.Fatalf("re-post without the cookie: %d %s", rec.Code, rec.Body)
		}
	})
}
