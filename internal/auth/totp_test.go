package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

const ip = "192.0.2.1"

// code is the TOTP code of secret at the env's time plus d.
func (e *env) code(secret string, d time.Duration) string {
	e.t.Helper()
	c, err := totp.GenerateCode(secret, e.clock.Now().Add(d))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// enrolTOTP enrols and confirms an authenticator on the session's device
// and returns its secret; the clock then moves to the next time step, so
// that the next code is not a replay of the confirming one.
func (e *env) enrolTOTP(s *auth.Session, device string) string {
	e.t.Helper()
	a := e.authFor(s)
	en, err := e.svc.EnrollTOTP(context.Background(), e.p, a, device)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.svc.ConfirmTOTP(context.Background(), a, device, e.code(en.Secret, 0), ip); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Add(30 * time.Second)
	return en.Secret
}

// wideLimits gives the factor limiters room for tests that try many codes.
func wideLimits(c *auth.Config) {
	c.FactorUserLimiter = ratelimit.NewMemory(1000, time.Minute)
	c.FactorIPLimiter = ratelimit.NewMemory(1000, time.Minute)
}

func TestService_TOTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("EnrolConfirmVerify", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			a := e.authFor(s)
			en, err := e.svc.EnrollTOTP(ctx, e.p, a, dev)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(en.URI, "otpauth://totp/") || !strings.Contains(en.URI, "secret="+en.Secret) || len(en.Secret) < 32 {
				t.Fatalf("enrolment %+v", en)
			}
			// Not a factor until confirmed.
			if st, _ := e.svc.Status(ctx, a); st.TOTP {
				t.Fatal("an unconfirmed authenticator counts")
			}
			err = e.svc.ConfirmTOTP(ctx, a, dev, wrong(e.code(en.Secret, 0)), ip)
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidFactor)
			if err := e.svc.ConfirmTOTP(ctx, a, dev, e.code(en.Secret, 0), ip); err != nil {
				t.Fatal(err)
			}
			a = e.authFor(s)
			if st, _ := e.svc.Status(ctx, a); !st.TOTP || st.FreshUntil == nil || !a.FactorFresh(e.clock.Now()) {
				t.Fatalf("after confirm: %+v, %+v", st, a)
			}
			// A second enrolment while one is confirmed is refused.
			_, err = e.svc.EnrollTOTP(ctx, e.p, a, dev)
			wantCode(t, err, apperr.Conflict, auth.MsgTOTPEnrolled)
			e.clock.Add(auth.FactorWindow + time.Second)
			if a = e.authFor(s); a.FactorFresh(e.clock.Now()) {
				t.Fatal("the factor is still fresh after FactorWindow")
			}
			if _, err := e.svc.VerifyTOTP(ctx, a, dev, e.code(en.Secret, 0), ip); err != nil {
				t.Fatal(err)
			}
			if !e.authFor(s).FactorFresh(e.clock.Now()) {
				t.Fatal("a step-up did not make the factor fresh")
			}
		})
		t.Run("SecretSealed", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			secret := e.enrolTOTP(s, dev)
			var stored []byte
			var keyID string
			if err := e.db.QueryRow(ctx, `SELECT key_id, secret FROM auth_totp WHERE user_id = ?`, s.User.ID).Scan(&keyID, &stored); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(stored, []byte(secret)) || keyID != "k1" {
				t.Fatalf("the secret is stored in the clear (key %s)", keyID)
			}
		})
		t.Run("EnrolNeedsFreshLogin", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			e.clock.Add(auth.FreshWindow + time.Second)
			_, err := e.svc.EnrollTOTP(ctx, e.p, e.authFor(s), dev)
			wantCode(t, err, apperr.Forbidden, auth.MsgNotFresh)
			_, err = e.svc.EnrollTOTP(ctx, e.p, e.authFor(s), newDevice())
			wantCode(t, err, apperr.Forbidden, "")
		})
		t.Run("EnrolmentExpires", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			en, err := e.svc.EnrollTOTP(ctx, e.p, e.authFor(s), dev)
			if err != nil {
				t.Fatal(err)
			}
			e.clock.Add(auth.TOTPEnrolTTL + time.Second)
			err = e.svc.ConfirmTOTP(ctx, e.authFor(s), dev, e.code(en.Secret, 0), ip)
			wantCode(t, err, apperr.Invalid, auth.MsgEnrolExpired)
		})
		t.Run("WindowAndReplay", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			secret := e.enrolTOTP(s, dev)
			e.clock.Add(30 * time.Second) // the confirming code's step is two steps back
			a := e.authFor(s)
			// Two steps away: refused on both sides.
			for _, d := range []time.Duration{-60 * time.Second, 60 * time.Second} {
				_, err := e.svc.VerifyTOTP(ctx, a, dev, e.code(secret, d), ip)
				wantCode(t, err, apperr.Invalid, auth.MsgInvalidFactor)
			}
			// The step before is accepted, once.
			prev := e.code(secret, -30*time.Second)
			if _, err := e.svc.VerifyTOTP(ctx, a, dev, prev, ip); err != nil {
				t.Fatalf("the previous step's code: %v", err)
			}
			_, err := e.svc.VerifyTOTP(ctx, a, dev, prev, ip)
			wantCode(t, err, apperr.Invalid, auth.MsgCodeReplayed)
			// The step after, then the current one (older than the last used): a replay.
			next := e.code(secret, 30*time.Second)
			if _, err := e.svc.VerifyTOTP(ctx, a, dev, next, ip); err != nil {
				t.Fatalf("the next step's code: %v", err)
			}
			_, err = e.svc.VerifyTOTP(ctx, a, dev, e.code(secret, 0), ip)
			wantCode(t, err, apperr.Invalid, auth.MsgCodeReplayed)
			_, err = e.svc.VerifyTOTP(ctx, a, dev, "12345", ip)
			wantCode(t, err, apperr.Invalid, "")
		})
		t.Run("ConcurrentReplay", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			secret := e.enrolTOTP(s, dev)
			a := e.authFor(s)
			code := e.code(secret, 0)
			const n = 8
			// Every verify has checked the code before any spends its step.
			var checked sync.WaitGroup
			checked.Add(n)
			auth.SetAfterTOTPCheck(e.svc, func() { checked.Done(); checked.Wait() })
			errs := make(chan error, n)
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					_, err := e.svc.VerifyTOTP(ctx, a, dev, code, ip)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			ok := 0
			for err := range errs {
				if err == nil {
					ok++
				} else if apperr.Code(err) != apperr.Invalid {
					t.Fatalf("a racing verify: %v", err)
				}
			}
			if ok != 1 {
				t.Fatalf("%d of %d racing verifies of one code passed, want 1", ok, n)
			}
		})
		t.Run("UserLockout", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			secret := e.enrolTOTP(s, dev) // one try spent
			a := e.authFor(s)
			for i := 1; i < auth.FactorUserLimit; i++ {
				_, err := e.svc.VerifyTOTP(ctx, a, dev, wrong(e.code(secret, 0)), "198.51.100."+string(rune('0'+i)))
				wantCode(t, err, apperr.Invalid, auth.MsgInvalidFactor)
			}
			// Locked, even with the right code and from another IP.
			_, err := e.svc.VerifyTOTP(ctx, a, dev, e.code(secret, 0), "203.0.113.9")
			wantCode(t, err, apperr.RateLimited, "")
			if !strings.HasPrefix(apperr.As(err).Message, "Too many second-factor attempts: try again in ") {
				t.Fatalf("lockout message %q", apperr.As(err).Message)
			}
		})
		t.Run("IPLockout", func(t *testing.T) {
			e := newEnv(t, db, func(c *auth.Config) { c.FactorIPLimiter = ratelimit.NewMemory(3, time.Hour) })
			dev1, dev2 := newDevice(), newDevice()
			s1, s2 := e.login("a@example.com", dev1), e.login("b@example.com", dev2)
			_ = e.enrolTOTP(s1, dev1) // one try from ip
			secret2 := e.enrolTOTP(s2, dev2)
			_, err := e.svc.VerifyTOTP(ctx, e.authFor(s1), dev1, "000000", ip)
			wantCode(t, err, apperr.Invalid, "")
			// The IP's 4th try, on another account, with its right code.
			_, err = e.svc.VerifyTOTP(ctx, e.authFor(s2), dev2, e.code(secret2, 0), ip)
			wantCode(t, err, apperr.RateLimited, "")
		})
		t.Run("Disable", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			secret := e.enrolTOTP(s, dev)
			a := e.authFor(s)
			// A fresh factor alone is not enough: disabling needs a code (or a passkey assertion).
			err := e.svc.DisableTOTP(ctx, a, dev, "", ip)
			wantCode(t, err, apperr.Forbidden, auth.MsgFactorRequired)
			err = e.svc.DisableTOTP(ctx, a, dev, wrong(e.code(secret, 0)), ip)
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidFactor)
			if err := e.svc.DisableTOTP(ctx, a, dev, e.code(secret, 0), ip); err != nil {
				t.Fatal(err)
			}
			if st, _ := e.svc.Status(ctx, a); st.TOTP {
				t.Fatal("still enrolled")
			}
			// Without a factor, a new device logs in without one.
			if sess := e.login("a@example.com", newDevice()); sess.Pending != nil {
				t.Fatal("a pending login after the factor was disabled")
			}
		})
	})
}

func TestService_SecondFactorLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("NewDeviceWaitsForFactor", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			secret := e.enrolTOTP(e.login("a@example.com", dev), dev)

			// The enrolling device passed the factor: its next login is a session.
			e.clock.Add(auth.ResendCooldown)
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			if sess, err := e.verify("a@example.com", dev, e.last("a@example.com").Code); err != nil || sess.Pending != nil {
				t.Fatalf("the enrolling device: %+v, %v", sess, err)
			}

			// A new device: link, code, then a pending login and no session.
			dev2 := newDevice()
			pending := e.login("a@example.com", dev2)
			if pending.Pending == nil || pending.AccessToken != "" || pending.Pending.Methods[0] != auth.MethodTOTP {
				t.Fatalf("new device: %+v", pending)
			}
			raw, _ := json.Marshal(pending)
			if strings.Contains(string(raw), "accessToken") || !strings.HasPrefix(string(raw), `{"secondFactorRequired":{"ticket":`) {
				t.Fatalf("pending JSON %s", raw)
			}
			complete := func(ticket, device, code string) (*auth.Session, error) {
				return e.svc.CompleteLogin(ctx, auth.CompleteRequest{Project: e.p, Ticket: ticket, DeviceID: device, Code: code, IP: ip})
			}
			_, err := complete("nope", dev2, e.code(secret, 0))
			wantCode(t, err, apperr.Invalid, auth.MsgTicketExpired)
			// Another device cannot finish it.
			_, err = complete(pending.Pending.Ticket, newDevice(), e.code(secret, 0))
			wantCode(t, err, apperr.Invalid, auth.MsgTicketExpired)
			_, err = complete(pending.Pending.Ticket, dev2, wrong(e.code(secret, 0)))
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidFactor)
			sess, err := complete(pending.Pending.Ticket, dev2, e.code(secret, 0))
			if err != nil || sess.AccessToken == "" {
				t.Fatalf("complete: %+v, %v", sess, err)
			}
			if a := e.authFor(sess); !a.FactorFresh(e.clock.Now()) || !a.CodeFresh(e.clock.Now()) {
				t.Fatalf("completed session %+v", a)
			}
			// Once: the ticket is spent.
			e.clock.Add(30 * time.Second)
			_, err = complete(pending.Pending.Ticket, dev2, e.code(secret, 0))
			wantCode(t, err, apperr.Invalid, auth.MsgTicketExpired)
		})
		t.Run("TicketTriesAndExpiry", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			secret := e.enrolTOTP(e.login("a@example.com", dev), dev)
			dev2 := newDevice()
			p := e.login("a@example.com", dev2).Pending
			for range auth.TicketMaxAttempts {
				_, err := e.svc.CompleteLogin(ctx, auth.CompleteRequest{Project: e.p, Ticket: p.Ticket, DeviceID: dev2, Code: wrong(e.code(secret, 0)), IP: ip})
				wantCode(t, err, apperr.Invalid, auth.MsgInvalidFactor)
			}
			_, err := e.svc.CompleteLogin(ctx, auth.CompleteRequest{Project: e.p, Ticket: p.Ticket, DeviceID: dev2, Code: e.code(secret, 0), IP: ip})
			wantCode(t, err, apperr.Invalid, auth.MsgTicketExpired)

			e.clock.Add(auth.ResendCooldown)
			e.mustStart("a@example.com", dev2, auth.ActionVerifyOTP)
			s, err := e.verify("a@example.com", dev2, e.last("a@example.com").Code)
			if err != nil || s.Pending == nil {
				t.Fatalf("%+v %v", s, err)
			}
			e.clock.Add(auth.TicketTTL + time.Second)
			_, err = e.svc.CompleteLogin(ctx, auth.CompleteRequest{Project: e.p, Ticket: s.Pending.Ticket, DeviceID: dev2, Code: e.code(secret, 0), IP: ip})
			wantCode(t, err, apperr.Invalid, auth.MsgTicketExpired)
		})
		t.Run("SocialLoginWaits", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			secret := e.enrolTOTP(e.login("a@example.com", dev), dev)
			// Even on a device that passed the factor: the provider vouches for the person, not the factor.
			social := func() (*auth.Session, error) {
				return e.svc.SocialLogin(ctx, auth.SocialLoginRequest{ProjectID: e.p.ID, DeviceID: dev, Identity: auth.SocialIdentity{Provider: "google", Subject: "123", Email: "a@example.com", EmailVerified: true}})
			}
			s, err := social()
			if err != nil || s.Pending == nil || s.AccessToken != "" {
				t.Fatalf("social login into an account with a factor: %+v %v", s, err)
			}
			sess, err := e.svc.CompleteLogin(ctx, auth.CompleteRequest{Project: e.p, Ticket: s.Pending.Ticket, DeviceID: dev, Code: e.code(secret, 0), IP: ip})
			if err != nil || sess.User.Email != "a@example.com" {
				t.Fatalf("%+v %v", sess, err)
			}
			if a := e.authFor(sess); a.CodeFresh(e.clock.Now()) {
				t.Fatal("a social login counts as an e-mail code")
			}
			// Another account without a factor: a session at once.
			if s, err := e.svc.SocialLogin(ctx, auth.SocialLoginRequest{ProjectID: e.p.ID, DeviceID: dev, Identity: auth.SocialIdentity{Provider: "google", Subject: "456", Email: "b@example.com", EmailVerified: true}}); err != nil || s.Pending != nil {
				t.Fatalf("%+v %v", s, err)
			}
		})
		t.Run("EmailChangeNeedsFactor", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			secret := e.enrolTOTP(s, dev)
			e.clock.Add(auth.FactorWindow)
			_, err := e.svc.ChangeEmail(ctx, e.p, e.authFor(s), "new@example.com", ip)
			wantCode(t, err, apperr.Forbidden, auth.MsgFactorRequired)
			if _, err := e.svc.VerifyTOTP(ctx, e.authFor(s), dev, e.code(secret, 0), ip); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.ChangeEmail(ctx, e.p, e.authFor(s), "new@example.com", ip); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("RecoveryNeedsFactor", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			if err := e.svc.StoreShares(ctx, e.authFor(s), auth.StoreRequest{DeviceID: dev, AuthShare: "YXV0aA==", Recovery: auth.Recovery{Mode: auth.RecoveryOperator, Share: "cmVj"}}); err != nil {
				t.Fatal(err)
			}
			secret := e.enrolTOTP(s, dev)
			e.clock.Add(auth.FactorWindow)
			// A fresh login (code), but no fresh factor.
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			s2, err := e.verify("a@example.com", dev, e.last("a@example.com").Code)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.FetchShares(ctx, e.authFor(s2), dev, true)
			wantCode(t, err, apperr.Forbidden, auth.MsgFactorRequired)
			if _, err := e.svc.FetchShares(ctx, e.authFor(s2), dev, false); err != nil {
				t.Fatalf("the auth share (signing) needs no factor: %v", err)
			}
			if _, err := e.svc.VerifyTOTP(ctx, e.authFor(s2), dev, e.code(secret, 0), ip); err != nil {
				t.Fatal(err)
			}
			if sh, err := e.svc.FetchShares(ctx, e.authFor(s2), dev, true); err != nil || sh.Recovery == nil {
				t.Fatalf("%+v %v", sh, err)
			}
		})
	})
}
