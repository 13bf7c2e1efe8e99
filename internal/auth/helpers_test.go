package auth_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// clock is a settable clock shared by the service and the test.
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

type env struct {
	t      testing.TB
	db     *store.DB
	svc    *auth.Service
	outbox *mail.Outbox
	clock  *clock
	p      *project.Project
	cfg    auth.Config
}

const (
	testKEK      = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	testRecovery = "r1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="
)

// newEnv builds a Service on db with an outbox, a fixed clock and a project
// with e-mail login on; tweak may change the config before New.
func newEnv(t testing.TB, db *store.DB, tweak func(*auth.Config)) *env {
	t.Helper()
	e := &env{t: t, db: db, outbox: mail.NewOutbox(0), clock: &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}
	projects := project.NewService(db)
	e.p = &project.Project{Name: "Demo", Features: project.DefaultFeatures()}
	e.p.Features.Email = true
	if err := projects.Create(context.Background(), e.p); err != nil {
		t.Fatal(err)
	}
	tpl, err := mail.LoadTemplates("")
	if err != nil {
		t.Fatal(err)
	}
	kek, err := auth.ParseKeyring("--auth-kek", testKEK)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := auth.ParseKeyring("--auth-recovery-key", testRecovery)
	if err != nil {
		t.Fatal(err)
	}
	e.cfg = auth.Config{
		DB: db, Projects: projects, Secret: []byte(strings.Repeat("s", 32)), Keys: kek, RecoveryKeys: rec,
		Mail: e.outbox, Templates: tpl, LinkBase: func() string { return "https://frame.example" }, Now: e.clock.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if tweak != nil {
		tweak(&e.cfg)
	}
	if e.svc, err = auth.New(e.cfg); err != nil {
		t.Fatal(err)
	}
	return e
}

func newDevice() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (e *env) start(email, device string) (auth.StartResult, error) {
	return e.svc.Start(context.Background(), auth.StartRequest{Project: e.p, Email: email, DeviceID: device, IP: "192.0.2.1"})
}

func (e *env) mustStart(email, device, want string) auth.StartResult {
	e.t.Helper()
	res, err := e.start(email, device)
	if err != nil {
		e.t.Fatalf("start %s: %v", email, err)
	}
	if res.Action != want {
		e.t.Fatalf("start %s: action %s, want %s", email, res.Action, want)
	}
	return res
}

// last is the newest mail to `to`.
func (e *env) last(to string) mail.Stored {
	e.t.Helper()
	msgs := e.outbox.List(to)
	if len(msgs) == 0 {
		e.t.Fatalf("no mail to %s", to)
	}
	return msgs[0]
}

// token is the approval token in the newest device mail to `to`.
func (e *env) token(to string) string {
	e.t.Helper()
	m := e.last(to)
	if m.Kind != mail.KindDevice {
		e.t.Fatalf("newest mail to %s is %s", to, m.Kind)
	}
	_, tok, ok := strings.Cut(m.Link, "?token=")
	tok, _, _ = strings.Cut(tok, "&") // the locale follows
	if !ok || !strings.HasPrefix(m.Link, "https://frame.example"+auth.ApprovePath) {
		e.t.Fatalf("link %q", m.Link)
	}
	return tok
}

// approve makes device known for email: start → link → approve.
func (e *env) approve(email, device string) {
	e.t.Helper()
	e.mustStart(email, device, auth.ActionVerifyDevice)
	if _, err := e.svc.Approve(context.Background(), e.token(email)); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) verify(email, device, otp string) (*auth.Session, error) {
	return e.svc.Verify(context.Background(), auth.VerifyRequest{Project: e.p, Email: email, DeviceID: device, OTP: otp, IP: "192.0.2.1"})
}

// login runs the whole flow for a new device and returns its session.
func (e *env) login(email, device string) *auth.Session {
	e.t.Helper()
	e.approve(email, device)
	e.clock.Add(auth.ResendCooldown) // the device mail's cooldown does not block the code, but keep clear of limits' bursts
	e.mustStart(email, device, auth.ActionVerifyOTP)
	sess, err := e.verify(email, device, e.last(email).Code)
	if err != nil {
		e.t.Fatal(err)
	}
	return sess
}

func (e *env) authFor(s *auth.Session) *auth.Auth {
	e.t.Helper()
	a, err := e.svc.Authenticate(context.Background(), e.p.ID, s.AccessToken)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

func wantCode(t *testing.T, err error, code, msg string) {
	t.Helper()
	e := apperr.As(err)
	if e == nil || e.Code != code || msg != "" && e.Message != msg {
		t.Fatalf("err %v, want %s %q", err, code, msg)
	}
}

// wrong is a code that is not the right one.
func wrong(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}
