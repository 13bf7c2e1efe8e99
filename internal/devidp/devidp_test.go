package devidp_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/devidp"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store/storetest"
)

// frameURL is a local frame origin: the stand-in only redirects to
// latchd's callback on a local host.
const frameURL = "http://127.0.0.1:8081"

type env struct {
	t   *testing.T
	idp *devidp.Server
	srv *httptest.Server
	svc *social.Service
	p   *project.Project
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t}
	var base string
	var err error
	if e.idp, err = devidp.New(func() string { return base }); err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(e.idp.Handler())
	t.Cleanup(e.srv.Close)
	base = e.srv.URL
	db := storetest.MustOpenSQLite(t)
	projects := project.NewService(db)
	e.p = &project.Project{Name: "Dev", Dev: true, Features: project.DefaultFeatures()}
	if err := projects.Create(context.Background(), e.p); err != nil {
		t.Fatal(err)
	}
	tpl, _ := mail.LoadTemplates("")
	kek, _ := auth.ParseKeyring("--auth-kek", auth.NewKeyString("k1"))
	rec, _ := auth.ParseKeyring("--auth-recovery-key", auth.NewKeyString("r1"))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	as, err := auth.New(auth.Config{DB: db, Projects: projects, Secret: []byte(strings.Repeat("s", 32)), Keys: kek, RecoveryKeys: rec,
		Mail: mail.NewOutbox(0), Templates: tpl, LinkBase: func() string { return frameURL }, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e.svc, err = social.New(social.Config{DB: db, Auth: as, FrameURL: func() string { return frameURL }, Logger: quiet, LocalOrigins: true,
		Credentials: func(_, provider string) (social.Credentials, bool) { return e.idp.Credentials(provider) }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var hidden = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

func fields(page string) url.Values {
	v := url.Values{}
	for _, m := range hidden.FindAllStringSubmatch(page, -1) {
		v.Set(m[1], strings.ReplaceAll(m[2], "&amp;", "&"))
	}
	return v
}

func pkce() (string, string) {
	b := make([]byte, 32)
	rand.Read(b)
	v := base64.RawURLEncoding.EncodeToString(b)
	h := sha256.Sum256([]byte(v))
	return v, base64.RawURLEncoding.EncodeToString(h[:])
}

const device = "devidp-test-device-000001"

// authURL starts and begins a login (the page's post of the popup to the
// begin URL, whose Origin and cookie internal/social's tests check): the
// provider's authorization URL and the binding cookie's value.
func (e *env) authURL(provider, challenge string) (string, string) {
	e.t.Helper()
	begin, err := e.svc.Start(context.Background(), social.StartRequest{Project: e.p, Provider: provider, DeviceID: device, CodeChallenge: challenge, ParentOrigin: "http://localhost:5173", IP: "127.0.0.1"})
	if err != nil {
		e.t.Fatal(err)
	}
	bu, _ := url.Parse(begin)
	b, err := e.svc.Begin(context.Background(), social.BeginRequest{State: bu.Query().Get("state"), Origin: "http://localhost:5173"})
	if err != nil {
		e.t.Fatal(err)
	}
	return b.AuthURL, b.Binding
}

// login runs the popup with the test user picked by form (user=… or a
// custom name/email/verified) and connects.
func (e *env) login(provider string, form url.Values) (*social.ConnectResult, error) {
	e.t.Helper()
	verifier, challenge := pkce()
	uri, binding := e.authURL(provider, challenge)
	res, err := http.Get(uri)
	if err != nil {
		e.t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), "Development identity provider — test users only.") {
		e.t.Fatalf("authorize page %d: %.300s", res.StatusCode, page)
	}
	u, _ := url.Parse(uri)
	q := u.Query()
	for k, v := range form {
		q[k] = v
	}
	res, err = noRedirect.PostForm(e.srv.URL+u.Path, q)
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var cb url.Values
	switch res.StatusCode {
	case http.StatusFound:
		loc, _ := url.Parse(res.Header.Get("Location"))
		if !strings.HasPrefix(loc.String(), frameURL+social.CallbackPath) {
			e.t.Fatalf("redirect to %s", loc)
		}
		cb = loc.Query()
	case http.StatusOK: // form_post
		cb = fields(string(body))
	default:
		e.t.Fatalf("authorize POST %d: %s", res.StatusCode, body)
	}
	r, err := e.svc.Callback(context.Background(), cb, binding)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.svc.Connect(context.Background(), social.ConnectRequest{Project: e.p, ResultURI: r.ResultURI, CodeVerifier: verifier, DeviceID: device, IP: "127.0.0.1"})
}

// Every provider's stand-in logs in; a verified e-mail links where the
// provider reports verification (google, apple, github, discord), never
// through facebook or x, which do not.
func TestServer_EveryProvider(t *testing.T) {
	e := newEnv(t)
	users := map[string]string{}
	for _, name := range social.Names() {
		res, err := e.login(name, url.Values{"user": {"ada"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		users[name] = res.Session.User.ID
		if res.Provider != name || res.Username == "" {
			t.Fatalf("%s: %+v", name, res)
		}
	}
	for _, name := range []string{"apple", "github", "discord"} {
		if users[name] != users["google"] {
			t.Errorf("%s's verified ada@example.com did not reach google's account", name)
		}
	}
	for _, name := range []string{"facebook", "x"} {
		if users[name] == users["google"] {
			t.Errorf("%s linked to the e-mail account without a verified e-mail", name)
		}
	}
	// Bob's e-mail is not verified: google does not link him to an account of bob@example.com.
	custom, err := e.login("google", url.Values{"name": {"Bob Two"}, "email": {"bob@example.com"}, "verified": {"1"}})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := e.login("github", url.Values{"user": {"bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if bob.Session.User.ID == custom.Session.User.ID || bob.Session.User.Email != "" {
		t.Fatalf("an unverified e-mail linked: %+v", bob.Session.User)
	}
}

func TestServer_Refusals(t *testing.T) {
	e := newEnv(t)
	// Declined at the provider.
	if _, err := e.login("google", url.Values{"deny": {"1"}}); err == nil || !strings.Contains(err.Error(), "The provider refused the login: The test user declined") {
		t.Fatalf("declined: %v", err)
	}
	c, _ := e.idp.Credentials("github")
	token := func(form url.Values) (int, string) {
		form.Set("client_id", c.ClientID)
		form.Set("client_secret", c.ClientSecret)
		res, err := http.PostForm(c.TokenURL, form)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v struct {
			Error string `json:"error"`
		}
		json.NewDecoder(res.Body).Decode(&v)
		return res.StatusCode, v.Error
	}
	// A code for a PKCE challenge: the wrong verifier is refused, and the code is then spent.
	verifier, challenge := pkce()
	q := url.Values{"client_id": {c.ClientID}, "response_type": {"code"}, "redirect_uri": {frameURL + social.CallbackPath}, "state": {"s"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "user": {"ada"}}
	code := func() string {
		res, err := noRedirect.PostForm(c.AuthURL, q)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		loc, _ := url.Parse(res.Header.Get("Location"))
		return loc.Query().Get("code")
	}
	cd := code()
	if st, e := token(url.Values{"grant_type": {"authorization_code"}, "code": {cd}, "redirect_uri": {frameURL + social.CallbackPath}, "code_verifier": {verifier + "x"}}); st != 400 || e != "invalid_grant" {
		t.Fatalf("wrong verifier: %d %s", st, e)
	}
	if st, e := token(url.Values{"grant_type": {"authorization_code"}, "code": {cd}, "redirect_uri": {frameURL + social.CallbackPath}, "code_verifier": {verifier}}); st != 400 || e != "invalid_grant" {
		t.Fatalf("a spent code: %d %s", st, e)
	}
	cd = code()
	if st, e := token(url.Values{"grant_type": {"authorization_code"}, "code": {cd}, "redirect_uri": {"http://127.0.0.1:9/other"}, "code_verifier": {verifier}}); st != 400 || e != "invalid_grant" {
		t.Fatalf("another redirect_uri: %d %s", st, e)
	}
	// Only latchd's callback on a local host, with S256.
	for k, v := range map[string]string{"redirect_uri": "https://evil.example" + social.CallbackPath, "code_challenge_method": "plain", "client_id": "someone"} {
		bad := url.Values{}
		for kk, vv := range q {
			bad[kk] = vv
		}
		bad.Set(k, v)
		res, err := noRedirect.PostForm(c.AuthURL, bad)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s=%s: %d, want 400", k, v, res.StatusCode)
		}
	}
	// A wrong secret.
	res, _ := http.PostForm(c.TokenURL, url.Values{"client_id": {c.ClientID}, "client_secret": {"nope"}, "grant_type": {"authorization_code"}})
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong secret: %d", res.StatusCode)
	}
}

// The stand-in's pages are in the browser's languages (the provider's
// authorization URL carries no locale); test hooks stay as they are.
func TestServer_PageLocale(t *testing.T) {
	e := newEnv(t)
	_, challenge := pkce()
	uri, _ := e.authURL("google", challenge)
	get := func(accept string) string {
		req, _ := http.NewRequest("GET", uri, nil)
		req.Header.Set("Accept-Language", accept)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	page := get("ar")
	for _, want := range []string{`<html lang="ar" dir="rtl">`, "مزوّد هوية للتطوير — لمستخدمي الاختبار فقط.", `data-testid="devidp-custom"`, `data-testid="devidp-deny"`, `data-testid="devidp-banner"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("no %q in %s", want, page)
		}
	}
	if page := get("xx, de;q=0.5"); !strings.Contains(page, `lang="de"`) || !strings.Contains(page, "Bei Google als Testbenutzer anmelden") {
		t.Fatalf("de: %.600s", page)
	}
}
