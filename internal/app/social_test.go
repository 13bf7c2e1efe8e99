package app_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/project"
)

func pkce() (verifier, challenge string) {
	b := make([]byte, 32)
	rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	h := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(h[:])
}

var (
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
	resultURIJS = regexp.MustCompile(`var resultUri = "([^"]+)";`)
)

// formOf reads the hidden fields of the first form of a page.
func formOf(page string) url.Values {
	if i := strings.Index(page, "</form>"); i >= 0 {
		page = page[:i]
	}
	v := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(page, -1) {
		v.Set(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return v
}

// resultURIOf is the result URI a callback page posts to its opener.
func resultURIOf(t *testing.T, page []byte) string {
	t.Helper()
	m := resultURIJS.FindSubmatch(page)
	if m == nil {
		t.Fatalf("the callback page posts no result: %.500s", page)
	}
	var s string
	if err := json.Unmarshal([]byte(`"`+string(m[1])+`"`), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// callSocial walks social login through every route against latchd dev's
// identity provider (google by redirect, apple by form post), with
// refusals on the way.
func callSocial(t *testing.T, c *contract, bases map[string]string, pid string) {
	const device = "openapi-social-device-01"
	const page = "http://localhost:5173"
	post := func(path, body string, hdr ...string) (int, map[string]any) {
		t.Helper()
		status, _, b := c.do(t, bases, call{op: "POST " + path, url: path + "?" + pid, body: body, hdr: append(hdr, "Origin", page)})
		var v map[string]any
		json.Unmarshal(b, &v)
		return status, v
	}
	api := bases[""]
	idpPath := func(u string) string { return strings.TrimPrefix(u, api) }
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	c.do(t, bases, call{op: "GET /auth/v1/social/providers", url: "/auth/v1/social/providers?" + pid, hdr: []string{"Origin", page}})
	c.do(t, bases, call{op: "GET /auth/v1/social/providers", url: "/auth/v1/social/providers"})
	c.do(t, bases, call{op: "GET /auth/v1/social/loading", on: "frame", url: "/auth/v1/social/loading"})

	verifier, challenge := pkce()
	if st, v := post("/auth/v1/social/start", `{"provider":"myspace","deviceId":"`+device+`","codeChallenge":"`+challenge+`","parentOrigin":"`+page+`"}`); st != 400 || !strings.Contains(c.reason(v), "Social provider must be google, github, apple, facebook, x or discord") {
		t.Fatalf("unknown provider: %d %v", st, v)
	}
	st, start := post("/auth/v1/social/start", `{"provider":"google","deviceId":"`+device+`","codeChallenge":"`+challenge+`","parentOrigin":"`+page+`"}`)
	begin, _ := start["uri"].(string)
	if st != 200 || !strings.HasPrefix(begin, bases["frame"]+"/auth/v1/social/begin?state=") {
		t.Fatalf("start: %d %v", st, start)
	}
	// The page posts the popup to the begin URI: from another site, refused; from the page, bound and sent on.
	beginCall := func(origin string) (int, http.Header) {
		st, hdr, _ := c.do(t, bases, call{op: "POST /auth/v1/social/begin", on: "frame", url: strings.TrimPrefix(begin, bases["frame"]), hdr: []string{"Origin", origin}, noRedirect: true})
		return st, hdr
	}
	if st, _ := beginCall("https://evil.example"); st != 403 {
		t.Fatalf("begin from another site: %d", st)
	}
	st, hdr := beginCall(page)
	uri := hdr.Get("Location")
	if st != 303 || !strings.HasPrefix(uri, api+"/dev/idp/google/authorize?") || !strings.Contains(hdr.Get("Set-Cookie"), "HttpOnly") {
		t.Fatalf("begin: %d %v", st, hdr)
	}
	binding := strings.Split(hdr.Get("Set-Cookie"), ";")[0]
	// The stand-in's page says what it is, then the test user logs in.
	_, _, body := c.do(t, bases, call{op: "GET /dev/idp/{path}", url: idpPath(uri)})
	if !strings.Contains(string(body), "Development identity provider — test users only.") {
		t.Fatalf("the dev provider's page does not say it is a stand-in: %.300s", body)
	}
	c.do(t, bases, call{op: "GET /dev/idp/{path}", url: "/dev/idp/myspace/authorize"})
	c.do(t, bases, call{op: "POST /dev/idp/{path}", url: "/dev/idp/google/token", body: "grant_type=authorization_code&code=x", hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}})
	form := formOf(string(body))
	form.Set("user", "ada")
	res, err := noRedirect.PostForm(api+"/dev/idp/google/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || loc == nil || loc.Path != "/auth/v1/social/callback" {
		t.Fatalf("dev provider authorize: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	// Another browser (no cookie) gets nothing; this test comes back with the cookie on a second login.
	_, _, cb := c.do(t, bases, call{op: "GET /auth/v1/social/callback", on: "frame", url: loc.RequestURI(), hdr: []string{"Cookie", binding}})
	if !strings.Contains(string(cb), `var target = "`+page+`"`) {
		t.Fatalf("the callback page does not post to %s: %.500s", page, cb)
	}
	result := resultURIOf(t, cb)
	c.do(t, bases, call{op: "GET /auth/v1/social/callback", on: "frame", url: loc.RequestURI(), hdr: []string{"Cookie", binding}}) // a second return: 400
	c.do(t, bases, call{op: "GET /auth/v1/social/callback", on: "frame", url: "/auth/v1/social/callback?state=made-up&code=x"})

	connect := func(verifier string, hdr ...string) (int, map[string]any) {
		b, _ := json.Marshal(map[string]string{"uri": result, "codeVerifier": verifier, "deviceId": device})
		return post("/auth/v1/social/connect", string(b), hdr...)
	}
	// A result posted from another origin than the frame's: refused before anything is read.
	st, _, _ = c.do(t, bases, call{op: "POST /auth/v1/social/connect", url: "/auth/v1/social/connect?" + pid, body: `{"uri":"` + result + `"}`, hdr: []string{"Origin", "https://evil.example"}})
	if st != 403 {
		t.Fatalf("connect from another origin: %d", st)
	}
	st, conn := connect(verifier)
	sess, _ := conn["session"].(map[string]any)
	user, _ := sess["user"].(map[string]any)
	if st != 200 || conn["provider"] != "google" || user["email"] != "ada@example.com" {
		t.Fatalf("connect: %d %v", st, conn)
	}
	if st, v := connect(verifier); st != 400 || !strings.Contains(c.reason(v), "already used") {
		t.Fatalf("replayed result: %d %v", st, v)
	}
	// The session is an e-mail login's kind: the same routes take it.
	status, _, me := c.do(t, bases, call{op: "GET /auth/v1/email/me", url: "/auth/v1/email/me?" + pid, hdr: []string{"Origin", page, "Authorization", "Bearer " + sess["accessToken"].(string)}})
	if status != 200 || !strings.Contains(string(me), "ada@example.com") {
		t.Fatalf("me with the social session: %d %s", status, me)
	}

	// Apple answers by form post.
	_, challenge = pkce()
	_, start = post("/auth/v1/social/start", `{"provider":"apple","deviceId":"`+device+`","codeChallenge":"`+challenge+`","parentOrigin":"`+page+`"}`)
	begin = start["uri"].(string)
	_, hdr = beginCall(page)
	binding = strings.Split(hdr.Get("Set-Cookie"), ";")[0]
	au, _ := url.Parse(hdr.Get("Location"))
	q := au.Query()
	q.Set("user", "bob")
	_, _, fp := c.do(t, bases, call{op: "POST /dev/idp/{path}", url: "/dev/idp/apple/authorize", body: q.Encode(), hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}})
	fields := formOf(string(fp))
	if fields.Get("code") == "" || fields.Get("state") == "" {
		t.Fatalf("form_post page: %.500s", fp)
	}
	_, _, cb = c.do(t, bases, call{op: "POST /auth/v1/social/callback", on: "frame", url: "/auth/v1/social/callback", body: fields.Encode(), hdr: []string{"Content-Type", "application/x-www-form-urlencoded", "Cookie", binding}})
	resultURIOf(t, cb)
	// A form post without the cookie is posted again from the frame origin; that re-post, still without it, is refused.
	_, _, again := c.do(t, bases, call{op: "POST /auth/v1/social/callback", on: "frame", url: "/auth/v1/social/callback", body: "state=made-up", hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}})
	if !strings.Contains(string(again), `name="latch_repost" value="1"`) {
		t.Fatalf("a form post without the cookie: %.500s", again)
	}
	c.do(t, bases, call{op: "POST /auth/v1/social/callback", on: "frame", url: "/auth/v1/social/callback", body: "state=made-up&latch_repost=1", hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}})
}

// reason is an error body's first description.
func (c *contract) reason(v map[string]any) string { return reasonOf(v) }

// latchd serve never offers the development identity provider, and a
// provider without credentials is not in the config API's list; with
// credentials (flags or the per-project file) it is.
func TestSocial_ServeOffersConfiguredProvidersOnly(t *testing.T) {
	dir := t.TempDir()
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, ShutdownTimeout: 5 * time.Second,
		Auth: app.AuthConfig{Secret: strings.Repeat("s", 32), KEK: "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", RecoveryKey: "r1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", SMTPURL: "smtp://127.0.0.1:1", MailFrom: "a@b.example"}}
	cfg.Social.Clients = map[string]*app.SocialClient{"github": {ID: "gh-id", Secret: "gh-secret"}}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	p := createProject(t, m, "google,github,discord,farcaster")
	if got := socialsOf(t, m, p); got != "email,github" {
		t.Fatalf("config socials = %s, want email,github (google and discord have no credentials, farcaster is not served)", got)
	}
	if res, err := http.Get(m.APIURL() + "/dev/idp/google/.well-known/openid-configuration"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("latchd serve's dev identity provider: %v %v", res.StatusCode, err)
	}

	// The file: google for every project, discord for another project only.
	path := filepath.Join(dir, "social.json")
	os.WriteFile(path, []byte(`{"*": {"google": {"clientId": "g", "clientSecret": "s"}}, "0123456789abcdef0123456789abcdef": {"discord": {"clientId": "d", "clientSecret": "s"}}}`), 0o600)
	cfg.Social.CredentialsFile = path
	cfg.DataDir = t.TempDir()
	m2 := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m2.Close() })
	p2 := createProject(t, m2, "google,github,discord")
	if got := socialsOf(t, m2, p2); got != "email,google,github" {
		t.Fatalf("socials with the file = %s, want email,google,github", got)
	}
}

func createProject(t *testing.T, m *app.Main, socials string) string {
	t.Helper()
	p := &project.Project{Name: "Shop", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
	p.Features.Email = true
	if err := p.Features.SetFeature("socials", socials); err != nil {
		t.Fatal(err)
	}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func socialsOf(t *testing.T, m *app.Main, projectID string) string {
	t.Helper()
	res, err := http.Get(m.APIURL() + "/appkit/v1/config?projectId=" + projectID)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Features []struct {
			ID     string   `json:"id"`
			Config []string `json:"config"`
		} `json:"features"`
	}
	json.NewDecoder(res.Body).Decode(&v)
	for _, f := range v.Features {
		if f.ID == "social_login" {
			return strings.Join(f.Config, ",")
		}
	}
	return ""
}

func TestSocial_Flags(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"*": {"myspace": {"clientId": "a", "clientSecret": "b"}}}`), 0o600)
	half := filepath.Join(dir, "half.json")
	os.WriteFile(half, []byte(`{"*": {"google": {"clientId": "a"}}}`), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--social-google-client-id", "x"}, "--social-google-client-id and --social-google-client-secret go together"},
		{[]string{"--social-credentials", bad}, `unknown provider "myspace"`},
		{[]string{"--social-credentials", half}, "needs clientId and clientSecret"},
		{[]string{"--social-credentials", filepath.Join(dir, "none.json")}, "no such file"},
	} {
		var out, errOut strings.Builder
		code := app.CLI(context.Background(), append([]string{"serve", "--data-dir", dir}, tc.args...), &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}
