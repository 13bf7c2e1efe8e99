package auth_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func countRows(t *testing.T, db *store.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestService_Start(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("ErrInvalidEmail", func(t *testing.T) {
			e := newEnv(t, db, nil)
			for _, bad := range []string{"", "alice", "alice@", "@example.com", "alice@example", "Alice <alice@example.com>", "a b@example.com", "alice@exa_mple.com", "alice@-x.com", "a..b@example.com", "\"a\"@example.com", "alice@example.com.", strings.Repeat("a", 250) + "@x.io", "alice@exämple.com"} {
				_, err := e.start(bad, newDevice())
				if apperr.Code(err) != apperr.Invalid || apperr.As(err).Message != auth.MsgInvalidEmail || apperr.As(err).Field != "email" {
					t.Errorf("%q: %v", bad, err)
				}
			}
			if n := countRows(t, db, "auth_challenges"); n != 0 {
				t.Errorf("%d challenges stored for bad addresses", n)
			}
			if n := len(e.outbox.List("")); n != 0 {
				t.Errorf("%d mails sent for bad addresses", n)
			}
		})
		t.Run("ErrDeviceID", func(t *testing.T) {
			e := newEnv(t, db, nil)
			for _, bad := range []string{"", "short", strings.Repeat("x", 65), strings.Repeat("x", 21) + "!"} {
				if _, err := e.start("a@example.com", bad); apperr.Code(err) != apperr.Invalid {
					t.Errorf("%q: %v", bad, err)
				}
			}
		})
		t.Run("ErrEmailOff", func(t *testing.T) {
			e := newEnv(t, db, nil)
			e.p.Features.Email = false
			_, err := e.start("a@example.com", newDevice())
			wantCode(t, err, apperr.Forbidden, auth.MsgEmailOff)
		})
		t.Run("Normalised", func(t *testing.T) {
			e := newEnv(t, db, nil)
			e.mustStart("  Alice@Example.COM ", newDevice(), auth.ActionVerifyDevice)
			if m := e.last("alice@example.com"); m.To != "alice@example.com" {
				t.Fatalf("mail to %q", m.To)
			}
		})
		t.Run("SameAnswerForKnownAndUnknownEmail", func(t *testing.T) {
			e := newEnv(t, db, nil)
			e.login("known@example.com", newDevice())
			e.clock.Add(time.Minute)
			known := e.mustStart("known@example.com", newDevice(), auth.ActionVerifyDevice)
			unknown := e.mustStart("unknown@example.com", newDevice(), auth.ActionVerifyDevice)
			if known.RequestID == "" || unknown.RequestID == "" || len(known.RequestID) != len(unknown.RequestID) {
				t.Fatalf("known %+v, unknown %+v", known, unknown)
			}
			if k, u := e.last("known@example.com"), e.last("unknown@example.com"); k.Kind != u.Kind || k.Subject != u.Subject {
				t.Fatalf("mails differ: %+v / %+v", k, u)
			}
		})
		t.Run("Connect", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			sess := e.login("a@example.com", dev)
			mails := len(e.outbox.List(""))
			res, err := e.svc.Start(context.Background(), auth.StartRequest{Project: e.p, Email: "a@example.com", DeviceID: dev, AccessToken: sess.AccessToken, IP: "192.0.2.1"})
			if err != nil || res.Action != auth.ActionConnect {
				t.Fatalf("%+v %v", res, err)
			}
			if len(e.outbox.List("")) != mails {
				t.Fatal("CONNECT sent a mail")
			}
			// Another e-mail, or another device, with that token: no CONNECT.
			res, _ = e.svc.Start(context.Background(), auth.StartRequest{Project: e.p, Email: "b@example.com", DeviceID: dev, AccessToken: sess.AccessToken, IP: "192.0.2.1"})
			if res.Action == auth.ActionConnect {
				t.Fatal("CONNECT for another e-mail")
			}
		})
	})
}

func TestService_DeviceApproval(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("OK", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			res := e.mustStart("a@example.com", dev, auth.ActionVerifyDevice)
			tok := e.token("a@example.com")
			if st, _ := e.svc.DeviceStatus(ctx, e.p.ID, res.RequestID, dev); st != auth.DevicePending {
				t.Fatalf("status %s", st)
			}
			if st, _ := e.svc.DeviceStatus(ctx, e.p.ID, res.RequestID, newDevice()); st != auth.DeviceExpired {
				t.Fatalf("another device sees %s", st)
			}
			if name, st, _ := e.svc.LinkState(ctx, tok); name != "Demo" || st != auth.DevicePending {
				t.Fatalf("link %s %s", name, st)
			}
			if name, err := e.svc.Approve(ctx, tok); err != nil || name != "Demo" {
				t.Fatalf("approve: %q %v", name, err)
			}
			if st, _ := e.svc.DeviceStatus(ctx, e.p.ID, res.RequestID, dev); st != auth.DeviceApproved {
				t.Fatalf("status %s", st)
			}
			if _, err := e.svc.Approve(ctx, tok); apperr.Code(err) != apperr.Invalid {
				t.Fatalf("second approve: %v", err)
			}
			if _, st, _ := e.svc.LinkState(ctx, tok); st != auth.DeviceExpired {
				t.Fatalf("used link %s", st)
			}
			// Now known: a code, not blocked by the link's cooldown.
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			if m := e.last("a@example.com"); m.Kind != mail.KindCode || len(m.Code) != 6 {
				t.Fatalf("%+v", m)
			}
		})
		t.Run("ErrExpired", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			res := e.mustStart("a@example.com", dev, auth.ActionVerifyDevice)
			tok := e.token("a@example.com")
			e.clock.Add(auth.DeviceLinkTTL)
			if st, _ := e.svc.DeviceStatus(ctx, e.p.ID, res.RequestID, dev); st != auth.DeviceExpired {
				t.Fatalf("status %s", st)
			}
			if _, err := e.svc.Approve(ctx, tok); apperr.Code(err) != apperr.Invalid {
				t.Fatalf("approve after expiry: %v", err)
			}
		})
		t.Run("NewLinkEndsOld", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			first := e.mustStart("a@example.com", dev, auth.ActionVerifyDevice)
			old := e.token("a@example.com")
			e.clock.Add(auth.ResendCooldown)
			e.mustStart("a@example.com", dev, auth.ActionVerifyDevice)
			if _, err := e.svc.Approve(ctx, old); apperr.Code(err) != apperr.Invalid {
				t.Fatalf("old link approved: %v", err)
			}
			if st, _ := e.svc.DeviceStatus(ctx, e.p.ID, first.RequestID, dev); st != auth.DeviceExpired {
				t.Fatalf("old request %s", st)
			}
		})
	})
}

func TestService_Codes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// setup: a known device with a fresh code mailed.
		setup := func(t *testing.T) (*env, string, string) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			e.approve("a@example.com", dev)
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			return e, dev, e.last("a@example.com").Code
		}
		t.Run("OK", func(t *testing.T) {
			e, dev, code := setup(t)
			sess, err := e.verify("A@example.com", dev, code)
			if err != nil || sess.User.Email != "a@example.com" || len(sess.AccessToken) != 43 || len(sess.RefreshToken) != 43 {
				t.Fatalf("%+v %v", sess, err)
			}
			if !sess.AccessTokenExpiresAt.Equal(e.clock.Now().Add(auth.AccessTTL)) {
				t.Errorf("access expires %v", sess.AccessTokenExpiresAt)
			}
		})
		t.Run("StoredAsHMAC", func(t *testing.T) {
			e, _, code := setup(t)
			var secret []byte
			if err := db.QueryRow(context.Background(), `SELECT secret FROM auth_challenges WHERE kind = 'code'`).Scan(&secret); err != nil {
				t.Fatal(err)
			}
			if len(secret) != 32 || strings.Contains(string(secret), code) {
				t.Fatalf("stored %x for %s", secret, code)
			}
			_ = e
		})
		t.Run("ErrExpired", func(t *testing.T) {
			e, dev, code := setup(t)
			e.clock.Add(auth.CodeTTL - time.Second)
			e2, dev2, code2 := setup(t)
			e2.clock.Add(auth.CodeTTL)
			if _, err := e.verify("a@example.com", dev, code); err != nil {
				t.Fatalf("1 s before expiry: %v", err)
			}
			_, err := e2.verify("a@example.com", dev2, code2)
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
		})
		t.Run("ErrReuse", func(t *testing.T) {
			e, dev, code := setup(t)
			if _, err := e.verify("a@example.com", dev, code); err != nil {
				t.Fatal(err)
			}
			_, err := e.verify("a@example.com", dev, code)
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
		})
		t.Run("FiveTries", func(t *testing.T) {
			e, dev, code := setup(t)
			for i := 0; i < auth.MaxAttempts-1; i++ {
				_, err := e.verify("a@example.com", dev, wrong(code))
				wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
			}
			if _, err := e.verify("a@example.com", dev, code); err != nil {
				t.Fatalf("right code on the 5th try: %v", err)
			}
			e, dev, code = setup(t)
			for i := 0; i < auth.MaxAttempts; i++ {
				e.verify("a@example.com", dev, wrong(code))
			}
			_, err := e.verify("a@example.com", dev, code)
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
		})
		t.Run("ErrOtherDevice", func(t *testing.T) {
			e, _, code := setup(t)
			other := newDevice()
			_, err := e.verify("a@example.com", other, code)
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
		})
		t.Run("ErrNoCode", func(t *testing.T) {
			e := newEnv(t, db, nil)
			_, err := e.verify("nobody@example.com", newDevice(), "123456")
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
			for _, bad := range []string{"12345", "1234567", "12345a", ""} {
				if _, err := e.verify("nobody@example.com", newDevice(), bad); apperr.Code(err) != apperr.Invalid || apperr.As(err).Field != "otp" {
					t.Errorf("%q: %v", bad, err)
				}
			}
		})
		t.Run("ResendCooldown", func(t *testing.T) {
			e, dev, old := setup(t)
			_, err := e.start("a@example.com", dev)
			wantCode(t, err, apperr.RateLimited, "Please try again after 30 seconds")
			var re *auth.RetryError
			if !errors.As(err, &re) || re.RetryAfter != auth.ResendCooldown {
				t.Fatalf("%#v", err)
			}
			e.clock.Add(10*time.Second + 500*time.Millisecond)
			_, err = e.start("a@example.com", dev)
			wantCode(t, err, apperr.RateLimited, "Please try again after 20 seconds")
			e.clock.Add(19*time.Second + 500*time.Millisecond)
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			code := e.last("a@example.com").Code
			// The new code ends the old one.
			if old != code {
				_, err = e.verify("a@example.com", dev, old)
				wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
			}
			if _, err := e.verify("a@example.com", dev, code); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("ConcurrentVerifyOneSuccess", func(t *testing.T) {
			e, dev, code := setup(t)
			const n = 8
			var wg sync.WaitGroup
			var mu sync.Mutex
			ok, invalid := 0, 0
			for i := 0; i < n; i++ {
				wg.Go(func() {
					_, err := e.verify("a@example.com", dev, code)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						ok++
					case apperr.Code(err) == apperr.Invalid:
						invalid++
					default:
						t.Errorf("verify: %v", err)
					}
				})
			}
			wg.Wait()
			if ok != 1 || invalid != n-1 {
				t.Fatalf("%d successes, %d refusals", ok, invalid)
			}
		})
		t.Run("ConcurrentVerifyLinedUp", func(t *testing.T) {
			// Every verify has taken its try and matched the code before
			// any consumes it: still exactly one success.
			e, dev, code := setup(t)
			const n = auth.MaxAttempts
			var lined sync.WaitGroup
			lined.Add(n)
			auth.SetAfterReserve(e.svc, func() { lined.Done(); lined.Wait() })
			var wg sync.WaitGroup
			var mu sync.Mutex
			ok := 0
			for i := 0; i < n; i++ {
				wg.Go(func() {
					if _, err := e.verify("a@example.com", dev, code); err == nil {
						mu.Lock()
						ok++
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if ok != 1 {
				t.Fatalf("%d successes", ok)
			}
		})
	})
}

func TestNewCode_Format(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t), func(c *auth.Config) {
		c.IPStartLimiter, c.EmailLimiter = ratelimit.NewMemory(1000, time.Hour), ratelimit.NewMemory(1000, time.Hour)
	})
	seen := map[string]bool{}
	for i := 0; i < 40; i++ {
		dev := newDevice()
		email := fmt.Sprintf("u%d@example.com", i)
		e.approve(email, dev)
		e.mustStart(email, dev, auth.ActionVerifyOTP)
		c := e.last(email).Code
		if len(c) != 6 || strings.Trim(c, "0123456789") != "" {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	if len(seen) < 39 {
		t.Fatalf("%d distinct codes of 40", len(seen))
	}
}

func TestService_Limits(t *testing.T) {
	run := func(t *testing.T, newLimiter func(name string, limit int, window time.Duration) ratelimit.Limiter) {
		t.Run("PerEmail", func(t *testing.T) {
			e := newEnv(t, storetest.MustOpenSQLite(t), func(c *auth.Config) { c.EmailLimiter = newLimiter("email", 2, time.Hour) })
			for i := 0; i < 2; i++ {
				e.mustStart("a@example.com", newDevice(), auth.ActionVerifyDevice)
				e.clock.Add(auth.ResendCooldown)
			}
			_, err := e.start("a@example.com", newDevice())
			wantCode(t, err, apperr.RateLimited, "")
			e.mustStart("b@example.com", newDevice(), auth.ActionVerifyDevice)
		})
		t.Run("PerIP", func(t *testing.T) {
			e := newEnv(t, storetest.MustOpenSQLite(t), func(c *auth.Config) { c.IPStartLimiter = newLimiter("ip", 2, time.Hour) })
			e.mustStart("a@example.com", newDevice(), auth.ActionVerifyDevice)
			e.mustStart("b@example.com", newDevice(), auth.ActionVerifyDevice)
			_, err := e.start("c@example.com", newDevice())
			wantCode(t, err, apperr.RateLimited, "")
			if !strings.Contains(err.Error(), "per IP") {
				t.Fatal(err)
			}
		})
		t.Run("PerProject", func(t *testing.T) {
			e := newEnv(t, storetest.MustOpenSQLite(t), func(c *auth.Config) { c.ProjectLimiter = newLimiter("project", 2, time.Hour) })
			e.mustStart("a@example.com", newDevice(), auth.ActionVerifyDevice)
			e.mustStart("b@example.com", newDevice(), auth.ActionVerifyDevice)
			_, err := e.start("c@example.com", newDevice())
			wantCode(t, err, apperr.RateLimited, "")
		})
		t.Run("VerifyPerIP", func(t *testing.T) {
			e := newEnv(t, storetest.MustOpenSQLite(t), func(c *auth.Config) { c.IPVerifyLimiter = newLimiter("verify", 3, time.Hour) })
			for i := 0; i < 3; i++ {
				e.verify("a@example.com", newDevice(), "123456")
			}
			_, err := e.verify("a@example.com", newDevice(), "123456")
			wantCode(t, err, apperr.RateLimited, "")
		})
	}
	t.Run("memory", func(t *testing.T) {
		run(t, func(_ string, limit int, window time.Duration) ratelimit.Limiter {
			return ratelimit.NewMemory(limit, window)
		})
	})
	t.Run("redis", func(t *testing.T) {
		client, prefix := redistest.MustClient(t)
		run(t, func(name string, limit int, window time.Duration) ratelimit.Limiter {
			// Two services on one Redis share the budget: this is what makes
			// the limit global across nodes.
			return ratelimit.NewRedis(client, prefix+t.Name()+":"+name+":", limit, window)
		})
	})
}

// failingSender refuses every message, as an SMTP server that is down.
type failingSender struct{ n int }

func (f *failingSender) Send(context.Context, mail.Message) error {
	f.n++
	return errors.New("dial tcp: connection refused")
}

func TestService_MailFailure(t *testing.T) {
	fail := &failingSender{}
	e := newEnv(t, storetest.MustOpenSQLite(t), func(c *auth.Config) { c.Mail = fail })
	_, err := e.start("a@example.com", newDevice())
	wantCode(t, err, apperr.Unavailable, auth.MsgSendFailed)
	if fail.n != 1 {
		t.Fatalf("%d sends", fail.n)
	}
	if n := countRows(t, e.db, "auth_challenges"); n != 0 {
		t.Fatalf("%d challenges kept after a failed send", n)
	}
	// No cooldown from a mail that never left.
	_, err = e.start("a@example.com", newDevice())
	wantCode(t, err, apperr.Unavailable, auth.MsgSendFailed)
}

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{
		"alice@example.com":             "alice@example.com",
		" Alice.B+tag@Sub.Example.org ": "alice.b+tag@sub.example.org",
		"x_y-z@a-b.io":                  "x_y-z@a-b.io",
	} {
		got, err := auth.NormalizeEmail("email", in)
		if err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
}
