package social_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store/storetest"
)

// Redirect mode (a Telegram mini-app, where no popup opens): the callback
// sends the visitor back to the page with the result in result_uri, and the
// result connects as a popup's does.
func TestService_RedirectMode(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	const page = pageOrigin + "/app/?tgWebAppStartParam=x"
	device, verifier := newDevice(), newVerifier()
	start := social.StartRequest{Project: e.p, Provider: "google", DeviceID: device, CodeChallenge: challenge(verifier), ParentOrigin: pageOrigin, IP: "192.0.2.1"}
	for _, bad := range []string{"https://evil.example/app", "javascript:alert(1)", "https://user@shop.example/", "//shop.example/app"} {
		start.ReturnURL = bad
		_, err := e.svc.Start(context.Background(), start)
		wantMessage(t, err, "returnUrl must be a page of parentOrigin")
	}
	start.ReturnURL = page
	uri, err := e.svc.Start(context.Background(), start)
	if err != nil {
		t.Fatal(err)
	}
	authURL, binding := e.begin(uri)
	back := e.callback(e.authorize(authURL), binding)
	if back.Code != http.StatusSeeOther {
		t.Fatalf("callback %d: %s", back.Code, back.Body)
	}
	to, err := url.Parse(back.Header().Get("Location"))
	if err != nil || !strings.HasPrefix(to.String(), pageOrigin+"/app/?") || to.Query().Get("tgWebAppStartParam") != "x" {
		t.Fatalf("callback sent the visitor to %q, want %s with result_uri", back.Header().Get("Location"), page)
	}
	result := to.Query().Get("result_uri")
	if !strings.HasPrefix(result, frameURL+social.ResultPath+"?") {
		t.Fatalf("result_uri %q", result)
	}
	r, err := e.connect(login{device: device, verifier: verifier, resultURI: result})
	if err != nil || r.Session.AccessToken == "" {
		t.Fatalf("connect with the redirect's result: %v", err)
	}
}

// A project that lists its return URLs takes only those (the page's
// fragment aside); without a list, a page of the origin that starts it.
func TestService_RedirectModeListedReturnURLs(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	e.p.ReturnURLs = []string{pageOrigin + "/tg"}
	start := social.StartRequest{Project: e.p, Provider: "google", DeviceID: newDevice(), CodeChallenge: challenge(newVerifier()), ParentOrigin: pageOrigin, IP: "192.0.2.1"}
	for _, other := range []string{pageOrigin + "/app/", pageOrigin + "/tg?x=1", pageOrigin + "/tg/"} {
		start.ReturnURL = other
		_, err := e.svc.Start(context.Background(), start)
		wantMessage(t, err, "returnUrl must be one of this project's return URLs")
	}
	start.ReturnURL = pageOrigin + "/tg#tgWebAppData=abc"
	uri, err := e.svc.Start(context.Background(), start)
	if err != nil {
		t.Fatal(err)
	}
	authURL, binding := e.begin(uri)
	back := e.callback(e.authorize(authURL), binding)
	if to := back.Header().Get("Location"); back.Code != http.StatusSeeOther || !strings.HasPrefix(to, pageOrigin+"/tg?result_uri=") || !strings.HasSuffix(to, "#tgWebAppData=abc") {
		t.Fatalf("callback: %d %q", back.Code, to)
	}
}
