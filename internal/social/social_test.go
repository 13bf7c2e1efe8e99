package social_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

const (
	frameURL   = "https://frame.example"
	pageOrigin = "https://shop.example"
	testKEK    = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	testRecKey = "r1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// githubUser is a mockoidc user whose user info has GitHub's /user shape;
// verified feeds the /user/emails answer (githubEmails).
type githubUser struct {
	id       int64
	login    string
	email    string
	verified bool
}

func (u *githubUser) ID() string { return "gh-session-user" }
func (u *githubUser) Userinfo([]string) ([]byte, error) {
	return json.Marshal(map[string]any{"id": u.id, "login": u.login, "name": "Test " + u.login, "email": u.email, "x_verified": u.verified})
}
func (u *githubUser) Claims(_ []string, c *mockoidc.IDTokenClaims) (jwt.Claims, error) { return c, nil }

// githubEmails answers GitHub's /user/emails (the user-info endpoint with
// ?emails=1) from the token's user: its one address, primary, verified as
// the user says.
func githubEmails(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("emails") == "" {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		var u struct {
			Email    string `json:"email"`
			Verified bool   `json:"x_verified"`
		}
		json.Unmarshal(rec.Body.Bytes(), &u)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode([]map[string]any{{"email": u.Email, "primary": true, "verified": u.Verified}})
	})
}

// otherAudience, while on, re-signs the ID tokens of the token endpoint with
// the provider's own key for another client: a real token of the provider,
// meant for someone else.
type otherAudience struct {
	m  *mockoidc.MockOIDC
	on atomic.Bool
}

func (o *otherAudience) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.on.Load() || !strings.HasSuffix(r.URL.Path, "/token") {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var body map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		tok, err := o.m.Keypair.VerifyJWT(body["id_token"].(string), time.Now)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		claims := tok.Claims.(jwt.MapClaims)
		claims["aud"] = "another-client"
		body["id_token"], _ = o.m.Keypair.SignJWT(claims)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	})
}

type env struct {
	t            *testing.T
	db           *store.DB
	auth         *auth.Service
	svc          *social.Service
	p            *project.Project
	clock        *clock
	outbox       *mail.Outbox
	google       *mockoidc.MockOIDC
	github       *mockoidc.MockOIDC
	googleOther  *otherAudience
	creds        map[string]social.Credentials
	noRedirect   *http.Client
	callbackPage http.Handler
}

var scopesOnce sync.Once

func newEnv(t *testing.T, db *store.DB) *env {
	t.Helper()
	scopesOnce.Do(func() { mockoidc.ScopesSupported = append(mockoidc.ScopesSupported, "read:user", "user:email") })
	e := &env{t: t, db: db, clock: &clock{t: time.Now()}, outbox: mail.NewOutbox(0)}
	projects := project.NewService(db)
	e.p = &project.Project{Name: "Shop", Origins: []string{pageOrigin}, Features: project.DefaultFeatures()}
	e.p.Features.Email = true
	e.p.Features.Socials = []string{"google", "github", "discord"}
	if err := projects.Create(context.Background(), e.p); err != nil {
		t.Fatal(err)
	}
	tpl, _ := mail.LoadTemplates("")
	kek, _ := auth.ParseKeyring("--auth-kek", testKEK)
	rec, _ := auth.ParseKeyring("--auth-recovery-key", testRecKey)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var err error
	e.auth, err = auth.New(auth.Config{DB: db, Projects: projects, Secret: []byte(strings.Repeat("s", 32)), Keys: kek, RecoveryKeys: rec,
		Mail: e.outbox, Templates: tpl, LinkBase: func() string { return frameURL }, Now: e.clock.Now, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e.google = runOIDC(t, func(m *mockoidc.MockOIDC) http.Handler { e.googleOther = &otherAudience{m: m}; return nil })
	e.google.AddMiddleware(e.googleOther.wrap)
	startOIDC(t, e.google)
	e.github = runOIDC(t, nil)
	e.github.AddMiddleware(githubEmails)
	startOIDC(t, e.github)
	t.Cleanup(func() { e.google.Shutdown(); e.github.Shutdown() })
	gh := e.github.Config()
	e.creds = map[string]social.Credentials{
		"google": {ClientID: e.google.Config().ClientID, ClientSecret: e.google.Config().ClientSecret, Issuer: e.google.Issuer()},
		"github": {ClientID: gh.ClientID, ClientSecret: gh.ClientSecret, AuthURL: e.github.AuthorizationEndpoint(), TokenURL: e.github.TokenEndpoint(),
			UserURL: e.github.UserinfoEndpoint(), EmailsURL: e.github.UserinfoEndpoint() + "?emails=1"},
	}
	e.svc, err = social.New(social.Config{
		DB: db, Auth: e.auth, FrameURL: func() string { return frameURL }, Now: e.clock.Now, Logger: quiet,
		Credentials: func(projectID, provider string) (social.Credentials, bool) {
			c, ok := e.creds[provider]
			return c, ok && projectID == e.p.ID
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	e.callbackPage = http.HandlerFunc(social.NewHandler(e.svc, func(*http.Request) string { return "192.0.2.1" }).Callback)
	return e
}

// runOIDC makes a mockoidc server (started by startOIDC, after its
// middleware is added: mockoidc chains middleware when it starts).
func runOIDC(t *testing.T, init func(*mockoidc.MockOIDC) http.Handler) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	if init != nil {
		init(m)
	}
	return m
}

func startOIDC(t *testing.T, m *mockoidc.MockOIDC) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
}

func newDevice() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func newVerifier() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func challenge(v string) string {
	h := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// login is one popup: start, the provider's authorize (its user queued
// before), and the callback page. It returns the result URI the page gets.
type login struct {
	device, verifier, resultURI string
}

// begin is the page's post of the popup to a login's begin URL: the
// provider's URL and the binding cookie's value.
func (e *env) begin(beginURI string) (authURL, binding string) {
	e.t.Helper()
	u, err := url.Parse(beginURI)
	if err != nil || !strings.HasPrefix(beginURI, frameURL+social.BeginPath+"?") {
		e.t.Fatalf("begin URI %q", beginURI)
	}
	res, err := e.svc.Begin(context.Background(), social.BeginRequest{State: u.Query().Get("state"), Origin: pageOrigin})
	if err != nil {
		e.t.Fatalf("begin: %v", err)
	}
	return res.AuthURL, res.Binding
}

// authorize is the provider's page: its redirect to the callback's query.
func (e *env) authorize(authURL string) string {
	e.t.Helper()
	res, err := e.noRedirect.Get(authURL)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), frameURL+social.CallbackPath) {
		e.t.Fatalf("authorize answered %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	return loc.RawQuery
}

func (e *env) popup(provider, device string) login {
	e.t.Helper()
	l := login{device: device, verifier: newVerifier()}
	uri, err := e.svc.Start(context.Background(), social.StartRequest{Project: e.p, Provider: provider, DeviceID: device, CodeChallenge: challenge(l.verifier), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
	if err != nil {
		e.t.Fatalf("start %s: %v", provider, err)
	}
	authURL, binding := e.begin(uri)
	page := e.callback(e.authorize(authURL), binding)
	if page.Code != http.StatusOK {
		e.t.Fatalf("callback page %d: %s", page.Code, page.Body)
	}
	body := page.Body.String()
	i := strings.Index(body, "var resultUri = ")
	if i < 0 || !strings.Contains(body, `var target = "`+pageOrigin+`"`) {
		e.t.Fatalf("callback page does not post to %s: %s", pageOrigin, body)
	}
	js := body[i+len("var resultUri = "):]
	js = js[:strings.Index(js, ";")]
	if err := json.Unmarshal([]byte(js), &l.resultURI); err != nil {
		e.t.Fatalf("result uri %s: %v", js, err)
	}
	return l
}

// callback is the provider's redirect to the callback page in a browser
// holding binding ("" for none) as the login's cookie.
func (e *env) callback(rawQuery, binding string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", frameURL+social.CallbackPath+"?"+rawQuery, nil)
	if q, err := url.ParseQuery(rawQuery); err == nil && binding != "" {
		req.AddCookie(&http.Cookie{Name: social.BindingCookieName(q.Get("state")), Value: binding})
	}
	e.callbackPage.ServeHTTP(rec, req)
	return rec
}

func (e *env) connect(l login) (*social.ConnectResult, error) {
	return e.svc.Connect(context.Background(), social.ConnectRequest{Project: e.p, ResultURI: l.resultURI, CodeVerifier: l.verifier, DeviceID: l.device, IP: "192.0.2.1"})
}

// emailLogin logs in by e-mail on a new device (approval link, then code).
func (e *env) emailLogin(email string) *auth.Session {
	e.t.Helper()
	ctx := context.Background()
	dev := newDevice()
	if _, err := e.auth.Start(ctx, auth.StartRequest{Project: e.p, Email: email, DeviceID: dev, IP: "192.0.2.1"}); err != nil {
		e.t.Fatal(err)
	}
	link := e.outbox.List(email)[0].Link
	tok, _, _ := strings.Cut(link[strings.Index(link, "token=")+len("token="):], "&") // the locale follows
	if _, err := e.auth.Approve(ctx, tok); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Add(auth.ResendCooldown)
	if _, err := e.auth.Start(ctx, auth.StartRequest{Project: e.p, Email: email, DeviceID: dev, IP: "192.0.2.1"}); err != nil {
		e.t.Fatal(err)
	}
	sess, err := e.auth.Verify(ctx, auth.VerifyRequest{Project: e.p, Email: email, DeviceID: dev, OTP: e.outbox.List(email)[0].Code, IP: "192.0.2.1"})
	if err != nil {
		e.t.Fatal(err)
	}
	return sess
}

func (e *env) authOf(s *auth.Session) *auth.Auth {
	e.t.Helper()
	a, err := e.auth.Authenticate(context.Background(), e.p.ID, s.AccessToken)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

func (e *env) storeWallet(s *auth.Session, device string) {
	e.t.Helper()
	share := base64.StdEncoding.EncodeToString([]byte("auth share of " + s.User.ID))
	err := e.auth.StoreShares(context.Background(), e.authOf(s), auth.StoreRequest{DeviceID: device, AuthShare: share,
		Recovery: auth.Recovery{Mode: auth.RecoveryOperator, Share: base64.StdEncoding.EncodeToString([]byte("recovery"))}})
	if err != nil {
		e.t.Fatal(err)
	}
}

// count counts the env's project's rows of table (the database is shared
// by the subtests).
func (e *env) count(table string) int {
	e.t.Helper()
	q := `SELECT COUNT(*) FROM ` + table + ` WHERE project_id = ?`
	if table == "auth_devices" {
		q = `SELECT COUNT(*) FROM auth_devices d JOIN auth_users u ON u.id = d.user_id WHERE u.project_id = ?`
	}
	var n int
	if err := e.db.QueryRow(context.Background(), q, e.p.ID).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *env) nothingStored() {
	e.t.Helper()
	for _, table := range []string{"auth_users", "auth_identities", "auth_sessions", "auth_devices"} {
		if n := e.count(table); n != 0 {
			e.t.Fatalf("%s has %d rows after a refused login", table, n)
		}
	}
}

func wantMessage(t *testing.T, err error, want string) {
	t.Helper()
	e := apperr.As(err)
	if e == nil || !strings.HasPrefix(e.Message, want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestService_Connect(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("GoogleSameWalletAsEmail", func(t *testing.T) {
			e := newEnv(t, db)
			e.google.QueueUser(&mockoidc.MockUser{Subject: "g-1", Email: "Ada@Example.com", EmailVerified: true, PreferredUsername: "ada"})
			l := e.popup("google", newDevice())
			res, err := e.connect(l)
			if err != nil {
				t.Fatal(err)
			}
			if res.Session.AccessToken == "" || res.Session.User.Email != "ada@example.com" || res.Provider != "google" || res.Username != "ada" {
				t.Fatalf("result = %+v", res)
			}
			a := e.authOf(res.Session)
			if !a.Fresh(e.clock.Now()) || a.DeviceID != l.device {
				t.Fatalf("session = %+v", a)
			}
			e.storeWallet(res.Session, l.device)
			// The same person by e-mail: the same account, so the same shares.
			mail := e.emailLogin("ada@example.com")
			if mail.User.ID != res.Session.User.ID {
				t.Fatalf("e-mail user %s, google user %s", mail.User.ID, res.Session.User.ID)
			}
			ma := e.authOf(mail)
			got, err := e.auth.FetchShares(context.Background(), ma, ma.DeviceID, false)
			if err != nil || got.AuthShare != base64.StdEncoding.EncodeToString([]byte("auth share of "+res.Session.User.ID)) {
				t.Fatalf("e-mail login's shares = %+v, %v", got, err)
			}
			accounts, err := e.auth.SocialAccounts(context.Background(), ma)
			if err != nil || len(accounts) != 1 || accounts[0].Provider != "google" || accounts[0].Username != "ada" {
				t.Fatalf("social accounts = %+v, %v", accounts, err)
			}
			// The same Google account again: the same user.
			e.google.QueueUser(&mockoidc.MockUser{Subject: "g-1", Email: "ada@example.com", EmailVerified: true})
			again, err := e.connect(e.popup("google", newDevice()))
			if err != nil || again.Session.User.ID != res.Session.User.ID {
				t.Fatalf("second google login: %+v, %v", again, err)
			}
		})
		t.Run("EmailFirstThenGitHubVerified", func(t *testing.T) {
			e := newEnv(t, db)
			mail := e.emailLogin("grace@example.com")
			e.github.QueueUser(&githubUser{id: 4242, login: "grace", email: "grace@example.com", verified: true})
			res, err := e.connect(e.popup("github", newDevice()))
			if err != nil {
				t.Fatal(err)
			}
			if res.Session.User.ID != mail.User.ID || res.Username != "grace" {
				t.Fatalf("github login reached user %s (%+v), the e-mail account is %s", res.Session.User.ID, res, mail.User.ID)
			}
		})
		t.Run("UnverifiedNeverLinks", func(t *testing.T) {
			e := newEnv(t, db)
			mail := e.emailLogin("eve@example.com")
			e.google.QueueUser(&mockoidc.MockUser{Subject: "g-eve", Email: "eve@example.com", EmailVerified: false})
			g, err := e.connect(e.popup("google", newDevice()))
			if err != nil {
				t.Fatal(err)
			}
			e.github.QueueUser(&githubUser{id: 7, login: "eve", email: "eve@example.com", verified: false})
			gh, err := e.connect(e.popup("github", newDevice()))
			if err != nil {
				t.Fatal(err)
			}
			if g.Session.User.ID == mail.User.ID || gh.Session.User.ID == mail.User.ID || g.Session.User.ID == gh.Session.User.ID {
				t.Fatalf("users: e-mail %s, google %s, github %s", mail.User.ID, g.Session.User.ID, gh.Session.User.ID)
			}
			if g.Session.User.Email != "" {
				t.Fatalf("a social-only account shows e-mail %q", g.Session.User.Email)
			}
			// Its session works, refreshes, and has no e-mail to change.
			a := e.authOf(g.Session)
			if a.Email != "" {
				t.Fatalf("auth e-mail %q", a.Email)
			}
			if _, err := e.auth.ChangeEmail(context.Background(), e.p, a, "new@example.com", "192.0.2.1"); apperr.Code(err) != apperr.Forbidden {
				t.Fatalf("change e-mail of a social-only account: %v", err)
			}
		})
	})
}

func TestService_Refused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("TamperedState", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			u, _ := url.Parse(l.resultURI)
			q := u.Query()
			q.Set("state", q.Get("state")+"x")
			u.RawQuery = q.Encode()
			l.resultURI = u.String()
			_, err := e.connect(l)
			wantMessage(t, err, social.MsgInvalidState)
			e.nothingStored()
			// The callback refuses a state it did not issue, and posts nothing.
			page := e.callback("state=made-up&code=abc", "")
			if page.Code != http.StatusBadRequest || !strings.Contains(page.Body.String(), social.MsgInvalidState) || strings.Contains(page.Body.String(), "postMessage") {
				t.Fatalf("callback of a made-up state: %d %s", page.Code, page.Body)
			}
		})
		t.Run("WrongVerifier", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			l.verifier = newVerifier()
			_, err := e.connect(l)
			wantMessage(t, err, social.MsgWrongVerifier)
			e.nothingStored()
		})
		t.Run("ReplayedCode", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			if _, err := e.connect(l); err != nil {
				t.Fatal(err)
			}
			users, sessions := e.count("auth_users"), e.count("auth_sessions")
			_, err := e.connect(l)
			wantMessage(t, err, social.MsgUsed)
			// The old code under a new flow: the provider refuses it.
			l2 := e.popup("google", l.device)
			u, _ := url.Parse(l2.resultURI)
			old, _ := url.Parse(l.resultURI)
			q := u.Query()
			q.Set("code", old.Query().Get("code"))
			u.RawQuery = q.Encode()
			l2.resultURI = u.String()
			_, err = e.connect(l2)
			wantMessage(t, err, "The provider refused the login: invalid_grant")
			if e.count("auth_users") != users || e.count("auth_sessions") != sessions {
				t.Fatal("a replayed code stored something")
			}
		})
		t.Run("ExpiredCode", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			e.clock.Add(social.FlowTTL + time.Second)
			_, err := e.connect(l)
			wantMessage(t, err, social.MsgExpired)
			e.nothingStored()
		})
		t.Run("IDTokenForAnotherAudience", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			e.googleOther.on.Store(true)
			_, err := e.connect(l)
			wantMessage(t, err, "The provider's ID token is not valid: oidc: expected audience")
			e.nothingStored()
		})
		t.Run("OtherDevice", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			l.device = newDevice()
			_, err := e.connect(l)
			wantMessage(t, err, social.MsgOtherDevice)
			e.nothingStored()
		})
		t.Run("ResultOfAnotherOrigin", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			l.resultURI = strings.Replace(l.resultURI, frameURL, "https://evil.example", 1)
			_, err := e.connect(l)
			wantMessage(t, err, social.MsgInvalidResult)
			e.nothingStored()
		})
		t.Run("ParentOriginNotAllowed", func(t *testing.T) {
			e := newEnv(t, db)
			v := newVerifier()
			_, err := e.svc.Start(ctx, social.StartRequest{Project: e.p, Provider: "google", DeviceID: newDevice(), CodeChallenge: challenge(v), ParentOrigin: "https://evil.example", IP: "192.0.2.1"})
			wantMessage(t, err, "Origin not allowed: https://evil.example")
			if e.count("social_flows") != 0 {
				t.Fatal("a refused start stored a flow")
			}
		})
		t.Run("UnknownProvider", func(t *testing.T) {
			e := newEnv(t, db)
			v := newVerifier()
			for _, name := range []string{"myspace", "farcaster", ""} {
				_, err := e.svc.Start(ctx, social.StartRequest{Project: e.p, Provider: name, DeviceID: newDevice(), CodeChallenge: challenge(v), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
				wantMessage(t, err, social.MsgUnknownProvider)
			}
			// discord is on for the project but has no credentials.
			_, err := e.svc.Start(ctx, social.StartRequest{Project: e.p, Provider: "discord", DeviceID: newDevice(), CodeChallenge: challenge(v), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
			wantMessage(t, err, "Social login with Discord is not enabled for this project")
			if e.count("social_flows") != 0 {
				t.Fatal("a refused start stored a flow")
			}
		})
		t.Run("ProviderError", func(t *testing.T) {
			e := newEnv(t, db)
			l := e.popup("google", newDevice())
			u, _ := url.Parse(l.resultURI)
			q := u.Query()
			q.Del("code")
			q.Set("error", "access_denied")
			u.RawQuery = q.Encode()
			l.resultURI = u.String()
			_, err := e.connect(l)
			wantMessage(t, err, "The provider refused the login: access_denied")
			e.nothingStored()
		})
	})
}

func TestService_Available(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	if got := strings.Join(e.svc.Available(e.p), ","); got != "google,github" {
		t.Fatalf("available = %s (discord has no credentials)", got)
	}
	dev := &project.Project{ID: e.p.ID, Dev: true}
	if got := strings.Join(e.svc.Available(dev), ","); got != "google,github" {
		t.Fatalf("dev project: available = %s", got)
	}
}

func TestService_RateLimit(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	v := newVerifier()
	var err error
	for i := 0; i <= social.IPStartLimit; i++ {
		_, err = e.svc.Start(context.Background(), social.StartRequest{Project: e.p, Provider: "google", DeviceID: newDevice(), CodeChallenge: challenge(v), ParentOrigin: pageOrigin, IP: "192.0.2.9"})
	}
	if apperr.Code(err) != apperr.RateLimited {
		t.Fatalf("start %d: %v", social.IPStartLimit+1, err)
	}
}
