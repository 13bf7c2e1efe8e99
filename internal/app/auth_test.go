package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/mail/smtptest"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/store/storetest"
)

const (
	testAuthSecret   = "0123456789abcdef0123456789abcdef"
	testAuthKEK      = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	testAuthKEK2     = "k2:QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8="
	testAuthRecovery = "r1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="
)

// authClient calls a running latchd's /auth/v1 routes for one project.
type authClient struct {
	t       *testing.T
	base    string
	project string
	origin  string
}

func (c authClient) do(method, path, token string, body any) (int, http.Header, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	req, _ := http.NewRequest(method, c.base+path+sep+"projectId="+c.project, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// call wants status and decodes the answer into out (when not nil).
func (c authClient) call(method, path, token string, body any, status int, out any) []byte {
	c.t.Helper()
	got, _, b := c.do(method, path, token, body)
	if got != status {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, got, b, status)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s: %v", b, err)
		}
	}
	return b
}

// mailText is the plain-text part of a raw MIME message, decoded.
func mailText(t *testing.T, raw []byte) (subject, text string) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	mt, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	decode := func(enc string, r io.Reader) string {
		switch strings.ToLower(enc) {
		case "quoted-printable":
			r = quotedprintable.NewReader(r)
		case "base64":
			r = base64.NewDecoder(base64.StdEncoding, r)
		}
		b, _ := io.ReadAll(r)
		return string(b)
	}
	if !strings.HasPrefix(mt, "multipart/") {
		return subject, decode(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("no text/plain part: %v", err)
		}
		if strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain") {
			return subject, decode(p.Header.Get("Content-Transfer-Encoding"), p)
		}
	}
}

var (
	linkPattern = regexp.MustCompile(`https?://\S+/auth/v1/device/approve\?token=[A-Za-z0-9_-]+`)
	codePattern = regexp.MustCompile(`\b\d{6}\b`)
)

// withAuth configures latchd serve's e-mail login against srv.
func withAuth(srv *smtptest.Server) func(*Config) {
	return func(c *Config) {
		c.Auth = AuthConfig{Secret: testAuthSecret, KEK: testAuthKEK, RecoveryKey: testAuthRecovery, SMTPURL: "smtp://latch:pw@" + srv.Addr, MailFrom: "Latch <login@example.com>"}
	}
}

func runAuthMain(t *testing.T, srv *smtptest.Server, tweak ...func(*Main)) (*Main, *project.Project) {
	t.Helper()
	m := NewMain(Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5e9}, discardLogger())
	withAuth(srv)(&m.Config)
	m.SetMailTLSConfig(srv.RootCAs)
	for _, f := range tweak {
		f(m)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	p := &project.Project{Name: "Shop", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
	p.Features.Email = true
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return m, p
}

// The whole e-mail login through a running latchd serve, its mail going
// through a real SMTP server: start → approval link → approve → start →
// code → verify → store shares → fetch → refresh → revoke.
func TestAuth_HTTPFlow(t *testing.T) {
	smtpFlow := func(t *testing.T, databaseURL string) {
		srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "pw"})
		m, p := runAuthMain(t, srv, func(m *Main) { m.Config.DatabaseURL = databaseURL })
		testAuthHTTPFlow(t, m, p.ID, func() (string, string) {
			got := srv.Received()
			if len(got) == 0 {
				t.Fatal("no mail")
			}
			last := got[len(got)-1]
			if last.To != flowEmail || last.User != "latch" {
				t.Fatalf("mail to %s as %q", last.To, last.User)
			}
			return mailText(t, last.Data)
		})
	}
	t.Run("sqlite", func(t *testing.T) { smtpFlow(t, "") })
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("LATCH_TEST_POSTGRES")
		if base == "" {
			t.Skip("LATCH_TEST_POSTGRES not set")
		}
		u, _ := storetest.FreshSchema(t, base)
		smtpFlow(t, u)
	})
	// latchd dev: the mails are read from GET /dev/outbox.
	t.Run("dev-outbox", func(t *testing.T) {
		m := runServeMain(t, func(c *Config) { c.Dev, c.DevChains = true, []uint64{31337} })
		testAuthHTTPFlow(t, m, m.DevProjectID, func() (string, string) {
			var box struct {
				Messages []struct{ Subject, Text string } `json:"messages"`
			}
			authClient{t: t, base: m.APIURL()}.call("GET", "/dev/outbox?to="+flowEmail, "", nil, 200, &box)
			if len(box.Messages) == 0 {
				t.Fatal("no mail in the outbox")
			}
			return box.Messages[0].Subject, box.Messages[0].Text
		})
	})
}

const flowEmail = "visitor@example.com"

// testAuthHTTPFlow logs in through m's API; lastMail returns the subject
// and plain text of the newest mail to flowEmail.
func testAuthHTTPFlow(t *testing.T, m *Main, projectID string, lastMail func() (subject, text string)) {
	c := authClient{t: t, base: m.APIURL(), project: projectID, origin: m.FrameURL()}
	const email = flowEmail
	device := "dev-0123456789abcdefghijk"

	var start auth.StartResult
	_, hdr, b := c.do("POST", "/auth/v1/email/start", "", map[string]string{"email": email, "deviceId": device})
	if hdr.Get("Access-Control-Allow-Origin") != m.FrameURL() {
		t.Fatalf("CORS for the frame origin: %q", hdr.Get("Access-Control-Allow-Origin"))
	}
	if err := json.Unmarshal(b, &start); err != nil || start.Action != auth.ActionVerifyDevice || start.RequestID == "" {
		t.Fatalf("first start: %s", b)
	}
	deviceStatus := func() string {
		var st struct{ Status string }
		c.call("POST", "/auth/v1/device/status", "", map[string]string{"requestId": start.RequestID, "deviceId": device}, 200, &st)
		return st.Status
	}
	if st := deviceStatus(); st != auth.DevicePending {
		t.Fatalf("status %s", st)
	}
	_, text := lastMail()
	link := linkPattern.FindString(text)
	if !strings.HasPrefix(link, m.FrameURL()+auth.ApprovePath+"?token=") {
		t.Fatalf("link %q in:\n%s", link, text)
	}
	// The cooldown holds a second start for 30 s, with the spec's message.
	var status int
	status, hdr, b = c.do("POST", "/auth/v1/email/start", "", map[string]string{"email": email, "deviceId": device})
	if status != http.StatusTooManyRequests || !strings.Contains(string(b), "Please try again after 30 seconds") && !strings.Contains(string(b), "Please try again after 29 seconds") || hdr.Get("Retry-After") == "" {
		t.Fatalf("second start: %d %s (Retry-After %q)", status, b, hdr.Get("Retry-After"))
	}

	// The approval page: a GET changes nothing; the form's POST approves.
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(page, []byte("Approve this device")) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Fatalf("page: %d %s", resp.StatusCode, page)
	}
	token := strings.TrimPrefix(link, m.FrameURL()+auth.ApprovePath+"?token=")
	resp, err = http.PostForm(m.FrameURL()+auth.ApprovePath, url.Values{"token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(page, []byte("Device approved")) {
		t.Fatalf("approve: %d %s", resp.StatusCode, page)
	}
	resp, _ = http.PostForm(m.FrameURL()+auth.ApprovePath, url.Values{"token": {token}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusGone {
		t.Fatalf("second approve: %d", resp.StatusCode)
	}
	if st := deviceStatus(); st != auth.DeviceApproved {
		t.Fatalf("status %s", st)
	}

	// Now a known device: a code.
	c.call("POST", "/auth/v1/email/start", "", map[string]string{"email": email, "deviceId": device}, 200, &start)
	if start.Action != auth.ActionVerifyOTP {
		t.Fatalf("%+v", start)
	}
	subject, _ := lastMail()
	code := codePattern.FindString(subject)
	var sess auth.Session
	c.call("POST", "/auth/v1/email/verify", "", map[string]string{"email": email, "deviceId": device, "otp": code}, 200, &sess)
	if sess.User.Email != email || sess.AccessToken == "" {
		t.Fatalf("%+v", sess)
	}
	c.call("POST", "/auth/v1/email/verify", "", map[string]string{"email": email, "deviceId": device, "otp": code}, 400, nil)

	// Shares.
	authShare, recShare := base64.StdEncoding.EncodeToString([]byte("auth-share-bytes")), base64.StdEncoding.EncodeToString([]byte("recovery-share"))
	c.call("PUT", "/auth/v1/shares", sess.AccessToken, map[string]any{"deviceId": device, "authShare": authShare, "recovery": map[string]string{"mode": "operator", "share": recShare}}, 200, nil)
	c.call("PUT", "/auth/v1/shares", sess.AccessToken, map[string]any{"deviceId": device, "authShare": authShare, "recovery": map[string]string{"mode": "operator", "share": recShare}}, 409, nil)
	var shares auth.Shares
	c.call("POST", "/auth/v1/shares/fetch", sess.AccessToken, map[string]any{"deviceId": device, "includeRecovery": true}, 200, &shares)
	if shares.AuthShare != authShare || shares.Recovery == nil || shares.Recovery.Share != recShare {
		t.Fatalf("%+v", shares)
	}
	c.call("POST", "/auth/v1/shares/fetch", sess.AccessToken, map[string]any{"deviceId": "another-device-0123456789"}, 403, nil)

	// Refresh: new tokens; the old access token stops working.
	var next auth.Session
	c.call("POST", "/auth/v1/session/refresh", "", map[string]string{"refreshToken": sess.RefreshToken, "deviceId": device}, 200, &next)
	c.call("GET", "/auth/v1/email/me", sess.AccessToken, nil, 401, nil)
	var me struct {
		User auth.User `json:"user"`
	}
	c.call("GET", "/auth/v1/email/me", next.AccessToken, nil, 200, &me)
	if me.User.Email != email {
		t.Fatalf("%+v", me)
	}
	var list struct {
		Sessions []auth.SessionInfo `json:"sessions"`
	}
	c.call("GET", "/auth/v1/sessions", next.AccessToken, nil, 200, &list)
	if len(list.Sessions) != 1 || !list.Sessions[0].Current {
		t.Fatalf("%+v", list)
	}
	// Revoke (sign out): the session ends.
	c.call("POST", "/auth/v1/sessions/current/revoke", next.AccessToken, nil, 200, nil)
	c.call("GET", "/auth/v1/email/me", next.AccessToken, nil, 401, nil)
	c.call("POST", "/auth/v1/session/refresh", "", map[string]string{"refreshToken": next.RefreshToken, "deviceId": device}, 401, nil)
}

// A known and an unknown e-mail get the same status and answer shape.
func TestAuth_NoAccountOracle(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "pw"})
	m, p := runAuthMain(t, srv)
	c := authClient{t: t, base: m.APIURL(), project: p.ID}
	ctx := context.Background()
	// An account for known@ with an approved device (written directly: a
	// start through the API would hold the address's cooldown for 30 s).
	if _, err := m.DB.Exec(ctx, `INSERT INTO auth_users (id, project_id, email, created_at) VALUES ('u1', ?, 'known@example.com', 0)`, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := m.DB.Exec(ctx, `INSERT INTO auth_devices (user_id, device_id, approved_at) VALUES ('u1', 'known-device-0123456789ab', 0)`); err != nil {
		t.Fatal(err)
	}
	// The account is real: its device gets a code.
	if res, err := m.AuthService().Start(ctx, auth.StartRequest{Project: p, Email: "known@example.com", DeviceID: "known-device-0123456789ab", IP: "x"}); err != nil || res.Action != auth.ActionVerifyOTP {
		t.Fatalf("%+v %v", res, err)
	}
	shape := func(email string) (int, string, []string) {
		status, _, b := c.do("POST", "/auth/v1/email/start", "", map[string]string{"email": email, "deviceId": "fresh-device-0123456789ab"})
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		keys := []string{}
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		action, _ := v["action"].(string)
		return status, action, keys
	}
	ks, ka, kk := shape("known@example.com")
	us, ua, uk := shape("unknown@example.com")
	if ks != 200 || us != ks || ka != auth.ActionVerifyDevice || ua != ka || strings.Join(kk, ",") != "action,requestId" || strings.Join(uk, ",") != strings.Join(kk, ",") {
		t.Fatalf("known %d %s %v, unknown %d %s %v", ks, ka, kk, us, ua, uk)
	}
	// Failed verifies: one message whatever the account.
	for _, email := range []string{"known@example.com", "unknown@example.com"} {
		status, _, b := c.do("POST", "/auth/v1/email/verify", "", map[string]string{"email": email, "deviceId": "fresh-device-0123456789ab", "otp": "123456"})
		if status != 400 || !strings.Contains(string(b), auth.MsgInvalidCode) {
			t.Fatalf("%s: %d %s", email, status, b)
		}
	}
}

// Two nodes on one Redis share the per-IP start budget: 30 starts spread
// over both exhaust it on both (each node alone would allow 30).
func TestAuth_LimitsSharedThroughRedis(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t)
	srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "pw"})
	dir := t.TempDir()
	a, p := runAuthMain(t, srv, func(m *Main) { m.Config.RedisURL, m.Config.DataDir, m.RedisPrefix = url, dir, prefix })
	b, _ := runAuthMain(t, srv, func(m *Main) { m.Config.RedisURL, m.Config.DataDir, m.RedisPrefix = url, dir, prefix })
	nodes := []authClient{{t: t, base: a.APIURL(), project: p.ID}, {t: t, base: b.APIURL(), project: p.ID}}
	start := func(c authClient, i int) (int, []byte) {
		// A device of its own each time: a device's budget is smaller than the IP's.
		status, _, body := c.do("POST", "/auth/v1/email/start", "", map[string]string{"email": fmt.Sprintf("r%d@example.com", i), "deviceId": fmt.Sprintf("redis-device-%03d-0123456789ab", i)})
		return status, body
	}
	for i := 0; i < auth.IPStartLimit; i++ {
		if status, body := start(nodes[i%2], i); status != 200 {
			t.Fatalf("start %d: %d %s", i, status, body)
		}
	}
	for i, c := range nodes {
		if status, body := start(c, 100+i); status != http.StatusTooManyRequests || !strings.Contains(string(body), "per IP") {
			t.Fatalf("node %d after the shared budget: %d %s", i, status, body)
		}
	}
}

// A failing SMTP server is reported with the spec's message, never as sent.
func TestAuth_SMTPFailure(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "pw", Refuse: &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "later"}})
	m, p := runAuthMain(t, srv)
	c := authClient{t: t, base: m.APIURL(), project: p.ID}
	status, _, b := c.do("POST", "/auth/v1/email/start", "", map[string]string{"email": "a@example.com", "deviceId": "some-device-0123456789abc"})
	if status != http.StatusServiceUnavailable || !strings.Contains(string(b), auth.MsgSendFailed) {
		t.Fatalf("%d %s", status, b)
	}
	if n := srv.Attempts(); n != 3 {
		t.Fatalf("%d attempts, want 3", n)
	}
}

// latchd serve without e-mail login configured answers 503, and the
// frame-origin guard admits the frame's origin only.
func TestAuth_OffAndOrigins(t *testing.T) {
	m := runServeMain(t, nil)
	p := &project.Project{Name: "p", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
	m.Projects.Create(context.Background(), p)
	c := authClient{t: t, base: m.APIURL(), project: p.ID, origin: m.FrameURL()}
	status, _, b := c.do("POST", "/auth/v1/email/start", "", map[string]string{"email": "a@example.com", "deviceId": "some-device-0123456789abc"})
	if status != http.StatusServiceUnavailable || !strings.Contains(string(b), "not configured") {
		t.Fatalf("%d %s", status, b)
	}
	// Preflight: the frame origin yes, the page's origin no.
	for origin, want := range map[string]int{m.FrameURL(): 204, "https://shop.example": 403} {
		req, _ := http.NewRequest("OPTIONS", m.APIURL()+"/auth/v1/email/start?projectId="+p.ID, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type, authorization")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want || want == 204 && resp.Header.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("preflight from %s: %d %v", origin, resp.StatusCode, resp.Header)
		}
	}
}

// latchd dev keeps mail in /dev/outbox and its keys in --data-dir.
func TestAuth_DevOutbox(t *testing.T) {
	dir := t.TempDir()
	m := runServeMain(t, func(c *Config) { c.Dev, c.DevChains, c.DataDir = true, []uint64{31337}, dir })
	c := authClient{t: t, base: m.APIURL(), project: m.DevProjectID, origin: m.FrameURL()}
	var start auth.StartResult
	c.call("POST", "/auth/v1/email/start", "", map[string]string{"email": "Dev@Example.com", "deviceId": "dev-device-0123456789abc"}, 200, &start)
	var box struct {
		Messages []struct {
			To, Kind, Link, Code, Subject string
		} `json:"messages"`
	}
	b := authClient{t: t, base: m.APIURL()}.call("GET", "/dev/outbox?to=dev@example.com", "", nil, 200, &box)
	if len(box.Messages) != 1 || box.Messages[0].Kind != "device" || !strings.HasPrefix(box.Messages[0].Link, m.FrameURL()+auth.ApprovePath) {
		t.Fatalf("%s", b)
	}
	req, _ := http.NewRequest("GET", m.APIURL()+"/dev/outbox", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(page, []byte("Approve a new device")) {
		t.Fatalf("%s", page)
	}
	st, err := os.Stat(filepath.Join(dir, devAuthKeysFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("dev keys: %v %v", st, err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, devAuthKeysFile))
	if k, err := loadDevAuthKeys(dir); err != nil || k.Secret == "" || !bytes.Contains(before, []byte(k.Secret)) {
		t.Fatalf("reloaded %+v %v", k, err)
	}
}

func TestConfig_AuthFlags(t *testing.T) {
	parse := func(name string, args ...string) (Config, error) {
		return parseConfig(name, args, io.Discard)
	}
	base := []string{"--relay-url", "wss://relay.example.com"}
	keys := []string{"--auth-secret", testAuthSecret, "--auth-kek", testAuthKEK, "--auth-recovery-key", testAuthRecovery}
	t.Run("ServeRequiresKeys", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // were it to start, it would stop at once
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0", "--admin-addr", "", "--data-dir", t.TempDir()}, base...)
		var stderr strings.Builder
		if code := CLI(ctx, args, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "needs --auth-kek, --auth-recovery-key, --auth-secret") {
			t.Fatalf("latchd serve without keys: %d %q", code, stderr.String())
		}
		stderr.Reset()
		CLI(ctx, append(args, keys...), io.Discard, &stderr)
		if strings.Contains(stderr.String(), "--auth") {
			t.Fatalf("latchd serve with keys: %q", stderr.String())
		}
		if _, err := parse("latchd dev"); err != nil {
			t.Fatalf("dev makes its own keys: %v", err)
		}
	})
	for name, args := range map[string][]string{
		"ErrShortSecret":  {"--auth-secret", "short"},
		"ErrKEK":          {"--auth-kek", "k1:notbase64"},
		"ErrKEKSize":      {"--auth-kek", "k1:" + base64.StdEncoding.EncodeToString(make([]byte, 16))},
		"ErrKEKDuplicate": {"--auth-kek", testAuthKEK + "," + testAuthKEK},
		"ErrRecoveryKey":  {"--auth-recovery-key", "nokey"},
		"ErrSMTPScheme":   {"--smtp-url", "http://mail.example.com", "--mail-from", "a@example.com"},
		"ErrSMTPNoFrom":   {"--smtp-url", "smtp://mail.example.com"},
		"ErrTemplatesDir": {"--mail-templates", filepath.Join(t.TempDir(), "missing")},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := parse("latchd dev", args...); err == nil {
				t.Fatalf("%v accepted", args)
			}
		})
	}
	t.Run("Env", func(t *testing.T) {
		t.Setenv("LATCH_AUTH_SECRET", testAuthSecret)
		t.Setenv("LATCH_SMTP_URL", "smtps://u:p@mail.example.com")
		t.Setenv("LATCH_MAIL_FROM", "Latch <login@example.com>")
		cfg, err := parse("latchd dev")
		if err != nil || cfg.Auth.Secret != testAuthSecret || cfg.Auth.SMTPURL != "smtps://u:p@mail.example.com" || cfg.Auth.MailFrom != "Latch <login@example.com>" {
			t.Fatalf("%+v %v", cfg.Auth, err)
		}
	})
	t.Run("TemplatesOverride", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "code.txt.tmpl"), []byte(`{{define "subject"}}Custom {{.Code}}{{end}}Custom body {{.Code}}`), 0o600)
		srv := smtptest.Start(t, smtptest.Options{})
		m := NewMain(Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5e9}, discardLogger())
		m.Config.Auth = AuthConfig{Secret: testAuthSecret, KEK: testAuthKEK, RecoveryKey: testAuthRecovery, SMTPURL: "smtp://" + srv.Addr, MailFrom: "login@example.com", MailTemplates: dir}
		m.SetMailTLSConfig(srv.RootCAs)
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		p := &project.Project{Name: "P", Features: project.DefaultFeatures()}
		p.Features.Email = true
		m.Projects.Create(context.Background(), p)
		ctx := context.Background()
		svc := m.AuthService()
		svc.Start(ctx, auth.StartRequest{Project: p, Email: "t@example.com", DeviceID: "tmpl-device-0123456789abc", IP: "x"})
		_, text := mailText(t, srv.Received()[0].Data)
		tok := strings.SplitN(linkPattern.FindString(text), "token=", 2)[1]
		svc.Approve(ctx, tok)
		if _, err := svc.Start(ctx, auth.StartRequest{Project: p, Email: "t@example.com", DeviceID: "tmpl-device-0123456789abc", IP: "x"}); err != nil {
			t.Fatal(err)
		}
		subject, text := mailText(t, srv.Received()[1].Data)
		if !strings.HasPrefix(subject, "Custom ") || !strings.HasPrefix(text, "Custom body ") {
			t.Fatalf("%q %q", subject, text)
		}
	})
}

// latchd auth rotate-key re-encrypts every share under the new first key.
func TestCLI_AuthRotateKey(t *testing.T) {
	dir := t.TempDir()
	srv := smtptest.Start(t, smtptest.Options{})
	m := NewMain(Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, ShutdownTimeout: 5e9}, discardLogger())
	m.Config.Auth = AuthConfig{Secret: testAuthSecret, KEK: testAuthKEK, RecoveryKey: testAuthRecovery, SMTPURL: "smtp://" + srv.Addr, MailFrom: "login@example.com"}
	m.SetMailTLSConfig(srv.RootCAs)
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := &project.Project{Name: "P", Features: project.DefaultFeatures()}
	p.Features.Email = true
	m.Projects.Create(context.Background(), p)
	ctx := context.Background()
	svc := m.AuthService()
	dev := "rot-device-0123456789abcd"
	svc.Start(ctx, auth.StartRequest{Project: p, Email: "r@example.com", DeviceID: dev, IP: "x"})
	_, text := mailText(t, srv.Received()[0].Data)
	svc.Approve(ctx, strings.SplitN(linkPattern.FindString(text), "token=", 2)[1])
	svc.Start(ctx, auth.StartRequest{Project: p, Email: "r@example.com", DeviceID: dev, IP: "x"})
	subject, _ := mailText(t, srv.Received()[1].Data)
	sess, err := svc.Verify(ctx, auth.VerifyRequest{Project: p, Email: "r@example.com", DeviceID: dev, OTP: codePattern.FindString(subject)})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := svc.Authenticate(ctx, p.ID, sess.AccessToken)
	share := base64.StdEncoding.EncodeToString([]byte("the auth share"))
	if err := svc.StoreShares(ctx, a, auth.StoreRequest{DeviceID: dev, AuthShare: share, Recovery: auth.Recovery{Mode: "operator", Share: share}}); err != nil {
		t.Fatal(err)
	}
	m.Close()

	code, out, errOut := run(t, "auth", "rotate-key", "--data-dir", dir, "--auth-kek", testAuthKEK2+","+testAuthKEK, "--auth-recovery-key", testAuthRecovery)
	if code != 0 || !strings.Contains(out, "re-encrypted 1 records under --auth-kek k2") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	if code, out, _ := run(t, "auth", "rotate-key", "--data-dir", dir, "--auth-kek", testAuthKEK2+","+testAuthKEK, "--auth-recovery-key", testAuthRecovery); code != 0 || !strings.Contains(out, "re-encrypted 0 records") {
		t.Fatalf("second run: %s", out)
	}
	// Only the new key now: the share still opens.
	m2 := NewMain(Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, ShutdownTimeout: 5e9}, discardLogger())
	m2.Config.Auth = AuthConfig{Secret: testAuthSecret, KEK: testAuthKEK2, RecoveryKey: testAuthRecovery, SMTPURL: "smtp://" + srv.Addr, MailFrom: "login@example.com"}
	if err := m2.Run(ctx); err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	a2, err := m2.AuthService().Authenticate(ctx, p.ID, sess.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m2.AuthService().FetchShares(ctx, a2, dev, false)
	if err != nil || got.AuthShare != share {
		t.Fatalf("%+v %v", got, err)
	}
	if code, _, errOut := run(t, "auth", "nope"); code == 0 || !strings.Contains(errOut, "rotate-key") {
		t.Fatalf("bad subcommand: %d %s", code, errOut)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
