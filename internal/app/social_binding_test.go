package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/app"
)

// socialBrowser is a browser of the social login tests: a cookie jar, no
// redirect followed (each hop is checked), and the headers a browser sets.
type socialBrowser struct {
	t     *testing.T
	c     *http.Client
	frame string // latchd's frame URL
}

func newSocialBrowser(t *testing.T, frame string) *socialBrowser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &socialBrowser{t: t, frame: frame, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request; form, when not nil, is the urlencoded body.
func (b *socialBrowser) do(method, target string, form url.Values, hdr ...string) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	return res, string(page)
}

// loginAt is a visitor at latchd dev's identity provider: its page, then
// the test user's button. It returns the provider's answer: a redirect to
// the callback, or (Apple) a page that posts to it.
func (b *socialBrowser) loginAt(authURL, user string) (*http.Response, string) {
	b.t.Helper()
	res, page := b.do("GET", authURL, nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Development identity provider") {
		b.t.Fatalf("provider page %s: %d %.300s", authURL, res.StatusCode, page)
	}
	form := formOf(page)
	form.Set("user", user)
	action, _ := url.Parse(authURL)
	action.RawQuery = ""
	return b.do("POST", action.String(), form)
}

// comeBack follows the provider's answer to latchd's callback: GET the
// redirect, or post the form-post page's fields (browser-like: the callback
// is the frame origin's, the provider's page another origin's).
func (b *socialBrowser) comeBack(res *http.Response, page string) (*http.Response, string, string) {
	b.t.Helper()
	if res.StatusCode == http.StatusFound {
		loc := res.Header.Get("Location")
		if !strings.HasPrefix(loc, b.frame+"/auth/v1/social/callback?") {
			b.t.Fatalf("provider sent the visitor to %q", loc)
		}
		cb, body := b.do("GET", loc, nil)
		u, _ := url.Parse(loc)
		return cb, body, u.RawQuery
	}
	fields := formOf(page)
	if fields.Get("state") == "" {
		b.t.Fatalf("provider's answer: %d %.300s", res.StatusCode, page)
	}
	cb, body := b.do("POST", b.frame+"/auth/v1/social/callback", fields)
	return cb, body, fields.Encode()
}

// frameCall is the frame's fetch to latchd's API: JSON, the frame origin's
// Origin unless origin says otherwise ("" for none, as curl sends).
func frameCall(t *testing.T, m *app.Main, path string, body any, origin string) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", m.APIURL()+path+"?projectId="+m.DevProjectID, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v map[string]any
	json.NewDecoder(res.Body).Decode(&v)
	return res.StatusCode, v
}

func reasonOf(v map[string]any) string {
	rs, _ := v["reasons"].([]any)
	if len(rs) == 0 {
		return ""
	}
	r, _ := rs[0].(map[string]any)
	s, _ := r["description"].(string)
	return s
}

// Issue 40, finding 3: a social login is bound to the browser that began
// it. The honest flow works for each provider of latchd dev's identity
// provider; the attack (an attacker's start with their PKCE challenge, the
// victim finishing at the provider, the leaked result redeemed with the
// attacker's verifier) gets nothing.
func TestSocial_BoundToBrowser(t *testing.T) {
	m := MustRunMain(t, "")
	frame := m.FrameURL()
	const page = "http://localhost:5173"

	t.Run("Honest", func(t *testing.T) {
		for _, provider := range []string{"google", "x", "discord", "apple", "github", "facebook"} {
			b := newSocialBrowser(t, frame)
			verifier, challenge := pkce()
			device := "honest-device-" + provider + "-0123456789"
			st, v := frameCall(t, m, "/auth/v1/social/start", map[string]string{"provider": provider, "deviceId": device, "codeChallenge": challenge, "parentOrigin": page}, frame)
			begin, _ := v["uri"].(string)
			if st != 200 || !strings.HasPrefix(begin, frame+"/auth/v1/social/begin?state=") {
				t.Fatalf("%s start: %d %v", provider, st, v)
			}
			res, _ := b.do("POST", begin, nil, "Origin", page)
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("%s begin: %d", provider, res.StatusCode)
			}
			cb, body, _ := b.comeBack(b.loginAt(res.Header.Get("Location"), "ada"))
			if cb.StatusCode != http.StatusOK {
				t.Fatalf("%s callback: %d %.300s", provider, cb.StatusCode, body)
			}
			st, v = frameCall(t, m, "/auth/v1/social/connect", map[string]string{"uri": resultURIOf(t, []byte(body)), "codeVerifier": verifier, "deviceId": device}, frame)
			if st != 200 || v["provider"] != provider {
				t.Fatalf("%s connect: %d %v", provider, st, v)
			}
		}
	})

	t.Run("Attack", func(t *testing.T) {
		victim := newSocialBrowser(t, frame)
		verifier, challenge := pkce()
		const device = "attackers-own-device-0123456789"
		start := map[string]string{"provider": "google", "deviceId": device, "codeChallenge": challenge, "parentOrigin": page, "returnUrl": page + "/leaky-page"}

		// The attack as found: a start with no Origin, the victim logs in,
		// the result lands in the return URL, the attacker redeems it.
		st, v := frameCall(t, m, "/auth/v1/social/start", start, "")
		if st == 200 {
			uri, _ := v["uri"].(string)
			cb, body, _ := victim.comeBack(victim.loginAt(uri, "ada"))
			back, _ := url.Parse(cb.Header.Get("Location"))
			leaked := back.Query().Get("result_uri")
			st, v = frameCall(t, m, "/auth/v1/social/connect", map[string]string{"uri": leaked, "codeVerifier": verifier, "deviceId": device}, frame)
			t.Fatalf("a start with no Origin was accepted; the attacker's redemption of the victim's leaked result answered %d %v (callback %d %.200s)", st, v, cb.StatusCode, body)
		}
		if st != 403 || !strings.Contains(reasonOf(v), "the request has no Origin") {
			t.Fatalf("start with no Origin: %d %v", st, v)
		}

		// With a forged Origin the start is recorded, but a browser begins
		// it only when the page itself posts it: the victim's link (GET) and
		// a post from the attacker's site are refused.
		st, v = frameCall(t, m, "/auth/v1/social/start", start, frame)
		begin, _ := v["uri"].(string)
		if st != 200 {
			t.Fatalf("start: %d %v", st, v)
		}
		if res, _ := victim.do("GET", begin, nil); res.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("the begin URI opened as a link: %d", res.StatusCode)
		}
		if res, body := victim.do("POST", begin, nil, "Origin", "https://evil.example"); res.StatusCode != http.StatusForbidden || !strings.Contains(body, "can only be begun by the page that started it") {
			t.Fatalf("begun from the attacker's site: %d %.300s", res.StatusCode, body)
		}
		// So the attacker begins it in their own client and sends the victim the provider's URL.
		attacker := newSocialBrowser(t, frame)
		res, _ := attacker.do("POST", begin, nil, "Origin", page)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("attacker's begin: %d", res.StatusCode)
		}
		cb, body, query := victim.comeBack(victim.loginAt(res.Header.Get("Location"), "ada"))
		if cb.StatusCode != http.StatusForbidden || cb.Header.Get("Location") != "" || strings.Contains(body, "result") {
			t.Fatalf("the victim's callback in a browser that did not begin the login: %d %q %.300s", cb.StatusCode, cb.Header.Get("Location"), body)
		}
		// The code leaks from the victim's address bar or a log: a result
		// made from it is refused, and so is the attacker's own callback.
		st, v = frameCall(t, m, "/auth/v1/social/connect", map[string]string{"uri": frame + "/auth/v1/social/result?" + query, "codeVerifier": verifier, "deviceId": device}, frame)
		if st != 400 || !strings.Contains(reasonOf(v), "already used") {
			t.Fatalf("redeeming the leaked code: %d %v", st, v)
		}
		if res, body := attacker.do("GET", frame+"/auth/v1/social/callback?"+query, nil); res.StatusCode != http.StatusBadRequest || strings.Contains(body, "var resultUri") {
			t.Fatalf("the attacker's callback with the leaked code: %d %.300s", res.StatusCode, body)
		}
	})
}
